"""The leaderboard routes: ``GET /leaderboard`` (the page), ``GET /api/ratings/{game}`` and
``GET /api/ratings/{game}/{participant}``; a table's seats' ratings with what the table did to
them (``GET /api/tables/{id}/ratings``, the seats and the game-over banner) and a profile's
ratings over time (``GET /api/profiles/{id}/ratings``, the graphs of ``/me``).  A finished
rated table is rated by the server (``Server.game_over``).  Every number shown is
``arena.skill.shown`` of the stored OpenSkill values."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ...arena.skill import (
    PARTICIPANT,
    PROVISIONAL_GAMES,
    game_key,
    initial,
    known_game,
    parse_game_key,
    profile_participant,
    shown_change,
)
from ..messages import (
    Leaderboard,
    RatingEntry,
    RatingHistory,
    RatingPoint,
    RatingSeries,
    TableRatings,
    TableSeatRating,
)
from ..store import ratings as rs
from ..validate import RequestError
from .lobby import ratings_of

if TYPE_CHECKING:
    from ..server import Server

STATIC = Path(__file__).parents[1] / "static"


# ---------------------------------------------------------------------------- names
async def profile_names(server: Server, participants: list[str]) -> dict[str, str]:
    """The profiles' current display names (participant -> name), looked up in one query: a
    renamed profile shows its new name at once.  Bots have no name (their level's words)."""
    ids = {p.removeprefix("profile:"): p for p in participants if p.startswith("profile:")}
    if not ids:
        return {}
    found = await server.db(rs.profile_names, server.store.engine, list(ids))
    return {ids[i]: name for i, name in found.items()}


# ---------------------------------------------------------------------------- routes
def game_of(text: str) -> tuple[str, str, int]:
    """A game key from the path: 400 when malformed, 404 when no such game."""
    parsed = parse_game_key(text)
    if parsed is None:
        raise RequestError(
            f"a game is written <game>-<players> (e.g. draw-4), not {text[:40]!r}", 400, code="bad_request"
        )
    variant, players = parsed
    if not known_game(variant, players):
        raise RequestError(
            f"no game {text!r}: no such game is played with that many players here", 404, code="no_game"
        )
    return text, variant, players


def entry_json(e: rs.Entry, names: dict[str, str]) -> RatingEntry:
    r = e.rating
    name = None if e.participant.startswith("bot:") else names.get(e.participant, e.name)
    return {
        "participant": e.participant,
        "name": name,
        "mu": r.mu,
        "sigma": r.sigma,
        "rating": r.shown,
        "games": r.games,
        "provisional": r.provisional,
    }


def router(server: Server) -> APIRouter:
    api = APIRouter()
    engine = server.store.engine

    @api.get("/leaderboard")
    async def page() -> FileResponse:
        path = STATIC / "leaders.html"
        if not path.is_file():
            raise RequestError(
                "the web client's leaders.html is missing from this installation", 404, code="missing_page"
            )
        return FileResponse(path)

    @api.get("/api/ratings/{game}")
    async def leaderboard(game: str):  # a Leaderboard (no annotation: FastAPI would build a model)
        key, variant, players = game_of(game)
        found = await server.db(rs.leaderboard, engine, key, PROVISIONAL_GAMES)
        names = await profile_names(server, [e.participant for e in found])
        out: Leaderboard = {
            "game": key,
            "variant": variant,
            "players": players,
            "provisional_games": PROVISIONAL_GAMES,
            "ratings": [entry_json(e, names) for e in found],
        }
        return out

    @api.get("/api/ratings/{game}/{participant}")
    async def rating(game: str, participant: str):  # a RatingEntry
        key, _variant, _players = game_of(game)
        if not PARTICIPANT.match(participant):
            raise RequestError(
                f"a participant is written profile:<id> or bot:<level>, not {participant[:80]!r}",
                400,
                code="bad_request",
            )
        found = await server.db(rs.rating_of, engine, key, participant)
        if found is None:
            raise RequestError(f"{participant} has no rating at {key}", 404, code="no_rating")
        return entry_json(found, await profile_names(server, [participant]))

    @api.get("/api/tables/{table_id}/ratings")
    async def table_ratings(table_id: str):  # a TableRatings
        t = await server.finished(table_id)
        key = game_key(t.variant_name, t.variant.players)
        who = [profile_participant(s.profile) if s.profile and s.kind == "human" else None for s in t.seats]
        wanted = [(p, key) for p in who if p]
        now = await server.db(ratings_of, engine, wanted) if wanted else {}
        steps = await server.db(rs.table_steps, engine, t.id) if t.rated and t.status == "over" else {}
        seats: list[TableSeatRating | None] = []
        for p in who:
            step = steps.get(p) if p else None
            r = step.after if step else now.get((p, key)) if p else None
            if p is None:
                seats.append(None)
            else:
                r = r or initial()
                seats.append(
                    {
                        "rating": r.shown,
                        "games": r.games,
                        "provisional": r.provisional,
                        "change": shown_change(step.before, step.after) if step else None,
                    }
                )
        out: TableRatings = {
            "table": t.id,
            "game": key,
            "rated": t.rated,
            "done": bool(steps),
            "seats": seats,
        }
        return out

    @api.get("/api/profiles/{profile_id}/ratings")
    async def history(profile_id: str):  # a RatingHistory
        if not PARTICIPANT.match(f"profile:{profile_id}"):
            raise RequestError("no such profile", 404, code="no_profile")
        participant = profile_participant(profile_id)
        names = await profile_names(server, [participant])
        if participant not in names:
            raise RequestError("no such profile", 404, code="no_profile")
        steps = await server.db(rs.history, engine, participant)
        now = await server.db(rs.ratings_of, engine, participant)
        games: list[RatingSeries] = []
        for key, r in now.items():
            parsed = parse_game_key(key)
            if parsed is None:
                continue
            points: list[RatingPoint] = [
                {
                    "table": st.table_id,
                    "at": st.at,
                    "rating": st.after.shown,
                    "change": shown_change(st.before, st.after),
                    "provisional": st.after.provisional,
                }
                for st in steps.get(key, [])
            ]
            games.append(
                {
                    "game": key,
                    "variant": parsed[0],
                    "players": parsed[1],
                    "rating": r.shown,
                    "games": r.games,
                    "provisional": r.provisional,
                    "points": points,
                }
            )
        games.sort(key=lambda g: (-g["games"], g["game"]))
        out: RatingHistory = {
            "participant": participant,
            "most_played": games[0]["game"] if games else None,
            "games": games,
        }
        return out

    return api
