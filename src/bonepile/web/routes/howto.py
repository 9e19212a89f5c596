"""The How to play pages (``/how-to-play``, ``/how-to-play/{game}``) and their examples
(``/api/howto``, ``/api/howto/{game}``), built by ``words.howto``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ...engine.variant import ENGINE_VARIANTS
from ..validate import RequestError
from ..words.howto import PAGES, STATIC, examples, game_facts

router = APIRouter()


def _page(status: int = 200) -> FileResponse:
    path = STATIC / "howto.html"
    if not path.is_file():
        raise RequestError(
            "the web client's howto.html is missing from this installation", 404, code="missing_page"
        )
    return FileResponse(path, status_code=status)


@router.get("/how-to-play")
async def picker_page() -> FileResponse:
    return _page()


@router.get("/how-to-play/{game}")
async def game_page(game: str) -> FileResponse:
    return _page(200 if game in PAGES else 404)


@router.get("/api/howto")
async def games() -> dict[str, Any]:
    return {"games": [game_facts(n) for n in ENGINE_VARIANTS]}


@router.get("/api/howto/{game}")
def game(game: str) -> dict[str, Any]:  # (not async: a first call plays the examples, in a thread)
    if game not in PAGES:
        raise RequestError(f"no game {game!r} is explained here", 404, code="no_game")
    return {**game_facts(game), "examples": examples(game)}
