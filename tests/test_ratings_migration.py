"""The Alembic revision 0003_ratings creates the ratings tables exactly as the store
describes them, and its downgrade drops them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import create_engine, inspect

from bonepile.web.store import ratings as rs
from bonepile.web.store.database import metadata, rated_games_t, ratings_t

VERSION = Path(rs.__file__).parent / "migrations" / "versions" / "0003_ratings.py"


def _revision():
    spec = importlib.util.spec_from_file_location("rev_0003_ratings", VERSION)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _shape(engine) -> dict:
    insp = inspect(engine)
    return {
        t: (
            [(c["name"], str(c["type"]), c["nullable"]) for c in insp.get_columns(t)],
            insp.get_pk_constraint(t)["constrained_columns"],
            sorted((i["name"], tuple(i["column_names"])) for i in insp.get_indexes(t)),
        )
        for t in ("ratings", "rated_games")
        if insp.has_table(t)
    }


def test_the_revision_follows_the_profiles_one():
    mod = _revision()
    assert (mod.revision, mod.down_revision) == ("0003_ratings", "0002_profiles")


def test_upgrade_makes_the_fallbacks_tables_and_downgrade_drops_them(tmp_path):
    fallback = create_engine(f"sqlite:///{tmp_path}/a.db")
    metadata.create_all(fallback, tables=[ratings_t, rated_games_t])
    migrated = create_engine(f"sqlite:///{tmp_path}/b.db")
    mod = _revision()
    with migrated.begin() as c:
        with Operations.context(MigrationContext.configure(c)):
            mod.upgrade()
    want = _shape(fallback)
    assert set(want) == {"ratings", "rated_games"}
    assert _shape(migrated) == want
    assert want["ratings"][1] == ["participant", "game"] and want["rated_games"][1] == ["table_id"]
    assert want["ratings"][2] == [("ratings_by_game", ("game", "games"))]
    with migrated.begin() as c:
        with Operations.context(MigrationContext.configure(c)):
            mod.downgrade()
    assert _shape(migrated) == {}
