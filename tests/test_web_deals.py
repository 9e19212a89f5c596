"""Sealed deals at the server's tables (RECORD.md "Extensions", PROTOCOL.md `DealsInfo`,
`GET /api/tables/{id}/verify`): the commitment is sent to every seat and spectator before the
first hand; the seed and salt are in no message and no HTTP answer while the game is played,
and once it is over they are revealed and every hand checks against them."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from bonepile.engine import record as rec
from bonepile.engine.commit import check
from bonepile.engine.verify import verify
from bonepile.web.client import SeatClient
from bonepile.web.store.database import TableRow
from webutil import InProcess, check_messages, revealed_too_soon, run, secret_free_text, timeline_of


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("deals") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=0, rate=10000) as s:
        yield s


PATHS = ("", "/record", "/verify", "/replay")


async def _poll(
    srv, tid: str, answers: list[tuple[str, bool, str]], done: asyncio.Event, asked: asyncio.Event
) -> None:
    """Every HTTP answer about the table, asked again and again while the game is played:
    (path, whether the game could have been over while the server answered, text). The server
    runs in another thread, so the game can end between the question and the answer: only an
    answer that arrived while the game was still on must keep the seed."""
    async with httpx.AsyncClient(base_url=srv.http, timeout=30) as c:
        while not done.is_set():
            for p in PATHS:
                r = await c.get(f"/api/tables/{tid}{p}")
                over = srv.server.tables[tid].game.over
                assert r.status_code == 200, (p, r.text)
                answers.append((p, over, r.text))
            asked.set()  # every path asked once (the first time before a move is made)
            await asyncio.sleep(0.01)


async def _game(srv, tid: str, tokens: list[str]):
    clients = [
        SeatClient(srv.ws, tid, tok, seed=7 + i, keep=True, retry_errors=False)
        for i, tok in enumerate(tokens)
    ]
    answers: list[tuple[str, bool, str]] = []
    done, asked = asyncio.Event(), asyncio.Event()
    poller = asyncio.create_task(_poll(srv, tid, answers, done, asked))
    await asyncio.wait_for(asked.wait(), 60)  # a loaded machine may answer slower than the bots play
    await asyncio.gather(*(c.play(timeout=120) for c in clients))
    done.set()
    await poller
    return clients, answers


def test_a_live_table_never_reveals_its_seed_and_a_finished_one_verifies(srv):
    tid, tokens = srv.people_table("draw", 2, {"target": 40})
    first = srv.info(tid)["deals"]
    assert first["scheme"] == "sha256-v1" and len(first["commitment"]) == 64
    assert first["seed"] is None and first["salt"] is None
    clients, answers = run(_game(srv, tid, tokens), timeout=150)
    t = srv.server.tables[tid]
    assert t.game.over and len(t.game.hands) >= 2, "a game of several hands"
    timeline = timeline_of(srv.server, tid)
    for seat, c in enumerate(clients):
        states = [m for m in c.messages if m["type"] == "state"]
        # the commitment is there from the first message, before the first hand, and never changes
        assert states[0]["view"] is None or states[0]["view"]["hand_number"] == 1
        assert {m["table"]["deals"]["commitment"] for m in states} == {first["commitment"]}
        for text, m in zip(c.texts, c.messages):
            assert secret_free_text(text), text[:200]
            if m["type"] == "state" and m["phase"] != "over":
                assert m["table"]["deals"]["seed"] is None and m["table"]["deals"]["salt"] is None
        check_messages(c.messages, seat, timeline)
        assert states[-1]["phase"] == "over" and states[-1]["table"]["deals"]["seed"] is not None
    live = [(p, text) for p, over, text in answers if not over]
    assert {p for p, _ in live} == set(PATHS), "every answer was asked while the game was played"
    seed_text, salt = str(t.game.seed), t.game.seal.salt
    for p, text in live:
        assert seed_text not in text and salt not in text, p
        doc = json.loads(text)
        if p == "":
            assert not revealed_too_soon(doc) and doc["deals"]["commitment"] == first["commitment"]
        if p == "/record":
            assert doc["deals"] == {"scheme": "sha256-v1", "commitment": first["commitment"]}
        if p == "/verify":
            assert doc["status"] == "sealed" and doc["seed"] is None and doc["salt"] is None

    # over: revealed, and every check passes (the server's and the engine's on the record)
    info = srv.info(tid)["deals"]
    assert info["seed"] == seed_text and check(int(info["seed"]), info["salt"], first["commitment"])
    checked = srv.get(f"/api/tables/{tid}/verify").json()
    assert checked["status"] == "verified" and checked["commitment_ok"] is True
    assert checked["hands"] == checked["hands_ok"] == len(t.game.hands) and checked["findings"] == []
    record = rec.loads(srv.get(f"/api/tables/{tid}/record").text)
    assert record["deals"]["seed"] == t.game.seed and verify(record).ok


def test_a_table_made_before_deals_were_sealed_says_so(srv):
    old = TableRow(
        id="0123456789ab",
        created=1.0,
        name="old table",
        variant="draw",
        options={"players": 2},
        seed=12345,
        seats=[{"name": "A", "kind": "bot", "level": "random", "token_hash": None}] * 2,
        settings={"timer": 0},
        status="over",
        deal_salt=None,
    )
    srv.server.store.create_table(old)
    assert srv.info(old.id)["deals"] is None
    checked = srv.get(f"/api/tables/{old.id}/verify").json()
    assert checked["status"] == "none" and checked["commitment"] is None
    assert "deals" not in rec.loads(srv.get(f"/api/tables/{old.id}/record").text)


def test_verify_of_no_such_table_is_a_clear_refusal(srv):
    r = srv.get("/api/tables/ffffffffffff/verify")
    assert r.status_code == 404 and r.json()["code"] == "no_table"
    r = srv.get("/api/tables/not%20an%20id/verify")
    assert 400 <= r.status_code < 500 and "Traceback" not in r.text and r.json()["error"]
