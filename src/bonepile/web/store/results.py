"""Storage of finished tables' results: one ``results`` row per table and one
``result_seats`` row per seat (migration 0004_results), written in one transaction with the
table's "over" mark, once its last move is stored.  A server killed between that move and
this transaction finds the game over when it starts and stores both then (``Server.start``);
the tables finished before the migration got theirs from the migration.

The facts come from the engine (``engine.tally``: outcomes, hands, points, dominoes,
blocked hands won, capicús and chuchazos where the game has them); this module only stores
them, and reads them back for a profile's history and stats (counting, summing).
Synchronous: called in the server's storage thread."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from ...engine.tally import bonus_kinds, seat_tallies, side_outcomes
from .database import actions_t, profile_stats_t, result_seats_t, results_t, tables_t

if TYPE_CHECKING:
    from ...engine.game import Game


# ---------------------------------------------------------------------------- writing
@dataclass(frozen=True)
class Finished:
    """A finished table's result and its seats' rows, ready to store."""

    variant: str
    players: int
    created: float
    sides: list[list[int]]
    totals: list[int]
    winner: int | None
    hands: int
    rated: bool
    private: bool
    seats: list[dict[str, Any]]  # result_seats values without the table id


def finished_of(
    game: Game,
    variant: str,
    created: float,
    profiles: Sequence[str | None],
    *,
    rated: bool = False,
    private: bool = False,
) -> Finished:
    """The result of a finished game played at a table made at ``created`` whose seats are
    tied to ``profiles`` (None: no profile)."""
    kinds = bonus_kinds(game.variant)
    outcomes = side_outcomes(game)
    seats = [
        {
            "seat": s.seat,
            "profile": profiles[s.seat],
            "side": s.side,
            "outcome": outcomes[s.side],
            "points": s.points,
            "dominoes": s.dominoes,
            "blocked_won": s.blocked_won,
            "capicus": s.bonuses["capicu"] if "capicu" in kinds else None,
            "chuchazos": s.bonuses["chuchazo"] if "chuchazo" in kinds else None,
        }
        for s in seat_tallies(game)
    ]
    return Finished(
        variant=variant,
        players=game.variant.players,
        created=created,
        sides=[list(s) for s in game.variant.sides],
        totals=list(game.totals),
        winner=game.winner,
        hands=sum(1 for h in game.hands if h.over),
        rated=rated,
        private=private,
        seats=seats,
    )


def finish_table(engine: Engine, table_id: str, f: Finished) -> bool:
    """Mark the table over and store its result, in one transaction; False when its result
    was stored already (the mark is set again, nothing else changes)."""
    with engine.begin() as c:
        c.execute(update(tables_t).where(tables_t.c.id == table_id).values(status="over"))
        if c.execute(select(results_t.c.table_id).where(results_t.c.table_id == table_id)).first():
            return False
        last = c.execute(select(func.max(actions_t.c.at)).where(actions_t.c.table_id == table_id)).scalar()
        c.execute(
            insert(results_t).values(
                table_id=table_id,
                variant=f.variant,
                players=f.players,
                created=f.created,
                finished=float(last) if last is not None else f.created,
                sides=json.dumps(f.sides),
                totals=json.dumps(f.totals),
                winner=f.winner,
                hands=f.hands,
                rated=f.rated,
                private=f.private,
            )
        )
        same = {
            "table_id": table_id,
            "created": f.created,
            "variant": f.variant,
            "private": f.private,
            "hands": f.hands,
        }
        c.execute(insert(result_seats_t), [{**same, **s} for s in f.seats])
        for s in f.seats:
            if s["profile"]:
                _add(c, s["profile"], f, s)
    return True


#: every profile's sums made anew from the stored result_seats (as migration 0004 makes
#: them): for a database whose results were written by other means (bench/players.py)
SUMS_SQL = (
    "INSERT INTO profile_stats (profile, variant, private, games, wins, ties, hands, points,"
    " point_hands, dominoes, blocked_won, capicus, chuchazos)"
    " SELECT profile, variant, private, COUNT(*),"
    " SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 'tie' THEN 1 ELSE 0 END),"
    " SUM(hands), SUM(points), SUM(CASE WHEN points IS NULL THEN 0 ELSE hands END),"
    " SUM(dominoes), SUM(blocked_won), SUM(capicus), SUM(chuchazos)"
    " FROM result_seats WHERE profile IS NOT NULL GROUP BY profile, variant, private"
)


def resum(engine: Engine) -> None:
    """Make every profile's sums anew from the stored results."""
    with engine.begin() as c:
        c.execute(profile_stats_t.delete())
        c.exec_driver_sql(SUMS_SQL)


def _plus(a: int | None, b: int | None) -> int | None:
    """A sum that stays None while nothing was ever added (a figure the game does not have)."""
    return None if a is None and b is None else (a or 0) + (b or 0)


