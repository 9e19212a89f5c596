"""Every table the server holds, the storage, the bots' worker processes (``jobs.searches``) and
the HTTP requests that make and fill tables."""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from . import validate
from .cluster import Cluster, ClusterSettings
from .jobs.replays import build as build_replay
from .jobs.searches import REPLAY_NICE, Searches, lower_priority
from .limits import Buckets
from .messages import CreatedTable, JoinedSeat, ProfileInfo, TableInfo
from .play.chatfilter import ChatFilter
from .play.driver import drive
from .play.moderation import Mutes
from .play.quickmatch import QuickMatch
from .play.table import LiveTable
from .play.tournaments import Tournaments
from .settings import ServerSettings
from .store import ratings, results
from .store.database import Damaged, Store, TableRow
from .store.profiles import Profiles
from .store.writer import DAMAGED, Writer
from .validate import RequestError, new_token, token_hash
from .words.names import seat_default

log = logging.getLogger("bonepile.serve")

LISTED = 100  # tables in the lobby's list (the newest)
REPLAYS_WAITING = 4  # replay requests being built or waiting for the replay worker; more get 503
ADDRESS_REPLAYS = 2  # of them, from one client address; more get 429 (uploads leave one free)
REPLAY_CACHE = 64 << 20  # bytes of finished tables' replays kept, built once each


