"""A seat's socket message read once into the typed intent ``messages.py`` declares (or
refused with a ``RequestError`` that says what is wrong); each handler then takes its own
intent's type.  What depends on the table's moment (whose turn, which seats may lead) is the
handler's to check."""

from __future__ import annotations

from typing import Any

from .. import validate
from ..messages import (
    ChatIntent,
    ClientMessage,
    HintIntent,
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
from ..validate import RequestError
from .moderation import target_seat

KINDS = ("move", "leader", "next", "hint", "chat", "mute", "unmute", "takeover", "rematch", "ping")


def kind_of(raw: Any) -> tuple[str, MessageId | None]:
    """The type and the id of a client message, the type one this server knows."""
    kind, mid = validate.message(raw)
    if kind not in KINDS:
        raise RequestError(f"unknown message type {kind!r} ({', '.join(KINDS)})", code="bad_request")
    return kind, mid


def parse(kind: str, raw: dict[str, Any], players: int) -> ClientMessage:
    """The intent of a message of type ``kind`` (``kind_of``) at a table of ``players`` seats."""
    if kind == "move":
        move: MoveIntent = {"type": "move", "move": validate.move_token(raw)}
        return move
    if kind == "leader":
        seat = raw.get("seat")
        if type(seat) is not int:
            raise RequestError('"seat" must be the number of the seat that leads', code="bad_request")
        leader: LeaderIntent = {"type": "leader", "seat": seat}
        return leader
    if kind == "chat":
        chat: ChatIntent = {"type": "chat", "text": validate.chat_text(raw)}
        return chat
    if kind == "mute":
        mute: MuteIntent = {"type": "mute", "seat": target_seat(raw, players)}
        return mute
    if kind == "unmute":
        unmute: UnmuteIntent = {"type": "unmute", "seat": target_seat(raw, players)}
        return unmute
    if kind == "rematch":
        rematch: RematchIntent = {"type": "rematch", "accept": validate.rematch_answer(raw)}
        return rematch
    if kind == "next":
        next_: NextIntent = {"type": "next"}
        return next_
    if kind == "hint":
        hint: HintIntent = {"type": "hint"}
        return hint
    if kind == "takeover":
        takeover: TakeoverIntent = {"type": "takeover"}
        return takeover
    ping: PingIntent = {"type": "ping"}
    return ping
