"""Storage of puzzles on the server (migration 0013_puzzles): each profile's puzzle rating,
each puzzle's own rating once someone tried it, the first attempt of each profile at each
puzzle, and the puzzles mined from the server's own finished tables.

One puzzle rating per profile, for every game (as lichess keeps one): a puzzle asks to read
one position, whatever the game, and each game has a few hundred puzzles at most, too few for
a rating per game to settle.  The puzzles themselves are rated one by one.

A profile's attempt at a puzzle is rated once: the first attempt that ends (solved, or the
first wrong move) is stored with the ratings it changed in one transaction, and the attempt's
primary key (profile, puzzle) refuses a second one, so a puzzle tried again, or answered twice
at once, changes no rating.  Synchronous: called in the server's storage thread."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ...puzzles.glicko2 import Rating
from ...puzzles.glicko2 import update as glicko_update
from .database import (
    mined_puzzles_t,
    puzzle_attempts_t,
    puzzle_mined_tables_t,
    puzzle_players_t,
    puzzle_ratings_t,
    results_t,
)

#: a puzzle's deviation before anyone tried it: its starting rating is the miner's estimate
#: of its difficulty, surer than a new player's 350 but far from settled
PUZZLE_RD = 200.0


@dataclass(frozen=True)
class Standing:
    """A rating with its counts: a profile's puzzle rating or a puzzle's."""

    rating: Rating
    attempts: int
    solved: int


@dataclass(frozen=True)
class Change:
    """What one rated attempt did: the player's rating before and after, the puzzle's after."""

    solved: bool
    before: Rating
    after: Rating
    puzzle: Rating
    attempts: int  # the player's rated attempts, this one counted


def _standing(r: Any) -> Standing:
    return Standing(Rating(r.rating, r.rd, r.vol), r.attempts, r.solved)


def player(engine: Engine, profile: str) -> Standing | None:
    """The profile's puzzle rating (None: it has tried no puzzle)."""
    with engine.connect() as c:
        r = c.execute(select(puzzle_players_t).where(puzzle_players_t.c.profile == profile)).first()
    return None if r is None else _standing(r)


def puzzle_ratings(engine: Engine) -> dict[str, Standing]:
    """Every puzzle's rating that has moved from its start (the puzzles someone tried)."""
    with engine.connect() as c:
        return {r.puzzle: _standing(r) for r in c.execute(select(puzzle_ratings_t))}


def attempted(engine: Engine, profile: str) -> dict[str, bool]:
    """The puzzles the profile tried, each with whether its rated attempt solved it."""
    with engine.connect() as c:
        rows = c.execute(
            select(puzzle_attempts_t.c.puzzle, puzzle_attempts_t.c.solved).where(
                puzzle_attempts_t.c.profile == profile
            )
        ).all()
    return {r.puzzle: bool(r.solved) for r in rows}


def _put(c: Connection, table: Any, key: str, value: str, s: Standing, now: float) -> None:
    values = {
        "rating": s.rating.r,
        "rd": s.rating.rd,
        "vol": s.rating.vol,
        "attempts": s.attempts,
        "solved": s.solved,
        "updated": now,
    }
    done = c.execute(update(table).where(table.c[key] == value).values(**values))
    if done.rowcount == 0:
        c.execute(insert(table).values(**{key: value}, **values))


def rate_attempt(engine: Engine, profile: str, puzzle: str, start: float, solved: bool) -> Change | None:
    """Rate the profile's attempt at ``puzzle`` (whose starting rating is ``start``) if it is
    the first to end; None when an attempt was rated before (nothing changes)."""
    now = time.time()
    try:
        with engine.begin() as c:
            seen = c.execute(
                select(puzzle_attempts_t.c.at).where(
                    puzzle_attempts_t.c.profile == profile, puzzle_attempts_t.c.puzzle == puzzle
                )
            ).first()
            if seen is not None:
                return None
            p = c.execute(select(puzzle_players_t).where(puzzle_players_t.c.profile == profile)).first()
            q = c.execute(select(puzzle_ratings_t).where(puzzle_ratings_t.c.puzzle == puzzle)).first()
            me = _standing(p) if p is not None else Standing(Rating(), 0, 0)
            it = _standing(q) if q is not None else Standing(Rating(start, PUZZLE_RD), 0, 0)
            mine, its = glicko_update(me.rating, it.rating, solved)
            # the attempt first: a second attempt racing this one fails here, before any rating
            c.execute(
                insert(puzzle_attempts_t).values(
                    profile=profile,
                    puzzle=puzzle,
                    solved=solved,
                    at=now,
                    rating_before=me.rating.r,
                    rating=mine.r,
                )
            )
            won = 1 if solved else 0
            _put(
                c, puzzle_players_t, "profile", profile, Standing(mine, me.attempts + 1, me.solved + won), now
            )
            # the puzzle's "solved" counts the attempts that solved it
            _put(c, puzzle_ratings_t, "puzzle", puzzle, Standing(its, it.attempts + 1, it.solved + won), now)
    except IntegrityError:
        return None
    return Change(solved, me.rating, mine, its, me.attempts + 1)


