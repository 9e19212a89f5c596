"""The table socket of `bonepile serve` (docs/PROTOCOL.md): tokens, refused intents, limits,
hints, choosing the leader, hand ends, forced turns, stand-ins and the move timer."""

from __future__ import annotations

import asyncio
import json

import pytest

from bonepile.engine.tiles import DRAW, NAME, PASS
from bonepile.engine.view import Observer
from bonepile.web.client import SeatClient
from bonepile.web.protocol import count_json, move_points, view_json
from webutil import Driver, InProcess, Sock, run, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("sock") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000, hint_time=0.05) as s:
        yield s


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """A server where a bot stands in half a second after a person leaves."""
    db = tmp_path_factory.mktemp("grace") / "db"
    with InProcess(f"sqlite:///{db}", grace=0.5, hand_pause=0.2) as s:
        yield s


async def _open_all(srv, tid, tokens) -> tuple[list[Sock], int]:
    """Sockets for the seats, once the first hand is dealt; and the sequence number then."""
    socks = [await Sock.open(srv.ws, tid, tok) for tok in tokens]
    t = srv.server.tables[tid]
    wait_until(lambda: t.game.hands, 30, "the deal")
    seq = t.seq
    for s in socks:
        await s.at(seq)
    return socks, seq


async def _closed(sock: Sock) -> int:
    """Wait for the server to close the socket; its close code."""
    import websockets

    try:
        while True:
            await asyncio.wait_for(sock.ws.recv(), 30)
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else -1


def test_a_bad_or_missing_token_or_table_gets_an_error_and_the_socket_closes(srv):
    tid, tokens = srv.people_table("draw", 2)
    other, other_tokens = srv.people_table("draw", 2)

    async def go():
        for table, token, words, code in [
            (tid, "", "token is required", 4403),
            (tid, "nonsense", "does not belong", 4403),
            (tid, other_tokens[0], "does not belong", 4403),
            ("nosuchtable", tokens[0], "no table", 4404),
        ]:
            s = await Sock.open(srv.ws, table, token)
            msg = await s.recv()
            assert msg["type"] == "error" and words in msg["message"], msg
            assert await _closed(s) == code
        s = await Sock.open(srv.ws, tid, tokens[1])  # the right token works
        st = await s.state()
        assert st["you"] == 1 and st["table"]["id"] == tid
        await s.close()

    run(go())


def test_refused_intents_get_errors_and_the_socket_stays_open(srv):
    tid, tokens = srv.people_table("draw", 4)

    async def go():
        socks, seq = await _open_all(srv, tid, tokens)
        st = await socks[0].at(seq)
        mover = st["view"]["to_move"]
        waiting = (mover + 1) % 4
        ms, ws = socks[mover], socks[waiting]
        mine = await ms.at(seq)
        legal = [x["move"] for x in mine["view"]["legal"]]

        async def refused(sock, msg, words, mid=None):
            await sock.send(msg)
            err = await sock.error()
            assert words in err["message"], err
            if mid is not None:
                assert err["id"] == mid
            await sock.send({"type": "ping", "id": "p"})
            pong = await sock.expect(lambda m: m["type"] != "state")
            assert pong == {"type": "pong", "id": "p"}

        await refused(ws, {"type": "move", "move": legal[0], "id": 7}, "it is not your turn", 7)
        mine_tiles = set(mine["view"]["hand"])
        not_mine = next(t for t in ["6-6", "6-5", "5-5", "6-4", "5-4", "4-4"] if t not in mine_tiles)
        await refused(ms, {"type": "move", "move": not_mine + "@L", "id": 8}, "illegal move", 8)
        await refused(ms, {"type": "move", "move": "9-9", "id": 9}, "illegal move", 9)
        await refused(ms, {"type": "move", "move": 5}, '"move" must be')
        await refused(ms, "{not json", "not JSON")
        await refused(ms, "[1, 2]", "JSON object")
        await refused(ms, "null", "JSON object")
        await refused(ms, {"type": "dance"}, "unknown message type")
        await refused(ms, {"type": "ping", "id": {"a": 1}}, '"id"')
        await refused(ms, json.dumps({"type": "ping", "pad": "x" * 5000}), "too long")
        # the limit is in bytes: 3000 two-byte letters are 6000 bytes
        await refused(ms, json.dumps({"type": "ping", "pad": "é" * 3000}, ensure_ascii=False), "too long")
        await refused(ms, json.dumps({"type": "ping", "pad": "x" * 5000}).encode(), "too long")
        await refused(ms, {"type": "leader", "seat": 0}, "no leader is to be chosen")
        await refused(ms, {"type": "next"}, "the hand is not over")
        await refused(ws, {"type": "hint"}, "only when it is your turn")
        # none of that changed the game; a legal move is still accepted and acknowledged
        assert srv.server.tables[tid].seq == st["seq"]
        await ms.send({"type": "move", "move": legal[0], "id": 10})
        ack = await ms.state(lambda m: m["ack"] == 10)
        assert ack["seq"] == st["seq"] + 1
        assert ack["view"]["history"][-1]["seat"] == mover
        for s in socks:
            await s.close()

    run(go())


