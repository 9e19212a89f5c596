"""Rematch (docs/PROTOCOL.md, ``{"type": "rematch"}``): at game over a seated person asks to
play again; every other person seated and connected is asked, bots accept at once; when all
say yes the server makes a new table with the same seats and options and a fresh deal, and
sends each person their new seat token on their own sockets only.  A "no" or the wait running
out ends the question; spectators cannot ask, nobody can before the game is over, and a person
who is not here is replaced by a bot."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
import websockets

from bonepile.engine.tiles import NAME
from webutil import Driver, InProcess, Sock, run, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("rematch") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000) as s:
        yield s


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def profile(srv, name: str) -> dict:
    r = srv.post("/api/profiles", {"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def people_table(srv, variant: str, players: int, options: dict | None = None) -> tuple[str, dict[int, str]]:
    tid, tokens = srv.people_table(variant, players, options or {"target": 1})
    return tid, dict(enumerate(tokens))


async def finish(srv, tid: str, tokens: dict[int, str]) -> Driver:
    """The game played out by the people's sockets (random legal moves); its sockets stay open."""
    d = Driver(srv.ws, tid, tokens)
    await d.play_out()
    return d


def asking(m: dict) -> bool:
    return m["type"] == "state" and (m.get("rematch") or {}).get("status") == "asking"


def rematch_is(status: str):
    return lambda m: m["type"] == "state" and (m.get("rematch") or {}).get("status") == status


def seat_msg(m: dict) -> bool:
    return m["type"] == "rematch"


def record(sock: Sock) -> list[dict]:
    """Every message the socket receives from now on."""
    heard: list[dict] = []
    recv = sock.recv

    async def recording(timeout: float = 30) -> dict:
        msg = await recv(timeout)
        heard.append(msg)
        return msg

    sock.recv = recording  # type: ignore[method-assign]
    return heard


async def closed_code(sock: Sock) -> int:
    try:
        while True:
            await sock.recv(30)
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else -1


async def open_ws(srv, tid: str, query: str = "") -> Sock:
    ws = await websockets.connect(f"{srv.ws}/ws/tables/{tid}{query}", open_timeout=30, ping_interval=None)
    return Sock(ws)


def test_everybody_accepts_a_new_table_with_the_same_seats_and_a_fresh_deal(srv):
    """Quinientos (4 seats, two sides): Ana and Bea with profiles, two bots of two levels, a
    rated private table; Ana asks, Bea is asked and accepts; the new table is the same table
    again with new tokens, the first leader by the rules (the holder of the double six)."""
    ana, bea = profile(srv, "Ana"), profile(srv, "Bea")
    r = srv.post(
        "/api/tables",
        {
            "variant": "quinientos",
            "players": 4,
            "options": {"target": 1},
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "level": "casual"},
                {"kind": "human"},
                {"kind": "bot", "level": "random"},
            ],
            "player": "Ana",
            "name": "Friday night",
            "private": True,
            "rated": True,
            "timer": 600,
        },
        headers=auth(ana["key"]),
    )
    assert r.status_code == 200, r.text
    made = r.json()
    tid, secret = made["id"], made["invite"].split("invite=")[1]
    j = srv.post(
        f"/api/tables/{tid}/join", {"name": "Bea", "seat": 2, "invite": secret}, headers=auth(bea["key"])
    )
    assert j.status_code == 200, j.text
    tokens = {0: made["token"], 2: j.json()["token"]}
    old = srv.info(tid)
    assert old["rematch"] is None and old["rematch_of"] is None

    async def go():
        d = await finish(srv, tid, tokens)
        a, b = d.socks[0], d.socks[2]
        heard = {0: record(a), 2: record(b)}
        await a.send({"type": "rematch", "id": 7})
        st = await b.expect(asking, what="Bea asked")
        offer = st["rematch"]
        assert (offer["by"], offer["accepted"], offer["waiting"], offer["away"]) == (0, [0, 1, 3], [2], [])
        assert offer["declined"] is None and offer["table"] is None and 0 < offer["deadline"] <= 60
        await a.expect(asking, what="Ana told she is asking")
        await b.send({"type": "rematch", "accept": True})
        got_a = await a.expect(seat_msg, what="Ana's new seat")
        got_b = await b.expect(seat_msg, what="Bea's new seat")
        assert got_a["table"] == got_b["table"] != tid
        assert (got_a["seat"], got_b["seat"]) == (0, 2) and got_a["token"] != got_b["token"]
        new = got_a["table"]
        done = await a.expect(rematch_is("started"), what="the started rematch")
        assert done["rematch"]["table"] == new and done["table"]["rematch"] == new
        # each token went to its owner only: nobody else's socket saw it
        for sock in (a, b):
            await sock.send({"type": "ping", "id": "flush"})
            await sock.expect(lambda m: m["type"] == "pong", what="pong")
        assert got_b["token"] not in json.dumps(heard[0]) and got_a["token"] in json.dumps(heard[0])
        assert got_a["token"] not in json.dumps(heard[2]) and got_b["token"] in json.dumps(heard[2])
        # a tab opened on the finished table later is sent its seat at the rematch too
        late = await Sock.open(srv.ws, tid, tokens[0])
        again = await late.expect(seat_msg, what="the late tab's seat")
        assert again == got_a
        await late.close()

        # the new tokens act at the new table, each for its own seat
        for seat, got in ((0, got_a), (2, got_b)):
            s = await Sock.open(srv.ws, new, got["token"])
            st = await s.state(lambda m: m["view"] is not None, what="the rematch's first state")
            assert st["you"] == seat and st["phase"] == "play"
            await s.close()
        # the old tokens do not act there, the new ones not at the old table
        for table, token in ((new, tokens[0]), (new, tokens[2]), (tid, got_a["token"])):
            s = await Sock.open(srv.ws, table, token)
            assert (await s.error())["message"] == "this seat token does not belong to this table"
            assert await closed_code(s) == 4403
        # private as before: watched only with the same invite link's secret
        s = await open_ws(srv, new)
        assert await closed_code(s) == 4403
        s = await open_ws(srv, new, f"?invite={secret}")
        assert (await s.state())["you"] is None
        await s.close()
        await d.close()
        return new

    new = run(go())
    info, before = srv.info(new), srv.info(tid)
    assert before["rematch"] == new and info["rematch_of"] == tid and info["rematch"] is None
    for k in ("name", "variant", "players", "options", "sides", "scoring", "timer", "private", "rated"):
        assert info[k] == before[k], k
    assert info["private"] and info["rated"] and info["timer"] == 600 and info["name"] == "Friday night"
    keep = ("seat", "name", "kind", "level", "profile", "claimed")
    assert [{k: s[k] for k in keep} for s in info["seats"]] == [
        {k: s[k] for k in keep} for s in before["seats"]
    ]
    assert [s["profile"] for s in info["seats"]] == [ana["id"], None, bea["id"], None]
    assert info["status"] == "playing" and info["hands"] == 0 and info["totals"] == [0, 0]
    live = srv.server.tables[new]
    assert live.seed != srv.server.tables[tid].seed
    wait_until(lambda: live.game.hands, 30, "the rematch's first deal")
    h = live.game.hands[0]
    assert NAME.index("6-6") in h.deal_rows[h.leader]  # Quinientos: the double six leads a new game
    # the link survives a reload from storage
    row = srv.server.store.load(tid)
    assert row.settings["rematch"] == new and srv.server.store.load(new).settings["rematch_of"] == tid


