"""Replay frames: every position of finished hands, with every seat's tiles (all public once a
hand is over).  Used by the replay page for a finished game or an uploaded record."""

from __future__ import annotations

from typing import Any

from ...engine import Game
from ...engine.hand import Hand
from ...engine.tiles import NAME
from ...engine.view import hand_view
from ..messages import Replay, ReplayFrame, ReplayHand
from ..protocol import count_json, hand_result_json, move_points, view_json
from ..words.catalog import scoring, sides
from ..words.names import seat_default


def frames(game: Game, *, finished_only: bool = True) -> Replay:
    """The frames of a game's hands (only the finished ones unless ``finished_only`` is
    false, which callers use for records, where everything is already public)."""
    v = game.variant
    hands: list[ReplayHand] = []
    totals = list(game.start_totals)
    tokens_of = game.record()["hands"]
    for i, h in enumerate(game.hands):
        if finished_only and not h.over:
            break
        res = h.current_result()
        totals = [a + b for a, b in zip(totals, res.points)]
        pos = h.fresh()
        seq: list[ReplayFrame] = []
        tokens = tokens_of[i]["moves"]
        points = move_points(h)

        def frame(
            move: str | None, seat: int | None, pos: Hand = pos, points: list[int | None] = points
        ) -> ReplayFrame:
            view: dict[str, Any] = dict(view_json(hand_view(pos, 0), points=points, count=count_json(pos)))
            view["hands"] = [[NAME[t] for t in pos.held(s)] for s in range(v.players)]
            return {"move": move, "seat": seat, "view": view}

        seq.append(frame(None, None))
        for k, (seat, m, _t) in enumerate(h.log):
            pos.apply(m)
            seq.append(frame(tokens[k], seat))
        hands.append(
            {
                "hand": h.number,
                "leader": h.leader,
                "deal": [[NAME[t] for t in row] for row in h.deal_rows],
                "frames": seq,
                "finished": h.over,
                "result": hand_result_json(h.number, h.leader, res, totals),
            }
        )
    return {
        "variant": v.name,
        "players": v.players,
        "sides": sides(v),
        "scoring": scoring(v),
        "names": list(game.names)
        if game.names
        else [seat_default("human", None, i) for i in range(v.players)],
        "hands": hands,
        "totals": totals,
        "winner": game.winner,
        "finished": game.over,
    }


# ---------------------------------------------------------------------------- bounded, off the loop
MAX_RECORD = 256 * 1024  # bytes of an uploaded record (a whole game to its target is ~20 KiB)
MAX_FRAMES = 3000  # positions in one replay (a long game of Quinientos has ~900)
MAX_ANSWER = 8 << 20  # bytes of one replay answer


def frame_count(doc: Any) -> int:
    """How many frames a record's replay would have (its moves and one per hand), read from
    the document without replaying it."""
    hands = doc.get("hands") if isinstance(doc, dict) else None
    if not isinstance(hands, list):
        return 0
    return sum(
        1 + (len(h["moves"]) if isinstance(h, dict) and isinstance(h.get("moves"), list) else 0)
        for h in hands
    )


def build(source: bytes | dict[str, Any], finished_only: bool) -> tuple[int, bytes]:
    """A replay answer built from a record (its JSON text, or the document): (200, the frames
    as JSON) or (an HTTP status, {"error": ...} as JSON).  Runs in a worker process: it is
    the only part of a replay request that costs more than a moment."""
    import orjson

    from ...engine import BonepileError
    from ...engine import record as rec

    def error(status: int, message: str) -> tuple[int, bytes]:
        return status, orjson.dumps({"error": message})

    try:
        doc = rec.loads(source) if isinstance(source, bytes) else source
        n = frame_count(doc)
        if n > MAX_FRAMES:
            return error(413, f"the replay would have {n} positions; at most {MAX_FRAMES} are replayed")
        game = rec.replay(doc)
    except BonepileError as e:
        return error(400, f"the record is not valid: {e}")
    out = orjson.dumps(frames(game, finished_only=finished_only))
    if len(out) > MAX_ANSWER:
        return error(413, f"the replay would be {len(out)} bytes; at most {MAX_ANSWER} are sent")
    return 200, out
