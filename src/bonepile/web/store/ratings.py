"""Storage of ratings: one row per (participant, game key), and one row per rated table so
that a game is rated once, whatever stops the server when.

A table is rated in one transaction: its ``rated_games`` row (the table id is its primary
key) and its participants' new ratings are committed together or not at all.  A server
killed before that commit rates the table again when it starts (``unrated_tables``); one
killed after it finds the table's row and leaves it.

The schema is created by the Alembic revision ``0003_ratings``
(web/store/migrations/versions/0003_ratings.py), which the server runs at start; the tables are
described in ``store.database``.  Synchronous: called in the server's storage thread.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, insert, select, update
from sqlalchemy.engine import Connection, Engine

from ...arena.skill import (
    FinishedGame,
    Rating,
    bot_participant,
    initial,
    profile_participant,
    rate_game,
    rate_game_adjusted,
)
from .database import profiles_t, rated_games_t, rating_history_t, ratings_t, tables_t

LEADERBOARD_SIZE = 100
#: the ``rated`` setting of a tournament's table: rated once its round is over, on what its
#: deals were worth at the other tables of the round (``Outcome.luck``), never as it ends
DUPLICATE = "duplicate"


# ---------------------------------------------------------------------------- rating a table
@dataclass(frozen=True)
class Outcome:
    """A finished table's result as the engine computed it."""

    variant: str
    players: int
    sides: Sequence[Sequence[int]]
    totals: Sequence[int]
    winner: int | None
    #: per side, what its tiles were worth (``arena.skill.rate_game_adjusted``): given, the
    #: table is rated on its deals (a tournament's table, rated ``"duplicate"``); None: as usual
    luck: Sequence[float] | None = None


def participants(seats: Sequence[dict[str, Any]]) -> list[str] | None:
    """The participant at each stored seat, or None when the table cannot be rated: a
    person's seat without a profile, or no profile at all (bots only)."""
    out: list[str] = []
    for s in seats:
        if s.get("kind") == "bot":
            out.append(bot_participant(str(s.get("level"))))
        elif s.get("profile"):
            out.append(profile_participant(str(s["profile"])))
        else:
            return None
    return out if any(p.startswith("profile:") for p in out) else None


def rate_table(engine: Engine, table_id: str, outcome: Outcome) -> bool:
    """Rate the finished table once, if it is a rated table; True when it was rated now."""
    with engine.begin() as c:
        row = c.execute(
            select(tables_t.c.seats, tables_t.c.settings).where(tables_t.c.id == table_id)
        ).first()
        if row is None:
            return False
        try:
            seats, settings = json.loads(row.seats), json.loads(row.settings)
        except ValueError:
            return False
        if not isinstance(settings, dict) or not isinstance(seats, list):
            return False
        rated = settings.get("rated")
        if not (rated is True or (rated == DUPLICATE and outcome.luck is not None)):
            return False
        who = participants([s if isinstance(s, dict) else {} for s in seats])
        if who is None:
            return False
        if c.execute(select(rated_games_t.c.table_id).where(rated_games_t.c.table_id == table_id)).first():
            return False
        game = FinishedGame(
            outcome.variant, outcome.players, who, outcome.sides, outcome.totals, outcome.winner
        )
        now = time.time()
        c.execute(insert(rated_games_t).values(table_id=table_id, game=game.key, rated=now))
        current = _current(c, game.key, who)
        names = {p: str(s.get("name") or "")[:80] for p, s in zip(who, seats)}
        rated_now = (
            rate_game(game, current)
            if outcome.luck is None
            else rate_game_adjusted(game, current, outcome.luck)
        )
        for p, r in rated_now.items():
            was = current.get(p) or initial()
            if r.games > was.games:  # it counted for p (not a bot level that played itself)
                c.execute(
                    insert(rating_history_t).values(
                        table_id=table_id,
                        participant=p,
                        game=game.key,
                        at=now,
                        mu_before=was.mu,
                        sigma_before=was.sigma,
                        mu=r.mu,
                        sigma=r.sigma,
                        games=r.games,
                    )
                )
            values = {"mu": r.mu, "sigma": r.sigma, "games": r.games, "name": names[p], "updated": now}
            if p in current:
                key = and_(ratings_t.c.participant == p, ratings_t.c.game == game.key)
                c.execute(update(ratings_t).where(key).values(**values))
            else:
                c.execute(insert(ratings_t).values(participant=p, game=game.key, **values))
    return True


