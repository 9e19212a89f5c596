"""A profile's finished games (``GET /api/profiles/{id}/games``): newest first, each with
the profile's seat, partners and opponents, result, final totals and a replay link, and the
profile's games, wins and win rate.

The query: the stored seats are JSON text, so the finished tables of one profile are found
with a ``LIKE`` on that text (``"profile": "<id>"``, as ``json.dumps`` writes it; a profile
id is hexadecimal, no LIKE wildcard), then checked exactly once parsed.  No index serves
that LIKE: it reads the finished tables' rows once per request (a seats column is a few
hundred bytes).  A finished table's result is rebuilt from its actions once and kept
(``History.results``): a finished table never changes.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from ..arena.skill import ranks, side_key
from ..engine.variant import VARIANT_NAMES
from .messages import GameHistory, GameResult, HistoryGame, HistorySeat, HistoryStats
from .names import seat_named
from .store import Store, TableRow, actions_t, profiles_t, tables_t
from .validate import RequestError

if TYPE_CHECKING:
    from .server import Server

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
KEPT_RESULTS = 20_000  # finished tables' results kept in memory
PROFILE_ID = re.compile(r"[0-9a-f]{1,32}")


@dataclass(frozen=True)
class Summary:
    """A finished table's result as the engine computed it."""

    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winner: int | None


# ---------------------------------------------------------------------------- storage (sync)
def profile_name(engine: Engine, profile_id: str) -> str | None:
    with engine.connect() as c:
        return c.execute(select(profiles_t.c.name).where(profiles_t.c.id == profile_id)).scalar()


def finished_tables(store: Store, profile_id: str, variant: str | None) -> list[tuple[TableRow, float]]:
    """The profile's finished tables, newest first, each with when its last action was."""
    pattern = f'%"profile": "{profile_id}"%'
    q = select(tables_t).where(tables_t.c.status == "over", tables_t.c.seats.like(pattern))
    if variant is not None:
        q = q.where(tables_t.c.variant == variant)
    q = q.order_by(tables_t.c.created.desc(), tables_t.c.id)
    rows: list[TableRow] = []
    with store.engine.connect() as c:
        for r in c.execute(q):
            try:
                row = store._row(r)
            except Exception:  # a damaged row is not this profile's history
                continue
            if any(s.get("profile") == profile_id for s in row.seats):
                rows.append(row)
        last: dict[str, float] = {}
        ids = [r.id for r in rows]
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            q2 = (
                select(actions_t.c.table_id, func.max(actions_t.c.at))
                .where(actions_t.c.table_id.in_(chunk))
                .group_by(actions_t.c.table_id)
            )
            last.update({tid: float(at) for tid, at in c.execute(q2)})
    return [(r, last.get(r.id, r.created)) for r in rows]


# ---------------------------------------------------------------------------- one game
def result_of(summary: Summary, side: int) -> GameResult:
    """won, lost or tie for ``side``, ranked as ratings rank sides (``skill.side_key``)."""
    order = ranks([side_key(i, summary.winner, summary.totals) for i in range(len(summary.sides))])
    if order[side] != 1.0:
        return "lost"
    return "tie" if order.count(1.0) > 1 else "won"


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


def game_json(row: TableRow, finished: float, summary: Summary, profile_id: str) -> HistoryGame:
    seat = next(i for i, s in enumerate(row.seats) if s.get("profile") == profile_id)
    side = next(i for i, sd in enumerate(summary.sides) if seat in sd)
    ours = set(summary.sides[side])
    return {
        "table": row.id,
        "name": row.name,
        "variant": row.variant,
        "players": len(row.seats),
        "created": row.created,
        "finished": finished,
        "seat": seat,
        "side": side,
        "partners": [seat_json(i, s) for i, s in enumerate(row.seats) if i in ours and i != seat],
        "opponents": [seat_json(i, s) for i, s in enumerate(row.seats) if i not in ours],
        "sides": [list(sd) for sd in summary.sides],
        "totals": list(summary.totals),
        "winner": summary.winner,
        "result": result_of(summary, side),
        "rated": row.settings.get("rated") is True,
        "private": row.settings.get("invite_hash") is not None,
        "replay": f"/replay?table={row.id}",
    }


