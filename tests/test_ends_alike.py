"""Ends alike: two plays of one tile that lead to the same table up to its mirror image are
one decision (``PublicKnowledge.decisions``, read from a seat's View), so the table does not
ask for an end and the hint lists the tile once.  Checked against the hand's own
``Hand.mirror_key`` over random games of every variant, and on the cases people meet."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Game
from bonepile.engine.knowledge import PublicKnowledge
from bonepile.engine.tiles import move, tile_index
from bonepile.engine.variant import PLAYER_COUNTS, make_variant


# a train layout has no mirror image: two plays on different trains are never one decision
@pytest.mark.parametrize("name", sorted(n for n in PLAYER_COUNTS if make_variant(n).layout == "line"))
def test_decisions_from_the_view_are_the_hands_mirror_images(name):
    rng = random.Random(7)
    alike_seen = 0
    for seed in range(4):
        g = Game.new(name, {}, seed=seed)
        steps = 0
        while not g.over and steps < 120:
            h = g.hand
            seat = h.to_move
            view = g.view(seat)
            legal = list(view.legal)
            got = PublicKnowledge.from_view(g.variant, view).decisions(legal)
            first: dict = {}
            want = [first.setdefault(h.mirror_key(m), i) for i, m in enumerate(legal)]
            assert got == want, (name, seed, legal)
            alike_seen += sum(1 for i, j in enumerate(got) if i != j)
            g.apply(legal[rng.randrange(len(legal))])
            steps += 1
    if not Game.new(name, {}, seed=0).variant.blind:
        assert alike_seen > 0, "no position with two alike plays met: the test checks nothing"


def test_the_reply_to_a_lone_double_is_one_decision():
    g = Game.new("draw", {"players": 2}, seed=1)
    k = PublicKnowledge(g.variant)
    t = tile_index
    k.add(0, move(t(5, 5), 0))  # the 5-5 alone: both ends show 5
    assert k.decisions([move(t(5, 3), 0), move(t(5, 3), 1)]) == [0, 0]
    k.add(1, move(t(5, 3), 1))  # 5 | 3 now: the 5-2 fits one end only, a 3-5 tile both
    assert k.decisions([move(t(5, 2), 0), move(t(5, 3), 0)]) == [0, 1]


def test_same_number_but_a_double_at_one_end_is_a_choice_in_fives():
    """Equal numbers are not enough where a double at an end counts twice (Cinque)."""
    g = Game.new("cinque", {}, seed=1)
    k = PublicKnowledge(g.variant)
    t = tile_index
    k.add(0, move(t(6, 6), 0))  # the spinner
    k.add(1, move(t(6, 5), 0))  # L 5
    k.add(2, move(t(6, 3), 1))  # R 3
    k.add(3, move(t(3, 5), 1))  # R 5, a plain end
    k.add(0, move(t(5, 5), 0))  # L 5, a double end
    assert k.decisions([move(t(5, 1), 0), move(t(5, 1), 1)]) == [0, 1]
