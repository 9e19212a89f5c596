"""Each mark's reason in plain English words (the web client words the same facts itself,
from the reason codes and the numbers of the analysis)."""

from __future__ import annotations

from typing import Any

from ..bots.base import Evaluation
from ..bots.reasons import english
from .exact import BOUND, ESTIMATE, Shown
from .marks import Thresholds

#: the reasons whose words are not a verb's phrase (the others follow "it")
_NOT_VERBS = {"next_can_score", "next_tile_fits", "only_move"}


def _amount(loss: float, th: Thresholds) -> str:
    if th.unit == "win":
        return f"(a chance to win the hand {100 * loss:.0f}% higher)"
    return f"by {loss:.1f} points on average"


def _fact(r: dict[str, Any]) -> str:
    return english(r) if r["code"] in _NOT_VERBS else "it " + english(r)


def knew_reason(
    best: Evaluation, played: Evaluation, best_token: str, mark: str, loss: float, th: Thresholds
) -> tuple[str, tuple[dict[str, Any], ...]]:
    """Why the move played got its mark with what the seat knew: for a move short of the
    best, the facts the best move has that the move played has not, as words and codes."""
    if mark == "best":
        return "the best move with what you knew", ()
    mine = list(played.reasons)
    extra = tuple(r for r in best.reasons if r not in mine and r["code"] != "only_move")
    words = f"{best_token} was better {_amount(loss, th)}"
    if extra:
        words += ": " + "; ".join(_fact(r) for r in extra)
    if mark == "good":
        words = f"close to the best; {words}"
    return words, extra


def shown_reason(best: Shown, played: Shown, best_token: str, mark: str, th: Thresholds) -> str:
    """Why the move played got its mark with every hand shown."""
    what = {ESTIMATE: " (an estimate: too many positions to search them all)", BOUND: ""}.get(best.kind, "")
    against = " if the others all play against you" if best.kind == BOUND else ""
    if mark == "best":
        return f"the best move{against}{what}"
    if th.unit == "win":
        return f"{best_token} was better{against}{what}"
    return (
        f"{best_token} was better{against}: {_signed(best.points)} points in the hand"
        f" against {_signed(played.points)}{what}"
    )


def _signed(x: float) -> str:
    return f"{x:+.0f}" if float(x).is_integer() else f"{x:+.1f}"
