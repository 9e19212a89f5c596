"""Public facts of a hand the client is told instead of working them out: what each move
scored and the count of the ends.  The web reads them from the engine's public knowledge
(``bonepile.engine.knowledge``, kept up to date by the hand's ``Observer``) and only adapts
their JSON shape."""

from __future__ import annotations

from ..engine.hand import Hand
from ..engine.tiles import PASS
from ..engine.view import Observer, observer
from .labels import COUNT_SCORES, COUNT_SCORES_KEY
from .messages import CountJSON


def move_points(h: Hand, ob: Observer | None = None) -> list[int | None]:
    """The points each event of the hand scored during play (the engine's knowledge: the
    change of ``hand.inplay``, the view's ``hand_points``); None for a pass or a draw.
    ``ob``: the hand's observer, when the caller keeps one."""
    k = (ob.sync() if ob is not None else observer(h)).knowledge()
    return [p if m < PASS else None for (_seat, m, _tile), p in zip(h.log, k.points)]


def count(h: Hand) -> CountJSON | None:
    """The count of the open ends (``Hand.count``) where the variant scores it, with the
    words that say when it scores (``Hand.count_points``); None in the other variants."""
    if h.v.in_play != "fives":
        return None
    scores = h.count_points()
    return {
        "value": h.count(),
        "note": COUNT_SCORES if scores else None,
        "note_key": COUNT_SCORES_KEY if scores else None,
    }
