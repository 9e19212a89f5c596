"""The HTTP routes of tournaments: the public list, making one, joining it, its state (the
page's rounds, tables, standings and deals) and the tournament page itself.  The tournaments
are ``play.tournaments``; docs/PROTOCOL.md, docs/TOURNAMENTS.md."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ..validate import RequestError, body_json

if TYPE_CHECKING:
    from ..server import Server

PAGE = Path(__file__).parents[1] / "static" / "tournament.html"


def router(server: Server) -> APIRouter:
    r = APIRouter()
    tours = server.tournaments

    def page():
        if not PAGE.is_file():
            raise RequestError(
                "the web client's tournament.html is missing from this installation", 404, code="missing_page"
            )
        return FileResponse(PAGE)

    @r.get("/tournaments")
    async def list_page():
        return page()

    @r.get("/tournaments/{tid}")
    async def tournament_page(tid: str):
        return page()

    @r.get("/api/tournaments")
    async def listing():
        return {"tournaments": tours.listing()}

    @r.post("/api/tournaments")
    async def create(request: Request):
        body = await body_json(request)
        profile = await server.profiles.of_request(request.headers.get("authorization"))
        made = await tours.create(body, server.address_of(request), profile)
        if profile is not None and body.get("join", True) is True:
            await tours.join(made["id"], {"invite": made["link"].partition("invite=")[2] or None}, profile)
        return made

    @r.get("/api/tournaments/{tid}")
    async def state(tid: str, request: Request):
        auth = request.headers.get("authorization")
        profile = await server.profiles.me(auth) if auth else None
        return await tours.state(tid, profile)

    @r.post("/api/tournaments/{tid}/join")
    async def join(tid: str, request: Request):
        body = await body_json(request)
        profile = await server.profiles.of_request(request.headers.get("authorization"))
        return await tours.join(tid, body, profile)

    return r
