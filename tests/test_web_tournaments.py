"""Tournaments through the real server: people (bots driving the sockets with ``SeatClient``)
join with profiles, every round's tables deal the same tiles, and the standings the server
shows agree with a computation made here from the stored records alone; bad requests are
refused with a code."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from bonepile.engine import record as rec
from bonepile.engine.verify import verify
from bonepile.web.client import SeatClient
from webutil import InProcess, Sock

SETTINGS = {"grace": 1000, "hand_pause": 0.05, "rate": 1000}


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def profiles(srv, n: int) -> list[str]:
    keys = []
    for i in range(n):
        r = srv.post("/api/profiles", {"name": f"Player {i + 1}"})
        assert r.status_code == 200, r.text
        keys.append(r.json()["key"])
    return keys


async def play_all(
    base_http: str, base_ws: str, tid: str, keys: list[str], timeout: float = 60
) -> list[dict]:
    """Every person polls the tournament and plays each table it is seated at, to the end."""

    async def person(i: int, key: str) -> dict:
        # a new connection for each poll: a kept-alive one may be closed by the server while
        # the person plays (its idle timeout) just as the next poll is sent on it
        fresh = httpx.Limits(max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=base_http, headers=auth(key), timeout=30, limits=fresh) as c:
            played: set[str] = set()
            while True:
                st = (await c.get(f"/api/tournaments/{tid}")).json()
                if st["status"] == "over":
                    return st
                you = st["you"]
                if you and you["table"] not in played:
                    played.add(you["table"])
                    await SeatClient(base_ws, you["table"], you["token"], seed=i).play(timeout=timeout)
                await asyncio.sleep(0.05)

    return await asyncio.wait_for(asyncio.gather(*(person(i, k) for i, k in enumerate(keys))), timeout)


def matchpoints_from_records(srv, state: dict) -> tuple[dict[int, float], dict[int, int]]:
    """Each entrant's matchpoints and points difference, worked out from the tables' stored
    records with nothing of the server's or the arena's scoring: per round, hand and side,
    2 for every other table's result beaten on the same tiles, 1 per tie."""
    results: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
    for r in state["rounds_played"]:
        deals = {}
        for t in r["tables"]:
            game = rec.replay(rec.loads(srv.get(f"/api/tables/{t['table']}/record").text))
            assert 1 <= len(game.hands) <= state["hands"]
            for n, h in enumerate(game.hands):
                # every table of the round was dealt the same tiles at each seat
                deals.setdefault(n, [list(x) for x in h.deal_rows])
                assert [list(x) for x in h.deal_rows] == deals[n], (r["round"], t["number"], n)
                pts = list(h.result.points)
                for side, entrant in enumerate(t["entrants"]):
                    net = pts[side] - max(p for k, p in enumerate(pts) if k != side)
                    results.setdefault((r["round"], n, side), []).append((entrant, net))
    mp: dict[int, float] = {}
    diff: dict[int, int] = {}
    for group in results.values():
        for e, net in group:
            others = [x for _e, x in group]
            others.remove(net)
            mp[e] = mp.get(e, 0) + 2 * sum(net > x for x in others) + sum(net == x for x in others)
            diff[e] = diff.get(e, 0) + net
    return mp, diff


def test_a_swiss_tournament_of_seven_people_and_a_bot_through_the_server(tmp_path):
    with InProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", **SETTINGS) as srv:
        keys = profiles(srv, 7)
        r = srv.post(
            "/api/tournaments",
            {"name": "Club night", "variant": "draw", "players": 2, "rounds": 2, "hands": 2, "start_when": 7},
            headers=auth(keys[0]),
        )
        assert r.status_code == 200, r.text
        tid = r.json()["id"]
        assert [t["id"] for t in srv.get("/api/tournaments").json()["tournaments"]] == [tid]
        for k in keys[1:]:
            r = srv.post(f"/api/tournaments/{tid}/join", {}, headers=auth(k))
            assert r.status_code == 200, r.text
        states = asyncio.run(play_all(srv.http, srv.ws, tid, keys))
        st = states[0]
        assert st["status"] == "over" and len(st["rounds_played"]) == 2
        entrants = st["entrants_list"]
        assert [e["bot"] for e in entrants] == [False] * 7 + [True]  # the bot fills the field
        pairs = [frozenset(t["entrants"]) for r in st["rounds_played"] for t in r["tables"]]
        assert len(pairs) == 8 and len(set(pairs)) == 8  # nobody met twice
        mp, diff = matchpoints_from_records(srv, st)
        rows = st["standings"]
        assert {x["entrant"]: x["score"] for x in rows} == mp
        assert {x["entrant"]: x["difference"] for x in rows} == diff
        ranked = [x for x in rows if x["rank"] is not None]
        assert [x["rank"] for x in ranked] == list(range(1, 8))
        assert [x["entrant"] for x in rows if x["rank"] is None] == [7]  # the bot is not ranked
        keys_order = [
            (-x["score"], -x["difference"], -x["head_to_head"], -x["buchholz"], x["entrant"]) for x in ranked
        ]
        assert keys_order == sorted(keys_order)
        # a person's page: their hands against the field on the same tiles
        mine = states[3]
        assert mine["entrant"] == 3 and mine["you"] is None
        for d in mine["deals"]:
            assert sum(x["score"] for x in d["results"]) == len(d["results"]) * (len(d["results"]) - 1)
        # the tables were ordinary tables, tagged, and every round published a commitment
        assert all(len(r["commitment"]) == 64 for r in st["rounds_played"])
        assert len({r["commitment"] for r in st["rounds_played"]}) == 2
        # every table of a round shows the round's seal, and its record verifies at its end
        for r in st["rounds_played"]:
            for t in r["tables"]:
                doc = rec.loads(srv.get(f"/api/tables/{t['table']}/record").text)
                assert doc["deals"]["commitment"] == r["commitment"]
                assert verify(doc).status == "verified"