# ---------------------------------------------------------------------------- the query
def parse_query(
    game: str | None, limit: str | None, before: str | None
) -> tuple[str | None, int, float | None]:
    if game is not None and game not in VARIANT_NAMES:
        raise RequestError(f"no game {game[:40]!r}: game= is one of {', '.join(VARIANT_NAMES)}", 400)
    n = DEFAULT_LIMIT
    if limit is not None:
        if not limit.isdigit() or not 1 <= int(limit) <= MAX_LIMIT:
            raise RequestError(f"limit= is a whole number from 1 to {MAX_LIMIT}, not {limit[:20]!r}", 400)
        n = int(limit)
    cut = None
    if before is not None:
        try:
            cut = float(before)
        except ValueError:
            cut = None
        if cut is None or not 0 < cut < 1e12:
            raise RequestError(
                f"before= is a table's creation time (the last page's next_before), not {before[:20]!r}", 400
            )
    return game, n, cut


class History:
    def __init__(self, server: Server):
        self.server = server
        self.results: OrderedDict[str, Summary] = OrderedDict()

    async def summary(self, table_id: str) -> Summary | None:
        got = self.results.get(table_id)
        if got is None:
            try:
                t = await self.server.finished(table_id)
            except RequestError:  # damaged: left out
                return None
            g = t.game
            if not g.over:
                return None
            got = Summary(tuple(tuple(sd) for sd in g.sides), tuple(g.totals), g.winner)
            self.results[table_id] = got
            if len(self.results) > KEPT_RESULTS:
                self.results.popitem(last=False)
        return got

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
            raise RequestError("profiles are turned off on this server", 404)
        if not PROFILE_ID.fullmatch(profile_id):
            raise RequestError(f"a profile id is up to 32 hexadecimal letters, not {profile_id[:40]!r}", 400)
        variant, n, cut = parse_query(game, limit, before)
        name = await server.db(profile_name, server.store.engine, profile_id)
        if name is None:
            raise RequestError(f"no profile {profile_id!r} here", 404)
        # a private table's games are listed only to the profile itself (its key sent)
        own = False
        if authorization is not None:
            me = await server.profiles.me(authorization)
            own = me["id"] == profile_id
        found = await server.db(finished_tables, server.store, profile_id, variant)
        rows: list[HistoryGame] = []
        for row, finished in found:
            if row.settings.get("invite_hash") is not None and not own:
                continue
            summary = await self.summary(row.id)
            if summary is not None:
                rows.append(game_json(row, finished, summary, profile_id))
        wins = sum(1 for r in rows if r["result"] == "won")
        ties = sum(1 for r in rows if r["result"] == "tie")
        stats: HistoryStats = {
            "games": len(rows),
            "wins": wins,
            "ties": ties,
            "losses": len(rows) - wins - ties,
            "win_rate": round(wins / len(rows), 4) if rows else None,
        }
        page = [r for r in rows if cut is None or r["created"] < cut][:n]
        more = len([r for r in rows if cut is None or r["created"] < cut]) > n
        return {
            "profile": {"id": profile_id, "name": name},
            "game": variant,
            "games": page,
            "stats": stats,
            "next_before": page[-1]["created"] if more else None,
        }


def router(server: Server) -> APIRouter:
    """``GET /api/profiles/{id}/games`` and the page ``/me`` that shows them."""
    r = APIRouter()
    history = History(server)
    page = Path(__file__).parent / "static" / "me.html"

    @r.get("/api/profiles/{profile_id}/games")
    async def games(profile_id: str, request: Request):  # a GameHistory
        q = request.query_params
        return await history.games(
            profile_id, request.headers.get("authorization"), q.get("game"), q.get("limit"), q.get("before")
        )

    @r.get("/me")
    async def me_page():
        if not page.is_file():
            raise RequestError("the web client's me.html is missing from this installation", 404)
        return FileResponse(page)

    return r