def test_a_burst_of_messages_hits_the_rate_limit_and_the_socket_stays_usable(srv):
    """Counted, not timed: the socket's rate limit reads a clock the test holds still, so
    exactly the burst (twice the rate) is answered, then every message is refused until the
    clock moves on; then exactly what the elapsed time earned is answered again."""
    tid, tokens = srv.people_table("block", 2)
    now = [0.0]

    async def ping(s: Sock, i: int) -> dict:
        await s.send({"type": "ping", "id": i})
        return await s.expect(lambda m: m["type"] in ("pong", "error"), what="pong or error")

    async def go():
        s = await Sock.open(srv.ws, tid, tokens[0])
        await s.state()
        conn = srv.server.tables[tid].seats[0].conns[0]
        conn.clock = lambda: now[0]  # the clock stands still until the test moves it
        conn.last, conn.tokens = 0.0, 2 * conn.rate
        burst = int(2 * conn.rate)
        answers = [await ping(s, i) for i in range(burst + 10)]
        assert answers[:burst] == [{"type": "pong", "id": i} for i in range(burst)]
        refused = answers[burst:]
        assert [m["type"] for m in refused] == ["error"] * 10
        assert all("too many messages" in m["message"] for m in refused)
        now[0] += 5 / conn.rate  # five messages' worth of time
        for i in range(5):
            assert await ping(s, 1000 + i) == {"type": "pong", "id": 1000 + i}
        assert (await ping(s, 2000))["type"] == "error"
        now[0] += 3600  # a long pause fills the bucket to the burst, no more
        answers = [await ping(s, 3000 + i) for i in range(burst + 1)]
        assert [m["type"] for m in answers] == ["pong"] * burst + ["error"]
        await s.close()

    run(go())


def test_a_hint_is_given_on_your_turn_and_names_the_legal_moves(srv):
    tid, tokens = srv.people_table("cinque", 4)

    async def go():
        socks, seq = await _open_all(srv, tid, tokens)
        st = await socks[0].at(seq)
        mover = st["view"]["to_move"]
        mine = await socks[mover].at(seq)
        await socks[mover].send({"type": "hint", "id": "h"})
        hint = await socks[mover].expect(lambda m: m["type"] == "hint", timeout=60)
        assert hint["id"] == "h"
        assert sorted(m["move"] for m in hint["moves"]) == sorted(x["move"] for x in mine["view"]["legal"])
        assert all(isinstance(m["points"], (int, float)) for m in hint["moves"])
        for s in socks:
            if s is not socks[mover]:
                await s.send({"type": "hint"})
                err = await s.error()
                assert "only when it is your turn" in err["message"]
        for s in socks:
            await s.close()

    run(go())


