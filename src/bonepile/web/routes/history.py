"""A profile's finished games (``GET /api/profiles/{id}/games``): newest first, each with
the profile's seat, partners and opponents, result, final totals and a replay link, and the
profile's stats: games, wins, win rate, points per hand, dominoes, blocked hands won, and
capicús and chuchazos where the games have them; and, for the games whose analysis was stored,
the luck and skill per hand (``store.luck``).

Everything is read from the results stored when each table finished (``store.results``,
migration 0004_results): one query for the page (the ``result_seats`` rows of the profile,
by its index) and one for the stats (sums over the same rows); no game is rebuilt.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from sqlalchemy import select
from sqlalchemy.engine import Engine

from ...engine.variant import ENGINE_VARIANTS
from ..messages import GameHistory, GameResult, HistoryGame, HistorySeat, HistoryStats, LuckSkill
from ..play.connection import dumps
from ..store import luck as lk
from ..store import results as rs
from ..store.database import profiles_t
from ..validate import RequestError
from ..words.names import seat_named

if TYPE_CHECKING:
    from ..server import Server

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
PROFILE_ID = re.compile(r"[0-9a-f]{1,32}")


# ---------------------------------------------------------------------------- storage (sync)
def profile_name(engine: Engine, profile_id: str) -> str | None:
    with engine.connect() as c:
        return c.execute(select(profiles_t.c.name).where(profiles_t.c.id == profile_id)).scalar()


# ---------------------------------------------------------------------------- one game
def seat_json(seat: int, s: dict[str, Any]) -> HistorySeat:
    bot = s.get("kind") == "bot"
    return {
        "seat": seat,
        "name": str(s.get("name") or ""),
        "named": seat_named(str(s.get("name") or ""), "bot" if bot else "human", s.get("level"), seat),
        "kind": "bot" if bot else "human",
        "level": str(s.get("level")) if bot and s.get("level") else None,
        "profile": s.get("profile"),
    }


def luck_json(f: lk.Figures | None) -> LuckSkill | None:
    return None if f is None else f.per_hand()  # type: ignore[return-value]


def game_json(g: rs.StoredGame, figures: lk.Figures | None = None) -> HistoryGame:
    ours = set(g.sides[g.side])
    result: GameResult = "won" if g.outcome == "won" else "tie" if g.outcome == "tie" else "lost"
    return {
        "table": g.table_id,
        "name": g.name,
        "variant": g.variant,
        "players": g.players,
        "created": g.created,
        "finished": g.finished,
        "seat": g.seat,
        "side": g.side,
        "partners": [seat_json(i, s) for i, s in enumerate(g.seats) if i in ours and i != g.seat],
        "opponents": [seat_json(i, s) for i, s in enumerate(g.seats) if i not in ours],
        "sides": g.sides,
        "totals": g.totals,
        "winner": g.winner,
        "result": result,
        "rated": g.rated,
        "private": g.private,
        "replay": f"/replay?table={g.table_id}",
        "luck": luck_json(figures),
    }


def stats_json(t: rs.Totals, figures: lk.Figures | None = None) -> HistoryStats:
    """The stats from the stored sums.  Points per hand only over one game's hands (points
    of different games do not add up) that score points; capicús and chuchazos only where
    the games have them (None otherwise)."""
    per_hand = None
    if t.variants == 1 and t.points is not None and t.point_hands:
        per_hand = round(t.points / t.point_hands, 2)
    return {
        "games": t.games,
        "wins": t.wins,
        "ties": t.ties,
        "losses": t.games - t.wins - t.ties,
        "win_rate": round(t.wins / t.games, 4) if t.games else None,
        "hands": t.hands,
        "points_per_hand": per_hand,
        "dominoes": t.dominoes,
        "blocked_won": t.blocked_won,
        "capicus": t.capicus,
        "chuchazos": t.chuchazos,
        "luck": luck_json(figures),
    }


# ---------------------------------------------------------------------------- the query
def parse_query(
    game: str | None, limit: str | None, before: str | None
) -> tuple[str | None, int, float | None]:
    if game is not None and game not in ENGINE_VARIANTS:
        raise RequestError(
            f"no game {game[:40]!r}: game= is one of {', '.join(ENGINE_VARIANTS)}", 400, code="bad_request"
        )
    n = DEFAULT_LIMIT
    if limit is not None:
        if not limit.isdigit() or not 1 <= int(limit) <= MAX_LIMIT:
            raise RequestError(
                f"limit= is a whole number from 1 to {MAX_LIMIT}, not {limit[:20]!r}", 400, code="bad_request"
            )
        n = int(limit)
    cut = None
    if before is not None:
        try:
            cut = float(before)
        except ValueError:
            cut = None
        if cut is None or not 0 < cut < 1e12:
            raise RequestError(
                f"before= is a table's creation time (the last page's next_before), not {before[:20]!r}",
                400,
                code="bad_request",
            )
    return game, n, cut


class History:
    def __init__(self, server: Server):
        self.server = server

    async def games(
        self,
        profile_id: str,
        authorization: str | None,
        game: str | None,
        limit: str | None,
        before: str | None,
    ) -> GameHistory:
        server = self.server
        if server.profiles.mode == "off":
            raise RequestError("profiles are turned off on this server", 404, code="profiles_off")
        if not PROFILE_ID.fullmatch(profile_id):
            raise RequestError(
                f"a profile id is up to 32 hexadecimal letters, not {profile_id[:40]!r}",
                400,
                code="bad_request",
            )
        variant, n, cut = parse_query(game, limit, before)
        engine = server.store.engine
        name = await server.db(profile_name, engine, profile_id)
        if name is None:
            raise RequestError(f"no profile {profile_id!r} here", 404, code="no_profile")
        # a private table's games are listed only to the profile itself (its key sent)
        own = False
        if authorization is not None:
            me = await server.profiles.me(authorization)
            own = me["id"] == profile_id
        page, more = await server.db(rs.profile_games, engine, profile_id, variant, own, n, cut)
        totals = await server.db(rs.profile_totals, engine, profile_id, variant, own)
        figures = await server.db(lk.game_figures, engine, profile_id, [g.table_id for g in page])
        overall = await server.db(lk.profile_figures, engine, profile_id, variant, own)
        rows = [game_json(g, figures.get(g.table_id)) for g in page]
        return {
            "profile": {"id": profile_id, "name": name},
            "game": variant,
            "games": rows,
            "stats": stats_json(totals, overall),
            "next_before": rows[-1]["created"] if more and rows else None,
        }


def router(server: Server) -> APIRouter:
    """``GET /api/profiles/{id}/games`` and the page ``/me`` that shows them."""
    r = APIRouter()
    history = History(server)
    page = Path(__file__).parents[1] / "static" / "me.html"

    @r.get("/api/profiles/{profile_id}/games")
    async def games(profile_id: str, request: Request):  # a GameHistory
        q = request.query_params
        got = await history.games(
            profile_id, request.headers.get("authorization"), q.get("game"), q.get("limit"), q.get("before")
        )
        return Response(dumps(got), media_type="application/json")  # (orjson, not FastAPI's encoder)

    @r.get("/me")
    async def me_page():
        if not page.is_file():
            raise RequestError(
                "the web client's me.html is missing from this installation", 404, code="missing_page"
            )
        return FileResponse(page)

    return r
