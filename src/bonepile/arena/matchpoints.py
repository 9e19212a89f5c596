"""Scores compared across tables, as bridge clubs score duplicate deals.

Every table of a round plays the same deals: hand ``n`` of every table is dealt from the
round's seed, so side ``j`` at one table holds the same tiles as side ``j`` at every other
table (a side is a seat in individual games and a partnership in pair games).  The results
compared on a deal (a *board*: round, hand number and side) are therefore those of the
entrants that sat at side ``j`` of every table of the round and played hand ``n``.

A side's *result* on a deal is the points its side scored in the hand minus the most any other
side at its table scored (with two sides: the points difference of the hand).  Two scorings:

- **matchpoints**: 2 for every other result on the board it beats, 1 for every tie; a board of
  ``m`` results hands out ``m(m-1)`` matchpoints in all;
- **difference**: the result minus the average of the other results on the board; a board's
  differences add up to 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Scoring = Literal["matchpoints", "difference"]
SCORINGS: tuple[Scoring, ...] = ("matchpoints", "difference")


@dataclass(frozen=True)
class Outcome:
    """What one side of one table did on one deal."""

    round: int
    table: int
    hand: int
    side: int
    entrant: int
    points: int  # what the side scored in the hand
    against: int  # the most another side at the table scored

    @property
    def result(self) -> int:
        return self.points - self.against

    @property
    def board(self) -> tuple[int, int, int]:
        """The deal and the tiles held: every outcome with this key held the same tiles."""
        return (self.round, self.hand, self.side)


def outcomes_of_hand(
    round: int, table: int, hand: int, entrants: Sequence[int], points: Sequence[int]
) -> list[Outcome]:
    """The outcomes of one hand at one table: ``entrants[j]`` played side ``j``, which scored
    ``points[j]``."""
    out = []
    for j, e in enumerate(entrants):
        others = [p for k, p in enumerate(points) if k != j]
        out.append(Outcome(round, table, hand, j, e, points[j], max(others) if others else 0))
    return out


def boards(outcomes: Sequence[Outcome]) -> dict[tuple[int, int, int], list[Outcome]]:
    """The outcomes grouped by board (ValueError if a table has two outcomes on one board)."""
    groups: dict[tuple[int, int, int], list[Outcome]] = defaultdict(list)
    seen: set[tuple[int, int, int, int]] = set()
    for o in outcomes:
        key = (o.round, o.table, o.hand, o.side)
        if key in seen:
            raise ValueError(
                f"round {o.round + 1}, table {o.table + 1}, hand {o.hand + 1}: side {o.side + 1} twice"
            )
        seen.add(key)
        groups[o.board].append(o)
    return groups


def score(outcomes: Sequence[Outcome], scoring: Scoring = "matchpoints") -> list[float]:
    """Each outcome's score on its board, in the order given."""
    if scoring not in SCORINGS:
        raise ValueError(f"unknown scoring {scoring!r}: one of {', '.join(SCORINGS)}")
    by_id: dict[int, float] = {}
    for group in boards(outcomes).values():
        results = [o.result for o in group]
        m = len(group)
        total = sum(results)
        for o in group:
            r = o.result
            if scoring == "matchpoints":
                beaten = sum(1 for x in results if x < r)
                tied = sum(1 for x in results if x == r) - 1
                by_id[id(o)] = float(2 * beaten + tied)
            else:
                by_id[id(o)] = r - (total - r) / (m - 1) if m > 1 else 0.0
    return [by_id[id(o)] for o in outcomes]


def top(board_size: int) -> float:
    """The most matchpoints a result can earn on a board of ``board_size`` results."""
    return 2.0 * (board_size - 1)