async def _first_hand_won(srv, seed: int):
    """A Quinientos table (the winning side chooses the next leader) whose first hand four
    sockets played to its end and that has a winning side (a blocked hand can be a tie)."""
    for attempt in range(10):
        tid, tokens = srv.people_table("quinientos", 4, {"lead_rotation": "winning_team_chooses"})
        t = srv.server.tables[tid]
        d = Driver(srv.ws, tid, dict(enumerate(tokens)), seed=seed + attempt)
        for s, tok in d.tokens.items():
            d.socks[s] = await Sock.open(srv.ws, tid, tok)
        await _play_first_hand(d)
        if t.game.hands[0].result.winner is not None:
            return t, d
        await d.close()
    raise AssertionError("ten first hands of Quinientos were all ties")


async def _play_first_hand(d: Driver) -> None:
    """Play the first hand to its end, pressing nothing afterwards."""
    while True:
        for seat, sock in d.socks.items():
            try:
                msg = await sock.recv(timeout=0.05)
            except TimeoutError:
                continue
            if msg["type"] != "state":
                continue
            d.last[seat] = msg
            if msg["phase"] == "play":
                out = d.respond(seat, msg)
                if out:
                    await sock.send(out)
        if all(m["phase"] == "hand_over" for m in d.last.values()) and len(d.last) == 4:
            return


def test_quinientos_winning_side_chooses_the_leader(srv):
    async def go():
        t, d = await _first_hand_won(srv, 3)
        winner = t.game.hands[0].result.winner
        side = list(t.variant.sides[winner])
        losers = [s for s in range(4) if s not in side]
        # hand_over waits for "next" from every connected person
        for s in range(3):
            await d.socks[s].send({"type": "next"})
            st = await d.socks[s].state(lambda m, s=s: s in m["ready"])
            assert st["phase"] == "hand_over"
        await asyncio.sleep(0.5)
        assert t.phase() == "hand_over" and len(t.game.hands) == 1
        await d.socks[3].send({"type": "next"})
        states = {}
        for s in range(4):
            states[s] = await d.socks[s].state(lambda m: m["phase"] == "leader")
        pending_deal = t.pending_deal
        assert pending_deal is not None
        for s in range(4):
            p = states[s]["pending"]
            assert p["kind"] == "leader" and p["seats"] == side
            if s in side:
                assert sorted(p["hand"]) == sorted(NAME[x] for x in pending_deal.deal_rows[s])
            else:
                assert "hand" not in p
            assert states[s]["view"]["hand_number"] == 1  # still the finished hand
        await d.socks[losers[0]].send({"type": "leader", "seat": losers[0]})
        err = await d.socks[losers[0]].error()
        assert "only the side that won" in err["message"]
        await d.socks[side[0]].send({"type": "leader", "seat": 9})
        err = await d.socks[side[0]].error()
        assert '"seat" must be one of' in err["message"]
        choice = side[1]
        await d.socks[side[0]].send({"type": "leader", "seat": choice, "id": 1})
        st = await d.socks[side[0]].state(lambda m: m["ack"] == 1)
        assert st["phase"] == "play" and st["pending"] is None
        assert st["view"]["hand_number"] == 2 and st["view"]["leader"] == choice
        assert sorted(st["view"]["hand"]) == sorted(states[side[0]]["pending"]["hand"])
        assert t.game.hand.leader == choice and t.game.hand.deal_rows == pending_deal.deal_rows
        for s in d.socks.values():
            await s.close()

    run(go(), timeout=120)


