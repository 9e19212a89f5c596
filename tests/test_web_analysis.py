"""Post-game analysis through the server (``web.jobs.analyses``, ``web.routes.analysis``): a
finished table's game is analysed in the background with its progress polled, stored, and
served from the store the next time; an uploaded record too; every refusal is one line of
JSON: no table 404, a table in play 409, a malformed record 400, too large 413, busy 503."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from bonepile.engine import record as rec
from bonepile.web.app import create_app
from bonepile.web.jobs import analyses as analysis_jobs
from bonepile.web.jobs.replays import MAX_RECORD

#: a small budget: the tests check the plumbing, not the expert
FAST = {"analysis_simulations": 4, "analysis_nodes": 2000, "analysis_processes": False}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/a.db", bot_delay=0, hand_pause=0, **FAST)) as c:
        yield c


def _finished(c: TestClient) -> str:
    made = c.post(
        "/api/tables",
        json={
            "variant": "block",
            "players": 2,
            "options": {"target": 1},
            "seats": [{"kind": "bot", "level": "random"}] * 2,
        },
    ).json()
    tid = made["id"]
    deadline = time.monotonic() + 60
    while c.get(f"/api/tables/{tid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.05)
    return tid


def _poll(c: TestClient, path: str, seen: list | None = None) -> dict:
    deadline = time.monotonic() + 120
    while True:
        r = c.get(path)
        assert r.status_code == 200, r.text
        body = r.json()
        if body["status"] == "done":
            return body
        if seen is not None:
            seen.append((body["done"], body["total"]))
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.02)


def test_a_finished_table_is_analysed_once_and_then_served_from_the_store(client):
    tid = _finished(client)
    app = client.app
    r = client.post(f"/api/tables/{tid}/analysis")
    assert r.status_code == 202 and r.json()["status"] in ("waiting", "running") and r.json()["job"] == tid
    seen: list = []
    body = _poll(client, f"/api/tables/{tid}/analysis", seen)
    a = body["analysis"]
    assert a["format"] == "bonepile-analysis-1" and a["hands"]
    assert all(0 <= d <= t for d, t in seen)
    decisions = [d for h in a["hands"] for d in h["decisions"]]
    assert decisions
    for d in decisions:
        assert set(d["boards"]) == {"knew", "shown"}
        for way in ("knew", "shown"):
            b = d["boards"][way]
            if d[way]["best"] == d["played"]:
                assert b is None
            else:  # the layout after the better move, drawn by the page as it is
                assert "layout" in b and (b["tile"] is None or b["tile"] in d[way]["best"])
    assert a["summary"]["knew"] and a["summary"]["shown"]
    analyses = app.state.analyses
    assert analyses.computed == 1
    # asked again (even after the server forgot the job): from the store, computed no more
    analyses.jobs.clear()
    again = client.post(f"/api/tables/{tid}/analysis")
    assert again.status_code == 200 and again.json()["status"] == "done"
    assert client.get(f"/api/tables/{tid}/analysis").json()["analysis"] == a
    assert analyses.computed == 1


def test_refusals_are_one_line_of_json(client):
    r = client.post("/api/tables/nosuchtable/analysis")
    assert r.status_code == 404 and "no table" in r.json()["error"]
    r = client.get("/api/tables/nosuchtable/analysis")
    assert r.status_code == 404
    # a table in play: refused, in words
    made = client.post(
        "/api/tables", json={"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    ).json()
    for method in (client.post, client.get):
        r = method(f"/api/tables/{made['id']}/analysis")
        assert r.status_code == 409
        assert r.json()["error"] == "analysis is offered once the game is over"
    # a finished table nobody asked to analyse
    tid = _finished(client)
    r = client.get(f"/api/tables/{tid}/analysis")
    assert r.status_code == 404 and "not been analysed" in r.json()["error"]
    # records: not JSON, too large, no such job
    r = client.post("/api/analysis", content=b"{nope")
    assert r.status_code == 400 and r.json()["error"].startswith("the record is not valid: not JSON")
    r = client.post("/api/analysis", content=b" " * (MAX_RECORD + 1))
    assert r.status_code == 413 and "larger than" in r.json()["error"]
    assert client.get("/api/analysis/" + "0" * 64).status_code == 404
    assert client.get("/api/analysis/../etc").status_code == 404


def test_an_invalid_or_unfinished_record_fails_with_its_reason(client):
    r = client.post("/api/analysis", content=b'{"format": "bonepile-record/1", "variant": "nope"}')
    assert r.status_code == 202
    job = r.json()["job"]
    deadline = time.monotonic() + 30
    while (g := client.get(f"/api/analysis/{job}")).status_code == 200:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert g.status_code == 400 and g.json()["error"].startswith("the record is not valid")
    # a record of a hand still in play
    tid = _finished(client)
    doc = client.get(f"/api/tables/{tid}/record").json()
    doc["hands"][-1]["moves"] = doc["hands"][-1]["moves"][:2]
    doc.pop("result", None)
    data = rec.dumps(doc).encode()
    r = client.post("/api/analysis", content=data)
    job = r.json()["job"]
    while (g := client.get(f"/api/analysis/{job}")).status_code == 200 and g.json()["status"] != "done":
        time.sleep(0.02)
    assert g.status_code in (400, 409) and "error" in g.json()


def test_an_uploaded_record_is_analysed_and_kept_by_its_hash(client):
    tid = _finished(client)
    data = client.get(f"/api/tables/{tid}/record").content
    r = client.post("/api/analysis", content=data)
    assert r.status_code == 202
    job = r.json()["job"]
    assert job == analysis_jobs.record_key(data).split(":")[1]
    body = _poll(client, f"/api/analysis/{job}")
    assert body["analysis"]["hands"]
    again = client.post("/api/analysis", content=data)
    assert again.json()["status"] == "done" and client.app.state.analyses.computed == 1


def test_busy_is_503(client, monkeypatch):
    analyses = client.app.state.analyses
    monkeypatch.setattr(analyses, "waiting_limit", 0)
    tid = _finished(client)
    r = client.post(f"/api/tables/{tid}/analysis")
    assert r.status_code == 503 and "busy" in r.json()["error"]


def test_uploaded_records_analyses_are_bounded(client, monkeypatch):
    analyses = client.app.state.analyses
    monkeypatch.setattr(analyses, "records_kept", 1)
    tid = _finished(client)
    data = client.get(f"/api/tables/{tid}/record").content
    other = data.replace(b"{", b"{ ", 1)  # the same game, another text: another key
    jobs = [client.post("/api/analysis", content=d).json()["job"] for d in (data,)]
    _poll(client, f"/api/analysis/{jobs[0]}")
    jobs.append(client.post("/api/analysis", content=other).json()["job"])
    _poll(client, f"/api/analysis/{jobs[1]}")
    analyses.jobs.clear()
    assert client.get(f"/api/analysis/{jobs[0]}").status_code == 404  # the oldest went
    assert client.get(f"/api/analysis/{jobs[1]}").json()["status"] == "done"


def test_the_worker_process_reports_its_progress(tmp_path):
    # enough deals per decision that the analysis lasts seconds: a loaded machine still polls
    # while it runs (at 6 deals it could finish between two polls, the worker still starting)
    settings = {**FAST, "analysis_processes": True, "analysis_simulations": 40}
    with TestClient(create_app(f"sqlite:///{tmp_path}/p.db", bot_delay=0, hand_pause=0, **settings)) as c:
        tid = _finished(c)
        assert c.post(f"/api/tables/{tid}/analysis").status_code == 202
        seen: list = []
        body = _poll(c, f"/api/tables/{tid}/analysis", seen)
        judged = sum(len(h["decisions"]) for h in body["analysis"]["hands"])
        assert any(0 < d <= t == judged for d, t in seen), seen
