"""`bonepile serve` on PostgreSQL: a table is played, the server stops, a new server on the
same database resumes the table exactly and plays it to the end.  A throwaway cluster is
made with initdb/pg_ctl (as the postgres user) in a temporary directory."""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import subprocess
import sys
import tempfile

import pytest

from webutil import SRC, Child, Driver, InProcess, Sock, free_port, strip_live

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


def test_a_table_on_postgresql_resumes_exactly_after_a_restart(pg_url):
    settings = dict(grace=1000, hand_pause=1000, rate=1000)
    with InProcess(pg_url, **settings) as first:
        assert first.server.store.engine.dialect.name == "postgresql"
        tid, tokens = first.people_table("cinque", 4)
        made = first.create(
            {
                "variant": "draw",
                "players": 3,
                "seats": [
                    {"kind": "human"},
                    {"kind": "bot", "level": "random"},
                    {"kind": "bot", "level": "greedy"},
                ],
            }
        )
        people = Driver(first.ws, tid, dict(enumerate(tokens)), seed=2)
        solo = Driver(first.ws, made["id"], {0: made["token"]}, seed=3)

        async def before():
            await asyncio.gather(
                people.run(lambda d: d.moves >= 15, timeout=120),
                solo.run(lambda d: d.moves >= 8, timeout=120),
            )
            await people.close()
            await solo.close()

        asyncio.run(before())
        seqs = {tid: first.server.tables[tid].seq, made["id"]: first.server.tables[made["id"]].seq}
        game_before = first.server.tables[tid].game.record()
    assert seqs[tid] >= 15 and seqs[made["id"]] >= 8

    with InProcess(pg_url, **settings) as second:
        t = second.server.tables[tid]
        assert t.seq == seqs[tid] and second.server.tables[made["id"]].seq == seqs[made["id"]]
        assert t.game.record() == game_before

        async def after():
            for d in (people, solo):
                again = Driver(second.ws, d.table_id, d.tokens, seed=4)
                for seat, tok in d.tokens.items():
                    s = again.socks[seat] = await Sock.open(second.ws, d.table_id, tok)
                    st = again.last[seat] = await s.state()
                    assert strip_live(st) == strip_live(d.last[seat]), (d.table_id, seat)
                await again.play_out(timeout=300)
                await again.close()

        asyncio.run(asyncio.wait_for(after(), 400))
        for table_id in (tid, made["id"]):
            assert second.info(table_id)["status"] == "over"
            assert second.server.tables[table_id].game.over
        row = second.server.store.load(tid)
        assert row.status == "over" and len(row.actions) == second.server.tables[tid].seq


def test_a_second_server_on_the_same_postgresql_database_is_refused(pg_url):
    """Issue 13, finding 7: one server per database on PostgreSQL too (an advisory lock held by
    the first server's session); once the first is killed, the database lets a new one in."""
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    second = [sys.executable, "-m", "bonepile", "serve", "--db", pg_url, "--port"]
    with Child(pg_url) as first:
        r = subprocess.run([*second, str(free_port())], env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, r.stdout + r.stderr
        assert "another bonepile server is using" in r.stderr and "postgres" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1  # one line, no traceback
        assert first.get("/api/variants").status_code == 200  # the first one goes on
    with Child(pg_url) as again:  # the first was killed: its session, and its lock, are gone
        assert again.get("/api/tables").status_code == 200
