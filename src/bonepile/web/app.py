"""The ASGI application of ``bonepile serve``: the HTTP API, the table sockets and the web
client's files.  The protocol is docs/PROTOCOL.md."""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..engine import record as rec
from . import validate
from .cluster import ClusterSettings
from .guard import hide_tokens
from .jobs.analyses import Analyses
from .jobs.replays import MAX_RECORD
from .play.chatfilter import ChatFilter
from .play.connection import REFUSED, Connection, dumps
from .play.handlers import dispatch
from .routes.analysis import router as analysis_router
from .routes.history import router as history_router
from .routes.lobby import listed
from .routes.mutes import router as mutes_router
from .routes.profiles import router as profiles_router
from .routes.ratings import router as ratings_router
from .server import Server
from .settings import ServerSettings
from .store.writer import StorageError
from .validate import RequestError
from .words.catalog import catalogue
from .words.howto import router as howto_router
from .words.i18n import strings

log = logging.getLogger("bonepile.serve")
STATIC = Path(__file__).parent / "static"
MAX_BODY = 1 << 20  # any request body: 1 MiB
#: sent with every answer: scripts only from this server (the client has no inline script),
#: no framing by other sites (clickjacking), no sniffing, no address of a table sent onwards
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def _coded(e: RequestError) -> dict[str, Any]:
    """A refusal's code and numbers for an error message (nothing if it has no code)."""
    body = e.body()
    body.pop("error")
    return body


def _json(status: int, body: bytes) -> Response:
    """A JSON answer already encoded (replay frames, or an error)."""
    return Response(body, status_code=status, media_type="application/json")


