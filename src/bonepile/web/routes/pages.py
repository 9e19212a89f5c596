"""The web client: its pages, its files under ``web/static/`` and its words in each
language."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from ..validate import RequestError
from ..words.i18n import strings

STATIC = Path(__file__).parents[1] / "static"


def router() -> APIRouter:
    r = APIRouter()

    def page(name: str):
        path = STATIC / name
        if not path.is_file():
            raise RequestError(
                f"the web client's {name} is missing from this installation", 404, code="missing_page"
            )
        return FileResponse(path)

    @r.get("/")
    async def lobby():
        return page("index.html")

    @r.get("/t/{table_id}")
    async def table_page(table_id: str):
        return page("table.html")

    @r.get("/replay")
    async def replay_page():
        return page("replay.html")

    @r.get("/i18n/{lang}.json")
    async def words(lang: str):
        try:
            body = strings(lang)
        except KeyError:
            raise RequestError(f"no words for the language {lang!r}", 404, code="no_language") from None
        return Response(body, media_type="application/json")

    @r.get("/static/{name:path}")
    async def static(name: str):
        try:
            path = (STATIC / name).resolve()
            found = STATIC.resolve() in path.parents and path.is_file()
        except (ValueError, OSError):  # e.g. a NUL byte in the name
            found = False
        if not found:
            raise RequestError(f"no file {name!r}", 404, code="no_file")
        return FileResponse(path)

    return r
