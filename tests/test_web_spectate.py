"""Spectators (docs/PROTOCOL.md, the table socket without a token): a socket with no seat
token watches a table live: it is sent the engine's public view and every change, the clock
and the chat, never a tile of any hand before the hand is over, and it cannot act.  The
number watching is in the table's info; spectators' sockets are capped per table and per
client address."""

from __future__ import annotations

import asyncio

import pytest

from bonepile.engine.view import Observer
from bonepile.web.protocol import public_view_json, view_json
from webutil import InProcess, Sock, run, tiles_in, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("watch") / "db"
    with InProcess(
        f"sqlite:///{db}", grace=1000, hand_pause=1000, bot_delay=0.05, table_watchers=3, address_watchers=5
    ) as s:
        yield s


def _bots_table(srv, variant: str = "draw", players: int = 4) -> str:
    made = srv.create(
        {"variant": variant, "players": players, "seats": [{"kind": "bot", "level": "random"}] * players}
    )
    assert made["seat"] is None and made["token"] is None
    return made["id"]


async def _watch(srv, tid: str) -> Sock:
    return await Sock.open(srv.ws, tid, None)


async def _closed(sock: Sock) -> int:
    import websockets

    try:
        while True:
            await asyncio.wait_for(sock.ws.recv(), 30)
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else -1


def test_a_socket_without_a_token_watches_the_game_move_on(srv):
    tid = _bots_table(srv)

    async def go():
        w = await _watch(srv, tid)
        first = await w.state(lambda m: m["view"] is not None, timeout=30)
        assert first["you"] is None and first["view"]["seat"] is None
        assert first["view"]["hand"] == [] and first["view"]["legal"] == [] and first["view"]["peek"] is None
        assert first["table"]["watching"] == 1
        # the bots play on: the spectator sees the moves, one state after another
        later = await w.state(lambda m: len(m["view"]["history"]) >= len(first["view"]["history"]) + 3, 30)
        assert later["seq"] > first["seq"]
        plays = [e for e in later["view"]["history"] if e["action"] == "play"]
        assert plays and all(e["tile"] for e in plays)
        assert all(e["tile"] is None for e in later["view"]["history"] if e["action"] == "draw")
        # a second spectator: both are told two are watching
        other = await _watch(srv, tid)
        assert (await other.state(lambda m: m["table"]["watching"] == 2))["you"] is None
        await w.state(lambda m: m["table"]["watching"] == 2)
        await other.close()
        await w.state(lambda m: m["table"]["watching"] == 1)
        await w.close()

    run(go(), timeout=90)
    wait_until(lambda: not srv.server.tables[tid].watchers, 10, "the spectators to leave")
    assert srv.server.watching_from == {}


def test_the_spectators_view_is_the_public_view_every_seat_agrees_on(srv):
    tid, tokens = srv.people_table("draw", 2)
    t = srv.server.tables[tid]

    async def go():
        w = await _watch(srv, tid)
        seats = [await Sock.open(srv.ws, tid, tok) for tok in tokens]
        try:
            wait_until(lambda: t.game.hands, 30, "the deal")
            for _ in range(6):  # a few moves, then compare at rest
                seq = t.seq
                st = await seats[0].at(seq)
                mover = st["view"]["to_move"]
                mine = await seats[mover].at(seq)
                await seats[mover].send({"type": "move", "move": mine["view"]["legal"][0]["move"], "id": 1})
                await seats[mover].state(lambda m, seq=seq: m["seq"] > seq)
            seq = t.seq
            watched = await w.at(seq)
            views = [(await s.at(seq))["view"] for s in seats]
            points, cnt = t.public()
            assert watched["view"] == public_view_json(t.game.public_view(), points=points, count=cnt)
            for seat, v in enumerate(views):
                own = t.game.view(seat)
                decisions = (
                    Observer(t.game.hand).sync().knowledge().decisions(own.legal) if own.legal else None
                )
                assert v == view_json(own, points=points, count=cnt, decisions=decisions)
                assert not set(v["hand"]) & tiles_in(watched["view"])  # no seat's tile is shown
                # what the seat's view says of the table, its own draws hidden, is the spectator's
                public = dict(v, seat=None, hand=[], legal=[], peek=None)
                public["history"] = [dict(e, tile=None) if e["action"] == "draw" else e for e in v["history"]]
                assert public == watched["view"]
            for s in seats:
                assert (await s.at(seq))["table"]["watching"] == 1
        finally:
            for s in [w, *seats]:
                await s.close()

    run(go(), timeout=120)


