"""`bonepile serve` on PostgreSQL: a table is played, the server stops, a new server on the
same database resumes the table exactly and plays it to the end.  A throwaway cluster is
made with initdb/pg_ctl (as the postgres user) in a temporary directory."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from webutil import SRC, Child, Driver, InProcess, Sock, free_port, strip_live

pytest_plugins = ["pgcluster"]  # the pg_url fixture: a throwaway cluster


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
