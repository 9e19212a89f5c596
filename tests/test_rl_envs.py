"""The PettingZoo and Gymnasium adapters pass their libraries' conformance checks for every
variant and player count, and behave as documented (rewards, episodes, errors)."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from bonepile.bots import BOT_LEVELS
from bonepile.engine import Game, OptionError
from bonepile.engine.variant import VARIANT_NAMES
from bonepile.rl import pettingzoo as pz
from bonepile.rl.gym import GYM_IDS, BonepileEnv
from bonepile.rl.obs import Encoder
from support import CONFIGURATION_IDS, CONFIGURATIONS

CASES = list(CONFIGURATIONS)
IDS = list(CONFIGURATION_IDS)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("variant,options", CASES, ids=IDS)
def test_pettingzoo_api_and_seed(variant, options, capsys):
    api_test(pz.env(variant, **options), num_cycles=200)
    seed_test(lambda: pz.env(variant, **options), num_cycles=50)
    api_test(pz.env(variant, episode="game", reward="win_loss", **options), num_cycles=60)
    seed_test(lambda: pz.env(variant, episode="game", **options), num_cycles=30)


def play_out(e, seed):
    """Random legal actions to the end; returns the summed reward per agent and the steps."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    total = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        total[agent] += r
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return total, steps


def test_pettingzoo_observations_are_the_views():
    e = pz.raw_env("draw", players=3)
    e.reset(seed=4)
    enc = Encoder(e.variant)
    rng = random.Random(0)
    while not e.match.over:
        for s, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            view = e.match.view(s)
            assert np.array_equal(obs["observation"], enc.encode(view))
            assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(map(enc.actions.of, view.legal))
        legal = e.match.legal()
        e.step(legal[rng.randrange(len(legal))])


def test_pettingzoo_rewards_are_the_points():
    for seed in range(4):
        e = pz.raw_env("block", players=4, teams=True)
        total, _ = play_out(e, seed)
        m = e.match
        pts = m.hand.result.points
        assert [total[a] for a in e.possible_agents] == [pts[s % 2] for s in range(4)]
        e = pz.raw_env("block", players=2, reward="win_loss")
        total, _ = play_out(e, seed)
        w = e.match.winner
        assert [total[a] for a in e.possible_agents] == [
            0.0 if w is None else (1.0 if s == w else -1.0) for s in range(2)
        ]


def test_pettingzoo_game_episode_matches_the_engine():
    e = pz.raw_env("draw", players=2, episode="game")
    total, _ = play_out(e, 9)
    game = e.match.game
    assert game.over and len(game.hands) >= 1
    assert [total[a] for a in e.possible_agents] == [float(t) for t in game.totals]


def test_pettingzoo_names_and_errors():
    assert pz.env_name("blind-hugie") == "bonepile_blind_hugie_v1"
    assert pz.env_name("block", 2) == "bonepile_block_v2"
    # the twelve line games, the train layout's and the chicken foot's (tests/test_rl_trains.py)
    games = (*VARIANT_NAMES, "mexican-train", "chicken-foot")
    assert set(pz.ENVS) == {pz.env_name(n, ver) for n in games for ver in (1, 2)}
    e = pz.blind_hugie_v1(players=3)
    assert e.metadata["name"] == "bonepile_blind_hugie_v1" and len(e.possible_agents) == 3
    with pytest.raises(OptionError):
        pz.raw_env("block", players=7)
    with pytest.raises(OptionError):
        pz.raw_env("block", episode="set")
    e = pz.raw_env("block", players=2)
    e.reset(seed=0)
    legal = set(e.match.legal())
    bad = next(a for a in range(114) if a not in legal)
    with pytest.raises(ValueError):
        e.step(bad)
    e = pz.raw_env("billitonnen", render_mode="ansi")
    e.reset(seed=1)
    assert "billitonnen" in e.render()


@pytest.mark.parametrize("variant,options", CASES, ids=IDS)
def test_gym_check_env(variant, options):
    n = options.get("players", 4)
    check_env(BonepileEnv(variant, seat=n - 1, **options), skip_render_check=True)


def test_gym_registry_and_episode():
    import bonepile.rl.gym  # noqa: F401

    assert set(GYM_IDS.values()) <= set(gymnasium.registry)
    env = gymnasium.make("bonepile/Block-v1", players=2, opponents="random")
    obs, info = env.reset(seed=3)
    assert obs["observation"].shape == (290,) and (obs["action_mask"] == info["action_mask"]).all()
    rng = random.Random(1)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, r, done, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
        total += r
    assert total == info["scores"][0]


def test_gym_illegal_action_ends_the_episode():
    env = BonepileEnv("draw", players=2)
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, r, term, trunc, info = env.step(bad)
    assert term and r == -1.0 and info["illegal_action"]


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_gym_opponent_levels(level):
    if level == "expert":
        budget = {"simulations": 4}
    else:
        budget = {}
    env = BonepileEnv("block", players=2, opponents=level, opponent_options=budget)
    obs, info = env.reset(seed=2)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        obs, r, done, trunc, info = env.step(int(legal[0]))
    with pytest.raises(OptionError):
        BonepileEnv("block", players=2, opponents="grandmaster")
    with pytest.raises(OptionError):
        BonepileEnv("block", players=3, opponents=["random"])


def test_gym_deterministic_for_a_seed():
    def run(seed):
        env = BonepileEnv("passing", players=3)
        obs, info = env.reset(seed=seed)
        out = [obs["observation"].copy()]
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            obs, r, done, _, info = env.step(int(legal[-1]))
            out.append(obs["observation"].copy())
        return out

    a, b = run(5), run(5)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))
    assert Game  # the engine is the one the env plays
