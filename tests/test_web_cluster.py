"""``bonepile serve --workers``: workers sharing one PostgreSQL database (a throwaway cluster).
Two workers (separate processes, as on two machines) play tables whose sockets sit on both;
one is killed with SIGKILL mid-game and the other takes its tables over from the stored
actions, each seat seeing exactly the state it saw last; every message each seat got, on
either worker, holds nothing hidden from it.  ``--workers 2`` on one port plays a table
through the port; ``--workers`` with SQLite is refused in one line."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

from sqlalchemy import select

from bonepile.web.store import Store, leases_t, workers_t
from bonepile.web.table import LiveTable
from webutil import SRC, Child, Driver, Sock, Timeline, check_messages, free_port, strip_live, wait_until

pytest_plugins = ["pgcluster"]  # the pg_url fixture: a throwaway cluster

LEASE = "3"  # seconds: a dead worker's tables are taken over within about that
SETTINGS = ("--grace", "1000", "--hand-pause", "1000", "--rate", "1000", "--lease", LEASE)
ENV = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def worker(pg_url: str, n: int = 1) -> Child:
    return Child(pg_url, "--workers", str(n), *SETTINGS)


def truth(store: Store, table_id: str) -> Timeline:
    """The ground truth of a table, from its stored actions alone."""
    row = store.load(table_id)
    return Timeline(LiveTable(None, row).game, row.actions)  # type: ignore[arg-type]


def owners(store: Store) -> dict[str, str]:
    with store.engine.connect() as c:
        return {r.table_id: r.worker for r in c.execute(select(leases_t.c.table_id, leases_t.c.worker))}


def four(server: Child, joiner: Child, variant: str) -> tuple[str, dict[int, str]]:
    """A table of four people made on ``server``, its other seats taken through ``joiner``."""
    made = server.create({"variant": variant, "players": 4, "seats": [{"kind": "human"}] * 4})
    tokens = {made["seat"]: made["token"]}
    for _ in range(3):
        j = joiner.join(made["id"], "P")
        tokens[j["seat"]] = j["token"]
    return made["id"], tokens


def test_two_workers_share_tables_and_one_takes_over_when_the_other_is_killed(pg_url):
    store = Store(pg_url)
    a, b = worker(pg_url).start(), worker(pg_url).start()
    try:
        # one table made on each worker; half of each table's seats on the other worker
        t1, tok1 = four(a, b, "draw")
        t2, tok2 = four(b, a, "cinque")
        leased = owners(store)
        assert leased[t1] != leased[t2]  # each is played by the worker that made it
        on = {t1: {0: a, 1: a, 2: b, 3: b}, t2: {0: a, 1: b, 2: a, 3: b}}
        drivers = {t1: Driver(a.ws, t1, tok1, seed=1), t2: Driver(b.ws, t2, tok2, seed=2)}
        # the lobby of either worker lists both tables; either tells a table's info
        for w in (a, b):
            listed = {i["id"] for i in w.get("/api/tables").json()["tables"]}
            assert {t1, t2} <= listed
            assert w.info(t1)["status"] == "playing" and w.info(t2)["seats"][3]["claimed"]

        async def before():
            for tid, d in drivers.items():
                for seat, tok in d.tokens.items():
                    d.socks[seat] = await Sock.open(on[tid][seat].ws, tid, tok)
            await asyncio.gather(*(d.run(lambda d: d.moves >= 14, timeout=120) for d in drivers.values()))

        async def scenario():
            await before()
            seqs = {tid: d.last[0]["seq"] for tid, d in drivers.items()}
            assert all(n >= 14 for n in seqs.values())
            # what each seat saw last before the kill, to compare with what it sees after
            seen = {tid: {s: strip_live(d.last[s]) for s in d.tokens} for tid, d in drivers.items()}
            a.kill()  # SIGKILL: no lease given back, no socket closed properly
            await after_checked(drivers, on, a, b, seqs, seen)

        asyncio.run(asyncio.wait_for(scenario(), 900))
        for tid, d in drivers.items():
            assert b.info(tid)["status"] == "over"
            row = store.load(tid)
            assert row.status == "over"
            timeline = truth(store, tid)
            for seat, msgs in d.messages.items():  # on either worker, before and after
                assert check_messages(msgs, seat, timeline) > 0
    finally:
        a.kill()
        b.kill()
        store.close()


async def after_checked(drivers, on, a, b, seqs, seen) -> None:
    """After the kill: every seat (its socket reopened through b, or still relayed by b) sees
    its table as it was, then the tables are played to the end on b."""
    for tid, d in drivers.items():
        for seat, tok in d.tokens.items():
            if on[tid][seat] is a:
                d.socks[seat] = await Sock.open(b.ws, tid, tok)
            st = await d.socks[seat].state(timeout=60)
            d.messages[seat].append(st)
            d.last[seat] = st
            assert st["seq"] == seqs[tid], (tid, seat)  # no acknowledged move lost
            assert strip_live(st) == seen[tid][seat], (tid, seat)
    await asyncio.gather(*(d.play_out(timeout=400) for d in drivers.values()))
    for d in drivers.values():
        await d.close()
