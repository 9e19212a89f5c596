"""The server as one worker of a cluster (``bonepile serve --workers N``, on one machine or
several behind one load balancer, sharing one PostgreSQL database).  docs/SCALING.md tells
the design; in short:

* each table is played by one worker at a time, the one holding its lease (``leases``); a
  worker renews its leases every third of their life, and takes the tables whose lease
  expired (its worker died) from their stored actions, as a restarted server does;
* any worker accepts any socket and any request: for a table played elsewhere it relays the
  socket, frame for frame, to the owner's cluster listener (and forwards the HTTP request),
  so that every message about a table is built by the one process that holds it — hidden
  information, presence, chat, timers stay the single server's;
* when the owner dies under a relayed socket, the relay finds the new owner (taking the
  table over itself once the lease has expired) and goes on: the socket stays open and its
  next message is the table's state on the new owner.

The cluster listener is a second socket of the same application, reached only by the other
workers: a request on it is never relayed again and may say which client it relays
(``CLIENT``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import httpx
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse, Response

from .messages import TableInfo
from .play.table import LiveTable
from .store.database import Damaged, Store, TableRow
from .store.leases import Fenced, Leases
from .store.writer import Writer

log = logging.getLogger("bonepile.serve")

LEASE = 10.0  # seconds a lease lasts unless renewed (renewed every third of that)
CLIENT = "x-bonepile-client"  # the client's address, from a relaying worker
RETRY = 0.2  # seconds between two attempts to reach a table's owner
RELOCATIONS = 20  # owners a relayed socket follows before it is closed
TABLE_PATH = re.compile(r"^/api/tables/([^/]+)(/[a-z]+)?$")
MAX_BODY = 1 << 20
GONE = 1012  # "service restart": the client reconnects (the table moved to another worker)


@dataclass(frozen=True)
class ClusterSettings:
    worker: str  # this worker's id (unique in the cluster)
    address: str  # host:port of this worker's cluster listener, as the others reach it
    port: int  # the port of the cluster listener (a request on it comes from another worker)
    lease: float = LEASE


class ClusterHost(Protocol):
    """What a worker of the cluster reads and calls of its server."""

    store: Store
    writer: Writer
    tables: dict[str, LiveTable]  # the tables this worker plays
    damaged: dict[str, str]  # tables whose stored data cannot be used: id -> why
    listed: int  # tables in the lobby's list

    async def db(self, fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """``fn`` run in the storage thread."""

    def mark_damaged(self, table_id: str, why: str) -> None:
        """A table whose stored data cannot be used."""

    async def adopt(self, row: TableRow) -> LiveTable | None:
        """A stored table, rebuilt and played here (None: damaged)."""

    def listing(self) -> list[TableInfo]:
        """This worker's newest public tables not over."""


