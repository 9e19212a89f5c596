"""A throwaway PostgreSQL cluster for the benchmarks (``serve_load.py --pg``): made with
initdb/pg_ctl as the postgres user in a temporary directory, removed afterwards.  Its server
runs with fsync off (as the tests' cluster): the benchmark measures bonepile, not the disk."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator

PG_BIN = os.environ.get("PG_BIN", "/usr/local/bin")


def _as_postgres(*cmd: str) -> subprocess.CompletedProcess:
    if os.geteuid() == 0:
        cmd = ("runuser", "-u", "postgres", "--", *cmd)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def throwaway(max_connections: int = 200) -> Iterator[tuple[str, int]]:
    """(the database URL, the postmaster's pid) of a new cluster, stopped and removed after."""
    pw = pwd.getpwnam("postgres")
    base = tempfile.mkdtemp(prefix="bonepile-bench-pg-")
    os.chown(base, pw.pw_uid, pw.pw_gid)
    data = os.path.join(base, "data")
    port = _free_port()
    try:
        r = _as_postgres(f"{PG_BIN}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync")
        if r.returncode:
            raise SystemExit(f"initdb failed: {r.stderr or r.stdout}")
        opts = (
            f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off "
            f"-c max_connections={max_connections}"
        )
        log = os.path.join(base, "log")
        r = _as_postgres(f"{PG_BIN}/pg_ctl", "-D", data, "-l", log, "-o", opts, "-w", "start")
        if r.returncode:
            raise SystemExit(f"pg_ctl start failed: {r.stderr or r.stdout}")
        with open(os.path.join(data, "postmaster.pid")) as f:
            pid = int(f.readline())
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres", pid
    finally:
        _as_postgres(f"{PG_BIN}/pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        shutil.rmtree(base, ignore_errors=True)
