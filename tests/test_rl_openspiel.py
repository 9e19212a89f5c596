"""Every variant as an OpenSpiel game passes pyspiel.random_sim_test (skipped without
open_spiel); chance nodes deal and draw; returns are zero-sum."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from bonepile.engine.variant import VARIANT_NAMES
from bonepile.rl import openspiel as bos
from bonepile.rl.actions import actions
from support import CONFIGURATIONS

CASES = list(CONFIGURATIONS)
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
    assert {bos.game_name(n) for n in VARIANT_NAMES} <= names
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
            if a == actions(state.c.v).draw_id:
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


@pytest.mark.parametrize("variant,params", CASES, ids=IDS)
def test_resampled_states_keep_what_the_player_knows(variant, params):
    """resample_from_infostate (the engine's sampler) changes only what the player cannot see:
    its information state string and tensor and observation are the same, and so are the
    legal actions when it is to move."""
    game = pyspiel.load_game(bos.game_name(variant), params)
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    rng = random.Random(7)
    changed = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            me = state.current_player()
            for who in {me, rng.randrange(game.num_players())}:
                other = state.resample_from_infostate(who, sampler)
                assert other.information_state_string(who) == state.information_state_string(who)
                assert other.information_state_tensor(who) == state.information_state_tensor(who)
                assert other.observation_string(who) == state.observation_string(who)
                assert other.current_player() == me
                if who == me:
                    assert other.legal_actions() == state.legal_actions()
                changed += str(other) != str(state)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert changed > 0  # the hidden tiles do move


def test_resampling_while_dealing_keeps_the_own_tiles():
    game = pyspiel.load_game("python_bonepile_draw", {"players": 3})
    state = game.new_initial_state()
    for _ in range(12):  # seat 0 full (7), seat 1 has 5
        state.apply_action(state.chance_outcomes()[0][0])
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    for who in range(3):
        other = state.resample_from_infostate(who, sampler)
        assert other.c.rows[who] == state.c.rows[who]
        assert [len(r) for r in other.c.rows] == [len(r) for r in state.c.rows]
        assert other.information_state_string(who) == state.information_state_string(who)


@pytest.mark.parametrize("variant", sorted(VARIANT_NAMES))  # the games the RL adapters offer
def test_openspiel_ismcts_plays_every_registered_game(variant):
    """OpenSpiel's ISMCTS (open_spiel.python.algorithms.ismcts) plays a whole hand of every
    game: it calls resample_from_infostate at each decision.  (The C++ pyspiel.ISMCTSBot cannot
    reach a Python game's resampling: OpenSpiel's Python-state bridge does not forward it.)"""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(bos.game_name(variant))
    n = game.num_players()
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        2.0,
        8,
        random_state=np.random.RandomState(0),
    )
    rng = random.Random(3)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions >= n and abs(sum(state.returns())) < 1e-9


def test_bad_parameters_are_spiel_errors():
    with pytest.raises(pyspiel.SpielError, match="players"):
        pyspiel.load_game("python_bonepile_block", {"players": 9})
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_bonepile_draw", {"target": -5})
