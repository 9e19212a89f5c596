"""A finished table stays in memory while someone looks at it and for ``keep_finished``
seconds after, then leaves memory (storage keeps it: its page, replay and record still work)."""

from __future__ import annotations

import asyncio
import time

import pytest

from webutil import Driver, InProcess, Sock, run, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("memory") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000, keep_finished=0.5) as s:
        yield s


def test_a_finished_table_leaves_memory_once_nobody_looks_at_it(srv):
    tid, tokens = srv.people_table("block", 2, {"target": 1})

    async def go() -> None:
        d = Driver(srv.ws, tid, dict(enumerate(tokens)))
        await d.play_out()
        watcher = await Sock.open(srv.ws, tid, None)  # a spectator of the finished table
        await d.close()
        await asyncio.sleep(1.5)  # past keep_finished: but someone is still looking
        assert tid in srv.server.tables
        await watcher.close()

    run(go())
    wait_until(lambda: tid not in srv.server.tables, timeout=30, what="the finished table to leave memory")
    # storage still has all of it
    info = srv.get(f"/api/tables/{tid}")
    assert info.status_code == 200 and info.json()["status"] == "over"
    assert srv.get(f"/api/tables/{tid}/replay").status_code == 200
    assert srv.get(f"/api/tables/{tid}/record").status_code == 200


def test_a_table_in_play_stays_in_memory_without_its_people(srv):
    tid, tokens = srv.people_table("block", 2, {"target": 100})

    async def go() -> None:
        d = Driver(srv.ws, tid, dict(enumerate(tokens)))
        await d.run(lambda d: d.moves >= 2)
        await d.close()

    run(go())
    time.sleep(1.5)
    assert tid in srv.server.tables  # a game in play waits for its people (the grace period)
