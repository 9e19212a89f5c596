"""Game(snapshots=False): no snapshot per move (a server's long-lived games), same game."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Game, make_variant
from bonepile.engine.view import hand_view


@pytest.mark.parametrize("variant,players", [("block", 4), ("cinque", 4), ("draw", 3), ("blind-hugie", 3)])
def test_a_game_without_snapshots_plays_and_undoes_like_one_with_them(variant, players):
    v = make_variant(variant, {"players": players} if variant not in ("cinque",) else {})
    a = Game(v, seed=7)
    b = Game(v, seed=7, snapshots=False)
    rng = random.Random(3)
    for step in range(120):
        if a.over:
            break
        m = rng.choice(a.legal_moves())
        a.apply(m)
        b.apply(m)
        assert not b.hand._stack  # nothing kept for undo
        if step % 7 == 6 and a.hand.log:
            assert a.undo() == b.undo()
        assert a.totals == b.totals
        assert [hand_view(a.hand, s) for s in range(players)] == [
            hand_view(b.hand, s) for s in range(players)
        ]
    assert a.record() == b.record()
