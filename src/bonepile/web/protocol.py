"""What the server sends: a seat's View as JSON, built from the View alone.

Everything a client learns about a hand passes through ``view_json``; it reads only the
censored ``View`` of the client's own seat, so it cannot leak another seat's tiles or the
boneyard order.  Tiles are written as their record names ("6-4"), moves as record tokens.  The public facts
the client is told rather than working them out (what each move scored, the count of the
ends) are read from the engine's public knowledge (``bonepile.engine.knowledge``, kept up to
date by the hand's ``Observer``) by ``move_points`` and ``count``, and added by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from ..engine import notation
from ..engine.hand import Hand
from ..engine.tiles import DRAW, NAME, PASS, arm_of, tile_of
from ..engine.view import Observer, PublicView, View, arm_names, observer
from .messages import Arm, CountJSON, EventJSON, LayoutJSON, LegalMove, PadLine, ViewJSON
from .words.labels import count_note_key, english


def move_token(view: View, m: int) -> str:
    """The token a client sends for move m: the first tile as "a-b" (a faces L), a later tile
    with its arm ("a-b@R"), "pass" or "draw"."""
    return notation.move_token(m, first=view.layout.first is None, names=arm_names(view))


def legal_json(view: View, decisions: Sequence[int] | None = None) -> list[LegalMove]:
    """The view's legal moves; ``decisions``: per move, the index of the first move that is the
    same decision (``PublicKnowledge.decisions``), each its own when not given."""
    out: list[LegalMove] = []
    for i, m in enumerate(view.legal):
        d = decisions[i] if decisions is not None else i
        if m == PASS:
            out.append({"move": "pass", "kind": "pass", "tile": None, "arm": None, "decision": d})
        elif m == DRAW:
            out.append({"move": "draw", "kind": "draw", "tile": None, "arm": None, "decision": d})
        else:
            t, code = tile_of(m), arm_of(m)
            first = view.layout.first is None
            out.append(
                {
                    "move": move_token(view, m),
                    "kind": "play",
                    "tile": NAME[t],
                    "arm": None if first else cast(Arm, arm_names(view)[code]),
                    "decision": d,
                }
            )
    return out


def _tile(t: int | None) -> str | None:
    return None if t is None else NAME[t]


def layout_json(view: View | PublicView) -> LayoutJSON:
    lay = view.layout
    out: LayoutJSON = {
        "first": _tile(lay.first),
        "first_left": lay.first_left,
        "arms": {
            arm: [{"tile": NAME[p.tile], "inner": p.inner, "outer": p.outer} for p in placed]
            for arm, placed in lay.arms.items()
        },
        "ends": dict(lay.ends),
        "double_ends": sorted(lay.double_ends),
        "spinner": lay.spinner,
        "spinner_at": list(lay.spinner_at) if lay.spinner_at is not None else None,
    }
    if lay.kind != "line":  # the other layouts' fields (a line's JSON is unchanged)
        out["kind"] = lay.kind
        out["hub"] = _tile(lay.hub)
        out["owners"] = dict(lay.owners)
        out["open"] = sorted(lay.open)
        out["pending"] = lay.pending
        out["parents"] = {a: list(p) for a, p in lay.parents.items()}
    return out


def history_json(view: View | PublicView, points: Sequence[int | None] = ()) -> list[EventJSON]:
    """The public history as the seat sees it, each event with what it scored (``points``:
    per event of the hand, from ``move_points``; missing ones are None)."""
    n = len(points)
    return [
        {
            "seat": e.seat,
            "action": e.action,
            "tile": _tile(e.tile),
            "arm": e.arm,  # type: ignore[typeddict-item]
            "points": points[i] if i < n else None,
        }
        for i, e in enumerate(view.history)
    ]


def view_json(
    view: View,
    *,
    points: Sequence[int | None] = (),
    count: CountJSON | None = None,
    decisions: Sequence[int] | None = None,
) -> ViewJSON:
    """The seat's view as plain JSON (see docs/PROTOCOL.md), with the public facts ``points``
    (what each event scored), ``count`` (the count of the ends) and ``decisions`` (which legal
    moves are one decision, ``PublicKnowledge.decisions``) of the same position."""
    return {
        "variant": view.variant,
        "players": view.players,
        "seat": view.seat,
        "sides": [list(s) for s in view.sides],
        "hand_number": view.hand_number,
        "leader": view.leader,
        "to_move": view.to_move,
        "legal": legal_json(view, decisions),
        "hand": [NAME[t] for t in view.hand],
        "tile_counts": list(view.tile_counts),
        "face_up": [[[pos, NAME[t]] for pos, t in row] for row in view.face_up],
        "turned_up": _tile(view.turned_up),
        "peek": _tile(view.peek),
        "layout": layout_json(view),
        "boneyard": view.drawable,
        "boneyard_size": view.boneyard_size,
        "history": history_json(view, points),
        "totals": list(view.totals),
        "hand_points": list(view.hand_points),
        "count": count,
        "over": view.over,
        "end": view.end,
        "revealed": [[NAME[t] for t in row] for row in view.revealed] if view.revealed is not None else None,
        "blind": view.blind,
        "round_bonus": view.round_bonus,
    }


def public_view_json(
    view: PublicView, *, points: Sequence[int | None] = (), count: CountJSON | None = None
) -> ViewJSON:
    """A spectator's view as plain JSON: the shape of a seat's (``view_json``) with no seat,
    no tiles of its own, no legal move and no peek; built from the engine's ``PublicView``
    alone, so it can name no tile of any hand before the hand is over."""
    return {
        "variant": view.variant,
        "players": view.players,
        "seat": None,
        "sides": [list(s) for s in view.sides],
        "hand_number": view.hand_number,
        "leader": view.leader,
        "to_move": view.to_move,
        "legal": [],
        "hand": [],
        "tile_counts": list(view.tile_counts),
        "face_up": [[[pos, NAME[t]] for pos, t in row] for row in view.face_up],
        "turned_up": _tile(view.turned_up),
        "peek": None,
        "layout": layout_json(view),
        "boneyard": view.drawable,
        "boneyard_size": view.boneyard_size,
        "history": history_json(view, points),
        "totals": list(view.totals),
        "hand_points": list(view.hand_points),
        "count": count,
        "over": view.over,
        "end": view.end,
        "revealed": [[NAME[t] for t in row] for row in view.revealed] if view.revealed is not None else None,
        "blind": view.blind,
        "round_bonus": view.round_bonus,
    }


#: the parts of a hand's breakdown that add up to the winner's points, where it has them
#: (Quinientos' score: the pips scored and its bonuses; engine.hand.score_hand)
SUM_PARTS = ("base", "round_bonus", "capicu", "chuchazo")


def hand_result_json(number: int, leader: int, res: Any, totals: list[int]) -> PadLine:
    """One line of the score pad: a finished hand's result (all of it public once it ends),
    with ``sum``: the breakdown's parts whose sum is the winner's points (None: none)."""
    parts = [k for k in SUM_PARTS if k in res.breakdown]
    if parts and (res.winner is None or sum(res.breakdown[k] for k in parts) != res.points[res.winner]):
        parts = []  # points scored apart from these (a pase redondo during play): no sum to show
    return {
        "hand": number,
        "leader": leader,
        "end": res.end,
        "winner": res.winner,
        "points": list(res.points),
        "totals": list(totals),
        "pips": list(res.pips),
        "breakdown": _plain(res.breakdown),
        "sum": parts or None,
    }


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


# ---------------------------------------------------------------------------- public facts
def move_points(h: Hand, ob: Observer | None = None) -> list[int | None]:
    """The points each event of the hand scored during play (the engine's knowledge: the
    change of ``hand.inplay``, the view's ``hand_points``); None for a pass or a draw.
    ``ob``: the hand's observer, when the caller keeps one."""
    k = (ob.sync() if ob is not None else observer(h)).knowledge()
    return [p if m < PASS else None for (_seat, m, _tile), p in zip(h.log, k.points)]


def count_json(h: Hand) -> CountJSON | None:
    """The count of the open ends (``Hand.count``) where the variant scores it, with the
    words that say when it scores (``Hand.count_points``); None in the other variants."""
    if h.v.in_play is None:
        return None
    scores = h.count_points()
    key = count_note_key(h.v.in_play, h.count()) if scores else None
    return {
        "value": h.count(),
        "note": english(key) if key else None,
        "note_key": key,
    }
