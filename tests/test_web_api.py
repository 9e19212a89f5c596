"""The HTTP API of `bonepile serve` (docs/PROTOCOL.md): variants, tables, joining, starting,
records and replays."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys

import pytest

from bonepile.bots import LEVELS
from bonepile.engine import Game
from bonepile.engine import record as rec
from bonepile.engine.tiles import NAME
from bonepile.engine.variant import DEFAULT_PLAYERS, ENGINE_VARIANTS, OPTION_SPECS, PLAYER_COUNTS
from webutil import SRC, Driver, InProcess, free_port, run


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("api") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000) as s:
        yield s


def test_variants_lists_every_variant_with_players_and_option_defaults(srv):
    r = srv.get("/api/variants")
    assert r.status_code == 200
    doc = r.json()
    assert doc["bot_levels"] == list(LEVELS)  # the levels people choose from
    assert [v["name"] for v in doc["variants"]] == list(ENGINE_VARIANTS)
    for v in doc["variants"]:
        name = v["name"]
        assert v["players"] == list(PLAYER_COUNTS[name])
        assert v["default_players"] == DEFAULT_PLAYERS[name]
        specs = OPTION_SPECS[name]
        assert [o["name"] for o in v["options"]] == list(specs)
        for o in v["options"]:
            spec = specs[o["name"]]
            assert o["default"] == spec.default
            assert o["values"] == (list(spec.values) if spec.values is not None else None)
            assert o["minimum"] == spec.minimum


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"variant": "nope"}, 400, ["unknown variant", "nope"]),
        ({"variant": 3}, 400, ["unknown variant"]),
        ({"variant": "draw", "options": {"lead_rule": "sideways"}}, 400, ["lead_rule", "sideways"]),
        ({"variant": "draw", "options": {"target": 0}}, 400, ["target"]),
        ({"variant": "draw", "options": {"colour": 1}}, 400, ["unknown option", "colour"]),
        ({"variant": "dominican", "options": {"tranque": "pairs"}}, 400, ["tranque", "pairs", "leader_ties"]),
        ({"variant": "fives-and-threes", "options": {"deal": 9}}, 400, ["deal", "league", "pagat"]),
        ({"variant": "draw", "options": [1]}, 400, ["options"]),
        ({"variant": "draw", "players": 5}, 400, ["players", "5"]),
        ({"variant": "draw", "players": 2, "seats": [{"kind": "human"}] * 3}, 400, ["seats", "2"]),
        (
            {"variant": "draw", "players": 2, "seats": [{"kind": "human"}, {"kind": "alien"}]},
            400,
            ["seat 1", "kind"],
        ),
        (
            {
                "variant": "draw",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "godlike"}],
            },
            400,
            ["seat 1", "level"],
        ),
        ({"variant": "draw", "timer": -1}, 400, ["timer"]),
        ({"variant": "draw", "timer": "10"}, 400, ["timer"]),
        ({"variant": "draw", "timer": 3601}, 400, ["timer"]),
        ({"variant": "draw", "name": "x" * 25}, 400, ["name", "24"]),
        ({"variant": "draw", "name": 7}, 400, ["name"]),
        ([], 400, ["JSON object"]),
    ],
)
def test_create_refuses_a_bad_table_naming_the_problem(srv, body, status, words):
    before = {t["id"] for t in srv.get("/api/tables").json()["tables"]}
    r = srv.post("/api/tables", body)
    assert r.status_code == status, r.text
    err = r.json()["error"]
    for w in words:
        assert w in err, (w, err)
    after = {t["id"] for t in srv.get("/api/tables").json()["tables"]}
    assert after == before  # nothing was made


def test_create_refuses_a_body_that_is_not_json_or_too_large(srv):
    with srv.client() as c:
        r = c.post(
            "/api/tables", content=b'{"variant": "draw",', headers={"content-type": "application/json"}
        )
        assert r.status_code == 400 and "not JSON" in r.json()["error"]
        r = c.post("/api/tables", content=b"\xff\xfe", headers={"content-type": "application/json"})
        assert r.status_code == 400 and "not JSON" in r.json()["error"]
        big = json.dumps({"variant": "draw", "name": "x", "pad": "y" * (2 << 20)}).encode()
        r = c.post("/api/tables", content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and "larger than" in r.json()["error"]

        def chunks():  # no content-length: the limit holds for a streamed body too
            for _ in range(40):
                yield b" " * 65536

        r = c.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413 and "larger than" in r.json()["error"]


@pytest.mark.parametrize(
    ("variant", "option", "good", "bad"),
    [("fives-and-threes", "deal", "pagat", "short"), ("dominican", "tranque", "blocker", "lowest")],
)
def test_the_deal_and_tranque_options_are_offered_and_checked(srv, variant, option, good, bad):
    offered = next(v for v in srv.get("/api/variants").json()["variants"] if v["name"] == variant)
    o = next(o for o in offered["options"] if o["name"] == option)
    assert good in o["values"] and all(k and k.startswith("option.") for k in o["value_keys"])
    made = srv.create({"variant": variant, "options": {option: good}})
    assert srv.info(made["id"])["options"][option] == good
    r = srv.post("/api/tables", {"variant": variant, "options": {option: bad}})
    assert r.status_code == 400 and r.json()["code"] == "bad_rules"
    assert f"option {option} must be one of" in r.json()["error"] and bad in r.json()["error"]


def test_create_with_defaults_gives_the_creator_the_first_seat_and_bots_the_rest(srv):
    made = srv.create({"variant": "cinque"})
    assert made["seat"] == 0 and made["token"] and made["invite"] == f"/t/{made['id']}"
    info = srv.info(made["id"])
    assert info["status"] == "playing" and info["variant"] == "cinque" and info["players"] == 4
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert [s["level"] for s in info["seats"]] == [None, "expert", "expert", "expert"]
    assert all(s["claimed"] for s in info["seats"])
    assert info["options"] == {} and info["timer"] == 0
    assert made["token"] not in json.dumps(info)


def test_join_start_and_listing(srv):
    made = srv.create(
        {
            "variant": "draw",
            "players": 3,
            "name": "Friday night",
            "seats": [{"kind": "bot", "level": "random"}, {"kind": "human"}, {"kind": "human"}],
        }
    )
    tid = made["id"]
    assert made["seat"] == 1
    info = srv.info(tid)
    assert info["status"] == "waiting" and info["name"] == "Friday night"
    assert [s["claimed"] for s in info["seats"]] == [True, True, False]
    assert tid in [t["id"] for t in srv.get("/api/tables").json()["tables"]]

    # a taken seat, a bot's seat and no seat at all are refused, naming the free seats
    for seat in (0, 1, 3, "2", True):
        r = srv.post(f"/api/tables/{tid}/join", {"name": "Ann", "seat": seat})
        assert r.status_code == 400 and "free seats 2" in r.json()["error"], (seat, r.text)
    r = srv.post(f"/api/tables/{tid}/join", {"name": "A" * 25})
    assert r.status_code == 400 and "24" in r.json()["error"]
    r = srv.post(f"/api/tables/{tid}/join", [1])
    assert r.status_code == 400

    # start: the token of a seat at this table is required
    for body in ({}, {"token": ""}, {"token": "not-a-token"}, {"token": 5}):
        r = srv.post(f"/api/tables/{tid}/start", body)
        assert r.status_code == 403 and "token" in r.json()["error"], r.text
    other = srv.create({"variant": "draw", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
    r = srv.post(f"/api/tables/{tid}/start", {"token": other["token"]})
    assert r.status_code == 403

    j = srv.join(tid, "Ann")
    assert j["seat"] == 2 and j["token"] not in (made["token"],)
    info = srv.info(tid)
    assert info["status"] == "playing"  # every seat taken: the game starts by itself
    assert info["seats"][2]["name"] == "Ann" and info["seats"][2]["claimed"]
    r = srv.post(f"/api/tables/{tid}/join", {"name": "Bob"})
    assert r.status_code == 409 and "no free seat" in r.json()["error"]
    r = srv.post(f"/api/tables/{tid}/start", {"token": j["token"]})
    assert r.status_code == 409 and "already started" in r.json()["error"]

    # start with empty seats: bots take them
    t2 = srv.create({"variant": "block", "players": 4, "seats": [{"kind": "human"}] * 4})
    srv.join(t2["id"], "Cy", seat=2)
    r = srv.post(f"/api/tables/{t2['id']}/start", {"token": t2["token"]})
    assert r.status_code == 200, r.text
    info = r.json()
    assert info["status"] == "playing"
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "human", "bot"]
    assert [s["level"] for s in info["seats"]] == [None, "expert", None, "expert"]
    assert info["seats"][2]["name"] == "Cy"
    r = srv.post(f"/api/tables/{t2['id']}/join", {"name": "Late"})
    assert r.status_code == 409
    listed = {t["id"]: t for t in srv.get("/api/tables").json()["tables"]}
    assert listed[t2["id"]]["status"] == "playing"


def test_an_unknown_table_is_404_everywhere(srv):
    for method, path in [
        ("get", "/api/tables/nosuch"),
        ("get", "/api/tables/nosuch/record"),
        ("get", "/api/tables/nosuch/replay"),
        ("post", "/api/tables/nosuch/join"),
        ("post", "/api/tables/nosuch/start"),
        ("get", "/api/tables/" + "x" * 40),
    ]:
        r = srv.get(path) if method == "get" else srv.post(path, {"name": "A", "token": "t"})
        assert r.status_code == 404, (path, r.text)
        assert "table" in r.json()["error"]


def _deal(hand) -> list[list[str]]:
    return [[NAME[t] for t in row] for row in hand.deal_rows]


@pytest.mark.slow
def test_record_while_playing_holds_only_finished_hands_then_the_whole_game(srv):
    made = srv.create(
        {
            "variant": "draw",
            "players": 4,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3,
        }
    )
    tid = made["id"]
    d = Driver(srv.ws, tid, {0: made["token"]}, seed=5)

    def mid_second_hand(d):  # a hand finished, and the next one is under way
        st = d.last[0]
        return st["pad"] and len(st["view"]["history"]) >= 2

    run(_check_record(srv, tid, d, mid_second_hand), timeout=300)


async def _check_record(srv, tid, d, mid_second_hand) -> None:
    await d.run(mid_second_hand, timeout=120)
    t = srv.server.tables[tid]
    g = t.game
    done = [h for h in g.hands if h.over]
    current = g.hand
    assert done and not current.over and current.log

    r = srv.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    doc = rec.loads(r.text)
    assert [h["deal"] for h in doc["hands"]] == [_deal(h) for h in done]
    assert _deal(current) not in [h["deal"] for h in doc["hands"]]
    assert all(set(h["moves"]) for h in doc["hands"])
    replayed = rec.replay(doc)
    info = srv.info(tid)
    assert list(replayed.totals) == info["totals"]
    assert info["hands"] == len(done)

    frames = srv.get(f"/api/tables/{tid}/replay").json()
    assert [h["deal"] for h in frames["hands"]] == [_deal(h) for h in done]
    assert frames["totals"] == info["totals"]

    await d.play_out()
    await d.close()
    info = srv.info(tid)
    assert info["status"] == "over" and info["winner"] is not None
    r = srv.get(f"/api/tables/{tid}/record")
    game = rec.replay(rec.loads(r.text))
    assert game.over
    assert list(game.totals) == info["totals"]
    assert game.winner == info["winner"]
    assert len(game.hands) == info["hands"] == len(g.hands)
    assert tid not in [x["id"] for x in srv.get("/api/tables").json()["tables"]]  # over: not listed


def _random_game(variant: str, seed: int, options: dict | None = None) -> Game:
    rng = random.Random(seed)
    g = Game.new(variant, options or {}, seed=seed)
    while not g.over:
        if g.hand.over:
            g.next_hand()
        g.apply(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize(
    "variant, options", [("cinque", {}), ("blind-hugie", {}), ("draw", {"players": 3}), ("billitonnen", {})]
)
def test_replay_of_an_uploaded_record(srv, variant, options):
    g = _random_game(variant, 11, options)
    text = rec.dumps(g.record())
    with srv.client() as c:
        r = c.post("/api/replay", content=text.encode())
        assert r.status_code == 200, r.text
        doc = r.json()  # the index: no hand's frames, each hand's number of them
        pages = [c.post(f"/api/replay?hand={i + 1}", content=text.encode()) for i in range(len(g.hands))]
    assert doc["variant"] == variant and doc["players"] == g.variant.players
    assert doc["totals"] == list(g.totals) and doc["winner"] == g.winner
    assert len(doc["hands"]) == len(g.hands)
    assert all("frames" not in h for h in doc["hands"])
    assert [h["positions"] for h in doc["hands"]] == [len(h.log) + 1 for h in g.hands]
    assert all(p.status_code == 200 for p in pages), [p.text for p in pages]
    moves = g.record()["hands"]
    for h, out, page, recorded in zip(g.hands, doc["hands"], pages, moves):
        assert page.json() | {"frames": None} == out | {"frames": None}  # the same hand, with its frames
        out = page.json()
        res = h.result
        assert out["deal"] == _deal(h) and out["leader"] == h.leader
        assert [f["move"] for f in out["frames"]] == [None] + recorded["moves"]
        assert [f["seat"] for f in out["frames"][1:]] == [seat for seat, _m, _t in h.log]
        first, last = out["frames"][0]["view"], out["frames"][-1]["view"]
        assert not first["history"] and not first["over"]
        assert [sorted(x) for x in first["hands"]] == [sorted(NAME[t] for t in row) for row in h.deal_rows]
        assert last["over"] and last["end"] == res.end == out["result"]["end"]
        assert out["result"]["winner"] == res.winner and out["result"]["points"] == list(res.points)
        assert out["result"]["pips"] == list(res.pips)
        assert [sorted(x) for x in last["hands"]] == [sorted(NAME[t] for t in h.held(s)) for s in range(h.n)]
        assert len(last["history"]) == len(h.log)


def test_replay_refuses_a_bad_record_naming_the_problem(srv):
    g = _random_game("draw", 3)
    doc = g.record()
    bad = json.loads(json.dumps(doc))
    bad["hands"][0]["moves"][1] = "9-9@L"
    with srv.client() as c:
        r = c.post("/api/replay", content=json.dumps(bad).encode())
        assert r.status_code == 400
        err = r.json()["error"]
        assert err.startswith("the record is not valid") and "hand 1" in err and "9-9" in err, err
        r = c.post("/api/replay", content=b"{this is not json")
        assert r.status_code == 400 and "not JSON" in r.json()["error"]
        r = c.post(
            "/api/replay", content=json.dumps({"format": "bonepile-record/1", "variant": "go"}).encode()
        )
        assert r.status_code == 400 and "unknown variant" in r.json()["error"]
        r = c.post("/api/replay", content=b" " * ((1 << 20) + 10))
        assert r.status_code == 413


def _serve(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-m", "bonepile", "serve", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.slow
def test_serve_refuses_a_bad_database_or_a_busy_port(tmp_path):
    r = _serve("--db", "mysql://root@localhost/x", "--port", str(free_port()))
    assert r.returncode == 2 and "--db" in r.stderr and "mysql" in r.stderr
    r = _serve("--db", "not a url", "--port", str(free_port()))
    assert r.returncode == 2 and "not a database URL" in r.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        r = _serve("--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", str(s.getsockname()[1]))
    assert r.returncode == 2 and "cannot listen" in r.stderr
    assert not (tmp_path / "x.db").exists()