def _current(c: Connection, game: str, who: Sequence[str]) -> dict[str, Rating]:
    rs = c.execute(
        select(ratings_t).where(and_(ratings_t.c.game == game, ratings_t.c.participant.in_(set(who))))
    ).all()
    return {r.participant: Rating(r.mu, r.sigma, r.games) for r in rs}


def unrated_tables(engine: Engine) -> list[str]:
    """Finished rated tables without their ``rated_games`` row (the server stopped between
    the game's end and its rating), oldest first."""
    done = select(rated_games_t.c.table_id)
    with engine.connect() as c:
        rs = c.execute(
            select(tables_t.c.id, tables_t.c.settings)
            .where(and_(tables_t.c.status == "over", tables_t.c.id.not_in(done)))
            .where(tables_t.c.settings.like('%"rated": true%'))
            .order_by(tables_t.c.created)
        ).all()
    out = []
    for r in rs:
        try:
            if json.loads(r.settings).get("rated") is True:
                out.append(r.id)
        except (ValueError, AttributeError):
            continue
    return out


# ---------------------------------------------------------------------------- reads
@dataclass(frozen=True)
class Entry:
    participant: str
    name: str | None
    rating: Rating


def _entry(r: Any) -> Entry:
    return Entry(r.participant, r.name, Rating(r.mu, r.sigma, r.games))


def leaderboard(engine: Engine, game: str, min_games: int, limit: int = LEADERBOARD_SIZE) -> list[Entry]:
    """The participants of ``game`` with at least ``min_games`` rated games, best first by
    the rating shown (``arena.skill.shown`` grows with mu alone); equal ones by participant id."""
    with engine.connect() as c:
        rs = c.execute(
            select(ratings_t)
            .where(and_(ratings_t.c.game == game, ratings_t.c.games >= min_games))
            .order_by(ratings_t.c.mu.desc(), ratings_t.c.participant)
            .limit(limit)
        ).all()
    return [_entry(r) for r in rs]


def rating_of(engine: Engine, game: str, participant: str) -> Entry | None:
    with engine.connect() as c:
        r = c.execute(
            select(ratings_t).where(and_(ratings_t.c.game == game, ratings_t.c.participant == participant))
        ).first()
    return None if r is None else _entry(r)


def profile_names(engine: Engine, profile_ids: Sequence[str]) -> dict[str, str]:
    """The current names of these profiles (id -> name), in one query; an unknown id is left
    out."""
    ids = sorted(set(profile_ids))
    if not ids:
        return {}
    with engine.connect() as c:
        rs = c.execute(select(profiles_t.c.id, profiles_t.c.name).where(profiles_t.c.id.in_(ids))).all()
    return {r.id: r.name for r in rs}


@dataclass(frozen=True)
class Step:
    """One rated table's effect on one participant."""

    table_id: str
    game: str
    at: float
    before: Rating
    after: Rating


def _step(r: Any) -> Step:
    return Step(
        r.table_id,
        r.game,
        r.at,
        Rating(r.mu_before, r.sigma_before, r.games - 1),
        Rating(r.mu, r.sigma, r.games),
    )


def table_steps(engine: Engine, table_id: str) -> dict[str, Step]:
    """What the rated table did to each of its participants (participant -> step); empty
    while it is not rated (or never will be)."""
    with engine.connect() as c:
        rs = c.execute(select(rating_history_t).where(rating_history_t.c.table_id == table_id)).all()
    return {r.participant: _step(r) for r in rs}


HISTORY_SIZE = 200  # rated games per game shown on a profile's graph (the latest)


def history(engine: Engine, participant: str, limit: int = HISTORY_SIZE) -> dict[str, list[Step]]:
    """A participant's rated games per game key, oldest first (the latest ``limit`` of each)."""
    with engine.connect() as c:
        rs = c.execute(
            select(rating_history_t)
            .where(rating_history_t.c.participant == participant)
            .order_by(rating_history_t.c.game, rating_history_t.c.at.desc())
        ).all()
    out: dict[str, list[Step]] = {}
    for r in rs:
        steps = out.setdefault(r.game, [])
        if len(steps) < limit:
            steps.append(_step(r))
    return {g: steps[::-1] for g, steps in out.items()}


def ratings_of(engine: Engine, participant: str) -> dict[str, Rating]:
    """A participant's current rating at every game it is rated at (game key -> rating)."""
    with engine.connect() as c:
        rs = c.execute(select(ratings_t).where(ratings_t.c.participant == participant)).all()
    return {r.game: Rating(r.mu, r.sigma, r.games) for r in rs}
