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


#: the reasons that speak against a move (the others for it)
_DRAWBACKS = {"next_can_score", "partner_lacks"}


def _amount(best: Evaluation, played: Evaluation, loss: float, th: Thresholds) -> str:
    if th.unit == "win":
        return f"(a chance to win the hand {100 * loss:.0f}% higher)"
    dg = (best.game or 0.0) - (played.game or 0.0)
    if abs(dg) < 0.005:
        return f"by {loss:.1f} points on average"
    dp = best.value - played.value
    game = f"a chance to win the game {100 * abs(dg):.0f}% {'higher' if dg > 0 else 'lower'}"
    if abs(dp) < 0.05:
        return f"({game})"
    return f"({abs(dp):.1f} points {'more' if dp > 0 else 'fewer'} on average and {game})"


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
    extra = tuple(
        r for r in best.reasons if r not in mine and r["code"] != "only_move" and r["code"] not in _DRAWBACKS
    )
    flaws = [r for r in played.reasons if r not in best.reasons and r["code"] in _DRAWBACKS]
    words = f"{best_token} was better {_amount(best, played, loss, th)}"
    if extra:
        words += ": " + "; ".join(_fact(r) for r in extra)
    if flaws:
        words += "; yours " + "; yours ".join(
            english(r)
            if r["code"] != "next_can_score"
            else f"lets the next player score up to {r['points']} in reply"
            for r in flaws
        )
    if mark == "good":
        words = f"close to the best; {words}"
    return words, extra


def shown_reason(best: Shown, played: Shown, best_token: str, mark: str, th: Thresholds) -> str:
    """Why the move played got its mark with every hand shown."""
    what = {ESTIMATE: " (an estimate: too many positions to search them all)", BOUND: ""}.get(best.kind, "")
    against = " even if the others play their best against you" if best.kind == BOUND else ""
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
