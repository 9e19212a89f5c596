"""The expert's decisions where the right one is known: positions of the partnership block
game (RULES.md §3.3) in which one move won the hand in each of 60 worlds drawn from the
mover's view and solved exactly, and every other move lost it in at least two thirds of them
(every position has its own deal).  A random bot gets all of them right once in 256 tries, a
worst-first bot never.  How much stronger the bots are over many hands is a benchmark, not a
test: ``bench/bots.py --only block-teams --pairings expert:random --simulations 30``."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bonepile.bots import Budget, make_bot
from bonepile.engine import Game, make_variant
from bonepile.engine.tiles import parse_tile

VARIANT = make_variant("block", {"players": 4, "teams": True})


@dataclass(frozen=True)
class Position:
    deal: tuple[str, ...]  # each seat's seven tiles
    moves: str  # the moves played so far, as record tokens
    wins: str  # the move that wins the hand in every world
    loses: str  # the other legal moves


POSITIONS = [
    Position(
        deal=(
            "1-1 2-2 3-2 3-3 4-1 6-3 6-5",
            "4-0 4-3 5-0 5-1 5-2 6-1 6-4",
            "0-0 2-0 4-2 4-4 5-3 5-5 6-6",
            "1-0 2-1 3-0 3-1 5-4 6-0 6-2",
        ),
        moves="6-6 6-2@L 6-5 5-2@L 5-5@L 5-4@L 4-1 6-1 5-3 6-0 3-3 4-3 4-4 3-0 6-3 6-4@L 4-2@L 2-1 1-1",
        wins="5-1",
        loses="4-0",
    ),
    Position(
        deal=(
            "0-0 3-3 5-2 5-4 6-0 6-4 6-5",
            "2-0 2-2 4-1 5-0 5-5 6-1 6-2",
            "2-1 3-2 4-2 4-3 4-4 5-3 6-3",
            "1-0 1-1 3-0 3-1 4-0 5-1 6-6",
        ),
        moves="6-6 6-5@L 5-5 6-3 5-1 3-3 6-1 4-3 4-0 6-4 4-1 2-1 3-0 5-2 5-0 5-3 1-0 5-4 pass 4-4",
        wins="1-1",
        loses="3-1",
    ),
    Position(
        deal=(
            "1-0 1-1 3-0 3-1 3-3 5-5 6-2",
            "2-2 3-2 4-0 5-3 6-0 6-4 6-5",
            "4-1 4-2 4-3 5-1 6-1 6-3 6-6",
            "0-0 2-0 2-1 4-4 5-0 5-2 5-4",
        ),
        moves="6-6 pass 6-2@L 6-5 4-2 4-4 5-5 6-4 6-3 5-2 3-3 5-3 5-1 2-0 1-1 6-0 4-1 5-4 pass pass 6-1 5-0 3-1 3-2 pass 0-0",
        wins="3-0",
        loses="1-0",
    ),
    Position(
        deal=(
            "1-0 2-2 3-0 4-2 5-1 5-3 6-2",
            "0-0 2-1 3-2 4-0 4-1 4-3 6-4",
            "2-0 3-1 5-0 5-2 6-0 6-5 6-6",
            "1-1 3-3 4-4 5-4 5-5 6-1 6-3",
        ),
        moves="6-6 6-3@L 6-2 4-3 5-2 5-5 5-3 6-4 6-5 5-4 4-2 3-2@R 2-0@L pass 2-2 4-0 pass 4-4 pass 4-1 3-1 3-3 3-0",
        wins="0-0",
        loses="2-1",
    ),
    Position(
        deal=(
            "1-0 2-0 4-1 4-4 5-0 6-4 6-6",
            "2-2 3-2 4-2 4-3 5-4 5-5 6-1",
            "0-0 1-1 2-1 3-0 3-1 4-0 6-5",
            "3-3 5-1 5-2 5-3 6-0 6-2 6-3",
        ),
        moves="6-6 6-1@R 6-5 5-3 4-1 5-4 3-1 5-2 2-0 pass 1-1 6-0 6-4 4-3 3-0 5-1 5-0@L pass 4-0@R pass",
        wins="4-4",
        loses="1-0",
    ),
    Position(
        deal=(
            "2-1 4-0 4-4 5-4 5-5 6-3 6-5",
            "1-1 3-1 3-2 4-2 5-0 5-3 6-1",
            "1-0 2-0 2-2 3-3 4-3 5-1 6-2",
            "0-0 3-0 4-1 5-2 6-0 6-4 6-6",
        ),
        moves="6-6 6-5@R 5-3 3-3 6-4 4-4 4-2 2-2 5-2 5-5 3-1 5-1@L 4-1@L 5-4 6-1 6-2 pass 2-1 5-0 2-0 pass pass",
        wins="1-1",
        loses="3-2",
    ),
    Position(
        deal=(
            "0-0 1-0 3-0 4-1 4-4 6-4 6-5",
            "3-2 3-3 4-3 5-2 5-4 6-2 6-6",
            "2-0 2-1 4-2 5-0 5-3 5-5 6-3",
            "1-1 2-2 3-1 4-0 5-1 6-0 6-1",
        ),
        moves="6-6 6-3@L 6-1 4-1 5-4 5-5 5-1 3-0 pass 5-0 1-1 6-5 6-2 4-2 3-1 4-4",
        wins="4-3@L",
        loses="3-2 3-3 4-3@R",
    ),
]


def reach(p: Position) -> Game:
    g = Game(VARIANT, auto_deal=False)
    g.next_hand(deal=[[parse_tile(t)[0] for t in row.split()] for row in p.deal])
    for token in p.moves.split():
        g.play(token)
    return g


@pytest.mark.parametrize("p", POSITIONS, ids=lambda p: p.wins)
def test_the_position_offers_the_winning_move_and_the_losing_ones(p):
    g = reach(p)
    assert sorted(g.token(m) for m in g.view(g.to_move).legal) == sorted([p.wins, *p.loses.split()])


def test_the_expert_plays_the_move_that_wins_the_hand():
    chosen = []
    for p in POSITIONS:
        g = reach(p)
        bot = make_bot("expert", VARIANT, seed=0, budget=Budget(simulations=20))
        chosen.append(g.token(bot.choose(g.view(g.to_move))))
    assert chosen == [p.wins for p in POSITIONS]
