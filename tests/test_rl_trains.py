"""The RL adapters of the train layout (Mexican Train): its own spaces (trains and action slots
relative to the observer), masks that are exactly the engine's legal moves, observations that
are a function of the seat's View only, and the PettingZoo, Gymnasium and OpenSpiel
conformance checks the line games pass."""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from bonepile.engine import Game, IllegalMoveError
from bonepile.engine.foot import FOOT_NAMES
from bonepile.engine.tiles import BIT, DRAW, PASS, TRAIN_INDEX, move, tile_index
from bonepile.engine.view import hand_view, observer
from bonepile.rl import pettingzoo as pz
from bonepile.rl.actions import RL_VARIANTS, TrainActions, actions, space_name
from bonepile.rl.core import Match
from bonepile.rl.encoders import encoder
from bonepile.rl.gym import GYM_IDS, GYM_IDS_V2, BonepileEnv
from bonepile.rl.obs import Encoder
from bonepile.rl.obs_trains import TrainEncoder, field_sizes, obs_size

GAME = "mexican-train"
FOOT = "chicken-foot"


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_spaces_per_layout_and_set():
    v2 = Game.new(GAME, {"players": 2}, seed=0).variant
    v8 = Game.new(GAME, {"players": 8}, seed=0).variant
    assert GAME in RL_VARIANTS
    assert actions(v2).n == actions(v8).n == 9 * 91 + 2 == 821
    assert (actions(v2).pass_id, actions(v2).draw_id) == (819, 820)
    assert space_name(v2) == "trains/double-twelve/v1"
    assert space_name(Game.new("block", {"players": 2}, seed=0).variant) == "line/double-six/v1"
    for n in range(2, 9):
        sizes = field_sizes(n)
        assert obs_size(n) == 91 * (n + 2) + 13 * (2 * n + 2) + 3 * (n + 1) + 5 * n + 3
        assert sizes["ends"] == 13 * (n + 1) and sizes["played_by"] == 91 * n
    assert (obs_size(2), obs_size(4)) == (464, 714)
    assert isinstance(encoder(v2), TrainEncoder)
    assert isinstance(encoder(Game.new("block", {"players": 2}, seed=0).variant), Encoder)


def test_chicken_foot_spaces():
    """The chicken foot's arms belong to no seat: ids and fields by arm code, 32 arms."""
    v = Game.new(FOOT, {"players": 4}, seed=0).variant
    assert FOOT in RL_VARIANTS and space_name(v) == "chicken_foot/double-nine/v1"
    acts = actions(v)
    assert (acts.n, acts.pass_id) == (1762, 1760)
    t = tile_index(9, 4)
    assert acts.of(move(t, 6), 3) == t * 32 + 6 and acts.describe(t * 32 + 6) == "9-4@G"
    sizes = field_sizes(4, 9, "chicken_foot")
    assert "marked" not in sizes and sizes["ends"] == 32 * 10 and sizes["train_tiles"] == 32
    assert obs_size(2, 9, "chicken_foot") == 55 * 4 + 10 * 35 + 64 + 13 == 647
    assert GYM_IDS[FOOT] == "bonepile/ChickenFoot-v1" and "bonepile_chicken_foot_v2" in pz.ENVS
    # the centre's arms, seen by any seat: code order; a toe appears when a double is laid
    g = Game.new(FOOT, {"players": 3}, seed=2)
    h = g.hand
    enc = encoder(g.variant)
    rng = random.Random(0)
    while not h.over and not h.parents():
        moves = h.legal_moves()
        h.apply(moves[rng.randrange(len(moves))])
    if h.over:
        pytest.skip("no foot in this deal")
    lay = hand_view(h, 0).layout
    for seat in range(3):
        f = enc.describe(enc.encode(hand_view(h, seat)))
        ends = f["ends"].reshape(32, 10)
        assert {FOOT_NAMES[a]: int(ends[a].argmax()) for a in range(32) if ends[a].any()} == lay.ends
        assert f["train_tiles"].tolist() == [len(lay.arms.get(FOOT_NAMES[a], ())) for a in range(32)]


