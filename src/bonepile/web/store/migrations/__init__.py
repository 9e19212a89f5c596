"""The storage's schema history (Alembic revisions), run by ``Store`` when a server starts.

``0001_baseline`` is the schema of the first release (which kept no version): a database
made by it is recognised by its tables and stamped, not changed.  Later revisions add to it.
No alembic.ini is needed: the configuration is built here."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

HERE = Path(__file__).parent
BASELINE = "0001_baseline"
#: the tables of the first release: a database holding them and no version is at BASELINE
BASELINE_TABLES = frozenset({"tables", "actions"})


def config(connection: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision this server knows."""
    found = ScriptDirectory(str(HERE)).get_current_head()
    assert found is not None
    return found


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


#: the PostgreSQL advisory lock held while the schema is built or brought up to date (any
#: 64-bit number of our own, not the servers' lock on the database: "bonepilm")
MIGRATION_LOCK = 0x626F6E6570696C6D


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the database to ``target``: a database of the first release (its tables, no
    version) is stamped BASELINE first; an empty one is built revision by revision.

    On PostgreSQL the whole upgrade runs under a transaction advisory lock: the workers of a
    cluster started at once on an empty database take turns, the first builds the schema and
    the others find it at ``target`` (two building it together would both create its types,
    and one would fail).  The lock ends with the transaction (its commit, or the session's end
    after kill -9)."""
    with engine.begin() as c:
        if c.dialect.name == "postgresql":
            c.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        cfg = config(c)
        if current(c) is None and BASELINE_TABLES <= set(inspect(c).get_table_names()):
            command.stamp(cfg, BASELINE)
        command.upgrade(cfg, target)


def downgrade(engine: Engine, target: str) -> None:
    with engine.begin() as c:
        command.downgrade(config(c), target)