def _add(c: Connection, profile: str, f: Finished, s: dict[str, Any]) -> None:
    """Add one finished table to the profile's sums for that game."""
    ps = profile_stats_t.c
    key = and_(ps.profile == profile, ps.variant == f.variant, ps.private.is_(f.private))
    old = c.execute(select(profile_stats_t).where(key)).first()
    add = {
        "games": 1,
        "wins": 1 if s["outcome"] == "won" else 0,
        "ties": 1 if s["outcome"] == "tie" else 0,
        "hands": f.hands,
        "points": s["points"],
        "point_hands": f.hands if s["points"] is not None else 0,
        "dominoes": s["dominoes"],
        "blocked_won": s["blocked_won"],
        "capicus": s["capicus"],
        "chuchazos": s["chuchazos"],
    }
    if old is None:
        c.execute(
            insert(profile_stats_t).values(profile=profile, variant=f.variant, private=f.private, **add)
        )
        return
    c.execute(
        update(profile_stats_t).where(key).values(**{k: _plus(getattr(old, k), v) for k, v in add.items()})
    )


# ---------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class StoredGame:
    """One finished table of a profile: its result, the profile's seat, the table's seats."""

    table_id: str
    name: str
    variant: str
    players: int
    created: float
    finished: float
    seat: int
    side: int
    outcome: str
    sides: list[list[int]]
    totals: list[int]
    winner: int | None
    rated: bool
    private: bool
    seats: list[dict[str, Any]]  # as stored at the table (name, kind, level, profile)


def _where(profile_id: str, variant: str | None, own: bool) -> list[Any]:
    """The profile's result_seats rows (of one game; with its private tables or not)."""
    cond: list[Any] = [result_seats_t.c.profile == profile_id]
    if variant is not None:
        cond.append(result_seats_t.c.variant == variant)
    if not own:  # a private table's games only to the profile itself
        cond.append(result_seats_t.c.private.is_(False))
    return cond


def profile_games(
    engine: Engine, profile_id: str, variant: str | None, own: bool, limit: int, before: float | None
) -> tuple[list[StoredGame], bool]:
    """A page of the profile's finished tables, newest created first (then by id), and
    whether older ones follow."""
    cond = _where(profile_id, variant, own)
    if before is not None:
        cond.append(result_seats_t.c.created < before)
    q = (
        select(
            results_t,
            result_seats_t.c.seat,
            result_seats_t.c.side,
            result_seats_t.c.outcome,
            tables_t.c.name,
            tables_t.c.seats.label("table_seats"),
        )
        .select_from(result_seats_t)
        .join(results_t, results_t.c.table_id == result_seats_t.c.table_id)
        .join(tables_t, tables_t.c.id == result_seats_t.c.table_id)
        .where(and_(*cond))
        .order_by(result_seats_t.c.created.desc(), result_seats_t.c.table_id)
        .limit(limit + 1)
    )
    out: list[StoredGame] = []
    with engine.connect() as c:
        rs = c.execute(q).all()
    for r in rs[:limit]:
        try:
            seats = json.loads(r.table_seats)
        except ValueError:
            seats = []
        out.append(
            StoredGame(
                table_id=r.table_id,
                name=r.name,
                variant=r.variant,
                players=r.players,
                created=r.created,
                finished=r.finished,
                seat=r.seat,
                side=r.side,
                outcome=r.outcome,
                sides=json.loads(r.sides),
                totals=json.loads(r.totals),
                winner=r.winner,
                rated=bool(r.rated),
                private=bool(r.private),
                seats=[s if isinstance(s, dict) else {} for s in seats] if isinstance(seats, list) else [],
            )
        )
    return out, len(rs) > limit


@dataclass(frozen=True)
class Totals:
    """The sums over a profile's finished tables (one query)."""

    games: int
    wins: int
    ties: int
    hands: int
    points: int | None  # None: none of the games scores points
    point_hands: int  # the hands of the games that score points
    dominoes: int
    blocked_won: int
    capicus: int | None  # None: none of the games has capicús
    chuchazos: int | None
    variants: int  # how many different games they are


def profile_totals(engine: Engine, profile_id: str, variant: str | None, own: bool) -> Totals:
    """The sums over the profile's finished tables (of one game; with its private tables or
    not), from its few ``profile_stats`` rows."""
    ps = profile_stats_t.c
    cond: list[Any] = [ps.profile == profile_id, ps.games > 0]
    if variant is not None:
        cond.append(ps.variant == variant)
    if not own:
        cond.append(ps.private.is_(False))
    with engine.connect() as c:
        rows = c.execute(select(profile_stats_t).where(and_(*cond))).all()

    def total(k: str) -> int:
        return sum(getattr(r, k) for r in rows)

    def maybe(k: str) -> int | None:
        got = [getattr(r, k) for r in rows if getattr(r, k) is not None]
        return sum(got) if got else None

    return Totals(
        games=total("games"),
        wins=total("wins"),
        ties=total("ties"),
        hands=total("hands"),
        points=maybe("points"),
        point_hands=total("point_hands"),
        dominoes=total("dominoes"),
        blocked_won=total("blocked_won"),
        capicus=maybe("capicus"),
        chuchazos=maybe("chuchazos"),
        variants=len({r.variant for r in rows}),
    )