def test_action_slots_are_relative_to_the_acting_seat():
    acts = TrainActions(91, 4)
    t = tile_index(12, 5)
    for seat in range(4):
        assert acts.of(move(t, seat), seat) == t * 9 + 0  # one's own train: slot 0
        assert acts.of(move(t, (seat + 1) % 4), seat) == t * 9 + 1  # the next player's: slot 1
        assert acts.of(move(t, TRAIN_INDEX["M"]), seat) == t * 9 + 8  # the Mexican train: slot 8
        for arm in (*range(4), 8):
            m = move(t, arm)
            assert acts.move(acts.of(m, seat), seat) == m
        assert acts.move(acts.pass_id, seat) == PASS and acts.move(acts.draw_id, seat) == DRAW
    # a slot past the players' trains names no train: the engine refuses it in words
    m = Match(Game.new(GAME, {"players": 4}, seed=3).variant, seed=3)
    t = next(iter(m.hand.held(m.to_move)))
    with pytest.raises(IllegalMoveError, match="not in this game"):
        m.apply(t * 9 + 5)
    assert acts.describe(t * 9 + 8).endswith("@M") and acts.describe(acts.draw_id) == "draw"


def _hidden_swap(h, seat, rng):
    """A copy of h where two tiles ``seat`` cannot see trade places (two other seats, or another
    seat and the undrawn boneyard); None if there is none."""
    g = h.copy()
    held = [(s, t) for s in range(g.n) if s != seat for t in g.held(s)]
    bone = list(g.boneyard[g.bpos :])
    choices = [(a, b) for a in held for b in held if a[0] < b[0]]
    choices += [(a, ("B", t)) for a in held for t in bone]
    if not choices:
        return None
    (s1, t1), (s2, t2) = choices[rng.randrange(len(choices))]
    g.masks[s1] ^= BIT[t1] | BIT[t2]
    if s2 == "B":
        by = list(g.boneyard)
        by[by.index(t2, g.bpos)] = t1
        g.boneyard = tuple(by)
    else:
        g.masks[s2] ^= BIT[t1] | BIT[t2]
    return g


@pytest.mark.parametrize(
    "game, players, deals", [(GAME, 2, 2), (GAME, 4, 2), (GAME, 7, 1), (FOOT, 2, 2), (FOOT, 5, 1)]
)
def test_masks_are_the_legal_moves_and_observations_the_views(game, players, deals):
    """Over random hands (with push, pop and copy): every seat's mask is exactly the engine's
    legal moves (each id back to its move), the fast observation equals the encoding of a
    fresh View, and an encoder that read the hand before agrees with a new one."""
    rng = random.Random(players)
    steps = 0
    for seed in range(deals):
        g = Game.new(game, {"players": players}, seed=seed)
        enc = encoder(g.variant)
        acts = enc.actions
        h = g.hand
        while not h.over:
            ob = observer(h)
            for s in range(players):
                x, mask = enc.observe(ob, s)
                v = hand_view(h, s)
                assert np.array_equal(x, encoder(g.variant).encode(v))
                ids = np.flatnonzero(mask).tolist()
                if s == h.to_move:
                    assert sorted(acts.move(a, s) for a in ids) == sorted(set(h.legal_moves()))
                    assert sorted(ids) == sorted(Match.legal.__get__(_as_match(h))())
                else:
                    assert ids == []
            r = rng.random()
            if r < 0.1 and h.log:
                h.pop()
            elif r < 0.15:
                h = h.copy()
            else:
                moves = h.legal_moves()
                h.push(moves[rng.randrange(len(moves))])
                steps += 1
    assert steps > 40 * deals


def _as_match(h):
    m = Match.__new__(Match)
    m.variant, m.actions, m.game, m.hand = h.v, actions(h.v), None, h
    return m


@pytest.mark.parametrize("game, players", [(GAME, 2), (GAME, 4), (FOOT, 3)])
def test_no_leak(game, players):
    """Hidden tiles moved between other seats or the boneyard change neither the View nor the
    observation; every public event changes every seat's observation."""
    rng = random.Random(3)
    g = Game.new(game, {"players": players}, seed=11)
    h = g.hand
    enc, other = encoder(g.variant), encoder(g.variant)
    swaps = 0
    while not h.over:
        for seat in range(h.n):
            poisoned = _hidden_swap(h, seat, rng)
            if poisoned is None:
                continue
            a, b = hand_view(h, seat), hand_view(poisoned, seat)
            assert a == b
            xa, ma = enc.observe(observer(h), seat)
            xb, mb = other.observe(observer(poisoned), seat)
            assert np.array_equal(xa, xb) and np.array_equal(ma, mb)
            swaps += 1
        before = [enc.encode(hand_view(h, s)) for s in range(h.n)]
        moves = h.legal_moves()
        h.apply(moves[rng.randrange(len(moves))])
        after = [enc.encode(hand_view(h, s)) for s in range(h.n)]
        assert all(not np.array_equal(x, y) for x, y in zip(before, after))
    assert swaps > 20


