"""Public facts of a hand the client is told instead of working them out: what each move
scored and the count of the open ends.  The one place the web reads them from the engine
(to be re-pointed at ``bonepile.engine.knowledge`` once the engine computes them)."""
from __future__ import annotations

from ..engine.hand import Hand
from ..engine.tiles import DRAW, PASS
from .labels import COUNT_SCORES
from .messages import CountJSON


def move_points(h: Hand) -> list[int | None]:
    """The points each entry of the hand's log scored at once: the change of the hand's
    in-play points (``hand.inplay``, the view's ``hand_points``); None for a pass or a draw."""
    pos = h.fresh()
    out: list[int | None] = []
    for _seat, m, _tile in h.log:
        before = sum(pos.inplay)
        pos.apply(m)
        out.append(None if m in (PASS, DRAW) else sum(pos.inplay) - before)
    return out


def count(h: Hand) -> CountJSON | None:
    """The count of the open ends (``Hand.count``) where the variant scores it, with the
    words that say when it scores; None in the other variants."""
    if h.v.in_play != "fives":
        return None
    c = h.count()
    return {"value": c, "note": COUNT_SCORES if c and c % 5 == 0 else None}
