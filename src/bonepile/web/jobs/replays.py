"""Replay frames: every position of finished hands, with every seat's tiles (all public once a
hand is over).  Used by the replay page for a finished game or an uploaded record.

A replay is sent in pages: first its index (the game, each hand's deal, result and number of
positions), then the positions of one hand when the page shows it.  An answer is then at most
one hand's positions, whatever the length of the game: a whole 13-round Mexican Train game
for 8 players is ~7 MB of positions, its largest hand well under 1 MB."""

from __future__ import annotations

from typing import Any

from ...engine import Game
from ...engine.tiles import NAME
from ...engine.view import hand_view
from ..messages import Replay, ReplayFrame, ReplayHand
from ..protocol import count_json, hand_result_json, move_points, view_json
from ..words.catalog import scoring, sides
from ..words.names import seat_default


def hand_frames(game: Game, i: int) -> ReplayHand:
    """The ``i``-th hand of a game (0-based) with every position of it: its deal, then one
    frame after each move, every seat's tiles shown (a finished hand shows all)."""
    v = game.variant
    h = game.hands[i]
    totals = list(game.start_totals)
    for done in game.hands[: i + 1]:
        totals = [a + b for a, b in zip(totals, done.current_result().points)]
    res = h.current_result()
    pos = h.fresh()
    tokens = game.record()["hands"][i]["moves"]
    points = move_points(h)

    def frame(move: str | None, seat: int | None) -> ReplayFrame:
        view: dict[str, Any] = dict(view_json(hand_view(pos, 0), points=points, count=count_json(pos)))
        view["hands"] = [[NAME[t] for t in pos.held(s)] for s in range(v.players)]
        return {"move": move, "seat": seat, "view": view}

    seq: list[ReplayFrame] = [frame(None, None)]
    for k, (seat, m, _t) in enumerate(h.log):
        pos.apply(m)
        seq.append(frame(tokens[k], seat))
    return {
        "hand": h.number,
        "leader": h.leader,
        "deal": [[NAME[t] for t in row] for row in h.deal_rows],
        "positions": len(seq),
        "frames": seq,
        "finished": h.over,
        "result": hand_result_json(h.number, h.leader, res, totals),
    }


def shown_hands(game: Game, finished_only: bool) -> int:
    """How many of a game's hands a replay shows: the finished ones (a hand being played is
    nobody's to see), or every one for a record, where everything is already public."""
    n = 0
    for h in game.hands:
        if finished_only and not h.over:
            break
        n += 1
    return n


def index(game: Game, *, finished_only: bool = True) -> Replay:
    """A replay without its positions: the game, and each hand shown with its deal, result and
    how many positions it has.  A hand's positions are asked for one hand at a time
    (``hand_frames``), so that no answer grows with the length of the game."""
    v = game.variant
    hands: list[ReplayHand] = []
    totals = list(game.start_totals)
    for h in game.hands[: shown_hands(game, finished_only)]:
        res = h.current_result()
        totals = [a + b for a, b in zip(totals, res.points)]
        hands.append(
            {
                "hand": h.number,
                "leader": h.leader,
                "deal": [[NAME[t] for t in row] for row in h.deal_rows],
                "positions": len(h.log) + 1,
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


def frames(game: Game, *, finished_only: bool = True) -> Replay:
    """The whole replay in one document, every hand with its positions (for programs and
    tests; the server sends ``index`` and one hand at a time)."""
    rep = index(game, finished_only=finished_only)
    rep["hands"] = [hand_frames(game, i) for i in range(len(rep["hands"]))]
    return rep


# ---------------------------------------------------------------------------- bounded, off the loop
MAX_RECORD = 256 * 1024  # bytes of an uploaded record (a whole game to its target is ~20 KiB)
MAX_FRAMES = 3000  # positions in one answer (one hand; the longest hand of any game has ~200)
MAX_ANSWER = 8 << 20  # bytes of one answer


def frame_count(doc: Any, hand: int | None = None) -> int:
    """How many frames a record's replay would have (its moves and one per hand), read from
    the document without replaying it; with ``hand`` (from 1), that hand's only."""
    hands = doc.get("hands") if isinstance(doc, dict) else None
    if not isinstance(hands, list):
        return 0
    if hand is not None:
        hands = hands[hand - 1 : hand] if hand >= 1 else []
    return sum(
        1 + (len(h["moves"]) if isinstance(h, dict) and isinstance(h.get("moves"), list) else 0)
        for h in hands
    )


def build(source: bytes | dict[str, Any], finished_only: bool, hand: int | None = None) -> tuple[int, bytes]:
    """A replay answer built from a record (its JSON text, or the document): (200, its index
    as JSON, or with ``hand`` that hand's positions, counted from 1) or (an HTTP status,
    {"error": ..., "code": ...} as JSON).  Runs in a worker process: it is the only part of a
    replay request that costs more than a moment."""
    import orjson

    from ...engine import BonepileError
    from ...engine import record as rec

    def error(
        status: int, message: str, code: str, params: dict[str, int] | None = None
    ) -> tuple[int, bytes]:
        body: dict[str, Any] = {"error": message, "code": code}
        if params:
            body["params"] = params
        return status, orjson.dumps(body)

    try:
        doc = rec.loads(source) if isinstance(source, bytes) else source
        if hand is not None:
            n = frame_count(doc, hand)
            if n > MAX_FRAMES:
                return error(
                    413,
                    f"the hand would have {n} positions; at most {MAX_FRAMES} are replayed",
                    code="replay_long",
                    params={"n": MAX_FRAMES},
                )
        game = rec.replay(doc)
    except BonepileError as e:
        return error(400, f"the record is not valid: {e}", code="record_invalid")
    if hand is None:
        out = orjson.dumps(index(game, finished_only=finished_only))
    else:
        shown = shown_hands(game, finished_only)
        if not 1 <= hand <= shown:
            return error(
                404,
                f"there is no hand {hand} to replay (the replay has {shown})",
                code="replay_no_hand",
                params={"n": shown},
            )
        out = orjson.dumps(hand_frames(game, hand - 1))
    if len(out) > MAX_ANSWER:
        return error(
            413,
            f"the replay would be {len(out)} bytes; at most {MAX_ANSWER} are sent",
            code="replay_large",
            params={"n": MAX_ANSWER},
        )
    return 200, out
