"""Tournaments in storage: the tournament, its entrants, each round's tables.

A round is opened in one transaction (its tables' rows here, the bots that fill the field,
the count of rounds open); the server tables it names are then stored one by one and can be
made again from these rows after a restart (``play.tournaments``).  Results are not stored
here: they are read from the tables' own stored actions, so a result is never stored twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine

from .database import Store, TableRow, tables_t, tournament_entrants_t, tournament_tables_t, tournaments_t


@dataclass
class EntrantRow:
    number: int
    name: str
    profile: str | None
    bot: bool
    joined: float
    partner: str | None = None
    partner_name: str | None = None


@dataclass
class RoundTable:
    round: int
    number: int
    table_id: str
    entrants: list[int]
    commitment: str


@dataclass
class TournamentRow:
    id: str
    created: float
    name: str
    variant: str
    options: dict
    settings: dict
    seed: int
    secret: str
    status: str
    rounds_open: int = 0
    entrants: list[EntrantRow] = field(default_factory=list)
    tables: list[RoundTable] = field(default_factory=list)


class Refused(Exception):
    """A join the stored state does not allow (the code says why)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def create(engine: Engine, t: TournamentRow) -> None:
    with engine.begin() as c:
        c.execute(
            insert(tournaments_t).values(
                id=t.id,
                created=t.created,
                name=t.name,
                variant=t.variant,
                options=json.dumps(t.options),
                settings=json.dumps(t.settings),
                seed=t.seed,
                secret=t.secret,
                status=t.status,
                rounds_open=0,
            )
        )


def add_entrant(engine: Engine, tid: str, e: EntrantRow, pair_of: int | None = None) -> int:
    """Store an entrant (or, with ``pair_of``, the second player of that pair) while the
    tournament waits; its number.  ``Refused``: started, or the profile is in already."""
    with engine.begin() as c:
        status = c.execute(select(tournaments_t.c.status).where(tournaments_t.c.id == tid)).scalar()
        if status != "waiting":
            raise Refused("tournament_started")
        rows = c.execute(
            select(tournament_entrants_t).where(tournament_entrants_t.c.tournament_id == tid)
        ).all()
        if e.profile is not None and any(e.profile in (r.profile, r.partner) for r in rows):
            raise Refused("tournament_joined")
        if pair_of is not None:
            mine = [r for r in rows if r.number == pair_of]
            if not mine or mine[0].partner_name is not None:
                raise Refused("tournament_pair_full")
            c.execute(
                update(tournament_entrants_t)
                .where(
                    (tournament_entrants_t.c.tournament_id == tid)
                    & (tournament_entrants_t.c.number == pair_of)
                )
                .values(partner=e.profile, partner_name=e.name)
            )
            return pair_of
        number = len(rows)
        c.execute(
            insert(tournament_entrants_t).values(
                tournament_id=tid,
                number=number,
                name=e.name,
                profile=e.profile,
                bot=e.bot,
                joined=e.joined,
            )
        )
        return number


def open_round(
    engine: Engine, tid: str, number: int, bots: list[EntrantRow], tables: list[RoundTable]
) -> None:
    """Round ``number``'s tables, and the bots that fill the field (round 1), in one transaction."""
    with engine.begin() as c:
        for b in bots:
            c.execute(
                insert(tournament_entrants_t).values(
                    tournament_id=tid, number=b.number, name=b.name, profile=None, bot=True, joined=b.joined
                )
            )
        for t in tables:
            c.execute(
                insert(tournament_tables_t).values(
                    tournament_id=tid,
                    round=t.round,
                    number=t.number,
                    table_id=t.table_id,
                    entrants=json.dumps(t.entrants),
                    commitment=t.commitment,
                )
            )
        c.execute(
            update(tournaments_t)
            .where(tournaments_t.c.id == tid)
            .values(rounds_open=number + 1, status="playing")
        )


def create_tables(engine: Engine, rows: list[TableRow]) -> None:
    """A round's server tables, stored in one transaction."""
    if rows:
        with engine.begin() as c:
            c.execute(insert(tables_t), [Store._table_values(r) for r in rows])


def set_status(engine: Engine, tid: str, status: str) -> None:
    with engine.begin() as c:
        c.execute(update(tournaments_t).where(tournaments_t.c.id == tid).values(status=status))


def _load(c: Any, r: Any) -> TournamentRow:
    t = TournamentRow(
        id=r.id,
        created=r.created,
        name=r.name,
        variant=r.variant,
        options=json.loads(r.options),
        settings=json.loads(r.settings),
        seed=int(r.seed),
        secret=r.secret,
        status=r.status,
        rounds_open=r.rounds_open,
    )
    for e in c.execute(
        select(tournament_entrants_t)
        .where(tournament_entrants_t.c.tournament_id == r.id)
        .order_by(tournament_entrants_t.c.number)
    ).all():
        t.entrants.append(EntrantRow(e.number, e.name, e.profile, e.bot, e.joined, e.partner, e.partner_name))
    for x in c.execute(
        select(tournament_tables_t)
        .where(tournament_tables_t.c.tournament_id == r.id)
        .order_by(tournament_tables_t.c.round, tournament_tables_t.c.number)
    ).all():
        t.tables.append(RoundTable(x.round, x.number, x.table_id, json.loads(x.entrants), x.commitment))
    return t


def load(engine: Engine, tid: str) -> TournamentRow | None:
    with engine.connect() as c:
        r = c.execute(select(tournaments_t).where(tournaments_t.c.id == tid)).first()
        return None if r is None else _load(c, r)


def load_active(engine: Engine) -> list[TournamentRow]:
    """Every tournament not over, oldest first."""
    with engine.connect() as c:
        rs = c.execute(
            select(tournaments_t).where(tournaments_t.c.status != "over").order_by(tournaments_t.c.created)
        ).all()
        return [_load(c, r) for r in rs]


def stored_tables(engine: Engine, ids: list[str]) -> dict[str, str]:
    """The status of each of these tables that is stored."""
    if not ids:
        return {}
    with engine.connect() as c:
        rs = c.execute(select(tables_t.c.id, tables_t.c.status).where(tables_t.c.id.in_(ids))).all()
    return {r.id: r.status for r in rs}


def count(engine: Engine) -> int:
    with engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(tournaments_t)).scalar() or 0)