class Server:
    """The tables of this server and what they share.  A table reaches it only through
    ``play.table.TableHost`` (the settings, the searches and a few callbacks)."""

    def __init__(
        self,
        db: str,
        settings: ServerSettings = ServerSettings(),
        *,
        chat_filter: ChatFilter | None = None,
        cluster: ClusterSettings | None = None,
    ):
        self.settings = settings
        self.store = Store(db, durable=settings.durable)
        self.tables: dict[str, LiveTable] = {}
        self.creates = Buckets(settings.create_rate)  # tables created per client address
        self.sockets_from: dict[str, int] = {}  # client address -> table sockets open
        self.watching_from: dict[str, int] = {}  # client address -> spectators' sockets open
        self.watch_opens = Buckets(settings.watch_rate)  # spectators' sockets opened per address
        self.bot_tables_from: dict[str, list[str]] = {}  # client address -> its bots-only tables
        self.db_pool = ThreadPoolExecutor(1, thread_name_prefix="bonepile-db")
        # the experts' searches (bot moves, hints): one worker process per core by default
        self.searches = Searches(settings.bot_workers or None, processes=settings.bot_processes)
        self.writer = Writer(self.store, self.db_pool, self.isolate)
        self.profiles = Profiles(self.store, self.db, settings.profiles, profile_rate=settings.profile_rate)
        self.mutes = Mutes(self.store, self.db, self.tables)  # who muted whom (``moderation``)
        self.chat_filter = chat_filter  # the words masked in the chat (--chat-filter), if any
        self.damaged: dict[str, str] = {}  # tables whose stored data cannot be used: id -> why
        self._replay_pool: ProcessPoolExecutor | ThreadPoolExecutor | None = None
        self.replay_renewed = 0  # replay workers replaced after they died
        self.replays_waiting = 0
        self.replays_from: dict[str, int] = {}  # client address -> its replays waiting
        self.uploads_waiting = 0  # of them, uploaded records' (they leave one place free)
        self.replay_cache: OrderedDict[str, bytes] = OrderedDict()
        # one worker of several (``serve --workers``): it plays only the tables it leases
        self.cluster = Cluster(self, cluster) if cluster is not None else None
        self.listed = LISTED  # tables in the lobby's list (a cluster's merged list too)
        self.quick = QuickMatch(self)  # quick match's queue (``play.quickmatch``)
        self.tournaments = Tournaments(self)  # tournaments for people (``play.tournaments``)

    async def db(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """``fn`` run in the storage thread; a storage fault is a StorageError (a JSON 503,
        logged once per burst)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.db_pool, lambda: fn(*args, **kw))
        except SQLAlchemyError as e:
            raise self.writer.faults.report(getattr(fn, "__name__", "storage").replace("_", " "), e) from None

    async def start(self) -> None:
        """Load every table that is not over and start playing them again (a worker of a
        cluster: the tables nobody else plays)."""
        self.writer.start()
        if self.cluster is not None:
            await self.cluster.start()
        else:
            damaged: dict[str, str] = {}
            rows = await self.db(self.store.load_active, damaged)
            for tid, why in damaged.items():
                self.mark_damaged(tid, why)
            for row in rows:
                await self.adopt(row)
        log.info("resumed %d tables", len(self.tables))
        if self.cluster is None:  # (tournaments are played by a server of one process)
            await self.tournaments.start()
        await self._rate_missed()
        # A full collection of the cyclic garbage collector stops the event loop for as long
        # as it takes to scan every live object (over 100 ms with a few hundred tables):
        # leave what exists now out of it, and run it far less often.
        gc.freeze()
        gc.set_threshold(20000, 50, 100)

    async def adopt(self, row: TableRow) -> LiveTable | None:
        """A stored table not over, rebuilt from its actions and played again (None: its
        stored data cannot be used)."""
        try:
            t = LiveTable(row, self)
        except Exception as e:
            self.mark_damaged(
                row.id, f"it cannot be rebuilt from its stored actions ({type(e).__name__}: {e})"
            )
            return None
        if t.ended and t.status != "over":  # stopped between its last move and this mark
            t.status = "over"
            await self._store_result(t)  # the mark and the result, in one transaction
        self._run(t)
        return t

    # ------------------------------------------------------------------ what a table asks
    async def store_action(self, action: tuple[str, int, str, str, int]) -> None:
        """Store one action of a table (``Writer``)."""
        await self.writer.append(action)

    def muted_by(self, profile: str | None) -> set[str]:
        return self.mutes.of(profile)

    async def set_mute(self, muter: str, muted: str, on: bool) -> None:
        await self.mutes.set(muter, muted, on)

    def sealed(self, t: LiveTable) -> bool:
        return self.tournaments.embargoed(t.id)

    async def game_over(self, t: LiveTable) -> None:
        """The table's game is over: its mark and result stored, then the game rated when the
        table is rated (a rating that fails is logged and made at the next start)."""
        await self._store_result(t)
        try:
            await self.db(ratings.rate_table, self.store.engine, t.id, t.outcome())
        except Exception:
            log.exception("table %s: its game could not be rated now (it will be at the next start)", t.id)

    async def _store_result(self, t: LiveTable) -> None:
        await self.db(results.finish_table, self.store.engine, t.id, t.result())

    async def _rate_missed(self) -> None:
        """At start: rate each finished rated table that was not rated (the server stopped in
        between)."""
        for tid in await self.db(ratings.unrated_tables, self.store.engine):
            try:
                t = await self.finished(tid)
                if t.game.over:
                    await self.db(ratings.rate_table, self.store.engine, tid, t.outcome())
            except Exception:
                log.exception("table %s: its game could not be rated", tid)

    def let_go(self, t: LiveTable) -> None:
        """A finished table nobody looks at leaves memory (storage keeps it)."""
        self.tables.pop(t.id, None)
        self.searches.forget(t.id)

    async def start_rematch(self, row: TableRow, of: LiveTable, settings: dict[str, Any]) -> None:
        """Store the rematch ``row`` of table ``of`` (whose settings become ``settings``), then
        play it."""
        await self.db(self.store.create_rematch, row, of.id, settings)
        self.play(row)

    def _run(self, t: LiveTable) -> None:
        self.tables[t.id] = t
        if self.cluster is not None:
            self.cluster.adopted(t.id)
        t.task = asyncio.get_running_loop().create_task(drive(t))

    def play(self, row: TableRow) -> LiveTable:
        """Start playing a table just stored (a rematch): in memory, driven, woken."""
        t = LiveTable(row, self)
        self._run(t)
        t.wake.set()
        return t

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()
        for t in self.tables.values():
            if t.task:
                t.task.cancel()
        self.quick.stop()
        self.tournaments.stop()
        self.writer.stop()
        self.searches.close()
        if self._replay_pool is not None:
            self._replay_pool.shutdown(wait=False, cancel_futures=True)
        self.db_pool.shutdown(wait=True)
        self.store.close()

    # --------------------------------------------------------------------- tables
    def mark_damaged(self, table_id: str, why: str) -> None:
        """A table whose stored data cannot be used: one log line; its routes answer 503."""
        self.damaged[table_id] = why
        log.error("table %s: its stored data is damaged: %s; left in storage untouched", table_id, why)

    def isolate(self, table_id: str, why: str) -> None:
        """A row of this table could not be stored (``Writer``): the table stops (its driver,
        its moves); its sockets are told; the other tables play on."""
        self.damaged[table_id] = why
        t = self.tables.pop(table_id, None)
        if t is None:
            return
        if t.task is not None:
            t.task.cancel()
        t.broadcast(
            {"type": "error", "message": DAMAGED, "code": "damaged"}
        )  # every seat's and spectator's socket

    def get(self, table_id: str) -> LiveTable:
        if table_id in self.damaged:
            raise RequestError(DAMAGED, 503, code="damaged")
        t = self.tables.get(table_id)
        if t is None:
            raise RequestError(f"no table {table_id!r} is being played here", 404, code="no_table")
        return t

    async def finished(self, table_id: str) -> LiveTable:
        """A table in memory, or a finished one loaded from storage."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if table_id in self.damaged:
            raise RequestError(DAMAGED, 503, code="damaged")
        try:
            row = await self.db(self.store.load, validate.table_id(table_id))
            if row is None:
                raise RequestError(f"no table {table_id!r}", 404, code="no_table")
            return LiveTable(row, self)
        except Damaged as e:
            self.mark_damaged(table_id, e.reason)
        except RequestError:
            raise
        except Exception as e:
            self.mark_damaged(
                table_id, f"it cannot be rebuilt from its stored actions ({type(e).__name__}: {e})"
            )
        raise RequestError(DAMAGED, 503, code="damaged")

    def seat_of(self, t: LiveTable, token: Any) -> int:
        if not isinstance(token, str) or not token:
            raise RequestError("a seat token is required", 403, code="token")
        h = token_hash(token)
        for i, s in enumerate(t.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return i
        raise RequestError("this seat token does not belong to this table", 403, code="token")

    def socket_opened(self, t: LiveTable, seat: int | None, address: str) -> str:
        """Count a new socket of ``seat`` (None: a spectator's) from ``address``
        (RequestError 429 past the caps); the address to give ``socket_closed``."""
        if seat is None:
            wait = self.watch_opens.take(address)
            if wait:
                raise RequestError(
                    f"too many tables opened to watch from your address: at most "
                    f"{self.settings.watch_rate:g} a minute; try again in {wait:.0f} s",
                    429,
                    code="watch_rate",
                    params={"s": max(1, round(wait))},
                )
            if len(t.watchers) >= self.settings.table_watchers:
                raise RequestError(
                    f"{self.settings.table_watchers} people are watching this table already "
                    f"(at most {self.settings.table_watchers}); try again later",
                    429,
                    code="watchers_full",
                )
            if self.watching_from.get(address, 0) >= self.settings.address_watchers:
                raise RequestError(
                    f"{self.settings.address_watchers} tables are being watched from your address "
                    f"already (at most {self.settings.address_watchers}); close another tab",
                    429,
                    code="watching_many",
                )
        elif len(t.seats[seat].conns) >= self.settings.seat_sockets:
            raise RequestError(
                f"seat {seat} has {self.settings.seat_sockets} sockets open already "
                f"(at most {self.settings.seat_sockets}); close another tab",
                429,
                code="seat_tabs",
            )
        n = self.sockets_from.get(address, 0)
        if n >= self.settings.address_sockets:
            raise RequestError(
                f"{self.settings.address_sockets} table sockets are open from your address "
                f"already (at most {self.settings.address_sockets})",
                429,
                code="address_tabs",
            )
        self.sockets_from[address] = n + 1
        if seat is None:
            self.watching_from[address] = self.watching_from.get(address, 0) + 1
        return address

    def socket_closed(self, address: str, watching: bool = False) -> None:
        counts = [self.sockets_from, self.watching_from] if watching else [self.sockets_from]
        for by in counts:
            n = by.get(address, 0) - 1
            if n > 0:
                by[address] = n
            else:
                by.pop(address, None)

    def listing(self) -> list[TableInfo]:
        """The newest public tables not over and not abandoned by their people.  ``tables`` is kept in the order the tables were made
        (loaded by creation time, new ones added at the end): the list reads from its end and
        builds no more than LISTED tables' info."""
        out: list[TableInfo] = []
        now, grace = time.monotonic(), self.settings.grace
        for t in reversed(self.tables.values()):
            # a private table is not listed, nor one its people all left (``abandoned``)
            if t.status != "over" and t.invite_hash is None and not t.abandoned(now, grace):
                out.append(t.info())
                if len(out) >= LISTED:
                    break
        return out

    def allow_create(self, address: str) -> None:
        """A token bucket per client address: ``create_rate`` tables a minute, bursts of twice
        as many (RequestError 429 past it)."""
        wait = self.creates.take(address)
        if wait:
            raise RequestError(
                f"too many tables created from your address: at most {self.settings.create_rate:g} a "
                f"minute (bursts of {self.creates.burst:g}); try again in {wait:.0f} s",
                429,
                code="create_rate",
                params={"s": max(1, round(wait))},
            )

    async def expire(self, t: LiveTable, why: str | None = None) -> None:
        """A table that waited TABLE_TTL seconds for its players (or a table of bots only that
        nobody watched for ``bots_unwatched`` seconds: ``why``) is closed (stored as over,
        with no winner) and leaves memory."""
        await self.db(self.store.update_table, t.id, status="over")
        t.status = "over"
        t.changed()
        self.tables.pop(t.id, None)
        self.searches.forget(t.id)
        why = why or f"it waited {self.settings.table_ttl:.0f} s for its players"
        log.info("table %s: closed: %s", t.id, why)

    def allow_bot_table(self, address: str) -> None:
        """A client address has at most ``address_bot_tables`` tables of bots only playing
        (RequestError 429 past it)."""
        n = self.settings.address_bot_tables
        mine = [
            tid
            for tid in self.bot_tables_from.get(address, [])
            if tid in self.tables and self.tables[tid].status != "over"
        ]
        if mine:
            self.bot_tables_from[address] = mine
        else:
            self.bot_tables_from.pop(address, None)
        if len(mine) >= n:
            raise RequestError(
                f"{len(mine)} tables of bots only are playing for your address already (at most {n}); "
                "watch one to its end or wait until one closes",
                429,
                code="bot_tables_many",
                params={"n": n},
            )

    # --------------------------------------------------------------------- replays
    def _replay_worker(self) -> ProcessPoolExecutor | ThreadPoolExecutor:
        """The replay worker's pool, started when first needed or after its worker died (a
        broken pool is replaced, never given up for a thread)."""
        pool = self._replay_pool
        if isinstance(pool, ProcessPoolExecutor) and getattr(pool, "_broken", False):
            log.error("the replay worker process stopped; starting a new one")
            pool.shutdown(wait=False, cancel_futures=True)
            self.replay_renewed += 1
            pool = None
        if pool is None:
            pool = self._replay_pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,
                initargs=(REPLAY_NICE,),
            )
        return pool

    def address_of(self, conn: Any) -> str:
        """The client address of a request or socket (a cluster's relayed one as relayed)."""
        if self.cluster is not None:
            return self.cluster.client_host(conn)
        return conn.client.host if conn.client else ""

    async def replay(
        self,
        source: bytes | dict[str, Any],
        *,
        finished_only: bool,
        key: str | None = None,
        address: str = "",
        hand: int | None = None,
    ) -> tuple[int, bytes]:
        """A replay answer (status, JSON bytes): its index, or with ``hand`` (from 1) that
        hand's positions (``jobs/replays.py``), built in the replay worker process, never on
        the event loop; at most REPLAYS_WAITING at once, ADDRESS_REPLAYS of them from one
        client ``address``, and uploaded records (``finished_only`` false) leave one place for
        this server's tables.  With a ``key`` (a finished table) the answer is built once and
        kept (a hand's under the key ``<key>/<hand>``)."""
        if key is not None and hand is not None:
            key = f"{key}/{hand}"
        if key is not None and key in self.replay_cache:
            self.replay_cache.move_to_end(key)
            return 200, self.replay_cache[key]
        mine = self.replays_from.get(address, 0)
        if mine >= ADDRESS_REPLAYS:
            raise RequestError(
                f"you have {mine} replays being built already (at most {ADDRESS_REPLAYS} at once); "
                "wait for them",
                429,
                code="replay_yours",
                params={"n": ADDRESS_REPLAYS},
            )
        upload = not finished_only
        if self.replays_waiting >= REPLAYS_WAITING or (
            upload and self.uploads_waiting >= REPLAYS_WAITING - 1
        ):
            raise RequestError(
                "the server is busy building other replays; try again in a moment", 503, code="replay_busy"
            )
        self.replays_waiting += 1
        self.uploads_waiting += upload
        self.replays_from[address] = mine + 1
        try:
            loop = asyncio.get_running_loop()
            try:
                try:
                    fut = loop.run_in_executor(
                        self._replay_worker(), build_replay, source, finished_only, hand
                    )
                except BrokenProcessPool:  # its worker died since the last replay: a new one
                    self._replay_pool = None
                    fut = loop.run_in_executor(
                        self._replay_worker(), build_replay, source, finished_only, hand
                    )
            except RuntimeError:  # no process can be started here (e.g. a script without a
                # ``__main__`` guard embeds the app): a thread, still off the event loop
                log.warning("replays are built in a thread: no worker process could be started")
                self._replay_pool = ThreadPoolExecutor(1, thread_name_prefix="bonepile-replay")
                fut = loop.run_in_executor(self._replay_pool, build_replay, source, finished_only, hand)
            status, body = await fut
        except BrokenProcessPool:  # its worker died building this one: a new one next time
            self._replay_pool = None
            raise RequestError(
                "the replay could not be built (its worker stopped); try again", 503, code="replay_failed"
            ) from None
        except Exception:  # a bug, not the client's fault: one line of JSON, logged once here
            log.exception("building a replay failed")
            raise RequestError(
                "the replay could not be built (a fault of the server)", 500, code="replay_failed"
            ) from None
        finally:
            self.replays_waiting -= 1
            self.uploads_waiting -= upload
            if self.replays_from.get(address, 0) > 1:
                self.replays_from[address] -= 1
            else:
                self.replays_from.pop(address, None)
        if key is not None and status == 200:
            self.replay_cache[key] = body
            while sum(map(len, self.replay_cache.values())) > REPLAY_CACHE and len(self.replay_cache) > 1:
                self.replay_cache.popitem(last=False)
        return status, body

    # --------------------------------------------------------------------- requests
    async def create(self, body: Any, address: str = "", profile: ProfileInfo | None = None) -> CreatedTable:
        """A new table; with a ``profile`` its creator's seat is tied to it (and named after it
        when the request names no player)."""
        new = validate.new_table(body)
        bots_only = all(d["kind"] != "human" for d in new.seats)
        if bots_only:
            self.allow_bot_table(address)
        self.allow_create(address)
        for i, d in enumerate(new.seats):
            if d.get("profile") is not None:  # a seat kept for a profile: named after it
                name = await self.db(self.store.profile_name, d["profile"])
                if name is None:
                    raise RequestError(
                        f"seat {i}: there is no profile {d['profile']!r} to keep it for", code="no_profile"
                    )
                if not (body.get("seats") or [{}] * (i + 1))[i].get("name"):
                    d["name"] = name
            d.setdefault("profile", None)
        if profile is not None and new.creator is not None:
            mine = new.seats[new.creator]
            mine["profile"] = profile["id"]
            seats_in = body.get("seats") or [{}]
            if not body.get("player") and not seats_in[new.creator].get("name"):
                mine["name"] = profile["name"]
        v = new.variant
        status = "playing" if all(s["token_hash"] for s in new.seats if s["kind"] == "human") else "waiting"
        settings: dict[str, Any] = {"timer": new.timer}
        if new.rated:
            settings["rated"] = True
            if new.rated_bots:
                settings["rated_bots"] = True
        tid = secrets.token_hex(6)
        link = f"/t/{tid}"
        if new.private:  # its link carries a secret; only the secret's hash is stored
            secret, settings["invite_hash"] = new_token()
            link += f"?invite={secret}"
        row = TableRow(
            id=tid,
            created=time.time(),
            name=new.name,
            variant=v.name,
            options=dict(v.options),
            seed=secrets.randbits(62),
            seats=new.seats,
            settings=settings,
            status=status,
        )
        t = await self.open_table(row)
        if bots_only:
            self.bot_tables_from.setdefault(address, []).append(t.id)
        return {"id": t.id, "seat": new.creator, "token": new.token, "invite": link, "private": new.private}

    async def open_table(self, row: TableRow) -> LiveTable:
        """A new table stored, then played (its driver started)."""
        await self.db(self.store.create_table, row)
        t = LiveTable(row, self)
        self._run(t)
        t.wake.set()
        return t

    async def join(self, table_id: str, body: Any, profile: ProfileInfo | None = None) -> JoinedSeat:
        """A free seat taken; with a ``profile`` the seat is tied to it (one seat a table)."""
        t = self.get(table_id)
        body = validate.body_object(body)
        validate.invite(body.get("invite"), t.invite_hash)
        name = validate.person_name(body.get("name"), "")
        async with t.lock:
            if profile is not None:
                for i, x in enumerate(t.seats):
                    if x.profile == profile["id"] and not x.free:  # (a free seat may be kept for it)
                        raise RequestError(
                            f"your profile already plays seat {i} at this table", 409, code="profile_seated"
                        )
            # a free seat kept for a profile is taken only with that profile's key
            mine = profile["id"] if profile is not None else None
            open_ = [i for i, s in enumerate(t.seats) if s.free] if t.status == "waiting" else []
            free = [i for i in open_ if t.seats[i].profile in (None, mine)]
            want = body.get("seat")
            kept = type(want) is int and want in open_ and want not in free
            if kept or (want is None and open_ and not free):
                raise RequestError(
                    "this seat is kept for another player's profile: only that player can take it",
                    403,
                    code="seat_reserved",
                )
            seat = validate.join_seat(want, free)
            token, hashed = validate.new_token()
            s = t.seats[seat]
            old = (s.token_hash, s.name, s.profile)
            s.token_hash = hashed
            s.name = name or (profile["name"] if profile is not None else seat_default("human", None, seat))
            s.profile = profile["id"] if profile is not None else None
            status = "playing" if not any(x.free for x in t.seats) else "waiting"
            try:
                await self.db(
                    self.store.update_table, t.id, seats=[x.stored() for x in t.seats], status=status
                )
            except Exception:
                s.token_hash, s.name, s.profile = old
                raise
            t.status = status
            t.game.names = [x.name for x in t.seats]
        t.changed()
        return {"seat": seat, "token": token}

    async def start_table(self, table_id: str, body: Any) -> TableInfo:
        t = self.get(table_id)
        token = body.get("token") if isinstance(body, dict) else None
        self.seat_of(t, token)
        async with t.lock:
            if t.status != "waiting":
                raise RequestError("the game has already started", 409, code="already_started")
            filled = False
            for i, s in enumerate(t.seats):
                if s.free:  # (a seat kept for a profile too: nobody's now)
                    s.kind, s.level, s.name = "bot", "expert", seat_default("bot", "expert", i)
                    s.profile = None
                    filled = True
            # a table of people that bots filled is not rated, unless its creator asked
            unrate = filled and t.rated and t.settings.get("rated_bots") is not True
            settings = {k: v for k, v in t.settings.items() if not (unrate and k == "rated")}
            await self.db(
                self.store.update_table,
                t.id,
                seats=[x.stored() for x in t.seats],
                status="playing",
                settings=settings if unrate else None,
            )
            if unrate:
                t.settings, t.rated = settings, False
            t.status = "playing"
            t.game.names = [x.name for x in t.seats]
        t.changed()
        return t.info()
