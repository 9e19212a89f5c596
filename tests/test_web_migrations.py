"""Storage migrations (Alembic): a database made by the first release (its two tables, no
version kept) is stamped at the baseline and upgraded to the newest schema without losing a
table or a record, on SQLite and on PostgreSQL; a downgrade to the baseline and an upgrade
back keep every record too; a new database gets the newest schema directly, and that schema
is exactly the one ``store.metadata`` describes."""

from __future__ import annotations

import asyncio
import json
import random
import uuid

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
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
    inspect,
    select,
    text,
)
from sqlalchemy.pool import NullPool

from bonepile.engine import Game, make_variant
from bonepile.web.server import Server
from bonepile.web.settings import ServerSettings
from bonepile.web.store import migrations
from bonepile.web.store.database import Store, metadata, normalize_url

pytest_plugins = ["pgcluster"]  # the pg_url fixture: a throwaway PostgreSQL cluster

# ---------------------------------------------------------------------------- the first release
#: the schema exactly as the first release's store.py made it (metadata.create_all, no version)
released = MetaData()
Table(
    "tables",
    released,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("name", String(80), nullable=False),
    Column("variant", String(32), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
)
Table(
    "actions",
    released,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("value", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

SEATS = '[{"name": "Ana", "kind": "human", "level": null, "token_hash": "%s"}, {"name": "expert bot 1", "kind": "bot", "level": "expert", "token_hash": null}]'


def _finished_actions(seed: int) -> list[tuple[str, str, int]]:
    """The actions the server stores for a whole game of Block for two (deals from the seed)."""
    g = Game(make_variant("block", {"players": 2, "target": 30}), seed=seed, auto_deal=False)
    rng = random.Random(seed)
    out: list[tuple[str, str, int]] = []
    while not g.over:
        if not g.hands or g.hand.over:
            g.next_hand()
            if len(g.hands) > 1:
                out.append(("deal", "", 0))
        seat = g.to_move
        m = rng.choice(g.legal_moves())
        out.append(("move", g.token(m), seat))
        g.apply(m)
    return out


def make_released(url: str) -> dict[str, list[tuple]]:
    """A database as the first release leaves it: a finished game, one being played, one
    waiting for players.  Returns every row of both tables, sorted."""
    engine = create_engine(normalize_url(url), poolclass=NullPool)
    released.create_all(engine)
    options = json.dumps(dict(make_variant("block", {"players": 2, "target": 30}).options))
    with engine.begin() as c:
        for i, (tid, status) in enumerate((("over1", "over"), ("play1", "playing"), ("wait1", "waiting"))):
            c.execute(
                released.tables["tables"]
                .insert()
                .values(
                    id=tid,
                    created=100.0 + i,
                    name=f"table {tid}",
                    variant="block",
                    options=options,
                    seed=11 + i,
                    seats=SEATS % ("h" * 64),
                    settings='{"timer": 0}',
                    status=status,
                )
            )
        finished = _finished_actions(11)
        played = _finished_actions(12)[:5]
        rows = [("over1", i, *a) for i, a in enumerate(finished)] + [
            ("play1", i, *a) for i, a in enumerate(played)
        ]
        c.execute(
            released.tables["actions"].insert(),
            [
                {"table_id": t, "seq": s, "kind": k, "value": val, "seat": seat, "at": 200.0 + s}
                for t, s, k, val, seat in rows
            ],
        )
    found = everything(engine)
    engine.dispose()
    return found


def everything(engine) -> dict[str, list[tuple]]:
    with engine.connect() as c:
        return {
            name: sorted(tuple(r) for r in c.execute(select(released.tables[name])))
            for name in ("tables", "actions")
        }


def columns(engine) -> dict[str, list[tuple]]:
    insp = inspect(engine)
    return {
        name: [(col["name"], str(col["type"]), col["nullable"]) for col in insp.get_columns(name)]
        for name in ("tables", "actions")
    }


def version(engine) -> str | None:
    with engine.connect() as c:
        return migrations.current(c)


def drift(engine) -> list:
    """What differs between the database's schema and ``store.metadata`` (nothing, at head)."""
    with engine.connect() as c:
        return compare_metadata(MigrationContext.configure(c), metadata)


# ---------------------------------------------------------------------------- databases
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.cluster)])
def db_url(request, tmp_path):
    """An empty database: an SQLite file, or a new database in the throwaway cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/m.db"
    base = request.getfixturevalue("pg_url")
    name = "m" + uuid.uuid4().hex[:12]
    admin = create_engine(normalize_url(base), poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return base.rsplit("/", 1)[0] + "/" + name


def test_a_database_of_the_first_release_upgrades_to_head_keeping_every_record(db_url):
    before = make_released(db_url)
    assert len(before["tables"]) == 3 and len(before["actions"]) > 5
    engine = create_engine(normalize_url(db_url), poolclass=NullPool)
    shape = columns(engine)
    assert version(engine) is None
    engine.dispose()

    store = Store(db_url)  # the server's start runs the migrations
    assert version(store.engine) == migrations.head()
    assert everything(store.engine) == before
    assert columns(store.engine) == shape  # the first release's tables are left as they were
    assert drift(store.engine) == []
    over = store.load("over1")
    assert over is not None and over.status == "over" and len(over.actions) == len(_finished_actions(11))
    assert [r.id for r in store.load_active()] == ["play1", "wait1"]
    store.close()
    again = Store(db_url)  # a second start changes nothing
    assert version(again.engine) == migrations.head() and everything(again.engine) == before
    again.close()

    async def served() -> Server:
        server = Server(db_url, ServerSettings(bot_processes=False))
        await server.start()
        try:
            finished = await server.finished("over1")
            assert finished.game.over and finished.status == "over"
            # the game being played resumes exactly where it stopped
            assert server.tables["play1"].seq == 5
        finally:
            await server.stop()
        return server

    asyncio.run(served())


def test_downgrade_to_the_baseline_and_upgrade_again_keep_every_record(db_url):
    before = make_released(db_url)
    store = Store(db_url)
    store.create_profile("p1", "Ana", "k" * 64)
    migrations.downgrade(store.engine, migrations.BASELINE)
    assert version(store.engine) == migrations.BASELINE
    names = set(inspect(store.engine).get_table_names())
    assert names == {"tables", "actions", "alembic_version"}
    assert everything(store.engine) == before
    migrations.upgrade(store.engine)
    assert version(store.engine) == migrations.head()
    assert everything(store.engine) == before and drift(store.engine) == []
    assert store.profile_by_key("k" * 64) is None  # the profiles went with their tables
    migrations.downgrade(store.engine, "base")  # all the way: nothing of ours is left
    assert set(inspect(store.engine).get_table_names()) == {"alembic_version"}
    store.close()


def test_a_new_database_gets_the_newest_schema_directly(db_url):
    store = Store(db_url)
    assert version(store.engine) == migrations.head()
    assert drift(store.engine) == []
    assert set(inspect(store.engine).get_table_names()) == set(metadata.tables) | {"alembic_version"}
    store.close()


def test_the_revisions_are_the_fixed_chain_others_build_on():
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(migrations.HERE))
    chain = {r.revision: r.down_revision for r in script.walk_revisions()}
    assert chain["0001_baseline"] is None
    assert chain["0002_profiles"] == "0001_baseline"
    assert len(script.get_heads()) == 1
