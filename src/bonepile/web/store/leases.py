"""Leases in the database (PostgreSQL): which worker of a cluster plays each table.

Every time is the database's clock (seconds since the epoch), so that the machines of a
cluster need not agree on theirs.  A worker renews its own row in ``workers`` and every lease
it holds in one statement each; a lease past its expiry may be taken by any worker, in one
conditional statement (two workers taking it at once: one of them gets it).  The functions
are synchronous: the server calls them from its storage thread."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, literal, or_, select, update
from sqlalchemy import insert as plain_insert
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from .database import Store, actions_t, append_each, leases_t, tables_t, workers_t

#: the database's clock: seconds since the epoch
NOW = func.extract("epoch", func.clock_timestamp())


class LeaseLost(Exception):
    """An action of a table whose lease this worker no longer holds: not stored."""


@dataclass(frozen=True)
class Owner:
    worker: str
    address: str  # host:port of the worker's cluster listener


class Leases:
    def __init__(self, engine: Engine, worker: str, address: str, ttl: float):
        self.engine = engine
        self.worker = worker
        self.address = address
        self.ttl = ttl

    def register(self) -> None:
        """This worker is alive (its row made or renewed)."""
        with self.engine.begin() as c:
            c.execute(
                insert(workers_t)
                .values(id=self.worker, address=self.address, expires=NOW + self.ttl)
                .on_conflict_do_update(
                    index_elements=[workers_t.c.id],
                    set_={"address": self.address, "expires": NOW + self.ttl},
                )
            )

    def renew(self) -> set[str]:
        """This worker's row and every lease it still holds renewed; the tables of those."""
        with self.engine.begin() as c:
            c.execute(update(workers_t).where(workers_t.c.id == self.worker).values(expires=NOW + self.ttl))
            rs = c.execute(
                update(leases_t)
                .where(leases_t.c.worker == self.worker, leases_t.c.expires > NOW)
                .values(expires=NOW + self.ttl)
                .returning(leases_t.c.table_id)
            )
            return {r[0] for r in rs}

    def acquire(self, table_id: str) -> bool:
        """Take the lease of a table nobody holds (none, or expired), or renew ours."""
        with self.engine.begin() as c:
            got = c.execute(
                insert(leases_t)
                .values(table_id=table_id, worker=self.worker, expires=NOW + self.ttl)
                .on_conflict_do_update(
                    index_elements=[leases_t.c.table_id],
                    set_={"worker": self.worker, "expires": NOW + self.ttl},
                    where=or_(leases_t.c.expires <= NOW, leases_t.c.worker == self.worker),
                )
                .returning(leases_t.c.worker)
            ).first()
        return got is not None

    def release(self, table_ids: list[str]) -> None:
        """Our leases of these tables given up (the table left memory, or the worker stops)."""
        if table_ids:
            with self.engine.begin() as c:
                c.execute(
                    delete(leases_t).where(
                        leases_t.c.worker == self.worker, leases_t.c.table_id.in_(table_ids)
                    )
                )

    def leave(self) -> None:
        """This worker stops: its leases and its row removed (the others take its tables now)."""
        with self.engine.begin() as c:
            c.execute(delete(leases_t).where(leases_t.c.worker == self.worker))
            c.execute(delete(workers_t).where(workers_t.c.id == self.worker))

    def owner(self, table_id: str) -> Owner | None:
        """The worker whose lease of the table is still running (None: nobody's)."""
        with self.engine.connect() as c:
            r = c.execute(
                select(leases_t.c.worker, workers_t.c.address)
                .join(workers_t, workers_t.c.id == leases_t.c.worker)
                .where(leases_t.c.table_id == table_id, leases_t.c.expires > NOW)
            ).first()
        return None if r is None else Owner(r.worker, r.address)

    def orphans(self, young: float) -> list[str]:
        """Tables not over whose lease expired, or that have none and were made more than
        ``young`` seconds ago (a new table's maker takes its lease just after storing it)."""
        with self.engine.connect() as c:
            rs = c.execute(
                select(tables_t.c.id)
                .select_from(tables_t.outerjoin(leases_t, leases_t.c.table_id == tables_t.c.id))
                .where(
                    tables_t.c.status != "over",
                    or_(
                        leases_t.c.expires <= NOW,
                        and_(leases_t.c.table_id.is_(None), tables_t.c.created < NOW - literal(young)),
                    ),
                )
                .order_by(tables_t.c.created)
            )
            return [r[0] for r in rs]

    def others(self) -> list[str]:
        """The addresses of the other workers alive."""
        with self.engine.connect() as c:
            rs = c.execute(
                select(workers_t.c.address).where(workers_t.c.expires > NOW, workers_t.c.id != self.worker)
            )
            return [r[0] for r in rs]

    def forget_dead(self) -> None:
        """Rows of workers dead for long (their leases expired long ago) removed."""
        with self.engine.begin() as c:
            c.execute(delete(workers_t).where(workers_t.c.expires < NOW - 3600))


class Fenced:
    """The writer's storage for a worker (``Writer.store``): a batch of actions is stored
    only if this worker still holds the lease of every table in it, checked in the same
    transaction with the lease rows locked (``FOR SHARE``): a worker that stalled past its
    lease never stores an action after the worker that took the table over has loaded it.
    A batch refused so is a storage fault (the intent is told to try again; the table is
    not marked damaged), and the table leaves this worker at its next renewal."""

    def __init__(self, store: Store, leases: Leases):
        self.store = store
        self.leases = leases

    def append(self, batch: list[tuple[str, int, str, str, int]]) -> None:
        ids = sorted({item[0] for item in batch})
        now = time.time()
        with self.store.engine.begin() as c:
            held = {
                r[0]
                for r in c.execute(
                    select(leases_t.c.table_id)
                    .where(
                        leases_t.c.table_id.in_(ids),
                        leases_t.c.worker == self.leases.worker,
                        leases_t.c.expires > NOW,
                    )
                    .with_for_update(read=True)
                )
            }
            lost = [t for t in ids if t not in held]
            if lost:
                why = LeaseLost(f"this worker no longer holds the lease of table {', '.join(lost)}")
                raise OperationalError("checking the leases", None, why)
            c.execute(
                plain_insert(actions_t),
                [
                    {"table_id": t, "seq": seq, "kind": kind, "value": value, "seat": seat, "at": now}
                    for t, seq, kind, value, seat in batch
                ],
            )

    def append_each(self, batch: list[tuple[str, int, str, str, int]]) -> list[Exception | None]:
        """As ``Store.append_each``, each action checked on its own."""
        return append_each(self.append, batch)