@pytest.mark.slow
def test_forced_turns_are_played_by_the_server(srv):
    """In Blind Hugie a turn is forced unless the turned-up tile fits two ends: four clients
    that never answer a forced state still see the game to its end.  In the Draw Game a seat
    that can only draw (or pass) is forced too."""

    async def go(variant):
        tid, tokens = srv.people_table(variant, 4)
        clients = [SeatClient(srv.ws, tid, tok, seed=i, keep=True) for i, tok in enumerate(tokens)]
        await asyncio.gather(*(c.play(timeout=120) for c in clients))
        return tid, clients

    tid, clients = run(go("blind-hugie"), timeout=200)
    g = srv.server.tables[tid].game
    assert g.over
    assert sum(c.moves for c in clients) < sum(len(h.log) for h in g.hands) / 2
    for seat, c in enumerate(clients):
        mine = [
            m
            for m in c.messages
            if m["type"] == "state" and m["phase"] == "play" and m["view"]["to_move"] == seat
        ]
        assert any(m["forced"] for m in mine)
        assert all(m["forced"] == (len(m["view"]["legal"]) == 1) for m in mine)

    tid, clients = run(go("draw"), timeout=200)
    forced = [
        (seat, m)
        for seat, c in enumerate(clients)
        for m in c.messages
        if m["type"] == "state" and m["forced"]
    ]
    assert forced
    for seat, m in forced:
        assert m["view"]["to_move"] == seat and [x["kind"] for x in m["view"]["legal"]] in (
            ["draw"],
            ["pass"],
        )
    g = srv.server.tables[tid].game
    assert g.over
    # every forced state was followed by the server playing that seat's draw or pass
    for seat, m in forced:
        h = g.hands[m["view"]["hand_number"] - g.hands[0].number]
        k = len(m["view"]["history"])
        assert h.log[k][0] == seat
        assert m["view"]["legal"][0]["kind"] == ("draw" if h.log[k][1] == DRAW else "pass")