def test_fields_of_a_known_position():
    """Trains seen from each seat: a play on one's own train, a marker after a pass, a double
    to cover, the hub and the round."""
    g = Game.new(GAME, {"players": 3}, seed=5)
    h = g.hand
    enc = encoder(g.variant)
    f0 = enc.describe(enc.encode(hand_view(h, 0)))
    assert f0["hub"].tolist() == [0.0] * 12 + [1.0] and f0["round"][0] == 1
    assert (f0["ends"].reshape(4, 13)[:, 12] == 1).all()  # every train starts at the hub's pip
    assert f0["played"][tile_index(12, 12)] == 1 and f0["hand"].sum() == 15
    # seat s lays a tile on its own train; the next seat cannot play and passes (a marker)
    s = h.to_move
    own = [m for m in h.legal_moves() if m < PASS and m & 31 == s]
    if not own:
        pytest.skip("the deal gives the first player no tile for its own train")
    h.apply(own[0])
    laid = own[0] >> 5
    for seat in range(3):
        f = enc.describe(enc.encode(hand_view(h, seat)))
        slot = (s - seat) % 3
        assert f["train_tiles"].tolist() == [1.0 if k == slot else 0.0 for k in range(4)]
        assert f["played_by"].reshape(3, 91)[slot, laid] == 1
        assert f["turn"].tolist() == [1.0 if k == (h.to_move - seat) % 3 else 0.0 for k in range(3)]
    while not h.over and PASS not in h.legal_moves():
        moves = h.legal_moves()
        h.apply(DRAW if DRAW in moves else moves[0])
    if h.over:
        pytest.skip("no pass in this deal")
    passer = h.to_move
    h.apply(PASS)
    for seat in range(3):
        f = enc.describe(enc.encode(hand_view(h, seat)))
        assert f["marked"][(passer - seat) % 3] == 1 and f["marked"][3] == 0
    # a double laid: the one train to cover
    rng = random.Random(1)
    while not h.over and h.pending < 0:
        moves = h.legal_moves()
        h.apply(moves[rng.randrange(len(moves))])
    if h.over:
        pytest.skip("no double laid in this deal")
    for seat in range(3):
        f = enc.describe(enc.encode(hand_view(h, seat)))
        slot = 3 if h.pending == 8 else (h.pending - seat) % 3
        assert f["pending"].tolist() == [1.0 if k == slot else 0.0 for k in range(4)]


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed(players, capsys):
    api_test(pz.env(FOOT, players=players), num_cycles=100)
    seed_test(lambda: pz.env(FOOT, players=players), num_cycles=30)
    api_test(pz.env(GAME, players=players), num_cycles=100)
    seed_test(lambda: pz.env(GAME, players=players), num_cycles=30)
    assert {pz.env_name(GAME, 1), pz.env_name(GAME, 2)} <= set(pz.ENVS)
    text = pz.env(GAME, players=players, render_mode="ansi")
    text.reset(seed=1)
    assert "table: hub 12-12; ends 1=12 2=12" in text.render()
    e = pz.ENVS["bonepile_mexican_train_v2"](players=players, episode="game", reward="net", rounds=2)
    api_test(e, num_cycles=60)


def test_pettingzoo_game_rewards_are_the_points():
    """A two-round game with random actions: penalties are losses: each agent's net rewards add
    up to the others' mean penalty minus its own, and to 0 over the agents."""
    e = pz.env(GAME, players=3, episode="game", reward="net", rounds=2)
    rng = random.Random(2)
    e.reset(seed=4)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        total[agent] += r
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    assert abs(sum(total.values())) < 1e-9
    game = e.unwrapped.match.game
    assert game.over and game.hand.number == 2
    scores = game.scores()
    for s, agent in enumerate(e.possible_agents):
        assert total[agent] == pytest.approx((sum(scores) - scores[s]) / 2 - scores[s])


