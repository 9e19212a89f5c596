"""One handler per client message type, each taking its own typed intent (read once by
``intents``).  ``dispatch`` picks the handler; a handler checks the intent against the
table's moment, changes the table under its lock (storing first) and says who must be told; a refused intent raises ``RequestError`` and changes nothing.  A spectator's socket
(no seat) may only ping: every other intent is refused before any handler sees it."""

from __future__ import annotations

import asyncio
from typing import Any

from ...bots.hint import shown_figure
from ...engine import BonepileError
from ...engine.deals import derive
from ..jobs.searches import Busy, TooManyHints
from ..messages import (
    ChatIntent,
    HintIntent,
    HintMessage,
    HintReason,
    LeaderIntent,
    MessageId,
    MoveIntent,
    MuteIntent,
    NextIntent,
    PingIntent,
    RematchIntent,
    TakeoverIntent,
    UnmuteIntent,
)
from ..protocol import move_token
from ..validate import RequestError
from . import moderation, rematch
from .connection import Connection
from .intents import kind_of, parse
from .table import LiveTable

#: what a spectator may not do, in words, per intent (a spectator may ping)
WATCHERS_CANNOT = {
    "move": "play a move",
    "leader": "choose the next leader",
    "next": "start the next hand",
    "hint": "ask for a hint",
    "chat": "write in the table chat",
    "mute": "mute a seat's chat",
    "unmute": "unmute a seat's chat",
    "takeover": "take a seat back",
    "rematch": "ask for a rematch or answer one",
}


def seat_of(conn: Connection) -> int:
    """The seat of a player's socket (``dispatch`` lets no spectator reach a handler)."""
    assert conn.seat is not None
    return conn.seat


async def on_ping(t: LiveTable, conn: Connection, msg: PingIntent, mid: MessageId | None) -> None:
    conn.push({"type": "pong", "id": mid})


async def on_move(t: LiveTable, conn: Connection, msg: MoveIntent, mid: MessageId | None) -> None:
    token = msg["move"]
    seat = seat_of(conn)
    async with t.lock:
        g = t.game
        if t.status == "waiting":
            raise RequestError("the game has not started yet", code="not_started")
        if t.phase() != "play" or g.to_move is None:
            raise RequestError(f"no move is expected now (phase {t.phase()})", code="no_move_now")
        if g.to_move != seat:
            raise RequestError(f"it is not your turn (seat {g.to_move} is to move)", code="not_your_turn")
        try:
            m = g.hand.check(g.parse(token))
        except BonepileError as e:
            raise RequestError(f"illegal move {token!r}: {e}", code="illegal_move") from None
        if t.seats[seat].bot_playing:  # playing a move takes the seat back
            t.seats[seat].bot_playing = False
            t.changed()
        await t.commit_move(seat, m)
        conn.ack = mid
    t.announce()
    t.wake.set()


async def on_leader(t: LiveTable, conn: Connection, msg: LeaderIntent, mid: MessageId | None) -> None:
    async with t.lock:
        if t.pending_deal is None:
            raise RequestError("no leader is to be chosen now", code="no_lead_now")
        seats = t.winners()
        seat = seat_of(conn)
        if seat not in seats:
            raise RequestError(
                "only the side that won the hand chooses the next leader", code="not_your_lead"
            )
        if msg["seat"] not in seats:
            raise RequestError(f'"seat" must be one of {", ".join(map(str, seats))}', code="bad_request")
        await t.choose_leader(msg["seat"], seat)
        conn.ack = mid
    t.announce()
    t.wake.set()


async def on_next(t: LiveTable, conn: Connection, msg: NextIntent, mid: MessageId | None) -> None:
    async with t.lock:
        if t.phase() != "hand_over":
            raise RequestError("the hand is not over", code="hand_not_over")
        t.ready.add(seat_of(conn))
    t.announce()
    t.wake.set()


async def on_chat(t: LiveTable, conn: Connection, msg: ChatIntent, mid: MessageId | None) -> None:
    text = msg["text"]
    words = t.host.chat_filter
    t.add_chat(seat_of(conn), words.mask(text) if words is not None else text)


