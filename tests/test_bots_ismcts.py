"""The expert's ISMCTS search (``algo="ismcts"``): legal play in every variant, the same
choices for the same seed and iteration count, no peeking at hidden tiles, and a sane
``evaluate`` (one row per legal action, best first, built from the tree's statistics)."""

from __future__ import annotations

import random

import pytest

from bonepile.bots import make_bot
from bonepile.bots.expert import ExpertBot
from bonepile.engine import Game, make_variant
from test_bots import ALL, _id, _positions, _same_view_other_deal


def ismcts(v, seed, n=12):
    return make_bot("expert", v, seed=seed, simulations=n, algo="ismcts")


@pytest.mark.parametrize("case", ALL, ids=_id)
def test_ismcts_plays_a_hand_legally(case):
    name, opts = case
    v = make_variant(name, opts)
    game = Game.new(name, opts, seed=13)
    bots = [ismcts(v, s) if s % 2 == 0 else make_bot("random", v, seed=s) for s in range(v.players)]
    h = game.hand
    moves = 0
    while not h.over and moves < 2000:
        s = game.to_move
        view = game.view(s)
        m = bots[s].choose(view)
        assert m in view.legal, (name, s, m, view.legal)
        game.apply(m)
        moves += 1
    assert h.over


@pytest.mark.parametrize(
    "case",
    [("block", {"teams": True}), ("cinque", {}), ("draw", {"players": 3}), ("billitonnen", {"players": 4})],
    ids=_id,
)
def test_ismcts_same_seed_same_choices(case):
    name, opts = case
    v = make_variant(name, opts)
    runs = []
    for _ in range(2):
        game = Game.new(name, opts, seed=5)
        bots = [ismcts(v, 7 + s, 20) for s in range(v.players)]
        seq, evs = [], []
        h = game.hand
        while not h.over:
            s = game.to_move
            view = game.view(s)
            if len(view.legal) > 1:
                evs.append(bots[s].evaluate(view))
            m = bots[s].choose(view)
            seq.append(m)
            game.apply(m)
        runs.append((seq, evs))
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    "case",
    [
        ("block", {"players": 4, "teams": True}),
        ("cinque", {}),
        ("draw", {"players": 3}),
        ("blind-hugie", {}),
        ("billitonnen", {"players": 4}),
    ],
    ids=_id,
)
def test_ismcts_no_peeking(case):
    """Same view, different hidden tiles (and the real hand poisoned): same evaluation."""
    name, opts = case
    v = make_variant(name, opts)
    rng = random.Random(9)
    checked = 0
    for game in _positions(name, opts, 33, 6):
        seat = game.to_move
        view = game.view(seat)
        other = _same_view_other_deal(game, seat, rng)
        if other is None:
            continue
        view2 = other.view(seat)
        assert view2 == view
        ea = ismcts(v, 4, 16).evaluate(view)
        hidden = game.hand
        for s in range(v.players):
            if s != seat:
                hidden.hands[s] = 0
        hidden.boneyard = tuple(reversed(hidden.boneyard))
        eb = ismcts(v, 4, 16).evaluate(view2)
        assert ea == eb
        checked += 1
    assert checked


def test_ismcts_evaluate_rows_and_visits():
    v = make_variant("block", {"players": 4, "teams": True})
    for game in _positions("block", {"players": 4, "teams": True}, 2, 5):
        view = game.view(game.to_move)
        bot = ExpertBot(v, seed=1, simulations=60, algo="ismcts")
        rows = bot.evaluate(view)
        assert sorted(r.action for r in rows) == sorted(view.legal)
        assert bot.last_worlds == 60
        assert all(r.win is not None and 0.0 <= r.win <= 1.0 for r in rows)
        assert ExpertBot(v, seed=1, simulations=60, algo="ismcts").choose(view) == rows[0].action  # same seed


def test_unknown_algorithm_is_refused():
    v = make_variant("block", {})
    with pytest.raises(ValueError, match="algorithm"):
        ExpertBot(v, algo="minimax")
