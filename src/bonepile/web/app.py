"""The ASGI application of ``bonepile serve``: the server, the routes of ``web.routes`` (the
HTTP API, the table socket, the web client's files), the security headers and the JSON
errors.  The protocol is docs/PROTOCOL.md."""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .cluster import ClusterSettings
from .guard import hide_tokens
from .jobs.analyses import Analyses
from .jobs.puzzles import Miner
from .play.chatfilter import ChatFilter
from .routes.analysis import router as analysis_router
from .routes.history import router as history_router
from .routes.howto import router as howto_router
from .routes.lobby import router as lobby_router
from .routes.match import router as match_router
from .routes.mutes import router as mutes_router
from .routes.pages import router as pages_router
from .routes.profiles import router as profiles_router
from .routes.puzzles import Book
from .routes.puzzles import router as puzzles_router
from .routes.ratings import router as ratings_router
from .routes.socket import router as socket_router
from .routes.tables import router as tables_router
from .routes.tournaments import router as tournaments_router
from .server import Server
from .settings import ServerSettings
from .validate import RequestError

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
        budget=settings.analysis_budget,
        processes=settings.analysis_processes,
    )
    book = Book(server)  # the puzzles offered; the miner adds the ones it finds
    miner = Miner(server, book, every=settings.puzzle_mining, processes=settings.puzzle_processes)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await server.start()
        miner.start()
        try:
            yield
        finally:
            await miner.stop()
            await analyses.stop()
            await server.stop()

    app = FastAPI(title="bonepile", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.server = server
    app.state.analyses = analyses
    app.state.puzzle_miner = miner
    app.include_router(howto_router)  # the How to play pages and their examples
    app.include_router(profiles_router(server.profiles))  # /api/profiles...
    app.include_router(mutes_router(server))  # /api/profiles/me/mutes...
    app.include_router(ratings_router(server))  # leaderboards
    app.include_router(match_router(server))  # quick match, who is here
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
        return JSONResponse(
            {"error": "; ".join(parts) or "bad request", "code": "bad_request"}, status_code=400
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_req: Request, e: StarletteHTTPException):
        code = "no_route" if e.status_code == 404 else "bad_request"  # a path or method not served
        return JSONResponse({"error": str(e.detail), "code": code}, status_code=e.status_code)

    app.include_router(tables_router(server))  # /api/variants, /api/tables/..., /api/replay
    app.include_router(tournaments_router(server))  # /api/tournaments..., /tournaments pages
    app.include_router(lobby_router(server))  # GET /api/tables: the lobby's list
    app.include_router(analysis_router(server, analyses))  # post-game analysis
    app.include_router(puzzles_router(server, book))  # /api/puzzles...
    app.include_router(socket_router(server))  # /ws/tables/{id}
    app.include_router(pages_router())  # the web client's pages, files and words
    return app
