"""Storage of tables and their actions with SQLAlchemy (SQLite by default, PostgreSQL too).

A table is its settings (variant, options, seed, seats) and the list of actions accepted at
it, in order.  The game is rebuilt by replaying those actions from the seed, so what is
stored is all there is: a server killed at any moment resumes every table exactly.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

tables_t = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("name", String(80), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("options", Text, nullable=False),  # JSON: the rule options, players included
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),  # JSON: [{name, kind, level, token_hash}]
    Column("settings", Text, nullable=False),  # JSON: {timer}
    Column("status", String(16), nullable=False),  # waiting, playing, over
)

actions_t = Table(
    "actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # "move" (a record token), "leader" (a seat) or "deal"
    Column("value", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass
class TableRow:
    id: str
    created: float
    name: str
    variant: str
    options: dict
    seed: int
    seats: list[dict]
    settings: dict
    status: str
    actions: list[tuple[str, str, int]] = field(default_factory=list)  # (kind, value, seat)


def normalize_url(url: str) -> str:
    """SQLAlchemy URL for a --db value: "postgresql://" uses psycopg 3."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Store:
    """Synchronous storage; the server calls it from one worker thread."""

    def __init__(self, url: str):
        url = normalize_url(url)
        kw: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kw["connect_args"] = {"check_same_thread": False}
        self.url = url
        self.engine: Engine = create_engine(url, **kw)
        if url.startswith("sqlite"):

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised by every test
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as c:
            c.execute(
                insert(tables_t).values(
                    id=row.id,
                    created=row.created,
                    name=row.name,
                    variant=row.variant,
                    options=json.dumps(row.options),
                    seed=row.seed,
                    seats=json.dumps(row.seats),
                    settings=json.dumps(row.settings),
                    status=row.status,
                )
            )

    def update_table(
        self, table_id: str, *, seats: list[dict] | None = None, status: str | None = None
    ) -> None:
        values: dict[str, Any] = {}
        if seats is not None:
            values["seats"] = json.dumps(seats)
        if status is not None:
            values["status"] = status
        if values:
            with self.engine.begin() as c:
                c.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    def append(self, batch: list[tuple[str, int, str, str, int]]) -> None:
        """Store many actions in one transaction: (table, seq, kind, value, seat).
        A (table, seq) stored twice fails the whole batch (the primary key)."""
        now = time.time()
        with self.engine.begin() as c:
            c.execute(
                insert(actions_t),
                [
                    {"table_id": t, "seq": seq, "kind": kind, "value": value, "seat": seat, "at": now}
                    for t, seq, kind, value, seat in batch
                ],
            )

    # ------------------------------------------------------------------ reads
    def _row(self, r: Any) -> TableRow:
        return TableRow(
            id=r.id,
            created=r.created,
            name=r.name,
            variant=r.variant,
            options=json.loads(r.options),
            seed=int(r.seed),
            seats=json.loads(r.seats),
            settings=json.loads(r.settings),
            status=r.status,
        )

    def load(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as c:
            r = c.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            row = self._row(r)
            row.actions = self._actions(c, table_id)
        return row

    def _actions(self, c: Any, table_id: str) -> list[tuple[str, str, int]]:
        rs = c.execute(
            select(actions_t.c.seq, actions_t.c.kind, actions_t.c.value, actions_t.c.seat)
            .where(actions_t.c.table_id == table_id)
            .order_by(actions_t.c.seq)
        ).all()
        out = []
        for i, r in enumerate(rs):
            if r.seq != i:  # never happens: sequence numbers are checked before storing
                raise RuntimeError(f"table {table_id}: action {i} is missing from storage")
            out.append((r.kind, r.value, r.seat))
        return out

    def load_active(self) -> list[TableRow]:
        """Every table not over, with its actions."""
        with self.engine.connect() as c:
            rows = [
                self._row(r)
                for r in c.execute(
                    select(tables_t).where(tables_t.c.status != "over").order_by(tables_t.c.created)
                )
            ]
            for row in rows:
                row.actions = self._actions(c, row.id)
        return rows

    def recent_over(self, limit: int = 20) -> list[TableRow]:
        with self.engine.connect() as c:
            return [
                self._row(r)
                for r in c.execute(
                    select(tables_t)
                    .where(tables_t.c.status == "over")
                    .order_by(tables_t.c.created.desc())
                    .limit(limit)
                )
            ]
