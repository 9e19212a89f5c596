"""Quick match: the queue of people waiting for a game, and the tables it opens.

A person with a profile asks for a game (a variant, its options, a player count), or invites
one person to one (``"invite"``: a profile id, seen in *who is here*), and is given a ticket, a
secret only their browser knows.  Every ``TICK`` seconds while anyone waits, the
waiting tickets are paired (``play.matchmaking.pair``: people of close ratings, bots after the
wait each person chose) and each group gets a new table with a seat and a seat token for each
of its people; a ticket's next poll answers with its table, seat and token.

Bounded like every anonymous action: joining counts as making a table (the server's token
bucket per address, ``Server.allow_create``), an address holds at most
``settings.address_tickets`` tickets and the server ``QUEUE_CAP``; a ticket nobody polls for
``IDLE`` seconds is dropped (its browser is gone), and a matched ticket's seat is kept for its
browser ``KEEP`` seconds.  One ticket per profile, so one person is never seated twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ...arena.skill import game_key, initial, profile_participant
from ...bots import BOT_LEVELS
from .. import validate
from ..messages import MatchState, ProfileInfo
from ..store.database import Store, TableRow
from ..store.ratings import rating_of
from ..validate import RequestError
from ..words.names import seat_default, table_default
from .matchmaking import Group, Ticket, pair

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...arena.skill import Rating
    from ..settings import ServerSettings
    from .table import LiveTable

log = logging.getLogger("bonepile.serve")
K = TypeVar("K")

TICK = 0.5  # seconds between two pairings while anyone waits
IDLE = 30.0  # seconds a ticket lives without a poll
KEEP = 120.0  # seconds a matched ticket's seat is kept for its browser
QUEUE_CAP = 5000  # tickets waiting on this server at once
BOTS_AFTER_MAX = 600  # the longest wait for bots a person may choose (seconds)
TIMER = 60  # seconds per move at a quick-match table (a person who leaves is replaced)
INVITES_SHOWN = 5  # invitations told to one person at once (the oldest)
PROFILE_ID = re.compile(r"[0-9a-f]{1,32}")


class MatchHost(Protocol):
    """What the queue needs of the server."""

    settings: ServerSettings
    store: Store

    async def db(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any: ...

    def allow_create(self, address: str) -> None: ...

    async def open_table(self, row: TableRow) -> LiveTable: ...


@dataclass
class Waiting:
    ticket: Ticket
    address: str
    name: str
    seen: float  # the last poll (monotonic)
    seat: MatchState | None = None  # once matched: the table, seat and token


class QuickMatch:
    def __init__(self, host: MatchHost, clock: Callable[[], float] = time.monotonic):
        self.host = host
        self.clock = clock
        self.waiting: dict[str, Waiting] = {}  # ticket id -> its entry (matched ones too, for KEEP)
        self.by_person: dict[str, str] = {}  # profile id -> its ticket id
        self.by_address: dict[str, int] = {}  # client address -> tickets waiting
        self.by_game: dict[tuple[str, int, str], int] = {}  # game -> tickets waiting (told to each poll)
        self.task: asyncio.Task[None] | None = None
        self.opened = 0  # tables opened (for the load benchmark and tests)

    # ---------------------------------------------------------------- requests
    async def join(self, body: Any, address: str, profile: ProfileInfo | None) -> MatchState:
        """Queue the person; a second request of the same profile returns its ticket."""
        if profile is None:
            raise RequestError(
                "quick match needs a profile (POST /api/profiles, then send its key)",
                401,
                code="profile_required",
            )
        body = validate.body_object(body)
        pid = profile["id"]
        mine = self.by_person.get(pid)
        if mine is not None and mine in self.waiting:
            w = self.waiting[mine]
            w.seen = self.clock()
            return self.state(w)
        checked = validate.new_table({k: body[k] for k in ("variant", "options", "players") if k in body})
        v = checked.variant
        bots_after = body.get("bots_after", 30)
        if bots_after is not None and (
            type(bots_after) not in (int, float) or not 0 <= bots_after <= BOTS_AFTER_MAX
        ):
            raise RequestError(
                f'"bots_after" must be the seconds to wait before bots fill the table, from 0 to '
                f"{BOTS_AFTER_MAX}, or null (people only)",
                code="bad_request",
            )
        level = body.get("level", "expert")
        if level not in BOT_LEVELS:
            raise RequestError(f'"level" must be one of {", ".join(BOT_LEVELS)}', code="bad_request")
        rated = body.get("rated", True)
        if type(rated) is not bool:
            raise RequestError('"rated" must be true or false', code="bad_request")
        mate = body.get("invite")
        if mate is not None and (not isinstance(mate, str) or not PROFILE_ID.fullmatch(mate) or mate == pid):
            raise RequestError(
                '"invite" must be the id of the profile you invite (not yours), or null', code="bad_request"
            )
        if len(self.waiting) >= QUEUE_CAP:
            raise RequestError(
                "too many people are waiting for a quick match; try again in a moment", 503, code="queue_full"
            )
        cap = self.host.settings.address_tickets
        if self.by_address.get(address, 0) >= cap:
            raise RequestError(
                f"{cap} people wait for a quick match from your address already (at most {cap})",
                429,
                code="queue_address",
                params={"n": cap},
            )
        self.host.allow_create(address)
        key = game_key(v.name, v.players)
        found = await self.host.db(_rating, self.host.store.engine, profile_participant(pid), key)
        ticket = Ticket(
            id=secrets.token_urlsafe(18),
            person=pid,
            game=(v.name, v.players, json.dumps(dict(v.options), sort_keys=True)),
            rating=found.shown,
            joined=self.clock(),
            bots_after=None if bots_after is None or mate is not None else float(bots_after),
            level=str(level),
            rated=rated,
            with_=mate,
        )
        w = Waiting(ticket, address, profile["name"], self.clock())
        self.waiting[ticket.id] = w
        self.by_person[pid] = ticket.id
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_game[ticket.game] = self.by_game.get(ticket.game, 0) + 1
        self._wake()
        return self.state(w)

    def poll(self, ticket_id: str) -> MatchState:
        w = self.waiting.get(ticket_id) if isinstance(ticket_id, str) else None
        if w is None:
            raise RequestError("no such quick-match ticket (it was left or timed out)", 404, code="no_ticket")
        w.seen = self.clock()
        return self.state(w)

    def leave(self, ticket_id: str) -> None:
        w = self.waiting.get(ticket_id)
        if w is not None and w.seat is None:
            self._drop(w)

    def state(self, w: Waiting) -> MatchState:
        if w.seat is not None:
            return w.seat
        t, now = w.ticket, self.clock()
        queued = self.by_game.get(t.game, 0)
        return {
            "ticket": t.id,
            "status": "waiting",
            "waited": round(now - t.joined, 1),
            "rating": t.rating,
            "gap": round(t.gap(now)),
            "queued": queued,
            "bots_after": t.bots_after,
            "invited": t.with_,
            "table": None,
            "seat": None,
            "token": None,
        }

    def queued(self) -> list[tuple[str, str, tuple[str, int, str]]]:
        """Who waits now: (profile id, name, game) per waiting ticket."""
        return [(w.ticket.person, w.name, w.ticket.game) for w in self.waiting.values() if w.seat is None]

    def invites_for(self, profile: str) -> list[tuple[str, str, tuple[str, int, str]]]:
        """The invitations waiting for ``profile``: (who invites, their name, the game), oldest
        first, at most INVITES_SHOWN."""
        found = [w for w in self.waiting.values() if w.seat is None and w.ticket.with_ == profile]
        found.sort(key=lambda w: w.ticket.joined)
        return [(w.ticket.person, w.name, w.ticket.game) for w in found[:INVITES_SHOWN]]

    def stop(self) -> None:
        """The server stops: no more pairing (the tickets are in memory only and go with it)."""
        if self.task is not None:
            self.task.cancel()

    # ---------------------------------------------------------------- pairing
    def _drop(self, w: Waiting) -> None:
        self.waiting.pop(w.ticket.id, None)
        if self.by_person.get(w.ticket.person) == w.ticket.id:
            del self.by_person[w.ticket.person]
        if w.seat is None:
            self._waits_no_more(w)

    def _waits_no_more(self, w: Waiting) -> None:
        """``w`` leaves the counts of waiting tickets (dropped, or seated)."""
        _less(self.by_address, w.address)
        _less(self.by_game, w.ticket.game)

    def _wake(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        """Pair every TICK while anyone waits (or a matched seat is kept); then stop."""
        while self.waiting:
            try:
                await self.tick()
            except Exception:  # a table that could not be opened: logged, the others go on
                log.exception("quick match: a pairing failed")
            await asyncio.sleep(TICK)

    async def tick(self) -> int:
        """Drop the idle tickets, pair the rest and open a table per group; the tables opened."""
        now = self.clock()
        for w in list(self.waiting.values()):
            if now - w.seen > (KEEP if w.seat is not None else IDLE):
                self._drop(w)
        groups = pair([w.ticket for w in self.waiting.values() if w.seat is None], now)
        for g in groups:
            await self._open(g)
        return len(groups)

    async def _open(self, g: Group) -> None:
        first = g.tickets[0]
        variant, players, options = first.game
        entries = [self.waiting[t.id] for t in g.tickets]
        order = list(range(players))
        secrets.SystemRandom().shuffle(order)  # people's seats drawn, bots in the others
        seats: list[dict[str, Any]] = [{}] * players
        tokens: dict[str, tuple[int, str]] = {}
        for w, s in zip(entries, order):
            token, hashed = validate.new_token()
            seats[s] = {
                "name": w.name,
                "kind": "human",
                "level": None,
                "token_hash": hashed,
                "profile": w.ticket.person,
            }
            tokens[w.ticket.id] = (s, token)
        for s in order[len(entries) :]:
            seats[s] = {
                "name": seat_default("bot", g.level, s),
                "kind": "bot",
                "level": g.level,
                "token_hash": None,
                "profile": None,
            }
        rated = all(t.rated for t in g.tickets) and len(g.tickets) >= 2
        settings: dict[str, Any] = {"timer": TIMER, "quick": True}
        if rated:
            settings["rated"] = True
        row = TableRow(
            id=secrets.token_hex(6),
            created=time.time(),
            name=table_default(variant),
            variant=variant,
            options=json.loads(options),
            seed=secrets.randbits(62),
            seats=seats,
            settings=settings,
            status="playing",
        )
        t = await self.host.open_table(row)
        self.opened += 1
        for w in entries:
            seat, token = tokens[w.ticket.id]
            w.seat = {
                "ticket": w.ticket.id,
                "status": "seated",
                "waited": round(self.clock() - w.ticket.joined, 1),
                "rating": w.ticket.rating,
                "gap": round(w.ticket.gap(self.clock())),
                "queued": 0,
                "bots_after": w.ticket.bots_after,
                "invited": w.ticket.with_,
                "table": t.id,
                "seat": seat,
                "token": token,
            }
            w.seen = self.clock()
            self._waits_no_more(w)
            if self.by_person.get(w.ticket.person) == w.ticket.id:
                del self.by_person[w.ticket.person]  # free to queue again


def _less(counts: dict[K, int], key: K) -> None:
    """One less of ``key`` in ``counts`` (none left: the key goes)."""
    n = counts.get(key, 0) - 1
    if n > 0:
        counts[key] = n
    else:
        counts.pop(key, None)


def _rating(engine: Any, participant: str, key: str) -> Rating:
    """The participant's rating at ``key`` (the start's when not rated there yet)."""
    found = rating_of(engine, key, participant)
    return initial() if found is None else found.rating
