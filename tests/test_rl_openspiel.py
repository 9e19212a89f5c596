"""Every variant as an OpenSpiel game passes pyspiel.random_sim_test (skipped without
open_spiel); chance nodes deal and draw; returns are zero-sum."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from bonepile.engine.tiles import DRAW
from bonepile.engine.variant import PLAYER_COUNTS
from bonepile.rl import openspiel as bos

CASES = [
    (name, {"players": n} if len(counts) > 1 else {})
    for name, counts in PLAYER_COUNTS.items()
    for n in counts
]
CASES += [
    ("block", {"players": 4, "teams": True}),
    ("draw", {"players": 2, "no_double_lead": "redeal"}),
    ("blind-hugie", {"players": 3, "deal": "full", "full_deal_starter": True}),
]
IDS = [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items())}" for v, o in CASES]


@pytest.mark.parametrize("variant,params", CASES, ids=IDS)
def test_random_sim(variant, params):
    game = pyspiel.load_game(bos.game_name(variant), params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_registered_names():
    names = set(pyspiel.registered_names())
    assert {bos.game_name(n) for n in PLAYER_COUNTS} <= names
    assert bos.game_name("blind-hugie") == "python_bonepile_blind_hugie"


def test_draws_are_chance_nodes_and_returns_are_zero_sum():
    game = pyspiel.load_game("python_bonepile_draw", {"players": 2})
    rng = random.Random(0)
    draws = 0
    for _ in range(20):
        state = game.new_initial_state()
        dealt = 0
        while state.is_chance_node() and state.c.hand is None:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            dealt += 1
        assert dealt >= 14
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert len(outcomes) == len(state.c.hand.boneyard) - state.c.hand.bpos
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            a = legal[rng.randrange(len(legal))]
            state.apply_action(a)
            if a == DRAW:
                draws += 1
                assert state.is_chance_node()
        assert abs(sum(state.returns())) < 1e-9
    assert draws > 0


def test_tensors_and_strings_come_from_the_view():
    game = pyspiel.load_game("python_bonepile_block", {"players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    p = state.current_player()
    obs = state.observation_tensor(p)
    info = state.information_state_tensor(p)
    assert len(obs) == 290 and len(info) == 290 + 28 + 4
    own = state.c.hand.held(p)
    assert sorted(i for i in range(28) if obs[i] == 1.0) == own
    assert state.information_state_string(p) != state.information_state_string(1 - p)