def test_a_spectator_cannot_act_and_its_socket_stays_open(srv):
    tid, tokens = srv.people_table("quinientos", 4, {"target": 100})
    t = srv.server.tables[tid]

    async def go():
        seat = await Sock.open(srv.ws, tid, tokens[0])
        w = await _watch(srv, tid)
        wait_until(lambda: t.game.hands, 30, "the deal")
        st = await w.at(t.seq)
        seq = st["seq"]
        token = view_json(t.game.view(t.game.to_move))["legal"][0]["move"]
        for msg, words in [
            ({"type": "move", "move": token, "id": 7}, "only its players can play a move"),
            ({"type": "chat", "text": "hello", "id": 8}, "only its players can write in the table chat"),
            ({"type": "next", "id": 9}, "only its players can start the next hand"),
            ({"type": "hint", "id": 10}, "only its players can ask for a hint"),
            ({"type": "leader", "seat": 0, "id": 11}, "only its players can choose the next leader"),
            ({"type": "takeover", "id": 12}, "only its players can take a seat back"),
        ]:
            await w.send(msg)
            err = await w.error()
            assert err["message"].startswith("you are watching this table") and words in err["message"], err
            assert err["id"] == msg["id"]
        assert t.seq == seq and not t.chat  # nothing changed
        await w.send({"type": "ping", "id": "p"})
        assert (await w.expect(lambda m: m["type"] == "pong"))["id"] == "p"
        # the chat of the players reaches the spectator (read-only)
        await seat.send({"type": "chat", "text": "good luck"})
        line = await w.expect(lambda m: m["type"] == "chat")
        assert line["lines"][0]["text"] == "good luck" and line["lines"][0]["seat"] == 0
        # a late spectator gets the recent chat on connecting
        late = await _watch(srv, tid)
        assert (await late.expect(lambda m: m["type"] == "chat"))["lines"][0]["text"] == "good luck"
        for s in (seat, w, late):
            await s.close()

    run(go(), timeout=90)


def test_a_bad_token_is_still_refused_and_does_not_watch(srv):
    tid, _tokens = srv.people_table("block", 2)

    async def go():
        for token in ("", "nonsense"):
            s = await Sock.open(srv.ws, tid, token)
            msg = await s.recv()
            assert msg["type"] == "error" and "token" in msg["message"]
            assert await _closed(s) == 4403
        s = await Sock.open(srv.ws, "nosuchtable", None)
        assert "no table" in (await s.recv())["message"]
        assert await _closed(s) == 4404

    run(go(), timeout=60)
    assert not srv.server.tables[tid].watchers


def test_spectators_are_capped_per_table_and_per_address(srv):
    # this server: at most 3 spectators a table, 5 from one address
    a, b = _bots_table(srv, "block", 2), _bots_table(srv, "block", 2)

    async def go():
        here = [await _watch(srv, a) for _ in range(3)]
        for s in here:
            await s.state()
        extra = await _watch(srv, a)
        err = await extra.recv()
        assert (
            err["type"] == "error" and "people are watching this table already (at most 3)" in err["message"]
        )
        assert await _closed(extra) == 4429
        there = [await _watch(srv, b) for _ in range(2)]
        for s in there:
            await s.state()
        extra = await _watch(srv, b)  # b has room, but 5 are watching from this address
        err = await extra.recv()
        assert "tables are being watched from your address already (at most 5)" in err["message"]
        assert await _closed(extra) == 4429
        await here[0].close()
        await asyncio.sleep(0.3)
        again = await _watch(srv, b)  # a closed one frees its place
        assert (await again.state())["you"] is None
        for s in here[1:] + there + [again]:
            await s.close()

    run(go(), timeout=90)
    wait_until(lambda: srv.server.watching_from == {} and srv.server.sockets_from == {}, 10, "the counts")


def test_every_socket_is_told_the_clock_of_the_person_to_move(srv):
    made = srv.create(
        {
            "variant": "block",
            "players": 2,
            "timer": 60,
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
    )
    tid = made["id"]
    other = srv.join(tid, "Bea")
    t = srv.server.tables[tid]

    async def go():
        socks = {made["seat"]: await Sock.open(srv.ws, tid, made["token"])}
        socks[other["seat"]] = await Sock.open(srv.ws, tid, other["token"])
        w = await _watch(srv, tid)
        wait_until(lambda: t.game.hands, 30, "the deal")
        seq = t.seq
        mover = t.game.to_move
        for s in [*socks.values(), w]:
            st = await s.at(seq)
            assert st["view"]["to_move"] == mover and st["deadline"] is not None and 0 < st["deadline"] <= 60
        for s in [*socks.values(), w]:
            await s.close()

    run(go(), timeout=60)


def test_no_clock_on_a_bots_turn(srv):
    made = srv.create(
        {
            "variant": "block",
            "players": 2,
            "timer": 60,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        }
    )
    tid = made["id"]

    async def go():
        s = await Sock.open(srv.ws, tid, made["token"])
        w = await _watch(srv, tid)
        bot_turn = None
        person_turn = None
        while bot_turn is None or person_turn is None:
            st = await s.state(lambda m: m["phase"] == "play" and m["view"] is not None, 30)
            seen = await w.at(st["seq"])
            if seen["seq"] != st["seq"] or seen["phase"] != "play":
                continue
            if st["view"]["to_move"] == 0:
                person_turn = seen
                if not st["forced"]:
                    await s.send({"type": "move", "move": st["view"]["legal"][0]["move"]})
            else:
                bot_turn = seen
        assert person_turn["deadline"] is not None and bot_turn["deadline"] is None
        await s.close()
        await w.close()

    run(go(), timeout=90)