def test_a_decline_ends_the_question_and_anyone_may_ask_again(srv):
    tid, tokens = people_table(srv, "block", 2)

    async def go():
        d = await finish(srv, tid, tokens)
        a, b = d.socks[0], d.socks[1]
        await a.send({"type": "rematch"})
        await b.expect(asking, what="the question")
        await b.send({"type": "rematch", "accept": False})
        for s in (a, b):
            st = await s.expect(rematch_is("declined"), what="the decline")
            assert (st["rematch"]["by"], st["rematch"]["declined"], st["rematch"]["table"]) == (0, 1, None)
            assert st["rematch"]["deadline"] is None
        assert srv.info(tid)["rematch"] is None
        # a second "no" has nothing to answer
        await b.send({"type": "rematch", "accept": False, "id": 3})
        err = await b.error()
        assert err == {
            "type": "error",
            "message": "no rematch is being asked for now",
            "code": "rematch_none",
            "id": 3,
        }
        # Bea changes her mind and asks herself: Ana is asked now
        await b.send({"type": "rematch"})
        st = await a.expect(asking, what="the second question")
        assert (st["rematch"]["by"], st["rematch"]["waiting"]) == (1, [0])
        await a.send({"type": "rematch"})
        got = await a.expect(seat_msg, what="Ana's seat")
        assert got["seat"] == 0
        await d.close()

    run(go())


def test_nobody_answering_in_time_tells_the_asker(srv):
    tid, tokens = people_table(srv, "block", 2)
    server = srv.server

    async def go():
        d = await finish(srv, tid, tokens)
        a, b = d.socks[0], d.socks[1]
        server.settings = replace(server.settings, rematch_wait=0.5)
        try:
            await a.send({"type": "rematch"})
            st = await a.expect(rematch_is("expired"), timeout=10, what="the question to run out")
        finally:
            server.settings = replace(server.settings, rematch_wait=60.0)
        assert (st["rematch"]["by"], st["rematch"]["waiting"], st["rematch"]["declined"]) == (0, [1], None)
        await b.expect(rematch_is("expired"), what="Bea told")
        # too late to accept that one: Bea's yes asks anew
        await b.send({"type": "rematch"})
        st = await a.expect(asking, what="the new question")
        assert st["rematch"]["by"] == 1
        await a.send({"type": "rematch", "accept": False})
        await b.expect(rematch_is("declined"), what="Ana's no")
        assert srv.info(tid)["rematch"] is None
        await d.close()

    run(go())


