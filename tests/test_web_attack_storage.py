"""Issue 13, findings 7 and 8 (the storage): a failed row failed the whole group commit (10 of
10 moves at an unrelated table refused); a damaged ``tables`` row stopped start-up, a table
that could not be rebuilt answered 500; a full or read-only disk logged ~35 tracebacks a
second.  Now only the bad row's table is stopped (its routes and sockets say its stored data
is damaged) while the others play on, and storage faults are JSON errors logged once a burst."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from bonepile.web.store.database import Store
from bonepile.web.store.writer import DAMAGED, Writer
from bonepile.web.validate import RequestError
from webutil import InProcess, Sock, run, wait_until

PEOPLE2 = {"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2}
BOTS4 = {"variant": "draw", "players": 4, "seats": [{"kind": "bot", "level": "random"}] * 4}


def _errors(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bonepile.serve" and r.levelno >= logging.ERROR]


async def _turn(srv, tid: str, socks: list[Sock]) -> tuple[int, dict]:
    """The seat whose turn it is to choose a move (not a forced one, which the server plays)
    and its state: nothing happens at the table until it moves."""
    t = srv.server.tables[tid]
    end = time.monotonic() + 30
    while True:
        seq, mover = t.seq, t.game.to_move
        if mover is not None and t.phase() == "play":
            st = await socks[mover].at(seq)
            if st["seq"] == seq and st["view"]["to_move"] == mover and not st["forced"]:
                return mover, st
        assert time.monotonic() < end, "no person's turn came"
        await asyncio.sleep(0.05)


async def _play(socks: list[Sock], mover: int, st: dict, mid: int) -> dict:
    """``mover`` plays its first legal move; the answer (a state with its ack, or an error)."""
    await socks[mover].send({"type": "move", "move": st["view"]["legal"][0]["move"], "id": mid})
    return await socks[mover].expect(
        lambda m: (m["type"] == "state" and m["ack"] == mid) or (m["type"] == "error" and m.get("id") == mid),
        what=f"the answer to move {mid}",
    )


async def _move(srv, tid: str, socks: list[Sock], mid: int) -> dict:
    mover, st = await _turn(srv, tid, socks)
    return await _play(socks, mover, st, mid)


def test_one_failing_row_fails_only_its_own_tables_action(tmp_path):
    """The group commit of 11 actions, one of them a row that cannot be stored (its key is
    taken): the 10 actions of the other table are stored, the bad table is isolated."""
    store = Store(f"sqlite:///{tmp_path}/w.db")
    store.append([("bad", 0, "move", "6-6", 0)])  # a row already there: the next (bad, 0) fails
    batches: list[int] = []
    real = store.append

    def counting(batch):
        batches.append(len(batch))
        return real(batch)

    store.append = counting  # type: ignore[method-assign]
    isolated: list[tuple[str, str]] = []

    async def go():
        w = Writer(store, ThreadPoolExecutor(1), lambda tid, why: isolated.append((tid, why)))
        items = [("good", i, "move", "6-6", 0) for i in range(10)]
        items.insert(4, ("bad", 0, "move", "6-5", 1))
        tasks = [asyncio.create_task(w.append(x)) for x in items]
        await asyncio.sleep(0)  # every action queued before the writer runs: one batch
        w.start()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        late = None
        try:
            await w.append(("bad", 1, "move", "5-5", 0))
        except RequestError as e:
            late = e
        w.stop()
        return results, late

    results, late = run(go(), 60)
    assert batches[0] == 11  # they were one group commit
    good = [r for i, r in enumerate(results) if i != 4]
    assert good == [None] * 10, good
    assert isinstance(results[4], RequestError) and results[4].status == 503
    assert results[4].message == DAMAGED
    assert [tid for tid, _ in isolated] == ["bad"]
    assert "could not be stored" in isolated[0][1]
    assert late is not None and late.message == DAMAGED  # its later actions are refused at once
    stored = store.load_active()  # no table rows: read the actions directly
    assert stored == []
    with store.engine.connect() as c:
        seqs = c.execute(text("SELECT seq FROM actions WHERE table_id = 'good' ORDER BY seq")).scalars().all()
        bad = c.execute(text("SELECT value FROM actions WHERE table_id = 'bad'")).scalars().all()
    assert seqs == list(range(10)) and bad == ["6-6"]
    store.close()


def test_a_table_whose_row_fails_is_stopped_and_the_others_play_on(tmp_path, caplog):
    caplog.set_level(logging.INFO, "bonepile.serve")
    with InProcess(f"sqlite:///{tmp_path}/db") as srv:
        a, a_tokens = srv.people_table("block", 2)
        b, b_tokens = srv.people_table("block", 2)

        async def go():
            sa = [await Sock.open(srv.ws, a, tok) for tok in a_tokens]
            sb = [await Sock.open(srv.ws, b, tok) for tok in b_tokens]
            assert (await _move(srv, a, sa, 1))["type"] == "state"
            assert (await _move(srv, b, sb, 2))["type"] == "state"
            # b's next action cannot be stored: its key is taken (a row written behind the
            # server's back, as a damaged or foreign database would have)
            mover, st = await _turn(srv, b, sb)  # a person's turn: the server stores nothing
            srv.server.store.append([(b, st["seq"], "move", "0-0", 0)])
            got = await _play(sb, mover, st, 3)
            assert got["type"] == "error" and got["message"] == DAMAGED, got
            err = await sb[1 - mover].error()  # the other seat's socket is told too
            assert err == {"type": "error", "message": DAMAGED, "code": "damaged"}
            assert b not in srv.server.tables
            # the other table plays on
            for mid in range(10, 16):
                assert (await _move(srv, a, sa, mid))["type"] == "state"
            # a new socket of the stopped table is refused with the reason
            s = await Sock.open(srv.ws, b, b_tokens[0])
            msg = await s.recv()
            assert msg == {"type": "error", "message": DAMAGED, "code": "damaged"}
            await asyncio.wait_for(s.ws.wait_closed(), 10)
            assert s.ws.close_code == 4503
            for x in sa + sb:
                await x.close()

        run(go(), 120)
        for path in (f"/api/tables/{b}", f"/api/tables/{b}/record", f"/api/tables/{b}/replay"):
            r = srv.get(path)
            assert r.status_code == 503 and r.json() == {"error": DAMAGED, "code": "damaged"}, (path, r.text)
        r = srv.post(f"/api/tables/{b}/join", {"name": "Ann"})
        assert r.status_code == 503 and r.json() == {"error": DAMAGED, "code": "damaged"}
        assert b not in [x["id"] for x in srv.get("/api/tables").json()["tables"]]
        assert srv.info(a)["status"] == "playing"
    lines = [r for r in _errors(caplog) if b in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None, [r.getMessage() for r in lines]
    assert "could not be stored" in lines[0].getMessage()


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["database or disk is full", "attempt to write a readonly database"])
def test_a_full_or_read_only_disk_during_play_is_json_errors_and_one_log_line(
    tmp_path, caplog, monkeypatch, fault
):
    """With every write failing (a full disk, a file made read-only), 12 bot tables keep
    trying once a second and a person tries to move: the person gets an error message, a
    create and a join a JSON 503, and the log gets one line, no traceback.  Once the disk
    takes writes again, play goes on."""

    def failing(*_a, **_k):
        raise OperationalError("INSERT INTO actions ...", {}, sqlite3.OperationalError(fault))

    caplog.set_level(logging.INFO, "bonepile.serve")
    with InProcess(f"sqlite:///{tmp_path}/db", bot_delay=0.05) as srv:
        store = srv.server.store
        bots = [srv.create(BOTS4)["id"] for _ in range(12)]
        tid, tokens = srv.people_table("block", 2)
        waiting = srv.create(PEOPLE2)["id"]

        async def go():
            socks = [await Sock.open(srv.ws, tid, tok) for tok in tokens]
            assert (await _move(srv, tid, socks, 1))["type"] == "state"
            mover, st = await _turn(srv, tid, socks)
            for name in ("append", "create_table", "update_table"):
                monkeypatch.setattr(store, name, failing)
            caplog.clear()
            got = await _play(socks, mover, st, 2)
            assert got["type"] == "error" and "cannot store" in got["message"], got
            async with asyncio.timeout(30):
                r = await asyncio.to_thread(srv.post, "/api/tables", PEOPLE2)
            assert r.status_code == 503 and "cannot store" in r.json()["error"]
            async with asyncio.timeout(30):
                r = await asyncio.to_thread(srv.post, f"/api/tables/{waiting}/join", {"name": "Ann"})
            assert r.status_code == 503 and "cannot store" in r.json()["error"]
            assert [s.token_hash is None for s in srv.server.tables[waiting].seats] == [False, True]
            seqs = [srv.server.tables[x].seq for x in bots]
            await asyncio.sleep(3.0)  # every bot table tries again each second
            assert [srv.server.tables[x].seq for x in bots] == seqs  # nothing was played
            errors = _errors(caplog)
            assert 1 <= len(errors) <= 2, [r.getMessage() for r in errors]
            assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
            assert fault in errors[0].getMessage()
            monkeypatch.undo()  # room on the disk again
            got = await _move(srv, tid, socks, 3)
            assert got["type"] == "state", got
            wait_until(
                lambda: all(srv.server.tables[x].seq > s for x, s in zip(bots, seqs)), 30, "bots to play"
            )
            for s in socks:
                await s.close()

        run(go(), 120)
        assert srv.create(PEOPLE2)["id"]