# ---------------------------------------------------------------------------- mined puzzles
#: ``found`` of a table claimed by a miner and not mined yet
CLAIMED = -1
#: seconds after which a claim is deemed left by a miner that stopped (mining one game takes
#: seconds to a few minutes)
STALE = 3600.0


def claim_table(engine: Engine) -> str | None:
    """Claim the most recently finished table whose game has not been mined (None: none left,
    or another worker of a cluster claimed it at the same moment): its row is stored now,
    ``found`` = CLAIMED, so that no other miner takes it.  Private tables are never mined:
    their games are their players' alone."""
    done = select(puzzle_mined_tables_t.c.table_id)
    now = time.time()
    try:
        with engine.begin() as c:
            # a claim left by a miner stopped in its work (a server stopped, killed) is free again
            c.execute(
                delete(puzzle_mined_tables_t).where(
                    puzzle_mined_tables_t.c.found == CLAIMED, puzzle_mined_tables_t.c.mined < now - STALE
                )
            )
            table_id = c.execute(
                select(results_t.c.table_id)
                .where(results_t.c.table_id.not_in(done), results_t.c.private.is_(False))
                .order_by(results_t.c.finished.desc())
                .limit(1)
            ).scalar()
            if table_id is not None:
                c.execute(
                    insert(puzzle_mined_tables_t).values(table_id=table_id, mined=time.time(), found=CLAIMED)
                )
    except IntegrityError:
        return None
    return table_id


def release_table(engine: Engine, table_id: str) -> None:
    """Give a claimed table back (its mining stopped for a reason of the worker's, not the
    game's): it is mined again later."""
    with engine.begin() as c:
        c.execute(
            delete(puzzle_mined_tables_t).where(
                puzzle_mined_tables_t.c.table_id == table_id, puzzle_mined_tables_t.c.found == CLAIMED
            )
        )


def add_mined(engine: Engine, table_id: str, found: list[tuple[str, str, dict[str, Any]]]) -> int:
    """Store what mining ``table_id`` found, (id, variant, the puzzle's dict) each, and mark
    the table mined, in one transaction; a puzzle already stored is kept as it is, a table
    already mined is left as it is (0).  The number of new puzzles."""
    try:
        return _add_mined(engine, table_id, found)
    except IntegrityError:  # another worker of a cluster stored the same puzzle or table first
        return 0


def _add_mined(engine: Engine, table_id: str, found: list[tuple[str, str, dict[str, Any]]]) -> int:
    now = time.time()
    new = 0
    with engine.begin() as c:
        row = c.execute(
            select(puzzle_mined_tables_t.c.found).where(puzzle_mined_tables_t.c.table_id == table_id)
        ).first()
        if row is not None and row.found != CLAIMED:
            return 0
        for pid, variant, body in found:
            if c.execute(select(mined_puzzles_t.c.id).where(mined_puzzles_t.c.id == pid)).first() is None:
                c.execute(
                    insert(mined_puzzles_t).values(
                        id=pid, variant=variant, table_id=table_id, created=now, body=json.dumps(body)
                    )
                )
                new += 1
        if row is None:
            c.execute(insert(puzzle_mined_tables_t).values(table_id=table_id, mined=now, found=new))
        else:
            c.execute(
                update(puzzle_mined_tables_t)
                .where(puzzle_mined_tables_t.c.table_id == table_id)
                .values(mined=now, found=new)
            )
    return new


def mined(engine: Engine, since: float = 0.0) -> list[tuple[float, dict[str, Any]]]:
    """The puzzles mined after ``since`` (when each was stored, its dict), oldest first; a row
    whose JSON cannot be read is left out."""
    out: list[tuple[float, dict[str, Any]]] = []
    with engine.connect() as c:
        for r in c.execute(
            select(mined_puzzles_t.c.created, mined_puzzles_t.c.body)
            .where(mined_puzzles_t.c.created > since)
            .order_by(mined_puzzles_t.c.created)
        ):
            try:
                d = json.loads(r.body)
            except ValueError:
                continue
            if isinstance(d, dict):
                out.append((r.created, d))
    return out