def test_spectators_and_unfinished_games_cannot_ask(srv):
    tid, tokens = people_table(srv, "block", 2)

    async def go():
        w = await Sock.open(srv.ws, tid, None)
        await w.state()
        await w.send({"type": "rematch", "id": 1})
        err = await w.error()
        assert (
            err["message"]
            == "you are watching this table: only its players can ask for a rematch or answer one"
        )
        p = await Sock.open(srv.ws, tid, tokens[0])
        await p.state()
        await p.send({"type": "rematch", "id": 2})
        assert (await p.error())["message"] == "a rematch can be asked for only when the game is over"
        await p.send({"type": "rematch", "accept": "yes"})
        assert (await p.error())["message"].startswith('"accept" must be true')
        await p.close()
        d = await finish(srv, tid, tokens)
        await w.send({"type": "rematch"})  # over now, still a spectator
        assert (await w.error())["message"].startswith("you are watching this table")
        await w.close()
        await d.close()

    run(go())
    assert srv.info(tid)["rematch"] is None


def test_with_bots_only_at_the_other_seats_the_rematch_starts_at_once(srv):
    made = srv.create(
        {
            "variant": "draw",
            "players": 3,
            "options": {"target": 1},
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "level": "greedy"},
                {"kind": "bot", "level": "strong"},
            ],
            "player": "Ana",
        }
    )
    tid = made["id"]

    async def go():
        d = await finish(srv, tid, {0: made["token"]})
        a = d.socks[0]
        await a.send({"type": "rematch"})
        got = await a.expect(seat_msg, what="Ana's seat")
        st = await a.expect(rematch_is("started"), what="the started rematch")
        assert st["rematch"]["accepted"] == [0, 1, 2] and st["rematch"]["waiting"] == []
        s = await Sock.open(srv.ws, got["table"], got["token"])
        assert (await s.state(lambda m: m["view"] is not None))["you"] == 0
        await s.close()
        # once it is being played, nobody asks for another one
        await a.send({"type": "rematch", "id": 5})
        err = await a.error()
        assert err["message"] == f"a rematch of this game is already being played (table {got['table']})"
        await d.close()
        return got["table"]

    new = run(go())
    info = srv.info(new)
    assert [(s["kind"], s["level"], s["name"]) for s in info["seats"]] == [
        ("human", None, "Ana"),
        ("bot", "greedy", "greedy bot 1"),
        ("bot", "strong", "strong bot 2"),
    ]


def test_a_person_not_here_is_replaced_by_a_bot_and_one_who_comes_back_is_asked(srv):
    """Three people: Cleo has left when Ana asks (a bot will play her seat); Bea is asked.
    Then Cleo comes back while the question is open: she is asked too."""
    tid, tokens = people_table(srv, "block", 3)

    async def go():
        d = await finish(srv, tid, tokens)
        a, b, c = d.socks[0], d.socks[1], d.socks[2]
        await c.close()
        await a.expect(
            lambda m: m["type"] == "state" and not m["table"]["seats"][2]["connected"], what="Cleo gone"
        )
        await a.send({"type": "rematch"})
        st = await b.expect(asking, what="Bea asked")
        assert (st["rematch"]["waiting"], st["rematch"]["away"]) == ([1], [2])
        c2 = await Sock.open(srv.ws, tid, tokens[2])
        st = await c2.expect(asking, what="Cleo asked on coming back")
        assert (st["rematch"]["waiting"], st["rematch"]["away"]) == ([1, 2], [])
        await c2.close()  # she leaves again without answering: Bea's yes is not enough
        await b.send({"type": "rematch"})
        st = await a.expect(lambda m: asking(m) and m["rematch"]["accepted"] == [0, 1], what="Bea's yes")
        assert st["rematch"]["waiting"] == [2]
        # Ana withdraws her question; Bea asks while Cleo is away: a bot takes Cleo's seat
        await a.send({"type": "rematch", "accept": False})
        st = await b.expect(rematch_is("declined"), what="Ana's withdrawal")
        assert (st["rematch"]["by"], st["rematch"]["declined"]) == (0, 0)
        await b.send({"type": "rematch"})
        await a.expect(asking, what="Bea's question")
        await a.send({"type": "rematch"})
        got = await a.expect(seat_msg, what="Ana's seat")
        await b.expect(seat_msg, what="Bea's seat")
        await d.close()
        c3 = await Sock.open(srv.ws, tid, tokens[2])
        st = await c3.expect(rematch_is("started"), what="Cleo sees the rematch being played")
        assert st["rematch"]["away"] == [2] and st["table"]["rematch"] == got["table"]
        await c3.send({"type": "ping", "id": 1})
        seen: list[dict[str, Any]] = []
        await c3.expect(lambda m: seen.append(m) or m["type"] == "pong", what="pong")
        assert not any(m["type"] == "rematch" for m in seen)  # no seat for her there
        await c3.close()
        return got["table"]

    before = srv.info(tid)["seats"]
    new = run(go())
    seats = srv.info(new)["seats"]
    names = [before[0]["name"], before[1]["name"], "expert bot 2"]
    assert [(s["kind"], s["name"]) for s in seats] == [
        ("human", names[0]),
        ("human", names[1]),
        ("bot", names[2]),
    ]
    assert seats[2]["level"] == "expert"
