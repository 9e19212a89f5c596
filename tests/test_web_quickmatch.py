"""Quick match on the server (``POST /api/match``, ``GET /api/match/{ticket}``, ``GET
/api/online``): 50 simulated players queue at once over HTTP and every one is seated exactly
once, at a table of their game with a seat token that opens their own seat, no table with two
seats for one person; bots fill a table only after the wait a person chose; the refusals
(no profile, bad body, the caps per address) carry their codes."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets

from webutil import InProcess, run


async def _profile(c: httpx.AsyncClient, name: str) -> dict:
    r = await c.post("/api/profiles", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()


async def _queue(c: httpx.AsyncClient, key: str, body: dict) -> dict:
    r = await c.post("/api/match", json=body, headers={"authorization": f"Bearer {key}"})
    assert r.status_code == 200, r.text
    return r.json()


async def _seated(c: httpx.AsyncClient, ticket: str, timeout: float = 60) -> dict:
    for _ in range(int(timeout / 0.1)):
        r = await c.get(f"/api/match/{ticket}")
        assert r.status_code == 200, r.text
        if r.json()["status"] == "seated":
            return r.json()
        await asyncio.sleep(0.1)
    raise AssertionError(f"ticket {ticket} never seated")


def test_fifty_players_are_each_seated_once(tmp_path):
    # 50 people: 30 want Block for two (people only), 20 want Draw for four (bots after 1 s)
    with InProcess(f"sqlite:///{tmp_path}/db", address_tickets=100, grace=1000) as s:

        async def go():
            async with httpx.AsyncClient(base_url=s.http, timeout=60) as c:
                profiles = await asyncio.gather(*(_profile(c, f"P{i}") for i in range(50)))
                wants = [
                    {"variant": "block", "players": 2, "bots_after": None}
                    if i < 30
                    else {"variant": "draw", "players": 4, "bots_after": 1}
                    for i in range(50)
                ]
                tickets = await asyncio.gather(*(_queue(c, p["key"], w) for p, w in zip(profiles, wants)))
                assert {t["status"] for t in tickets} == {"waiting"}
                assert {t["rating"] for t in tickets} == {1500}
                online = (await c.get("/api/online")).json()
                waiting = [p for p in online["people"] if p["doing"] == "queued"]
                assert online["count"] == len(waiting) == sum(online["queued"].values()) > 0
                assert {p["game"] for p in waiting} <= {"block-2", "draw-4"}
                seated = await asyncio.gather(*(_seated(c, t["ticket"]) for t in tickets))
                infos = {}
                for st in seated:
                    if st["table"] not in infos:
                        infos[st["table"]] = (await c.get(f"/api/tables/{st['table']}")).json()
                return profiles, seated, infos

        profiles, seated, infos = run(go())
        by_table: dict[str, list[tuple[int, str]]] = {}
        for p, st in zip(profiles, seated):
            by_table.setdefault(st["table"], []).append((st["seat"], p["id"]))
            info = infos[st["table"]]
            assert info["seats"][st["seat"]]["profile"] == p["id"]  # their own seat
        for tid, seats in by_table.items():
            info = infos[tid]
            assert len({seat for seat, _ in seats}) == len(seats)  # no seat given twice
            assert len({pid for _, pid in seats}) == len(seats)  # no person seated twice
            people = [x for x in info["seats"] if x["kind"] == "human"]
            assert len(people) == len(seats) and all(x["claimed"] for x in info["seats"])
            assert info["status"] == "playing"
        block = [t for t in infos.values() if t["variant"] == "block"]
        draw = [t for t in infos.values() if t["variant"] == "draw"]
        assert len(block) == 15 and all(len(t["seats"]) == 2 and t["rated"] for t in block)
        assert sum(sum(x["kind"] == "human" for x in t["seats"]) for t in draw) == 20
        assert len(draw) == 5  # 20 people, four to a table, nobody waited for bots
        assert s.server.quick.opened == 20
        # a seat token opens its own seat's socket
        st = seated[0]

        async def sock():
            async with websockets.connect(f"{s.ws}/ws/tables/{st['table']}?token={st['token']}") as ws:
                for _ in range(20):
                    m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if m["type"] == "state":
                        for _ in range(50):  # the list is made again each second
                            here = s.get("/api/online").json()["people"]
                            if here and not any(p["doing"] == "queued" for p in here):
                                break
                            await asyncio.sleep(0.1)
                        return m["you"], [(p["profile"], p["doing"], p["table"]) for p in here]
            return None, []

        you, here = run(sock())
        assert you == st["seat"]
        assert here == [(profiles[0]["id"], "playing", st["table"])]  # connected: online, playing


def test_bots_fill_after_the_wait_and_the_refusals(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", address_tickets=2, grace=1000) as s:

        async def go():
            async with httpx.AsyncClient(base_url=s.http, timeout=60) as c:
                ps = [await _profile(c, f"Q{i}") for i in range(3)]
                alone = await _queue(
                    c, ps[0]["key"], {"variant": "draw", "players": 3, "bots_after": 1, "level": "casual"}
                )
                await asyncio.sleep(0.6)
                assert (await c.get(f"/api/match/{alone['ticket']}")).json()["status"] == "waiting"
                seat = await _seated(c, alone["ticket"])
                assert seat["waited"] >= 1
                info = (await c.get(f"/api/tables/{seat['table']}")).json()
                kinds = sorted(x["kind"] for x in info["seats"])
                assert kinds == ["bot", "bot", "human"] and info["rated"] is False  # bots: unrated
                assert {x["level"] for x in info["seats"] if x["kind"] == "bot"} == {"casual"}
                # refusals
                out = []
                r = await c.post("/api/match", json={"variant": "block", "players": 2})
                out.append((r.status_code, r.json()["code"]))
                h = {"authorization": f"Bearer {ps[1]['key']}"}
                for body in [
                    {"variant": "block", "players": 2, "bots_after": -1},
                    {"variant": "block", "players": 2, "bots_after": "soon"},
                    {"variant": "block", "players": 2, "level": "god"},
                    {"variant": "block", "players": 2, "rated": "yes"},
                    {"variant": "chess", "players": 2},
                ]:
                    r = await c.post("/api/match", json=body, headers=h)
                    out.append((r.status_code, r.json()["code"]))
                # two tickets from this address at most
                first = await _queue(c, ps[1]["key"], {"variant": "block", "players": 2, "bots_after": None})
                again = await _queue(c, ps[1]["key"], {"variant": "block", "players": 2, "bots_after": None})
                assert again["ticket"] == first["ticket"] and again["queued"] == 1  # one ticket a person
                await _queue(c, ps[2]["key"], {"variant": "draw", "players": 2, "bots_after": None})
                extra = await _profile(c, "Q9")
                r = await c.post(
                    "/api/match",
                    json={"variant": "block", "players": 2},
                    headers={"authorization": f"Bearer {extra['key']}"},
                )
                out.append((r.status_code, r.json()["code"]))
                r = await c.get("/api/match/nope")
                out.append((r.status_code, r.json()["code"]))
                return out

        assert run(go()) == [
            (401, "profile_required"),
            (400, "bad_request"),
            (400, "bad_request"),
            (400, "bad_request"),
            (400, "bad_request"),
            (400, "bad_rules"),
            (429, "queue_address"),
            (404, "no_ticket"),
        ]


def test_an_invitation_reaches_the_person_named_and_seats_the_two_of_them(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000) as s:

        async def go():
            async with httpx.AsyncClient(base_url=s.http, timeout=60) as c:
                ann, ben, cat = [await _profile(c, n) for n in ("Ann", "Ben", "Cat")]
                opts = {"target": 50}
                asked = await _queue(
                    c, ann["key"], {"variant": "draw", "players": 2, "options": opts, "invite": ben["id"]}
                )
                assert asked["invited"] == ben["id"] and asked["bots_after"] is None
                # Cat, the same game, people only: never takes Ann's place
                other = await _queue(
                    c, cat["key"], {"variant": "draw", "players": 2, "options": opts, "bots_after": None}
                )
                seen = (await c.get("/api/online", headers={"authorization": f"Bearer {ben['key']}"})).json()
                assert seen["invites"] == [
                    {
                        "profile": ann["id"],
                        "name": "Ann",
                        "game": "draw-2",
                        "variant": "draw",
                        "players": 2,
                        "options": opts,
                    }
                ]
                assert (await c.get("/api/online")).json()[
                    "invites"
                ] == []  # nobody's invitations without a key
                inv = seen["invites"][0]
                await _queue(
                    c,
                    ben["key"],
                    {
                        "variant": inv["variant"],
                        "players": inv["players"],
                        "options": inv["options"],
                        "invite": inv["profile"],
                    },
                )
                a = await _seated(c, asked["ticket"])
                st = (await c.get(f"/api/match/{other['ticket']}")).json()
                info = (await c.get(f"/api/tables/{a['table']}")).json()
                dan = await _profile(c, "Dan")
                bad = await c.post(
                    "/api/match",
                    json={"variant": "draw", "players": 2, "invite": cat["id"] + "!"},
                    headers={"authorization": f"Bearer {dan['key']}"},
                )
                self_invite = await c.post(
                    "/api/match",
                    json={"variant": "draw", "players": 2, "invite": ann["id"]},
                    headers={"authorization": f"Bearer {ann['key']}"},
                )
                return ann, ben, info, st, bad, self_invite

        ann, ben, info, st, bad, self_invite = run(go())
        assert sorted(x["profile"] for x in info["seats"]) == sorted([ann["id"], ben["id"]])
        assert info["options"]["target"] == 50 and info["rated"] is True
        assert st["status"] == "waiting"  # Cat still waits
        assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
        assert self_invite.status_code == 400 and '"invite" must be' in self_invite.json()["error"]