def create_app(
    db: str = "sqlite:///bonepile.db",
    settings: ServerSettings | None = None,
    *,
    chat_filter: ChatFilter | None = None,
    cluster: ClusterSettings | None = None,
    **options: Any,
) -> FastAPI:
    """The application of a server on ``db`` with its ``settings`` (``options``: some fields
    of ``ServerSettings`` changed from ``settings``, a shorthand for tests and scripts)."""
    settings = replace(settings or ServerSettings(), **options)
    server = Server(db, settings, chat_filter=chat_filter, cluster=cluster)
    analyses = Analyses(
        server.store.engine,
        time=settings.analysis_time,
        simulations=settings.analysis_simulations,
        nodes=settings.analysis_nodes,
        processes=settings.analysis_processes,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await server.start()
        try:
            yield
        finally:
            await analyses.stop()
            await server.stop()

    app = FastAPI(title="bonepile", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.server = server
    app.state.analyses = analyses
    app.include_router(howto_router)  # the How to play pages and their examples
    app.include_router(profiles_router(server.profiles))  # /api/profiles...
    app.include_router(mutes_router(server))  # /api/profiles/me/mutes...
    app.include_router(ratings_router(server))  # leaderboards
    app.include_router(history_router(server))  # a profile's finished games, the /me page
    hide_tokens()
    if server.cluster is not None:  # requests for tables played by another worker go there
        server.cluster.install(app)

    @app.middleware("http")
    async def _headers(request: Request, call_next):
        response = await call_next(request)
        # the API's own documentation page loads its script from a CDN: it keeps its own rules
        if not request.url.path.startswith("/api/docs"):
            response.headers.update(SECURITY_HEADERS)
        return response

    @app.exception_handler(RequestError)
    async def _request_error(_req: Request, e: RequestError):
        return JSONResponse(e.body(), status_code=e.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_req: Request, e: RequestValidationError):
        parts = []
        for err in e.errors():
            where = ".".join(str(x) for x in err.get("loc", ()))
            parts.append(f"{where}: {err.get('msg')}")
        return JSONResponse({"error": "; ".join(parts) or "bad request"}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, e: StarletteHTTPException):
        return JSONResponse({"error": str(e.detail)}, status_code=e.status_code)

    async def body_json(request: Request) -> Any:
        data = await read_body(request)
        if not data:
            return {}
        try:
            return json.loads(data)
        except (ValueError, UnicodeDecodeError) as e:
            raise RequestError(f"the body is not JSON: {e}") from None
        except RecursionError:
            raise RequestError("the body is not JSON that can be read: nested too deeply") from None

    async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
        size = request.headers.get("content-length")
        if size is not None and size.isdigit() and int(size) > limit:
            raise RequestError(f"the body is larger than {limit} bytes", 413)
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > limit:
                raise RequestError(f"the body is larger than {limit} bytes", 413)
        return data

    # ------------------------------------------------------------------ API
    @app.get("/api/variants")
    async def variants():
        return catalogue()

    @app.post("/api/tables")
    async def create(request: Request):
        body = await body_json(request)
        profile = await server.profiles.of_request(request.headers.get("authorization"))
        return await server.create(body, request.client.host if request.client else "", profile)

    @app.get("/api/tables")
    async def listing():
        # encoded here (orjson): FastAPI's encoder would walk the hundred tables' info
        return _json(200, dumps({"tables": await listed(server)}).encode())

    @app.get("/api/tables/{table_id}")
    async def table(table_id: str):
        return (await server.finished(table_id)).info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request):
        body = await body_json(request)
        profile = await server.profiles.of_request(request.headers.get("authorization"))
        return await server.join(table_id, body, profile)

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, request: Request):
        return await server.start_table(table_id, await body_json(request))

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str):
        t = await server.finished(table_id)
        text = rec.dumps(t.record())
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="bonepile-{t.id}.record.json"'},
        )

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str):
        if table_id in server.replay_cache:  # a finished table's, built once
            return _json(200, server.replay_cache[table_id])
        t = await server.finished(table_id)
        over = t.status == "over"
        return _json(*await server.replay(t.record(), finished_only=True, key=t.id if over else None))

    @app.post("/api/replay")
    async def replay(request: Request):
        data = await read_body(request, MAX_RECORD)
        return _json(*await server.replay(data, finished_only=False))

    # post-game analysis of a finished table or an uploaded record (``analysis_routes``)
    app.include_router(analysis_router(server, analyses, read_body))

    # ------------------------------------------------------------------ the table socket
    @app.websocket("/ws/tables/{table_id}")
    async def socket(websocket: WebSocket, table_id: str):
        await websocket.accept()
        if server.cluster is not None and await server.cluster.relay(websocket, table_id):
            return  # relayed to the worker playing the table (``cluster``)
        try:
            t = server.get(table_id)  # 404, or 503 for a damaged table
            # no seat token: a spectator, who sees what everybody at the table sees
            token = websocket.query_params.get("token")
            seat = None if token is None else server.seat_of(t, token)
            if seat is None:  # a private table is watched only with its invite link's secret
                validate.invite(websocket.query_params.get("invite"), t.invite_hash)
            if seat is not None:  # the chat of the seats its profile muted is not sent to it
                with suppress(StorageError):  # logged already: its mutes are read next time
                    await server.mutes.load(t.seats[seat].profile)
            if server.cluster is not None:  # a relayed socket: the client's address, as relayed
                host = server.cluster.client_host(websocket)
            else:
                host = websocket.client.host if websocket.client else ""
            address = server.socket_opened(t, seat, host)
        except RequestError as e:
            await websocket.send_text(json.dumps({"type": "error", "message": e.message, **_coded(e)}))
            await websocket.close(code=4000 + e.status)
            return
        conn = Connection(t, seat, websocket.send_text, rate=settings.rate)
        sender = asyncio.get_running_loop().create_task(_sending(conn))
        t.attach(conn)
        try:
            while True:
                msg = await websocket.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                data = conn.read(msg.get("text"), msg.get("bytes"))
                if data is REFUSED:
                    continue
                mid = data.get("id") if isinstance(data, dict) else None
                try:
                    await dispatch(t, conn, data)
                except RequestError as e:
                    conn.error(e.message, mid, with_id=True, code=e.code, params=e.params)
                except Exception:  # e.g. storage failed: the action was not applied
                    log.exception("table %s: an intent failed", t.id)
                    conn.error(
                        "the server could not handle this (nothing was changed); try again",
                        mid,
                        with_id=True,
                        code="server_fault",
                    )
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()
            t.detach(conn)
            server.socket_closed(address, watching=seat is None)

    async def _sending(conn: Connection) -> None:
        try:
            await conn.sender()
        except Exception as e:  # the socket closed under us: the receive loop ends it
            if (
                not isinstance(e, (WebSocketDisconnect, RuntimeError))
                and "close" not in type(e).__name__.lower()
            ):
                log.exception("sending to table %s seat %s failed", conn.table.id, conn.seat)
            conn.close()

    # ------------------------------------------------------------------ the web client
    def page(name: str):
        path = STATIC / name
        if not path.is_file():
            raise RequestError(f"the web client's {name} is missing from this installation", 404)
        return FileResponse(path)

    @app.get("/")
    async def lobby():
        return page("index.html")

    @app.get("/t/{table_id}")
    async def table_page(table_id: str):
        return page("table.html")

    @app.get("/replay")
    async def replay_page():
        return page("replay.html")

    @app.get("/i18n/{lang}.json")
    async def words(lang: str):
        try:
            body = strings(lang)
        except KeyError:
            raise RequestError(f"no words for the language {lang!r}", 404) from None
        return Response(body, media_type="application/json")

    @app.get("/static/{name:path}")
    async def static(name: str):
        try:
            path = (STATIC / name).resolve()
            found = STATIC.resolve() in path.parents and path.is_file()
        except (ValueError, OSError):  # e.g. a NUL byte in the name
            found = False
        if not found:
            raise RequestError(f"no file {name!r}", 404)
        return FileResponse(path)

    return app