async def on_mute(
    t: LiveTable, conn: Connection, msg: MuteIntent | UnmuteIntent, mid: MessageId | None
) -> None:
    """The seat stops (``mute``) or starts again (``unmute``) being shown a seat's chat: its
    sockets are sent the table's chat as it now sees it."""
    await moderation.mute(t, seat_of(conn), msg["seat"], msg["type"] == "mute")


async def on_takeover(t: LiveTable, conn: Connection, msg: TakeoverIntent, mid: MessageId | None) -> None:
    s = t.seats[seat_of(conn)]
    s.bot_playing = False
    s.away_since = None
    t.changed()


async def on_rematch(t: LiveTable, conn: Connection, msg: RematchIntent, mid: MessageId | None) -> None:
    async with t.lock:
        await rematch.answer(t, seat_of(conn), msg.get("accept", True))


async def on_hint(t: LiveTable, conn: Connection, msg: HintIntent, mid: MessageId | None) -> None:
    """The expert's opinion of the seat's legal moves and where the unseen tiles likely are
    (searched in a bot worker from the seat's view only, ``jobs.searches``), in the
    protocol's shape."""
    seat = seat_of(conn)
    if t.phase() != "play" or t.game.to_move != seat:
        raise RequestError("a hint is given only when it is your turn", code="hint_turn")
    view = t.view(seat)
    seq = t.seq
    host = t.host
    # one search per seat and position, however many sockets ask: the others wait for it
    fut = t.hints.get((seat, seq))
    if fut is None:
        try:  # the seat's rate and the queue's bound apply to searches, not to answers found
            fut = host.searches.hint(
                t.id, seat, t.rules, view, seed=derive(t.seed, "hint", seq), budget=host.settings.hint_time
            )
        except Busy as e:
            raise RequestError(str(e), code="hint_busy") from None
        except TooManyHints as e:
            raise RequestError(str(e), code="hint_rate") from None
        t.hints = {k: f for k, f in t.hints.items() if k[1] == seq}  # other positions' are stale
        t.hints[(seat, seq)] = fut
    evals, likely = await asyncio.shield(fut)
    if t.seq != seq:
        raise RequestError("the position changed before the hint was ready", code="hint_late")
    out: HintMessage = {
        "type": "hint",
        "id": mid,
        "figure": "win" if shown_figure(t.game.variant) == "win" else "points",
        "moves": [
            {
                "move": move_token(view, e.action),
                "points": round(e.value, 2),
                "win": None if e.win is None else round(e.win, 3),
                "game": None if e.game is None else round(e.game, 3),
                "reasons": [hint_reason(r) for r in e.reasons],
            }
            for e in evals
        ],
        "beliefs": [
            {"seat": b["seat"], "tiles": [{"tile": str(x["tile"]), "p": float(x["p"])} for x in b["tiles"]]}
            for b in likely
        ],
    }
    conn.push(out)


def hint_reason(r: dict[str, Any]) -> HintReason:
    out: HintReason = {"code": str(r["code"])}
    if "pips" in r:
        out["pips"] = int(r["pips"])
    if "points" in r:
        out["points"] = int(r["points"])
    if "seat" in r:
        out["seat"] = int(r["seat"])
    return out


async def dispatch(t: LiveTable, conn: Connection, raw: Any) -> None:
    """Handle one message from a socket (a bad one raises RequestError): its type checked, a
    spectator's refused unless it pings, its intent read, then its handler."""
    kind, mid = kind_of(raw)
    if conn.watching and kind in WATCHERS_CANNOT:
        raise RequestError(
            f"you are watching this table: only its players can {WATCHERS_CANNOT[kind]}", 403, code="watching"
        )
    msg = parse(kind, raw, len(t.seats))
    if msg["type"] == "move":
        await on_move(t, conn, msg, mid)
    elif msg["type"] == "leader":
        await on_leader(t, conn, msg, mid)
    elif msg["type"] == "next":
        await on_next(t, conn, msg, mid)
    elif msg["type"] == "hint":
        await on_hint(t, conn, msg, mid)
    elif msg["type"] == "chat":
        await on_chat(t, conn, msg, mid)
    elif msg["type"] == "mute" or msg["type"] == "unmute":
        await on_mute(t, conn, msg, mid)
    elif msg["type"] == "takeover":
        await on_takeover(t, conn, msg, mid)
    elif msg["type"] == "rematch":
        await on_rematch(t, conn, msg, mid)
    else:
        await on_ping(t, conn, msg, mid)
