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
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError

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


class Damaged(Exception):
    """A stored table that cannot be read back (its row is not what this server wrote)."""

    def __init__(self, table_id: str, reason: str):
        super().__init__(f"table {table_id}: {reason}")
        self.table_id = table_id
        self.reason = reason


class Unusable(Exception):
    """The storage as a whole cannot be used (not a database, damaged, read-only): one line."""


def describe(e: BaseException) -> str:
    """The first line of a storage error, without SQLAlchemy's wrapping and SQL."""
    inner = getattr(e, "orig", None) or e
    return (str(inner).strip().splitlines() or [type(inner).__name__])[0]


def unusable(e: BaseException) -> str:
    """Why a database cannot be used, in words, from the error opening or writing it."""
    why = describe(e)
    if "readonly" in why.replace(" ", "").lower():
        return f"it is read-only, the server could not store a single move ({why})"
    if "not a database" in why or "malformed" in why:
        return f"the file is damaged or not a database ({why})"
    return why


def normalize_url(url: str) -> str:
    """SQLAlchemy URL for a --db value: "postgresql://" uses psycopg 3."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Store:
    """Synchronous storage; the server calls it from one worker thread.

    SQLite runs in WAL mode with ``synchronous=NORMAL``: a commit survives the process being
    killed, but the last commits may be lost if the machine loses power.  ``durable``
    (``--durable``) sets ``synchronous=FULL``: every commit waits for the disk."""

    def __init__(self, url: str, *, durable: bool = False):
        url = normalize_url(url)
        kw: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kw["connect_args"] = {"check_same_thread": False}
        self.url = url
        self.durable = durable
        self.engine: Engine = create_engine(url, **kw)
        if url.startswith("sqlite"):

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised by every test
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=FULL" if durable else "PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

        metadata.create_all(self.engine)

    def check(self) -> None:
        """Refuse storage that cannot be used, in one line (``Unusable``): a damaged SQLite
        file (its every page read once) or one this process cannot write."""
        try:
            with self.engine.connect() as c:
                if self.url.startswith("sqlite"):
                    found = [r[0] for r in c.exec_driver_sql("PRAGMA quick_check").all()]
                    if found != ["ok"]:
                        raise Unusable(f"the file is damaged ({found[0]})")
                    c.rollback()
                c.execute(tables_t.delete().where(text("1 = 0")))  # a write that changes nothing
                c.rollback()
        except Unusable:
            raise
        except DatabaseError as e:
            raise Unusable(unusable(e)) from None

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
        A (table, seq) stored twice fails the whole batch (the primary key): see
        ``append_each``."""
        now = time.time()
        with self.engine.begin() as c:
            c.execute(
                insert(actions_t),
                [
                    {"table_id": t, "seq": seq, "kind": kind, "value": value, "seat": seat, "at": now}
                    for t, seq, kind, value, seat in batch
                ],
            )

    def append_each(self, batch: list[tuple[str, int, str, str, int]]) -> list[Exception | None]:
        """Store each action in its own transaction (after a batch failed): per action, None
        or why it failed.  A table's actions after one of its own that failed are not tried
        (they would leave a gap)."""
        out: list[Exception | None] = []
        failed: dict[str, Exception] = {}
        for item in batch:
            if item[0] in failed:
                out.append(failed[item[0]])
                continue
            try:
                self.append([item])
                out.append(None)
            except Exception as e:
                failed[item[0]] = e
                out.append(e)
        return out

    # ------------------------------------------------------------------ reads
    def _row(self, r: Any) -> TableRow:
        """A stored row as a TableRow (``Damaged`` if its JSON columns are not ours)."""
        parsed: dict[str, Any] = {}
        for col, kind in (("options", dict), ("seats", list), ("settings", dict)):
            try:
                parsed[col] = json.loads(getattr(r, col))
            except (ValueError, TypeError) as e:
                raise Damaged(r.id, f"its {col} are not JSON ({e})") from None
            if not isinstance(parsed[col], kind):
                raise Damaged(r.id, f"its {col} are not a JSON {'list' if kind is list else 'object'}")
        if not all(isinstance(d, dict) for d in parsed["seats"]):
            raise Damaged(r.id, "its seats are not JSON objects")
        return TableRow(
            id=r.id,
            created=r.created,
            name=r.name,
            variant=r.variant,
            seed=int(r.seed),
            status=r.status,
            **parsed,
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
                raise Damaged(table_id, f"its action {i} is missing from storage")
            out.append((r.kind, r.value, r.seat))
        return out

    def load_active(self, damaged: dict[str, str] | None = None) -> list[TableRow]:
        """Every table not over, with its actions.  A table whose stored data cannot be read
        is left out (and put in ``damaged``: its id -> why)."""
        rows: list[TableRow] = []
        with self.engine.connect() as c:
            for r in c.execute(
                select(tables_t).where(tables_t.c.status != "over").order_by(tables_t.c.created)
            ):
                try:
                    rows.append(self._row(r))
                except Damaged as e:
                    if damaged is not None:
                        damaged[e.table_id] = e.reason
            for row in list(rows):
                try:
                    row.actions = self._actions(c, row.id)
                except Damaged as e:
                    rows.remove(row)
                    if damaged is not None:
                        damaged[e.table_id] = e.reason
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
