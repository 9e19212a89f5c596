"""Rematch: at game over a seated person asks to play again with the same seats.

Every other person seated and connected is asked; bots accept at once.  A person who is not
here when the question is asked (no socket open) is not counted on: a bot takes that seat in
the rematch.  Nobody waits for someone who went away, and nobody is put into a game (a rated
one may change their rating) that they did not agree to; a person who comes back while the
question is open is asked too.  When everyone asked has said yes, the server makes the new
table: the same seats (names, kinds, levels, profiles), the same variant, options, clock,
rated-ness and privacy (the same invite secret opens it), a fresh seed, and the first hand's
leader as the rules choose it for a new game (the engine's first deal: nothing here decides
it).  Each person who said yes is sent their new seat token on their own sockets only.  One
"no", or the wait running out (``ServerSettings.rematch_wait`` seconds), ends the question: everyone
is told, and anyone may ask again.

The link between the two tables lives in their settings (no column of its own): the new
table's ``rematch_of``, the finished table's ``rematch``; table info shows both."""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from ..messages import RematchSeat
from ..store.database import TableRow
from ..validate import RequestError, new_token
from ..words.names import seat_default
from .offer import Offer
from .table import LiveTable

STANDIN_BOT = "expert"  # the level of the bot that takes the seat of a person who is not here


def _people(t: LiveTable) -> list[int]:
    """The seats of people (claimed human seats)."""
    return [i for i, s in enumerate(t.seats) if s.kind == "human" and s.token_hash is not None]


def _here(t: LiveTable) -> list[int]:
    return [i for i in _people(t) if t.seats[i].conns]


async def answer(t: LiveTable, seat: int, accept: bool) -> None:
    """``seat`` asks for a rematch, accepts or declines it (the table's lock held)."""
    if t.rematch is not None:
        raise RequestError(
            f"a rematch of this game is already being played (table {t.rematch})", 409, code="rematch_started"
        )
    if t.settings.get("tournament"):
        raise RequestError(
            "this table is a tournament's: the next round is seated from the tournament's page",
            code="rematch_tournament",
        )
    if not t.game.over:
        raise RequestError("a rematch can be asked for only when the game is over", code="rematch_not_over")
    offer = t.offer
    asking = offer is not None and offer.status == "asking"
    if not accept:
        if offer is None or not asking:
            raise RequestError("no rematch is being asked for now", code="rematch_none")
        offer.declined = seat
        offer.waiting.discard(seat)
        offer.end("declined")
        t.changed()
        return
    if offer is None or not asking:  # a new question
        bots = [i for i, s in enumerate(t.seats) if s.kind == "bot"]
        offer = t.offer = Offer(seat, bots, _people(t), _here(t), t.host.settings.rematch_wait)
        offer.timer = asyncio.get_running_loop().call_later(t.host.settings.rematch_wait, expire, t, offer)
    else:
        offer.accepted.add(seat)
        offer.waiting.discard(seat)
        offer.away.discard(seat)
    if not offer.waiting:
        await start(t, offer)
    t.changed()


def expire(t: LiveTable, offer: Offer) -> None:
    """The wait ran out before everybody answered."""
    if t.offer is offer and offer.status == "asking" and not offer.starting:
        offer.end("expired")
        t.changed()


def _seats(t: LiveTable, offer: Offer) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """The new table's seats, and the new token of each person who said yes."""
    seats: list[dict[str, Any]] = []
    tokens: dict[int, str] = {}
    for i, s in enumerate(t.seats):
        if s.kind == "bot":
            seats.append(
                {"name": s.name, "kind": "bot", "level": s.level, "token_hash": None, "profile": None}
            )
        elif i in offer.accepted:
            tokens[i], hashed = new_token()
            seats.append(
                {"name": s.name, "kind": "human", "level": None, "token_hash": hashed, "profile": s.profile}
            )
        else:  # not here: a bot plays the seat (named as the server names its bots)
            seats.append(
                {
                    "name": seat_default("bot", STANDIN_BOT, i),
                    "kind": "bot",
                    "level": STANDIN_BOT,
                    "token_hash": None,
                    "profile": None,
                }
            )
    return seats, tokens


async def start(t: LiveTable, offer: Offer) -> None:
    """Everybody asked said yes: make and start the new table, and send each person who said
    yes their new seat (the table's lock held)."""
    seats, tokens = _seats(t, offer)
    settings: dict[str, Any] = {"timer": t.timer, "rematch_of": t.id}
    if t.rated:
        settings["rated"] = True
    if t.invite_hash is not None:  # private as before: the same invite link opens it
        settings["invite_hash"] = t.invite_hash
    row = TableRow(
        id=secrets.token_hex(6),
        created=time.time(),
        name=t.name,
        variant=t.variant_name,
        options=dict(t.variant.options),
        seed=secrets.randbits(62),
        seats=seats,
        settings=settings,
        status="playing",
    )
    old = dict(t.settings, rematch=row.id)
    offer.starting = True  # the wait may run out meanwhile: the answers were all in time
    try:
        await t.host.start_rematch(row, t, old)
    except Exception:  # not stored: the question stays open (nothing else changed)
        offer.starting = False
        if time.monotonic() >= offer.until:
            expire(t, offer)
        raise
    t.settings = old
    t.rematch = row.id
    offer.table = row.id
    offer.end("started")
    for i, token in tokens.items():
        msg: RematchSeat = {"type": "rematch", "table": row.id, "seat": i, "token": token}
        t.handoff[i] = msg  # a tab opened later on the finished table is sent it too
        for c in t.seats[i].conns:
            c.push(msg)
