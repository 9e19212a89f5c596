"""The web client: its pages, its files under ``web/static/`` and its words in each
language; the installable app's manifest and service worker (``static/app/``), which keeps
the client's shell: the lobby, How to play and what they read."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from ...engine.variant import ENGINE_VARIANTS
from ..validate import RequestError
from ..words.i18n import LANGUAGES, strings

STATIC = Path(__file__).parents[1] / "static"

#: the pages and answers the app keeps besides the files under static/: the lobby, How to
#: play, the replay page and a table's page (one page for every table), the games offered
#: and How to play's examples, the words in every language
SHELL_PAGES = (
    "/",
    "/how-to-play",
    "/replay",
    "/t/shell",
    "/api/variants",
    "/api/howto",
    *(f"/api/howto/{name}" for name in ENGINE_VARIANTS),
    *(f"/i18n/{lang}.json" for lang in LANGUAGES),
)


@functools.cache
def shell() -> tuple[str, tuple[str, ...]]:
    """The app's shell: (its version, its addresses).  The version is a digest of every file
    kept, so that a new release replaces what an installed app kept."""
    files = sorted(
        p for p in STATIC.rglob("*") if p.is_file() and "i18n" not in p.relative_to(STATIC).parts[:1]
    )
    digest = hashlib.sha256()
    for p in files:
        digest.update(str(p.relative_to(STATIC)).encode())
        digest.update(p.read_bytes())
    for lang in LANGUAGES:
        digest.update(strings(lang))
    paths = (
        *SHELL_PAGES,
        *(f"/static/{p.relative_to(STATIC).as_posix()}" for p in files if p.name != "sw.js"),
    )
    return digest.hexdigest()[:16], paths


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

    @r.get("/manifest.webmanifest")
    async def manifest():
        return FileResponse(STATIC / "app" / "manifest.webmanifest", media_type="application/manifest+json")

    @r.get("/sw.js")
    async def service_worker():
        # served from the root so that it may keep every page; never cached by the browser
        # itself, so a new release is seen at the next visit
        version, paths = shell()
        text = (STATIC / "app" / "sw.js").read_text()
        text = text.replace("__VERSION__", version).replace(
            "__SHELL__", json.dumps(json.dumps(list(paths)))[1:-1]
        )
        return Response(text, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

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
