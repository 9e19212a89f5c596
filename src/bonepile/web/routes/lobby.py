"""The lobby's open tables with their seated players' ratings (``GET /api/tables``): each
profile at a listed table is shown with its rating at that table's game and player count,
rated table or casual (who you sit down with is as strong at a casual table), marked
provisional as the leaderboards mark it.  One query reads the ratings of every listed
profile at once; when the storage fails the list is given without them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import Response
from sqlalchemy import and_, select
from sqlalchemy.engine import Engine

from ...arena.skill import Rating, game_key, profile_participant
from ..messages import ListedTable, SeatRating, TableInfo
from ..play.connection import dumps
from ..store.database import ratings_t
from ..validate import RequestError

if TYPE_CHECKING:
    from ..server import Server


def ratings_of(engine: Engine, wanted: Sequence[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
    """The ratings of these (participant, game key) pairs that exist, in one query."""
    if not wanted:
        return {}
    who = sorted({p for p, _g in wanted})
    games = sorted({g for _p, g in wanted})
    with engine.connect() as c:
        rs = c.execute(
            select(ratings_t).where(and_(ratings_t.c.participant.in_(who), ratings_t.c.game.in_(games)))
        ).all()
    pairs = set(wanted)
    return {
        (r.participant, r.game): Rating(r.mu, r.sigma, r.games)
        for r in rs
        if (r.participant, r.game) in pairs
    }


def seat_rating(r: Rating | None) -> SeatRating | None:
    if r is None:
        return None
    return {"rating": r.shown, "games": r.games, "provisional": r.provisional}


async def listed(server: Server) -> list[ListedTable]:
    """The lobby's list (``Server.listing``), each table with its seats' ratings (None for a
    bot, a free seat, a person without a profile or a profile not rated at that game yet)."""
    tables: list[TableInfo] = server.listing()
    wanted = [
        (profile_participant(s["profile"]), game_key(t["variant"], t["players"]))
        for t in tables
        for s in t["seats"]
        if s["profile"]
    ]
    found: dict[tuple[str, str], Rating] = {}
    if wanted:
        try:
            found = await server.db(ratings_of, server.store.engine, wanted)
        except RequestError:  # the storage failed (logged once): the tables, without ratings
            pass
    out: list[ListedTable] = []
    for t in tables:
        key = game_key(t["variant"], t["players"])
        ratings = [
            seat_rating(found.get((profile_participant(s["profile"]), key))) if s["profile"] else None
            for s in t["seats"]
        ]
        out.append({**t, "ratings": ratings})
    return out


def router(server: Server) -> APIRouter:
    r = APIRouter()

    @r.get("/api/tables")
    async def listing():
        # encoded here (orjson): FastAPI's encoder would walk the hundred tables' info
        return Response(dumps({"tables": await listed(server)}).encode(), media_type="application/json")

    return r
