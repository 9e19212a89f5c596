"""Issue 27, items 7 and 8: the analysis and replay slots are shared fairly.  One client
address holds at most its share (429 ``analysis_yours`` / ``replay_yours``), uploaded records
leave one place free for this server's finished tables, and a finished table's analysis goes
to the worker before the uploads waiting.  The slots are filled by one client, the workers
held by a gate: every assertion is a count or an order."""

from __future__ import annotations

import asyncio
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient

from bonepile.engine import Game
from bonepile.engine import record as rec
from bonepile.web import server as server_module
from bonepile.web.app import create_app
from bonepile.web.jobs import analyses as analysis_jobs
from bonepile.web.jobs.analyses import ADDRESS_ANALYSES, ANALYSES_WAITING, Analyses
from bonepile.web.server import ADDRESS_REPLAYS, REPLAYS_WAITING, Server
from bonepile.web.settings import ServerSettings
from bonepile.web.store.database import Store
from bonepile.web.validate import RequestError

ATTACKER, OTHER, THIRD, PLAYER = "6.6.6.6", "7.7.7.7", "8.8.8.8", "9.9.9.9"


async def _until(pred, what: str, tries: int = 3000) -> None:
    for _ in range(tries):
        if pred():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no {what}")


def test_one_address_holds_its_share_of_the_analyses_and_a_players_table_goes_first(tmp_path, monkeypatch):
    assert (ADDRESS_ANALYSES, ANALYSES_WAITING) == (2, 4)  # the counts below follow from them
    gate = threading.Event()
    order: list[str] = []

    def held(source, job, budget):
        order.append(job)
        gate.wait(30)
        return 409, {"error": "held by the test"}

    monkeypatch.setattr(analysis_jobs, "build", held)
    store = Store(f"sqlite:///{tmp_path}/a.db")
    jobs = Analyses(store.engine, processes=False)

    async def refused(key: str, address: str) -> RequestError:
        with pytest.raises(RequestError) as e:
            await jobs.start(key, b"{}", address)
        return e.value

    async def go():
        for i in range(ADDRESS_ANALYSES):  # one client uploads what it may...
            await jobs.start(f"record:{i}", b"{}", ATTACKER)
        e = await refused("record:x", ATTACKER)  # ...and no more
        assert (e.status, e.code, e.params) == (429, "analysis_yours", {"n": 2})
        await jobs.start("record:y", b"{}", OTHER)  # uploads take every place but one
        e = await refused("record:z", THIRD)
        assert (e.status, e.code) == (503, "analysis_busy")
        await _until(lambda: order == ["record:0"], "first job running")
        await jobs.start("table:abc", {}, PLAYER)  # a finished table finds the last place
        e = await refused("table:def", THIRD)
        assert (e.status, e.code) == (503, "analysis_busy")
        gate.set()
        await _until(lambda: not any(j.active for j in jobs.jobs.values()), "every job done")
        # the table's analysis went before the uploads that were waiting longer
        assert order == ["record:0", "table:abc", "record:1", "record:y"]
        await jobs.stop()

    try:
        asyncio.run(go())
    finally:
        gate.set()
        store.close()


def _finished_record() -> bytes:
    rng = random.Random(3)
    g = Game.new("block", {"target": 1}, seed=3)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    return rec.dumps(g.record()).encode()


def test_the_routes_count_the_analyses_by_the_clients_address(tmp_path, monkeypatch):
    gate = threading.Event()
    monkeypatch.setattr(analysis_jobs, "build", lambda *a: (gate.wait(30), (409, {"error": "held"}))[1])
    app = create_app(f"sqlite:///{tmp_path}/h.db", bot_delay=0, hand_pause=0, analysis_processes=False)
    data = _finished_record()
    try:
        with TestClient(app, client=(ATTACKER, 5000)) as c:
            # three texts of one game: three uploads (keyed by the text)
            codes = [c.post("/api/analysis", content=data + b" " * i).status_code for i in range(3)]
            assert codes == [202, 202, 429]
            assert {j.address for j in app.state.analyses.jobs.values()} == {ATTACKER}
            gate.set()
    finally:
        gate.set()


def test_one_address_holds_its_share_of_the_replays_and_tables_keep_a_place(tmp_path, monkeypatch):
    assert (ADDRESS_REPLAYS, REPLAYS_WAITING) == (2, 4)
    gate = threading.Event()

    def held(source, finished_only, hand=None):
        gate.wait(30)
        return 200, b"{}"

    monkeypatch.setattr(server_module, "build_replay", held)
    srv = Server(f"sqlite:///{tmp_path}/r.db", ServerSettings(bot_processes=False))
    srv._replay_pool = ThreadPoolExecutor(REPLAYS_WAITING)

    async def refused(address: str, finished_only: bool = False) -> RequestError:
        with pytest.raises(RequestError) as e:
            await srv.replay(b"{}", finished_only=finished_only, address=address)
        return e.value

    async def go():
        def ask(address: str, finished_only: bool = False):
            return asyncio.create_task(srv.replay(b"{}", finished_only=finished_only, address=address))

        taken = [ask(ATTACKER) for _ in range(ADDRESS_REPLAYS)]
        await asyncio.sleep(0)  # each took its place
        e = await refused(ATTACKER)
        assert (e.status, e.code, e.params) == (429, "replay_yours", {"n": 2})
        taken.append(ask(OTHER))
        await asyncio.sleep(0)
        e = await refused(THIRD)  # uploads leave one place for this server's tables
        assert (e.status, e.code) == (503, "replay_busy")
        taken.append(ask(PLAYER, finished_only=True))  # a finished table's replay gets it
        await asyncio.sleep(0)
        e = await refused(THIRD, finished_only=True)
        assert (e.status, e.code) == (503, "replay_busy")
        gate.set()
        assert [status for status, _ in await asyncio.gather(*taken)] == [200] * 4
        assert srv.replays_from == {} and srv.replays_waiting == 0 and srv.uploads_waiting == 0

    try:
        asyncio.run(go())
    finally:
        gate.set()
        srv._replay_pool.shutdown(wait=True)
        srv.searches.close()
        srv.db_pool.shutdown(wait=True)
        srv.store.close()