class Cluster:
    def __init__(self, server: ClusterHost, settings: ClusterSettings):
        self.server = server
        self.settings = settings
        self.worker = settings.worker
        self.address = settings.address
        self.lease = settings.lease
        self.leases = Leases(server.store.engine, settings.worker, settings.address, settings.lease)
        self.claimed: set[str] = set()  # tables whose lease this worker took
        self.sockets: dict[str, weakref.WeakSet[WebSocket]] = {}  # table -> its sockets here
        self._taking: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None
        self._http: httpx.AsyncClient | None = None
        # an action is stored only while this worker holds its table's lease
        server.writer.store = Fenced(server.store, self.leases)  # type: ignore[assignment]

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        """Join the cluster and take the tables nobody plays (all of them for the first
        worker of a cluster: they are resumed from their stored actions)."""
        self._http = httpx.AsyncClient(timeout=httpx.Timeout(30, connect=2))
        await self.server.db(self.leases.register)
        await self.sweep()
        self._loop = asyncio.get_running_loop().create_task(self._renewing())
        log.info("worker %s at %s: playing %d tables", self.worker, self.address, len(self.server.tables))

    async def stop(self) -> None:
        """Leave the cluster: the leases are given up, the other workers take the tables now."""
        if self._loop is not None:
            self._loop.cancel()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.server.db(self.leases.leave)
        if self._http is not None:
            await self._http.aclose()

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.renew()
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database is away: the leases run out, others take over
                log.warning("worker %s could not renew its leases: %s", self.worker, e)

    async def renew(self) -> None:
        held = await self.server.db(self.leases.renew)
        tables = self.server.tables
        for tid in [t for t in self.claimed if t not in held]:  # taken by another worker meanwhile
            self.claimed.discard(tid)
            if tid in tables:
                log.warning("table %s: this worker's lease ran out; another worker plays it now", tid)
                await self.drop(tid)
        # the table left memory (finished, closed); a damaged table's lease is kept (this
        # worker answers for it; the others would load it again and again)
        done = [t for t in held if t not in tables and t not in self.server.damaged]
        if done:
            await self.server.db(self.leases.release, done)
            self.claimed.difference_update(done)

    async def sweep(self) -> None:
        """Take the tables whose lease expired (and those nobody ever leased)."""
        for tid in await self.server.db(self.leases.orphans, self.lease):
            if tid not in self.server.tables:
                await self.take(tid)

    async def take(self, table_id: str) -> bool:
        """Take a table nobody holds: its lease, then its row and actions (the restart path).
        True when the table is played here now."""
        lock = self._taking.setdefault(table_id, asyncio.Lock())
        async with lock:
            try:
                if table_id in self.server.tables:
                    return True
                if not await self.server.db(self.leases.acquire, table_id):
                    return False
                self.claimed.add(table_id)
                # refused here before (its lease was lost meanwhile): it is ours again
                self.server.writer.refused.discard(table_id)
                try:
                    row = await self.server.db(self.server.store.load, table_id)
                except Damaged as e:
                    self.server.mark_damaged(table_id, e.reason)
                    return False
                if row is None or row.status == "over":
                    await self.server.db(self.leases.release, [table_id])
                    self.claimed.discard(table_id)
                    return False
                t = await self.server.adopt(row)
                if t is not None:
                    log.info("worker %s took table %s over at action %d", self.worker, table_id, t.seq)
                return t is not None
            finally:
                self._taking.pop(table_id, None)

    def adopted(self, table_id: str) -> None:
        """A table made here (created, a rematch) or taken over: its lease is ours (taken
        now for a new table)."""
        if table_id in self.claimed:
            return

        async def claim() -> None:
            if await self.server.db(self.leases.acquire, table_id):
                self.claimed.add(table_id)
            else:  # never expected: another worker holds the lease of a table just made
                log.error("table %s: another worker holds its lease; it is left to that worker", table_id)
                await self.drop(table_id)

        task = asyncio.get_running_loop().create_task(claim())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drop(self, table_id: str) -> None:
        """Stop playing a table here: its driver stops, its sockets here close (they come
        back, and reach the table's new owner)."""
        t = self.server.tables.pop(table_id, None)
        if t is not None and t.task is not None:
            t.task.cancel()
        for ws in list(self.sockets.pop(table_id, ())):
            with contextlib.suppress(Exception):
                await ws.close(code=GONE)

    # ------------------------------------------------------------------ where a table is
    def internal(self, scope: Any) -> bool:
        """A request that came to the cluster listener (from another worker)."""
        server = scope.get("server")
        return bool(server) and server[1] == self.settings.port

    def client_host(self, conn: Request | WebSocket) -> str:
        relayed = conn.headers.get(CLIENT)
        if relayed and self.internal(conn.scope):
            return relayed
        return conn.client.host if conn.client else ""

    async def locate(self, table_id: str) -> str | None:
        """The address of the worker playing the table (this worker's own once it took the
        table over); None when nobody plays it (no such table, or over)."""
        while True:
            if table_id in self.server.tables:
                return self.address
            owner = await self.server.db(self.leases.owner, table_id)
            if owner is not None:
                return None if owner.worker == self.worker else owner.address
            if await self.take(table_id):
                return self.address
            if await self.server.db(self.leases.owner, table_id) is None:
                return None  # not a table being played (or damaged: the route says so)

    # ------------------------------------------------------------------ sockets
    async def relay(self, ws: WebSocket, table_id: str) -> bool:
        """A socket (accepted) for a table: False when the table is played here (the route
        goes on); else the socket is relayed to the table's owner until either side closes
        it (True)."""
        if not self.internal(ws.scope):
            where = await self.locate(table_id)
            if where is not None and where != self.address:
                await Relay(self, ws, table_id).run(where)
                return True
        elif table_id not in self.server.tables and table_id not in self.server.damaged:
            # relayed here, but the table left this worker meanwhile: the relay looks again
            await ws.close(code=GONE)
            return True
        self.sockets.setdefault(table_id, weakref.WeakSet()).add(ws)
        return False

    # ------------------------------------------------------------------ HTTP
    def install(self, app: FastAPI) -> None:
        @app.middleware("http")
        async def _cluster(request: Request, call_next: Callable[[Request], Awaitable[Response]]):
            if self.internal(request.scope):
                return await call_next(request)
            path = request.url.path
            if path == "/api/tables" and request.method == "GET":
                return await self.listing()
            m = TABLE_PATH.match(path)
            if m is None or m.group(1) in self.server.tables:
                return await call_next(request)
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    return JSONResponse(
                        {
                            "error": f"the body is larger than {MAX_BODY} bytes",
                            "code": "too_large",
                            "params": {"n": MAX_BODY},
                        },
                        413,
                    )
            # kept as Request.body() keeps it: Starlette gives it to the route again
            request._body = body
            end = time.monotonic() + 3 * self.lease
            while True:
                where = await self.locate(m.group(1))
                if where is None or where == self.address:
                    return await call_next(request)
                try:
                    return await self._forward(request, body, where)
                except httpx.TransportError:  # the owner is gone: its lease runs out soon
                    if time.monotonic() > end:
                        return JSONResponse(
                            {
                                "error": "the worker playing this table cannot be reached; try again later",
                                "code": "worker_away",
                            },
                            503,
                        )
                    await asyncio.sleep(RETRY)

    async def _forward(self, request: Request, body: bytes, where: str) -> Response:
        assert self._http is not None
        headers = {k: v for k, v in request.headers.items() if k in ("content-type", "authorization")}
        headers[CLIENT] = self.client_host(request)
        url = f"http://{where}{request.url.path}"
        r = await self._http.request(
            request.method, url, params=request.url.query, content=body, headers=headers
        )
        kept = {k: v for k, v in r.headers.items() if k in ("content-type", "content-disposition")}
        return Response(r.content, status_code=r.status_code, headers=kept)

    async def listing(self) -> Response:
        """The lobby's list: the newest public tables of every worker."""
        assert self._http is not None
        found = list(self.server.listing())
        others = await self.server.db(self.leases.others)
        http = self._http

        async def of(address: str) -> list[Any]:
            r = await http.get(f"http://{address}/api/tables", timeout=2)
            return list(r.json()["tables"]) if r.status_code == 200 else []

        for got in await asyncio.gather(*(of(a) for a in others), return_exceptions=True):
            if isinstance(got, list):
                found += got
        seen: set[str] = set()
        out = []
        for info in sorted(found, key=lambda i: -i["created"]):
            if info["id"] not in seen:
                seen.add(info["id"])
                out.append(info)
        return JSONResponse({"tables": out[: self.server.listed]})


