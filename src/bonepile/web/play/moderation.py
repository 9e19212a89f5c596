"""Mutes: a person at a table stops seeing another seat's chat.

The server filters: a muted seat's lines are never sent to the sockets of the seat that
muted it (every tab and every device of it), which are told how many lines they are not
shown.  Where both seats are tied to profiles the mute is stored against the muted profile
(table ``mutes``) and holds at every later table, on every device of the muter; otherwise it
holds for that seat at that table, in memory (the browser sends it again when it reconnects).
A profile's stored mutes are read once, when one of its seats' sockets opens, and kept.  A
profile mutes at most MAX_MUTES others (409 ``mutes_full`` past it: unmute one first)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..messages import ProfileInfo
from ..store.database import Store
from ..validate import RequestError, profile_id
from .table import LiveTable

MAX_MUTES = 500  # profiles one profile may have muted at once


class Mutes:
    """The stored mutes of the profiles seen so far: muter id -> the muted profiles' ids."""

    def __init__(self, store: Store, db: Callable[..., Awaitable[Any]], tables: dict[str, LiveTable]):
        self.store = store
        self.db = db  # runs a storage call in the storage thread (``Server.db``)
        self.tables = tables  # the live tables: those where the muter sits are told
        self.known: dict[str, set[str]] = {}

    async def load(self, profile: str | None) -> None:
        """Read a profile's mutes from storage, once."""
        if profile is not None and profile not in self.known:
            found = await self.db(self.store.mutes_of, profile)
            self.known.setdefault(profile, {m["id"] for m in found})

    def of(self, profile: str | None) -> set[str]:
        return self.known.get(profile, set()) if profile is not None else set()

    async def set(self, muter: str, muted: str, on: bool) -> None:
        """Store a mute (``on``) or its end; then the live tables where the muter sits show
        their chat again as it now is."""
        await self.load(muter)
        if on and muted not in self.known[muter] and len(self.known[muter]) >= MAX_MUTES:
            raise RequestError(
                f"you have muted {MAX_MUTES} profiles already, the most one may; unmute one first",
                409,
                code="mutes_full",
                params={"n": MAX_MUTES},
            )
        if (muted in self.known[muter]) != on:  # stored only when it changes
            await self.db(self.store.set_mute, muter, muted, on)
        if on:
            self.known[muter].add(muted)
        else:
            self.known[muter].discard(muted)
        for t in self.tables.values():
            for i, s in enumerate(t.seats):
                if s.profile == muter:
                    resend(t, i)

    # ------------------------------------------------------------------ HTTP (a profile's)
    async def listed(self, profile: ProfileInfo) -> dict[str, Any]:
        return {"muted": await self.db(self.store.mutes_of, profile["id"])}

    async def change(self, profile: ProfileInfo, other: str, on: bool) -> dict[str, Any]:
        """Mute or unmute the profile ``other`` for ``profile`` (the HTTP route's)."""
        other = profile_id(other)
        if other == profile["id"]:
            raise RequestError("you cannot mute yourself", code="mute_self")
        if await self.db(self.store.profile_name, other) is None:
            raise RequestError(f"no profile {other!r}", 404, code="no_profile")
        await self.set(profile["id"], other, on)
        return await self.listed(profile)


def resend(t: LiveTable, seat: int) -> None:
    """Every socket of ``seat`` is sent the table's chat again, as it may see it now."""
    msg = t.chat_for(seat)
    for c in t.seats[seat].conns:
        c.push(msg)


def check_target(t: LiveTable, seat: int, target: int) -> None:
    """Refuse a mute of ``target`` by ``seat`` that makes no sense, in words."""
    if target == seat:
        raise RequestError("you cannot mute yourself", code="mute_self")
    s = t.seats[target]
    if s.kind == "bot":
        raise RequestError(
            f"seat {target} is a bot: bots do not chat, there is nothing to mute", code="mute_bot"
        )
    if s.free:
        raise RequestError(f"seat {target} is empty: nobody sits there to mute", code="mute_empty")


async def mute(t: LiveTable, seat: int, target: int, on: bool) -> None:
    """``seat`` mutes (``on``) or unmutes ``target``: stored against the target's profile
    when both seats have one, else for this table only."""
    check_target(t, seat, target)
    mine, theirs = t.seats[seat].profile, t.seats[target].profile
    if not on:
        t.mutes.get(seat, set()).discard(target)
    if mine is not None and theirs is not None:
        await t.host.set_mute(mine, theirs, on)  # every seat of the muter is told
        return
    if on:
        t.mutes.setdefault(seat, set()).add(target)
    resend(t, seat)


# ---------------------------------------------------------------------------- requests
def target_seat(msg: dict[str, Any], players: int) -> int:
    """The "seat" of a mute or unmute intent."""
    seat = msg.get("seat")
    if type(seat) is not int or not 0 <= seat < players:
        raise RequestError(
            f'"seat" must be the number of a seat at this table (0 to {players - 1})', code="bad_request"
        )
    return seat
