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
from sqlalchemy.exc import OperationalError

from bonepile.web.play.table import LiveTable
from bonepile.web.store.database import Store, leases_t, workers_t
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
    return Timeline(LiveTable(row, None).game, row.actions)  # type: ignore[arg-type]


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


def test_workers_with_sqlite_are_refused_in_one_line(tmp_path):
    cmd = [sys.executable, "-m", "bonepile", "serve", "--workers", "2", "--port", str(free_port())]
    r = subprocess.run(
        [*cmd, "--db", f"sqlite:///{tmp_path / 'b.db'}"], env=ENV, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.strip() == (
        "--workers needs a PostgreSQL --db (postgresql://USER@HOST/DB): SQLite serves one process only"
    )
    assert not (tmp_path / "b.db").exists()  # refused before anything was made


def test_a_worker_that_cannot_start_stops_the_cluster_with_its_reason(pg_url):
    """A worker that stops before it serves (here: its cluster port is taken) is not started
    again and again: the server stops with that worker's one line and status 2."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        cmd = [sys.executable, "-m", "bonepile", "serve", "--db", pg_url, "--port", str(free_port())]
        r = subprocess.run(
            [*cmd, "--workers", "2", "--cluster-port", str(taken)],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    assert "worker 0: cannot listen" in r.stderr
    assert "worker 0 stopped as it started" in r.stderr


def test_a_single_server_and_a_cluster_never_share_a_database(pg_url):
    """A server without --workers holds the database alone (as before); workers share it."""

    def refused(*args: str) -> str:
        cmd = [sys.executable, "-m", "bonepile", "serve", "--db", pg_url, "--port", str(free_port()), *args]
        r = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, r.stdout + r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        return r.stderr

    with Child(pg_url) as single:
        assert "a bonepile server without --workers is using" in refused("--workers", "1")
        assert single.get("/api/tables").status_code == 200
    with worker(pg_url) as one, worker(pg_url) as two:  # two workers of one cluster: welcome
        assert one.get("/api/tables").status_code == two.get("/api/tables").status_code == 200
        assert "another bonepile server is using" in refused()


def test_two_workers_on_one_port_play_on_when_one_dies(pg_url):
    """``--workers 2``: two processes on one port; one killed mid-game is replaced, and its
    tables go on from their stored actions."""
    store = Store(pg_url)

    def rows() -> tuple[list, float]:
        with store.engine.connect() as c:
            found = c.execute(select(workers_t.c.id, workers_t.c.expires)).all()
            return found, c.exec_driver_sql("SELECT extract(epoch from clock_timestamp())").scalar()

    # a worker of an earlier test of this module (same database) may still look alive for a
    # few seconds: only the workers this test starts count
    before = {r.id for r in rows()[0]}

    def alive() -> list[str]:
        found, now = rows()
        return [r.id for r in found if r.expires > now and r.id not in before]

    try:
        with worker(pg_url, 2) as port:
            first = wait_until(lambda: (w := alive()) and len(w) == 2 and w, 60, "two workers")
            tables = [port.people_table("draw", 4)[0:2] for _ in range(3)]
            drivers = [
                Driver(port.ws, tid, dict(enumerate(toks)), seed=i) for i, (tid, toks) in enumerate(tables)
            ]

            async def play(stop):
                await asyncio.gather(*(d.run(stop, timeout=120) for d in drivers))
                for d in drivers:
                    await d.close()

            asyncio.run(asyncio.wait_for(play(lambda d: d.moves >= 8), 300))
            victim = owners(store)[drivers[0].table_id]  # the worker playing the first table
            assert victim in first
            os.kill(int(victim.split("/")[1]), 9)
            wait_until(lambda: victim not in alive() and len(alive()) == 2, 120, "a new worker in place")
            wait_until(lambda: victim not in owners(store).values(), 60, "its tables taken over")

            async def resume():
                for d in drivers:
                    seen = {s: strip_live(st) for s, st in d.last.items()}
                    for seat, tok in d.tokens.items():
                        d.socks[seat] = await Sock.open(port.ws, d.table_id, tok)
                        st = d.last[seat] = await d.socks[seat].state()
                        d.messages[seat].append(st)
                        assert strip_live(st) == seen[seat], (d.table_id, seat)
                await asyncio.gather(*(d.play_out(timeout=400) for d in drivers))
                for d in drivers:
                    await d.close()

            asyncio.run(asyncio.wait_for(resume(), 600))
            for d in drivers:
                timeline = truth(store, d.table_id)
                for seat, msgs in d.messages.items():
                    assert check_messages(msgs, seat, timeline) > 0
                assert port.info(d.table_id)["status"] == "over"
    finally:
        store.close()


def test_a_lease_is_taken_only_once_expired_and_fences_the_worker_that_lost_it(pg_url):
    """Two workers' leases on one table, straight on the database: the second cannot take a
    running lease; once it ran out it can, and from then on the first worker's actions are
    refused (a stalled worker that wakes up stores nothing) while the second's are stored."""
    from bonepile.web.store.leases import Fenced, Leases

    store = Store(pg_url)
    try:
        x = Leases(store.engine, "x", "127.0.0.1:1", ttl=0.5)
        y = Leases(store.engine, "y", "127.0.0.1:2", ttl=600)
        x.register()
        y.register()
        assert x.acquire("fence") and not y.acquire("fence")
        assert x.owner("fence").worker == "x"
        Fenced(store, x).append([("fence", 0, "move", "a", 0)])
        wait_until(lambda: x.owner("fence") is None, 30, "x's lease to run out", step=0.1)
        assert "fence" not in x.renew()  # an expired lease is not renewed
        assert y.acquire("fence") and not x.acquire("fence")
        assert y.owner("fence").address == "127.0.0.1:2"
        try:
            Fenced(store, x).append([("fence", 1, "move", "b", 1)])
            raise AssertionError("x stored an action of a table it no longer leases")
        except OperationalError as e:
            assert "no longer holds the lease of table fence" in str(e)
        assert Fenced(store, y).append_each([("fence", 1, "move", "c", 2)]) == [None]
        with store.engine.connect() as c:
            assert [a[1] for a in store._actions(c, "fence")] == ["a", "c"]
        y.leave()
        assert y.owner("fence") is None and x.acquire("fence")
        x.leave()
    finally:
        store.close()


def test_a_request_for_a_table_of_a_dead_worker_takes_the_table_over(pg_url):
    """A join sent to the survivor for a table of a killed worker: the survivor takes the
    table (once its lease ran out) and answers the request itself, body and all."""
    a, b = worker(pg_url).start(), worker(pg_url).start()
    try:
        made = a.create({"variant": "draw", "players": 2, "seats": [{"kind": "human"}] * 2})
        assert a.info(made["id"])["status"] == b.info(made["id"])["status"] == "waiting"
        a.kill()
        joined = b.join(made["id"], "Ana")
        assert joined["seat"] == 1 - made["seat"]
        info = b.info(made["id"])
        assert info["status"] == "playing" and info["seats"][joined["seat"]]["name"] == "Ana"

        async def both_seats():
            for seat, tok in ((made["seat"], made["token"]), (joined["seat"], joined["token"])):
                s = await Sock.open(b.ws, made["id"], tok)
                st = await s.state(lambda m: m["view"] is not None)
                assert st["you"] == seat and st["phase"] == "play"
                await s.close()

        asyncio.run(asyncio.wait_for(both_seats(), 60))
    finally:
        a.kill()
        b.kill()


def test_a_stalled_worker_loses_its_tables_and_gives_its_sockets_up_when_it_wakes(pg_url):
    """SIGSTOP the owner of a table (a long pause, a cut network): the socket relayed through
    the other worker notices (pings), the other worker takes the table once the lease ran
    out and the seat sees its state there; when the stalled worker wakes, its lease is gone:
    it closes its own socket of the table (1012, "come back"), and the game is played to the
    end on the other worker."""
    import signal

    import websockets

    store = Store(pg_url)
    a, b = worker(pg_url).start(), worker(pg_url).start()
    try:
        tid, toks = a.people_table("draw", 2)
        before = owners(store)[tid]
        d = Driver(a.ws, tid, dict(enumerate(toks)), seed=5)

        async def scenario():
            d.socks[0] = await Sock.open(a.ws, tid, toks[0])  # on the owner
            d.socks[1] = await Sock.open(b.ws, tid, toks[1])  # relayed by b
            await d.run(lambda d: d.moves >= 4, timeout=120)
            seq = d.last[1]["seq"]
            a.proc.send_signal(signal.SIGSTOP)
            try:
                st = await d.socks[1].state(lambda m: m["seq"] == seq, timeout=60)
                d.messages[1].append(st)
                assert owners(store)[tid] != before  # b plays it now
            finally:
                a.proc.send_signal(signal.SIGCONT)
            try:  # a wakes, finds its lease gone and closes its socket of the table
                while True:
                    d.messages[0].append(await d.socks[0].recv(timeout=60))
            except websockets.ConnectionClosed as e:
                assert e.rcvd is not None and e.rcvd.code == 1012
            d.socks[0] = await Sock.open(b.ws, tid, toks[0])
            await d.play_out(timeout=300)
            await d.close()

        asyncio.run(asyncio.wait_for(scenario(), 600))
        assert b.info(tid)["status"] == "over"
        timeline = truth(store, tid)
        for seat, msgs in d.messages.items():
            assert check_messages(msgs, seat, timeline) > 0
    finally:
        if a.proc is not None and a.proc.poll() is None:
            a.proc.send_signal(signal.SIGCONT)
        a.kill()
        b.kill()
        store.close()


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.add(int(d))
            except (OSError, IndexError, ValueError):
                pass
    return out


def test_a_worker_killed_leaves_no_process_behind(pg_url):
    """The bot processes of a worker killed with SIGKILL end by themselves (they watch their
    parent): a lost worker does not leave searches running for nobody."""
    w = worker(pg_url).start()
    try:
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "expert"}] * 3
        made = w.create({"variant": "block", "players": 4, "seats": seats})

        async def watch() -> set[int]:  # a person at the table: its expert bots search
            s = await Sock.open(w.ws, made["id"], made["token"])
            try:
                end = asyncio.get_running_loop().time() + 60
                while not (kids := children(w.proc.pid)):
                    assert asyncio.get_running_loop().time() < end, "no bot process started"
                    try:
                        msg = await s.recv(0.1)
                    except TimeoutError:
                        continue
                    view = msg.get("view") if msg["type"] == "state" else None
                    if view and msg["phase"] == "play" and view["to_move"] == 0 and not msg["forced"]:
                        # our turn first (we may hold the lead): play, so that the bots search
                        await s.send({"type": "move", "move": view["legal"][0]["move"]})
                return kids
            finally:
                await s.close()

        kids = asyncio.run(asyncio.wait_for(watch(), 120))
        w.kill()
        left = lambda: [k for k in kids if os.path.exists(f"/proc/{k}")]  # noqa: E731
        try:
            wait_until(lambda: not left(), 60, "its processes to end")
        except AssertionError:
            raise AssertionError([open(f"/proc/{k}/cmdline").read() for k in left()]) from None
    finally:
        w.kill()