def test_a_bot_stands_in_for_a_person_who_left_and_the_person_comes_back(quick):
    srv = quick
    made = srv.create(
        {
            "variant": "draw",
            "players": 4,
            "seats": [{"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 2,
        }
    )
    tid = made["id"]
    j = srv.join(tid, "Stays")
    t = srv.server.tables[tid]

    async def go():
        d = Driver(srv.ws, tid, {0: made["token"], 1: j["token"]}, seed=1)
        await d.run(lambda d: d.turn_seat == 0, timeout=60)  # up to seat 0's turn
        seq = d.last[0]["seq"]
        view0 = d.last[0]["view"]
        await d.socks.pop(0).close()  # seat 0 leaves on its turn; seat 1 stays and does nothing
        stays = d.socks[1]
        info = wait_until(lambda: (i := srv.info(tid))["seats"][0]["bot_playing"] and i, 30, "a stand-in")
        assert info["seats"][0]["connected"] is False
        # the game goes on without seat 0's person: its turn was played
        st = await stays.state(lambda m: m["seq"] > seq and m["table"]["seats"][0]["bot_playing"])
        assert st["table"]["seats"][0]["bot_playing"]
        wait_until(lambda: t.seq > seq, 30, "the stand-in to move")
        hand = t.game.hands[view0["hand_number"] - t.game.hands[0].number]
        assert hand.log[len(view0["history"])][0] == 0
        # the person comes back with the token: the current view, and the seat is theirs again
        back = await Sock.open(srv.ws, tid, made["token"])
        st = await back.state()
        assert st["you"] == 0 and st["table"]["seats"][0]["bot_playing"] is False
        assert st["table"]["seats"][0]["connected"] is True
        assert srv.info(tid)["seats"][0]["bot_playing"] is False

        # the bots move until one of the two people is to play; then the view is the game's
        def persons_turn():
            if t.phase() != "play" or t.game.to_move not in (0, 1):
                return False
            legal = t.game.view(t.game.to_move).legal
            return not (len(legal) == 1 and legal[0] in (PASS, DRAW))  # not forced

        wait_until(persons_turn, 30, "a person's turn")
        st = await back.at(t.seq)
        own = t.game.view(0)
        decisions = Observer(t.game.hand).sync().knowledge().decisions(own.legal) if own.legal else None
        assert st["seq"] == t.seq and st["view"] == view_json(
            own, points=move_points(t.game.hand), count=count_json(t.game.hand), decisions=decisions
        )
        assert not t.game.over
        await back.close()
        await stays.close()

    run(go(), timeout=120)


def test_the_move_timer_plays_for_a_person_who_waits_too_long(srv):
    made = srv.create(
        {
            "variant": "block",
            "players": 2,
            "timer": 1,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        }
    )
    tid = made["id"]
    t = srv.server.tables[tid]

    async def go():
        s = await Sock.open(srv.ws, tid, made["token"])
        st = await s.state(
            lambda m: m["phase"] == "play" and m["view"]["to_move"] == 0 and not m["forced"], timeout=60
        )
        assert st["table"]["timer"] == 1 and 0 <= st["deadline"] <= 1
        k = len(st["view"]["history"])
        number = st["view"]["hand_number"]
        # do nothing: after about a second the server plays the turn
        later = await s.state(lambda m: m["seq"] > st["seq"], timeout=30)
        h = t.game.hands[number - t.game.hands[0].number]
        assert h.log[k][0] == 0
        assert later["table"]["seats"][0]["bot_playing"] is False  # just that one turn
        await s.close()

    run(go(), timeout=60)


def test_two_sockets_of_one_seat_sending_the_same_move_make_one_move(srv):
    tid, tokens = srv.people_table("draw", 2)
    t = srv.server.tables[tid]

    async def go():
        socks, seq = await _open_all(srv, tid, tokens)
        st = await socks[0].at(seq)
        mover = st["view"]["to_move"]
        twin = await Sock.open(srv.ws, tid, tokens[mover])  # a second tab of the same person
        await twin.at(seq)
        mine = await socks[mover].at(seq)
        move = mine["view"]["legal"][0]["move"]
        await asyncio.gather(
            socks[mover].send({"type": "move", "move": move, "id": 1}),
            twin.send({"type": "move", "move": move, "id": 2}),
        )
        answers = []
        for s, mid in ((socks[mover], 1), (twin, 2)):
            answers.append(
                await s.expect(
                    lambda m, mid=mid: m.get("ack") == mid or (m["type"] == "error" and m.get("id") == mid)
                )
            )
        assert sorted(a["type"] for a in answers) == ["error", "state"]
        err = next(a for a in answers if a["type"] == "error")
        assert "not your turn" in err["message"] or "no move is expected" in err["message"]
        await asyncio.sleep(0.2)
        actions = srv.server.store.load(tid).actions
        assert actions[seq][2] == mover
        assert all(seat != mover for _k, _v, seat in actions[seq + 1 :])  # not twice (the other
        # seat may have been made to draw by the server since)
        assert t.game.hands[0].log[0][0] == mover and len(t.game.hands[0].log) == len(actions)
        for s in socks + [twin]:
            await s.close()

    run(go())


def test_a_socket_past_its_queue_is_closed_to_resync_never_left_with_messages_dropped():
    """Issue 27, item 12: a message past the MAX_QUEUED waiting was dropped silently.  Now
    the socket is closed with BEHIND_CODE (outside 4000-4999: the client reconnects and gets
    the table afresh); up to MAX_QUEUED waiting, every one is sent, in order."""
    from bonepile.web.play.connection import BEHIND_CODE, MAX_QUEUED, Connection

    class Table:
        id = "t"

        def state_text(self, seat, ack=None):
            return '{"type": "state"}'

    async def go(pushed: int):
        sent: list[str] = []
        closed: list[int] = []

        async def send(text):
            sent.append(text)

        async def close(code, reason):
            closed.append(code)

        conn = Connection(Table(), 0, send, rate=10, close=close)
        task = asyncio.get_running_loop().create_task(conn.sender())
        for i in range(pushed):  # all at once, before the sender gets to send one
            conn.push({"type": "chat", "lines": [str(i)]})  # type: ignore[typeddict-item]
        await asyncio.sleep(0.05)
        if not task.done():
            conn.close()
            conn.wake.set()
        await asyncio.wait_for(task, 5)
        return sent, closed

    sent, closed = run(go(MAX_QUEUED), 10)
    assert closed == [] and [json.loads(t)["lines"] for t in sent] == [[str(i)] for i in range(MAX_QUEUED)]
    sent, closed = run(go(MAX_QUEUED + 1), 10)
    assert closed == [BEHIND_CODE] and 4000 > BEHIND_CODE >= 1000
