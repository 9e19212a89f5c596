"""Issue 13, finding 1: a replay request must not freeze the other tables.  Replays are
built in a worker process, capped in size (a clear JSON error past the caps), and a finished
table's replay is built once.  Loopback only, a few requests, bounded in time."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import threading
import time

import httpx
import orjson
import pytest

from bonepile.engine import Game
from bonepile.engine import record as rec
from bonepile.web.jobs.replays import MAX_FRAMES, MAX_RECORD, build, frame_count
from webutil import InProcess, Sock, run, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("replay") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000) as s:
        yield s


def _long_record(frames: int, max_bytes: int) -> bytes:
    """The record of a game of Draw played at random until it has about ``frames``
    positions (target far away), at most ``max_bytes`` long."""
    rng = random.Random(5)
    g = Game.new("draw", {"target": 1_000_000}, seed=5)
    n = 1
    while n < frames:
        if g.hand.over:
            g.next_hand()
            n += 1
        g.apply(rng.choice(g.legal_moves()))
        n += 1
    g.hands = [h for h in g.hands if h.over] or g.hands
    text = rec.dumps(g.record()).encode()
    assert len(text) <= max_bytes
    return text


def _ping_while(srv, requests) -> tuple[float, list[httpx.Response]]:
    """Send the requests (in threads, all at once) while a seat of another table pings every
    50 ms; the longest ping round trip and the answers."""
    tid, tokens = srv.people_table("block", 2)
    answers: list[httpx.Response] = []

    def post(body: bytes) -> None:
        with httpx.Client(base_url=srv.http, timeout=120) as c:
            answers.append(c.post("/api/replay", content=body))

    async def go() -> float:
        s = await Sock.open(srv.ws, tid, tokens[0])
        await s.state()
        threads = [threading.Thread(target=post, args=(b,)) for b in requests]
        for th in threads:
            th.start()
        worst = 0.0
        i = 0
        while any(th.is_alive() for th in threads):
            i += 1
            t0 = time.monotonic()
            await s.send({"type": "ping", "id": i})
            await s.expect(lambda m, i=i: m.get("type") == "pong" and m["id"] == i, 60, "pong")
            worst = max(worst, time.monotonic() - t0)
            await asyncio.sleep(0.05)
        for th in threads:
            th.join()
        await s.close()
        return worst

    return run(go(), 300), answers


def test_a_long_records_replay_is_sent_a_hand_at_a_time_and_stalls_nothing(srv):
    big = _long_record(12_000, MAX_RECORD)  # ~200 KiB of record: ~25 MB of frames in one answer
    doc = rec.loads(big)
    assert frame_count(doc) > MAX_FRAMES
    worst, answers = _ping_while(srv, [big] * 3)
    assert worst < 1.0, f"another table's ping waited {worst:.2f} s"
    assert sum(r.status_code == 200 for r in answers) >= 2  # one address builds two at once
    for r in answers:
        assert r.status_code in (200, 429), r.status_code
    index = next(r for r in answers if r.status_code == 200)
    assert len(index.content) < 200_000  # the index: deals and results, no position
    hands = index.json()["hands"]
    assert [h["positions"] for h in hands] == [frame_count(doc, i + 1) for i in range(len(hands))]
    last = srv.post(f"/api/replay?hand={len(hands)}", content=big)
    assert last.status_code == 200 and len(last.json()["frames"]) == hands[-1]["positions"]
    gone = srv.post(f"/api/replay?hand={len(hands) + 1}", content=big)
    assert gone.status_code == 404 and gone.json()["code"] == "replay_no_hand"
    assert gone.json()["params"] == {"n": len(hands)}
    for bad in ("0", "x", "-1", "1.5"):
        r = srv.post(f"/api/replay?hand={bad}", content=big)
        assert r.status_code == 400 and r.json()["code"] == "replay_bad_hand", bad


def test_a_hand_too_long_to_replay_is_refused_before_it_is_replayed():
    doc = {"format": "bonepile-record/1", "variant": "draw", "hands": [{"moves": ["pass"] * MAX_FRAMES}]}
    status, body = build(doc, False, 1)
    assert status == 413
    assert orjson.loads(body) == {
        "error": f"the hand would have {MAX_FRAMES + 1} positions; at most {MAX_FRAMES} are replayed",
        "code": "replay_long",
        "params": {"n": MAX_FRAMES},
    }


@pytest.mark.slow
def test_replays_within_the_caps_are_built_off_the_event_loop(srv):
    body = _long_record(MAX_FRAMES - 100, MAX_RECORD)
    worst, answers = _ping_while(srv, [body] * 4)
    assert worst < 1.0, f"another table's ping waited {worst:.2f} s"
    ok = [r for r in answers if r.status_code == 200]
    assert ok, [r.status_code for r in answers]
    for r in answers:  # built, or refused while the worker (or this address's share) is busy: JSON
        assert r.status_code in (200, 429, 503), r.status_code
        if r.status_code == 503:
            assert "busy" in r.json()["error"]
        if r.status_code == 429:
            assert r.json()["code"] == "replay_yours"
    assert sum(h["positions"] for h in ok[0].json()["hands"]) == frame_count(rec.loads(body))


def test_a_record_larger_than_the_cap_is_refused_with_json(srv):
    r = srv.post("/api/replay", content=b" " * (MAX_RECORD + 1))
    assert r.status_code == 413 and "larger than" in r.json()["error"]


def test_a_finished_tables_replay_is_built_once(srv):
    made = srv.create(
        {
            "variant": "draw",
            "players": 2,
            "options": {"target": 5},
            "seats": [{"kind": "bot", "level": "random"}] * 2,
        }
    )
    tid = made["id"]
    wait_until(lambda: srv.info(tid)["status"] == "over", 60, "the bots' game to end")
    first = srv.get(f"/api/tables/{tid}/replay")
    assert first.status_code == 200 and first.json()["finished"] is True
    assert tid in srv.server.replay_cache
    calls = []
    real = srv.server.replay

    async def counting(*a, **kw):
        calls.append(a)
        return await real(*a, **kw)

    srv.server.replay = counting
    try:
        again = srv.get(f"/api/tables/{tid}/replay")
    finally:
        srv.server.replay = real
    assert again.content == first.content
    assert calls == []  # served from the cache: not built again


def test_a_killed_replay_worker_is_replaced_by_a_new_process_never_a_thread(srv):
    """Issue 27, item 4: the replay worker killed while idle broke its pool, and every replay
    after it was built in a thread of the server for good.  Now a new process builds it."""
    from concurrent.futures import ProcessPoolExecutor

    body = _long_record(50, MAX_RECORD)
    assert srv.post("/api/replay", content=body).status_code == 200
    server = srv.server
    pool = server._replay_pool
    assert isinstance(pool, ProcessPoolExecutor)
    (victim,) = [p.pid for p in pool._processes.values()]
    os.kill(victim, signal.SIGKILL)
    wait_until(lambda: pool._broken, 30, "the pool to notice its worker is gone")
    for _ in range(2):
        r = srv.post("/api/replay", content=body)
        assert r.status_code == 200, r.text
    now = server._replay_pool
    assert isinstance(now, ProcessPoolExecutor) and now is not pool
    pids = {p.pid for p in now._processes.values()}
    assert pids and victim not in pids and os.getpid() not in pids