def test_bad_requests_are_refused_with_a_code(tmp_path):
    with InProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", **SETTINGS) as srv:
        a, b, c = profiles(srv, 3)

        def refused(path, body, status, code, key=None):
            r = srv.post(path, body, headers=auth(key) if key else {})
            assert r.status_code == status and r.json()["code"] == code, r.text

        base = {"variant": "draw", "players": 2}
        refused("/api/tournaments", {**base, "format": "knockout"}, 400, "tournament_format")
        refused("/api/tournaments", {**base, "scoring": "imps"}, 400, "tournament_scoring")
        refused("/api/tournaments", {**base, "rounds": 0}, 400, "tournament_number")
        refused("/api/tournaments", {**base, "hands": "2"}, 400, "tournament_number")
        refused(
            "/api/tournaments",
            {"variant": "draw", "players": 4, "format": "round-robin"},
            400,
            "tournament_format_field",
        )
        refused("/api/tournaments", {"variant": "draw", "players": 3, "pairs": True}, 400, "bad_rules")
        refused("/api/tournaments", {"variant": "nope"}, 400, "bad_rules")
        assert srv.get("/api/tournaments/000000").status_code == 404
        made = srv.post("/api/tournaments", {**base, "start_when": 2}, headers=auth(a)).json()
        tid = made["id"]
        refused(f"/api/tournaments/{tid}/join", {}, 401, "profile_required")
        refused(f"/api/tournaments/{tid}/join", {}, 409, "tournament_joined", a)  # the creator is in
        assert srv.post(f"/api/tournaments/{tid}/join", {}, headers=auth(b)).status_code == 200
        for _ in range(100):  # two have joined: it starts
            if srv.get(f"/api/tournaments/{tid}").json()["status"] == "playing":
                break
            asyncio.run(asyncio.sleep(0.05))
        refused(f"/api/tournaments/{tid}/join", {}, 409, "tournament_started", c)
        # a tournament's table offers no rematch: the next round comes from the tournament
        you = httpx.get(f"{srv.http}/api/tournaments/{tid}", headers=auth(a)).json()["you"]

        async def ask_rematch() -> dict:
            sock = await Sock.open(srv.ws, you["table"], you["token"])
            try:
                await sock.send({"type": "rematch"})
                return await sock.error()
            finally:
                await sock.close()

        assert asyncio.run(ask_rematch())["code"] == "rematch_tournament"
        # a private tournament is not listed and is joined only with its link
        private = srv.post("/api/tournaments", {**base, "private": True}, headers=auth(a)).json()
        assert private["private"] and "invite=" in private["link"]
        listed = [t["id"] for t in srv.get("/api/tournaments").json()["tournaments"]]
        assert private["id"] not in listed
        refused(f"/api/tournaments/{private['id']}/join", {}, 403, "private", c)
        secret = private["link"].split("invite=")[1]
        assert (
            srv.post(
                f"/api/tournaments/{private['id']}/join", {"invite": secret}, headers=auth(c)
            ).status_code
            == 200
        )


