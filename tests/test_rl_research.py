"""What a researcher reaches for first works (issue 28): Stable-Baselines3's check_env,
make_vec_env and MaskablePPO; PettingZoo's api, seed and render tests on version 2 (forced
moves played for the agent); net rewards that are zero-sum and agree with OpenSpiel's returns;
and the trainer's command."""

from __future__ import annotations

import functools
import random
import sys
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, render_test, seed_test

from bonepile.engine import OptionError
from bonepile.rl import pettingzoo as pz
from bonepile.rl.core import net
from bonepile.rl.gym import GYM_IDS_V2, BonepileEnv
from support import CONFIGURATION_IDS, CONFIGURATIONS, cli, cli_process

CASES = list(CONFIGURATIONS)
IDS = list(CONFIGURATION_IDS)


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def play_out(e, seed):
    """Random legal actions to the end; the summed reward per agent and every mask seen."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    total = {a: 0.0 for a in e.possible_agents}
    masks = []
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        total[agent] += r
        if term or trunc:
            e.step(None)
            continue
        masks.append(obs["action_mask"])
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    return total, masks


@pytest.mark.parametrize("variant,options", CASES, ids=IDS)
def test_pettingzoo_version_2_passes_api_and_seed_tests_with_net_rewards(variant, options):
    ctor = pz.ENVS[pz.env_name(variant, 2)]
    api_test(ctor(reward="net", **options), num_cycles=100)
    seed_test(functools.partial(ctor, **options), num_cycles=30)


@pytest.mark.parametrize("version", [1, 2])
def test_pettingzoo_render_test_passes(version, capsys):
    ctor = pz.ENVS[pz.env_name("draw", version)]
    render_test(functools.partial(ctor, players=3))
    assert "draw 3p" in capsys.readouterr().out  # "human" prints the table


def test_version_2_plays_every_forced_move_and_keeps_the_points():
    forced_v1 = 0
    for seed in range(6):
        for variant, options in (("block", {"players": 2}), ("blind-hugie", {"players": 2})):
            e = pz.ENVS[pz.env_name(variant, 2)](**options)
            total, masks = play_out(e, seed)
            assert all(m.sum() > 1 for m in masks)  # every agent step is a choice
            m = e.unwrapped.match
            points = m.hand.result.points
            assert [total[a] for a in e.possible_agents] == [float(points[s]) for s in range(2)]
            _, masks1 = play_out(pz.ENVS[pz.env_name(variant, 1)](**options), seed)
            forced_v1 += sum(int(m.sum() == 1) for m in masks1)
    assert forced_v1 > 0  # version 1 still hands forced moves to the agent


@pytest.mark.parametrize(
    "variant,options",
    [("block", {"players": 2}), ("block", {"players": 4, "teams": True}), ("draw", {"players": 3})],
)
def test_net_rewards_are_zero_sum_and_the_openspiel_returns(variant, options):
    pyspiel = pytest.importorskip("pyspiel")
    from bonepile.rl import openspiel as bos

    for seed in range(5):
        e = pz.raw_env(variant, reward="net", **options)
        total, _ = play_out(e, seed)
        h = e.match.hand
        v = e.variant
        expected = [net(list(h.result.points), v.side_of(s)) for s in range(v.players)]
        got = [total[a] for a in e.possible_agents]
        assert got == pytest.approx(expected) and sum(got) == pytest.approx(0.0)
        # the same hand's OpenSpiel returns
        state = pyspiel.load_game(bos.game_name(variant), options).new_initial_state()
        state.c.hand = h
        assert state.returns() == pytest.approx(expected)


def test_net_of_two_and_more_sides():
    assert net([30, 10], 0) == 20 and net([30, 10], 1) == -20
    assert net([30, 10, 20], 0) == 15 and net([30, 10, 20], 1) == -15 and net([30, 10, 20], 2) == 0


def test_gym_version_2_auto_forced_and_masks():
    import bonepile.rl.gym  # noqa: F401

    env = gymnasium.make(GYM_IDS_V2["block"], players=2, opponents="greedy", reward="net")
    assert env.unwrapped.auto_forced
    forced = 0
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        done, total = False, 0.0
        while not done:
            mask = env.unwrapped.action_masks()
            assert mask.dtype == bool and (mask == obs["action_mask"].astype(bool)).all()
            assert mask.sum() > 1
            obs, r, done, _, info = env.step(int(np.flatnonzero(mask)[0]))
            total += r
            forced += info["forced"]
        pts = info["scores"]
        assert total == pts[0] - pts[1]
    assert forced > 0
    v1 = gymnasium.make("bonepile/Block-v1", players=2)
    assert not v1.unwrapped.auto_forced
    with pytest.raises(OptionError):
        BonepileEnv("block", players=2, auto_forced="yes")
    with pytest.raises(RuntimeError):
        BonepileEnv("block", players=2).action_masks()


def test_render_modes(capsys):
    env = BonepileEnv("block", players=2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None and "block 2p" in capsys.readouterr().out
    env = BonepileEnv("block", players=2, render_mode="ansi")
    env.reset(seed=0)
    assert "block 2p" in env.render()
    with pytest.warns(UserWarning, match="text only"):
        env = BonepileEnv("block", players=2, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        BonepileEnv("block", players=2, render_mode="pixels")
    with pytest.raises(ValueError, match="render_mode"):
        pz.raw_env("block", render_mode="pixels")


def test_stable_baselines3_check_env_make_vec_env_and_maskable_ppo():
    pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.env_checker import check_env
    from stable_baselines3.common.env_util import make_vec_env

    import bonepile.rl.gym  # noqa: F401

    check_env(BonepileEnv("block", players=2, auto_forced=True, reward="net"))
    check_env(BonepileEnv("draw", players=3, seat=2))
    vec = make_vec_env(GYM_IDS_V2["block"], n_envs=2, seed=0, env_kwargs={"players": 2})  # asks for rgb_array
    assert vec.reset()["observation"].shape == (2, 290)
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model = sb3_contrib.MaskablePPO(
            "MultiInputPolicy", vec, n_steps=256, batch_size=128, n_epochs=1, seed=0
        )
        model.learn(1024)  # learning runs with the masks; no strength asserted
    finally:
        torch.set_num_threads(threads)
    obs = vec.reset()
    masks = np.stack(vec.env_method("action_masks"))
    actions, _ = model.predict(obs, action_masks=masks)
    assert all(masks[i, a] for i, a in enumerate(actions))


def test_the_train_command_trains_saves_and_measures(tmp_path):
    pytest.importorskip("torch")
    from bonepile.rl.train import Agent

    out = tmp_path / "run"
    r = cli("train", "block", "--players", "2", "--steps", "300", "--eval", "3", "--out", str(out), "-q")
    assert r.returncode == 0, r.stderr
    assert "agent vs greedy: won" in r.stdout and "of 6 hands" in r.stdout
    assert (out / "policy.pt").exists() and (out / "train.json").exists()
    agent = Agent.load(str(out))
    assert agent.variant.players == 2


@pytest.mark.parametrize(
    "args, message",
    [
        (["--steps", "0"], "--steps must be at least 1"),
        (["--steps", "5", "--opponents", "nobody"], "unknown bot"),
        (["--steps", "5", "--players", "9"], "players"),
        (["--steps", "5", "--eval", "-1"], "--eval must be 0 or more"),
    ],
)
def test_train_errors_are_one_line(args, message):
    pytest.importorskip("torch")
    r = cli("train", "block", *args)
    assert r.returncode == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_train_without_torch_names_the_extra():
    code = (
        "import sys; sys.modules['torch'] = None; sys.argv = ['bonepile', 'train', 'block', '--steps', '5'];"
        " from bonepile.cli import main; main()"
    )
    r = cli_process([sys.executable, "-c", code])
    assert r.returncode == 2
    assert r.stderr.strip() == (
        "error: bonepile train needs the train extra (torch is not installed): pip install 'bonepile[train]'"
    )
