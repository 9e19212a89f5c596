"""How a move is marked: best, good, inaccuracy, mistake or blunder, by what it lost.

A move's loss is the value of the best legal move less the value of the move played, in the
game's points (``analyze``: expected points of the hand, with a game won in it worth the
game's target).  The thresholds are fixed per game, since a point means more in a game to 61
than in one to 500: an inaccuracy loses at least 2% of the target, a mistake 5% and a
blunder 10% (a game to 100 points: 2, 5 and 10 points; Quinientos, to 500: 10, 25 and 50).
Where a hand has no points and the winner is a seat (Billitonnen) the value is the chance to
win the hand, and the thresholds are 5, 10 and 20 points of that chance (in per cent).

"best" is a move within a hundredth of the best value (mirror images and ties); "good"
loses less than an inaccuracy.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Variant

MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")
#: a move this close to the best value is one of the best
TIE = 0.01


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The least loss of an inaccuracy, a mistake and a blunder, in ``unit``: "points"
    (the game's points) or "win" (the chance to win the hand, 0 to 1)."""

    inaccuracy: float
    mistake: float
    blunder: float
    unit: str

    def mark(self, loss: float) -> str:
        if loss <= TIE:
            return "best"
        if loss < self.inaccuracy:
            return "good"
        if loss < self.mistake:
            return "inaccuracy"
        if loss < self.blunder:
            return "mistake"
        return "blunder"


def thresholds(variant: Variant) -> Thresholds:
    """The marks' thresholds of a game (see the module's text)."""
    if variant.scoring == "penalty":  # Mexican Train: pips left, no target; a hand's pips are tens
        return Thresholds(2.0, 5.0, 10.0, "points")
    if variant.scoring == "result_only" or not variant.target:
        return Thresholds(0.05, 0.10, 0.20, "win")
    t = variant.target
    return Thresholds(round(0.02 * t, 2), round(0.05 * t, 2), round(0.10 * t, 2), "points")