def test_a_rounds_tables_show_nothing_of_their_deals_until_the_whole_round_is_over(tmp_path):
    """Every table of a round holds the same deals: while one table still plays, a finished
    table's record, replay, analysis, check and spectators are refused, its seed stays sealed,
    and no result of the round reaches the standings; all of it comes once the round is over."""
    with InProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", **SETTINGS) as srv:
        keys = profiles(srv, 4)
        body = {"variant": "draw", "players": 2, "rounds": 1, "hands": 1, "start_when": 4}
        tid = srv.post("/api/tournaments", body, headers=auth(keys[0])).json()["id"]
        for k in keys[1:]:
            assert srv.post(f"/api/tournaments/{tid}/join", {}, headers=auth(k)).status_code == 200
        seats: dict[str, list[dict]] = {}
        deadline = time.monotonic() + 30
        while len(seats) < 2 or sum(map(len, seats.values())) < 4:
            assert time.monotonic() < deadline, "the round did not open"
            seats = {}
            for k in keys:
                you = srv.get(f"/api/tournaments/{tid}", headers=auth(k)).json()["you"]
                if you:
                    seats.setdefault(you["table"], []).append(you)
            time.sleep(0.1)
        first, second = sorted(seats)

        async def play(table: str) -> None:
            await asyncio.gather(
                *(
                    SeatClient(srv.ws, table, y["token"], seed=y["seat"] + 10 * (table == second)).play(
                        timeout=60
                    )
                    for y in seats[table]
                )
            )

        async def watch(table: str) -> dict:
            s = await Sock.open(srv.ws, table, None)
            try:
                return await s.recv()
            finally:
                await s.ws.close()

        asyncio.run(play(first))
        assert srv.get(f"/api/tables/{first}").json()["status"] == "over"
        for path in ("record", "replay", "verify"):
            r = srv.get(f"/api/tables/{first}/{path}")
            assert (r.status_code, r.json()["code"]) == (409, "round_in_play"), path
        r = srv.post(f"/api/tables/{first}/analysis", {})
        assert (r.status_code, r.json()["code"]) == (409, "round_in_play")
        refused = asyncio.run(watch(first))
        assert (refused["type"], refused["code"]) == ("error", "round_in_play")
        assert srv.get(f"/api/tables/{first}").json()["deals"]["seed"] is None
        st = srv.get(f"/api/tournaments/{tid}").json()
        assert st["deals"] == [] and all(x["score"] == 0 for x in st["standings"])

        asyncio.run(play(second))
        deadline = time.monotonic() + 30
        while srv.get(f"/api/tournaments/{tid}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the tournament did not end"
            time.sleep(0.1)
        for table in (first, second):
            doc = rec.loads(srv.get(f"/api/tables/{table}/record").text)
            assert verify(doc).status == "verified"
        assert asyncio.run(watch(first))["type"] != "error"
        assert len(srv.get(f"/api/tournaments/{tid}").json()["deals"]) == 2
        # once the round is over each table is rated on its deals: a side ranks above the
        # other when it did better with its tiles than the other table did with the same ones
        nets = {}
        for table in (first, second):
            h = rec.replay(rec.loads(srv.get(f"/api/tables/{table}/record").text)).hands[0]
            nets[table] = h.result.points[0] - h.result.points[1]
        for table, other in ((first, second), (second, first)):
            rated = srv.get(f"/api/tables/{table}/ratings").json()
            assert rated["rated"] and rated["done"], rated
            beat = nets[table] - nets[other]  # side 0's net less the field's on the same tiles
            changes = [s["change"] for s in rated["seats"]]
            if beat:
                assert (changes[0] > 0) == (beat > 0) and (changes[1] > 0) == (beat < 0), (beat, changes)


@pytest.mark.slow
def test_thirty_two_people_play_a_swiss_tournament_through_the_server(tmp_path):
    """The issue's measure: 32 people (bots driving the sockets), 16 tables a round, the
    standings equal to an independent computation from the stored records."""
    with InProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", **SETTINGS) as srv:
        keys = profiles(srv, 32)
        body = {"variant": "draw", "players": 2, "rounds": 2, "hands": 1, "start_when": 32}
        tid = srv.post("/api/tournaments", body, headers=auth(keys[0])).json()["id"]
        for k in keys[1:]:
            assert srv.post(f"/api/tournaments/{tid}/join", {}, headers=auth(k)).status_code == 200
        st = asyncio.run(play_all(srv.http, srv.ws, tid, keys, timeout=180))[0]
        assert st["status"] == "over" and [len(r["tables"]) for r in st["rounds_played"]] == [16, 16]
        pairs = [frozenset(t["entrants"]) for r in st["rounds_played"] for t in r["tables"]]
        assert len(set(pairs)) == 32  # nobody met twice
        mp, diff = matchpoints_from_records(srv, st)
        rows = st["standings"]
        assert {x["entrant"]: x["score"] for x in rows} == mp
        assert {x["entrant"]: x["difference"] for x in rows} == diff
        assert sorted(x["rank"] for x in rows) == list(range(1, 33))
