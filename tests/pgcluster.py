"""A throwaway PostgreSQL cluster for the tests that store on PostgreSQL (``pg_url``): made
with initdb/pg_ctl (as the postgres user) in a temporary directory, removed after the module.
The tests using it are skipped where PostgreSQL or its driver is missing."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile

import pytest

from webutil import free_port

PG_BIN = "/usr/local/bin"


def _as_postgres(*cmd: str, timeout: float = 120) -> subprocess.CompletedProcess:
    if os.geteuid() == 0:
        runner = shutil.which("runuser")
        cmd = (runner, "-u", "postgres", "--", *cmd) if runner else ("su", "postgres", "-c", " ".join(cmd))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def pg_url():
    missing = [p for p in ("initdb", "pg_ctl", "postgres") if not os.access(f"{PG_BIN}/{p}", os.X_OK)]
    if missing:
        pytest.skip(f"PostgreSQL is not installed here ({', '.join(missing)} missing from {PG_BIN})")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg (the PostgreSQL driver) is not importable")
    try:
        pw = pwd.getpwnam("postgres")
    except KeyError:
        pytest.skip("no postgres user to run the cluster as")
    if os.geteuid() not in (0, pw.pw_uid):
        pytest.skip("the cluster must run as the postgres user, and this is neither root nor postgres")
    base = tempfile.mkdtemp(prefix="bonepile-pg-")
    os.chown(base, pw.pw_uid, pw.pw_gid)
    data = os.path.join(base, "data")
    port = free_port()
    r = _as_postgres(
        f"{PG_BIN}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"
    )
    if r.returncode:
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(f"initdb failed: {r.stderr or r.stdout}")
    opts = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
    r = _as_postgres(
        f"{PG_BIN}/pg_ctl", "-D", data, "-l", os.path.join(base, "log"), "-o", opts, "-w", "-t", "60", "start"
    )
    if r.returncode:
        log = open(os.path.join(base, "log")).read() if os.path.exists(os.path.join(base, "log")) else ""
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(f"pg_ctl start failed: {r.stderr or r.stdout} {log}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        _as_postgres(f"{PG_BIN}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)
