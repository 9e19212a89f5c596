"""Issue 27, item 3: ``--workers N`` on an empty PostgreSQL database.  The workers used to
build the schema at once: one failed on ``pg_type_typname_nsp_index`` and the first process
stopped, taking the serving worker with it (5 of 8 fresh starts).  The schema is now built
once, under an advisory lock, before any worker serves."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.pool import NullPool

from bonepile.web.store import migrations
from bonepile.web.store.database import workers_t
from webutil import SRC, Child, wait_until

pytest_plugins = ["pgcluster"]  # the pg_url fixture: a throwaway cluster
pytestmark = pytest.mark.cluster
ENV = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def fresh(pg_url: str, name: str) -> str:
    """The URL of a new, empty database ``name`` on the cluster of ``pg_url``."""
    admin = create_engine(pg_url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        c.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return pg_url.rsplit("/", 1)[0] + "/" + name


RACER = """
import sys, time
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool
from bonepile.web.store import migrations
engine = create_engine(sys.argv[1], poolclass=NullPool)
with engine.connect():
    pass
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))
migrations.upgrade(engine)
"""


def test_upgrades_racing_on_an_empty_database_build_the_schema_once(pg_url):
    """Four processes upgrading one empty database at the same moment all succeed, and the
    database ends at the head revision (without the lock, all but one fail on a duplicate
    type or table)."""
    for round_ in range(1):  # one round shows it: 3 of 4 racers failed without the lock
        url = fresh(pg_url, f"race{round_}")
        at = time.time() + 4.0  # every racer has imported and connected by then
        racers = [
            subprocess.Popen(
                [sys.executable, "-c", RACER, url, str(at)],
                env=ENV,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for _ in range(4)
        ]
        outs = [(p.wait(120), p.stdout.read() if p.stdout else "") for p in racers]
        assert [code for code, _ in outs] == [0] * 4, [out[-300:] for _, out in outs]
        engine = create_engine(url, poolclass=NullPool)
        with engine.connect() as c:
            assert migrations.current(c) == migrations.head()
        engine.dispose()


def test_workers_started_on_an_empty_database_all_serve(pg_url):
    """``--workers 2`` on a fresh database, twice: both workers register and serve, and the
    server is still running once they have."""
    for round_ in range(2):
        url = fresh(pg_url, f"start{round_}")
        engine = create_engine(url, poolclass=NullPool)
        with Child(url, "--workers", "2", "--lease", "3") as server:

            def registered(engine=engine) -> int:
                assert server.proc is not None and server.proc.poll() is None, "the server stopped"
                with engine.connect() as c:
                    return len(c.execute(select(workers_t.c.id)).all())

            wait_until(lambda: registered() == 2, 90, "both workers to register")
            assert server.get("/api/tables").status_code == 200
            assert server.proc is not None and server.proc.poll() is None
        engine.dispose()