class Relay:
    """One client's socket relayed to the worker playing its table, following the table
    when that worker dies."""

    def __init__(self, cluster: Cluster, ws: WebSocket, table_id: str):
        self.cluster = cluster
        self.ws = ws
        self.table_id = table_id
        self.up: Any = None  # the socket to the owner (websockets' client)
        self.client_gone = asyncio.Event()

    async def run(self, where: str) -> None:
        reader = asyncio.get_running_loop().create_task(self._from_client())
        try:
            for _ in range(RELOCATIONS):
                outcome = await self._to(where)
                if outcome is not None:  # the client left, or the owner closed it for good
                    if outcome and not self.client_gone.is_set():
                        with contextlib.suppress(Exception):
                            await self.ws.close(code=outcome)
                    return
                found = await self._find()
                if found is None:
                    break
                where = found
            with contextlib.suppress(Exception):
                await self.ws.close(code=GONE)
        finally:
            reader.cancel()
            if self.up is not None:
                with contextlib.suppress(Exception):
                    await self.up.close()

    async def _find(self) -> str | None:
        """The table's owner after the last one was lost (waiting for its lease to run out)."""
        end = time.monotonic() + 3 * self.cluster.lease
        while time.monotonic() < end and not self.client_gone.is_set():
            where = await self.cluster.locate(self.table_id)
            if where is not None:
                return where
            await asyncio.sleep(RETRY)
        return None

    async def _to(self, where: str) -> int | None:
        """Relay to ``where`` until something ends it: 0 when the client left, the close
        code when the owner closed the socket for good, None when the owner was lost."""
        import websockets
        from websockets.exceptions import ConnectionClosed

        url = f"ws://{where}/ws/tables/{self.table_id}"
        if self.ws.url.query:
            url += "?" + self.ws.url.query
        headers = {CLIENT: self.cluster.client_host(self.ws)}
        end = time.monotonic() + 3 * self.cluster.lease
        while True:
            if self.client_gone.is_set():
                return 0
            try:
                # pinged: an owner that stops answering (stalled, its machine cut off) is
                # left within two lease times, for the worker that takes its tables over
                lease = self.cluster.lease
                self.up = await websockets.connect(
                    url,
                    additional_headers=headers,
                    open_timeout=5,
                    max_size=1 << 22,
                    ping_interval=lease,
                    ping_timeout=lease,
                )
                break
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                if time.monotonic() > end:
                    return None
                await asyncio.sleep(RETRY)
                found = await self.cluster.locate(self.table_id)
                if found is None:
                    return None
                if found != where:
                    where = found
                    url = f"ws://{where}/ws/tables/{self.table_id}" + (
                        "?" + self.ws.url.query if self.ws.url.query else ""
                    )
        up = self.up
        gone = asyncio.get_running_loop().create_task(self.client_gone.wait())
        try:
            while True:
                nxt = asyncio.ensure_future(up.recv())
                await asyncio.wait({nxt, gone}, return_when=asyncio.FIRST_COMPLETED)
                if not nxt.done():
                    nxt.cancel()
                    return 0
                try:
                    msg = nxt.result()
                except ConnectionClosed:
                    break
                if isinstance(msg, str):
                    await self.ws.send_text(msg)
                else:
                    await self.ws.send_bytes(msg)
        except Exception:  # sending to the client failed: it left
            return 0
        finally:
            gone.cancel()
        code = up.close_code
        self.up = None
        # the owner refused the socket (4xxx) or closed it normally: so does the relay;
        # it died, stopped or no longer plays the table (no close, 1001, 1011, 1012): follow it
        if code is not None and (code >= 4000 or code == 1000):
            return code
        return None

    async def _from_client(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                msg = await self.ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                data = msg.get("text")
                if data is None:
                    data = msg.get("bytes")
                up = self.up
                if up is not None and data is not None:  # while no owner is reached: dropped
                    with contextlib.suppress(ConnectionClosed):
                        await up.send(data)
        except Exception:
            pass
        finally:
            self.client_gone.set()