def test_pettingzoo_parallel_form():
    from pettingzoo.test import parallel_api_test

    parallel_api_test(pz.parallel_env(GAME, players=3), num_cycles=100)
    p = pz.parallel_env(GAME, players=2, auto_forced=True)
    obs, _ = p.reset(seed=2)
    rng = random.Random(0)
    while p.agents:
        movers = [a for a in p.agents if obs[a]["action_mask"].any()]
        assert len(movers) == 1  # one agent moves at a time; the others' masks are empty
        legal = np.flatnonzero(obs[movers[0]]["action_mask"])
        acts = {a: int(legal[rng.randrange(len(legal))]) if a == movers[0] else 0 for a in p.agents}
        obs, rewards, terms, truncs, _ = p.step(acts)


@pytest.mark.parametrize("game, players", [(GAME, 2), (GAME, 4), (FOOT, 3)])
def test_gym_check_env(game, players):
    check_env(BonepileEnv(game, players=players, seat=players - 1), skip_render_check=True)


def test_gym_registry_episode_and_illegal_action():
    import bonepile.rl.gym  # noqa: F401

    assert GYM_IDS[GAME] == "bonepile/MexicanTrain-v1" and GYM_IDS_V2[GAME] in gymnasium.registry
    env = gymnasium.make(GYM_IDS_V2[GAME], players=2, opponents="greedy")
    obs, info = env.reset(seed=3)
    assert obs["observation"].shape == (464,) and obs["action_mask"].shape == (821,)
    rng = random.Random(1)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(env.unwrapped.action_masks())
        obs, r, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
        total += r
    assert total == -info["scores"][0]  # the pips left are a penalty
    env.reset(seed=4)
    bad = int(np.flatnonzero(env.unwrapped.action_masks() == 0)[0])
    _, r, done, _, info = env.step(bad)
    assert done and r == -1.0 and info["illegal_action"]


def test_openspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    from bonepile.rl import openspiel as bos

    assert bos.game_name(GAME) in pyspiel.registered_names()
    for players in (2, 4):
        game = pyspiel.load_game(bos.game_name(GAME), {"players": players})
        assert game.num_distinct_actions() == 821
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
        game = pyspiel.load_game(bos.game_name(FOOT), {"players": players})
        assert game.num_distinct_actions() == 55 * 32 + 2
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    game = pyspiel.load_game(bos.game_name(GAME), {"players": 3})
    rng = random.Random(4)
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == 90  # the hub double is not dealt
    enc = encoder(state.c.v)
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    resampled = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        p = state.current_player()
        h = state.c.hand
        assert sorted(state.legal_actions()) == sorted({enc.actions.of(m, p) for m in h.legal_moves()})
        assert state.observation_tensor(p) == enc.encode(hand_view(h, p)).tolist()
        if resampled < 8:  # the engine's sampler draws the hidden tiles of a train game again
            other = state.resample_from_infostate(p, sampler)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.legal_actions() == state.legal_actions()
            resampled += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    pips = state.c.hand.result.points
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    for s in range(3):  # penalties: fewer pips left, more return
        assert returns[s] == pytest.approx((sum(pips) - pips[s]) / 2 - pips[s])


def test_the_trainer_refuses_a_train_game_in_words():
    """``bonepile train`` prints this OptionError as its one ``error:`` line."""
    pytest.importorskip("torch")
    from bonepile.engine import OptionError
    from bonepile.rl import train as rl_train

    with pytest.raises(
        OptionError, match="action features are for line games; mexican-train is played on trains"
    ):
        rl_train.train(rl_train.TrainConfig(variant=GAME, players=2, steps=5))


@pytest.mark.slow
def test_maskable_ppo_learns_on_mexican_train():
    """A tiny MaskablePPO run on the Gymnasium env (bench/rl_trains.py measures a real one):
    it trains with the masks and then picks only legal actions."""
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.env_util import make_vec_env

    vec = make_vec_env(GYM_IDS_V2[GAME], n_envs=2, seed=0, env_kwargs={"players": 2, "reward": "net"})
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model = sb3_contrib.MaskablePPO(
            "MultiInputPolicy", vec, n_steps=128, batch_size=128, n_epochs=1, seed=0
        )
        model.learn(256)
    finally:
        torch.set_num_threads(threads)
    obs = vec.reset()
    for _ in range(20):
        masks = np.stack(vec.env_method("action_masks"))
        acts, _ = model.predict(obs, action_masks=masks)
        assert all(masks[i, a] for i, a in enumerate(acts))
        obs, _r, _d, _i = vec.step(acts)
