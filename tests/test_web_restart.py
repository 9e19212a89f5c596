"""A `bonepile serve` process killed with SIGKILL and started again on the same SQLite file:
every table resumes exactly (each seat's view as before), every acknowledged move is kept,
and the games can be played to their end."""

from __future__ import annotations

import asyncio

import pytest

from bonepile.engine import record as rec
from webutil import Child, Driver, Sock, strip_live

pytestmark = pytest.mark.slow  # servers killed with SIGKILL and started again

PEOPLE = [  # (variant, players, options, our moves before the kill)
    ("draw", 4, {}, 14),
    ("cinque", 4, {}, 18),
    ("quinientos", 4, {"lead_rotation": "winning_team_chooses", "target": 300}, 30),
    ("blind-hugie", 2, {}, 1),  # 2 players: always a turn with a choice (often 18)
    ("passing", 2, {}, 25),
]
SETTINGS = ("--grace", "1000", "--hand-pause", "1000", "--rate", "1000")


def _check_acked(srv, tid: str, acked: list[dict]) -> None:
    """Every acknowledged move is in the finished game's record, where it was played."""
    doc = rec.loads(srv.get(f"/api/tables/{tid}/record").text)
    game = rec.replay(doc)
    assert game.over
    first = game.hands[0].number
    for a in acked:
        hand = game.hands[a["hand"] - first]
        seat, move, _t = hand.log[a["index"]]
        before = hand.fresh()
        for _s, m, _t in hand.log[: a["index"]]:
            before.apply(m)
        assert seat == a["seat"] and move == game.parse(a["move"], before), a


def test_a_killed_server_resumes_every_table_exactly(tmp_path):
    db = f"sqlite:///{tmp_path / 'bonepile.db'}"
    first = Child(db, *SETTINGS).start()
    try:
        tables = []  # (id, tokens by seat, moves to make)
        for variant, n, opts, k in PEOPLE:
            tid, tokens = first.people_table(variant, n, opts)
            tables.append((tid, dict(enumerate(tokens)), k))
        made = first.create(
            {
                "variant": "draw",
                "players": 4,
                "seats": [
                    {"kind": "bot", "level": "expert"},
                    {"kind": "human"},
                    {"kind": "bot", "level": "greedy"},
                    {"kind": "bot", "level": "random"},
                ],
            }
        )
        tables.append((made["id"], {1: made["token"]}, 6))
        racing_id, racing_tokens = first.people_table("quinientos", 4)
        waiting = first.create({"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2})

        async def before():
            drivers = [Driver(first.ws, tid, tokens, seed=i) for i, (tid, tokens, _k) in enumerate(tables)]
            await asyncio.gather(
                *(d.run(lambda d, k=k: d.moves >= k, timeout=120) for d, (_t, _s, k) in zip(drivers, tables))
            )
            # this table is being played when the server is killed: moves are in flight
            racing = Driver(first.ws, racing_id, dict(enumerate(racing_tokens)), seed=99)
            race = asyncio.create_task(racing.run(lambda d: False, timeout=600, settle=False))
            while racing.moves < 20:
                await asyncio.sleep(0.005)
            first.kill()  # SIGKILL, with every socket open
            race.cancel()
            await asyncio.gather(race, return_exceptions=True)
            for d in drivers + [racing]:
                await d.close()
            return drivers, racing

        drivers, racing = asyncio.run(before())
    finally:
        first.kill()

    for d in drivers:
        assert d.moves > 0 and len(d.last) == len(d.tokens)
        assert len({st["seq"] for st in d.last.values()}) == 1
    assert racing.acked

    with Child(db, *SETTINGS) as second:
        listed = {t["id"]: t for t in second.get("/api/tables").json()["tables"]}
        for tid, _t, _k in tables + [(racing_id, None, None)]:
            assert tid in listed, second.get(f"/api/tables/{tid}").json()
        # a table still waiting for players waits on, and can be joined
        assert listed[waiting["id"]]["status"] == "waiting"
        assert second.join(waiting["id"], "Later")["seat"] == 1
        assert second.info(waiting["id"])["status"] == "playing"

        async def resume(d: Driver) -> None:
            again = Driver(second.ws, d.table_id, d.tokens, seed=7)
            for seat, tok in d.tokens.items():
                s = again.socks[seat] = await Sock.open(second.ws, d.table_id, tok)
                st = again.last[seat] = await s.state()
                assert strip_live(st) == strip_live(d.last[seat]), (d.table_id, seat)
                assert st["table"]["seats"][seat]["connected"]
            await again.play_out(timeout=240)
            await again.close()

        async def race_on() -> None:
            again = Driver(second.ws, racing_id, racing.tokens, seed=8)
            await again.play_out(timeout=240)
            await again.close()

        async def after():  # the tables side by side (one after another, they took ten seconds)
            await asyncio.gather(*(resume(d) for d in drivers), race_on())

        asyncio.run(asyncio.wait_for(after(), 600))
        for d in drivers + [racing]:
            info = second.info(d.table_id)
            assert info["status"] == "over"
            _check_acked(second, d.table_id, d.acked)


async def _to_hand_end(d: Driver, press_next: bool) -> None:
    """Play the first hand at a table of people; then, with press_next, everybody presses
    "next" (the winning side is asked to choose the leader).  Ends when every seat has seen
    the same state of the hand's end (hand_over, or leader)."""
    for s, tok in d.tokens.items():
        d.socks[s] = await Sock.open(d.base_ws, d.table_id, tok)
    want = "leader" if press_next else "hand_over"
    while True:
        for seat, sock in d.socks.items():
            try:
                msg = await sock.recv(timeout=0.02)
            except TimeoutError:
                continue
            if msg["type"] != "state":
                continue
            d.last[seat] = msg
            if msg["phase"] == "play" or (press_next and msg["phase"] == "hand_over"):
                out = d.respond(seat, msg)
                if out:
                    await sock.send(out)
        states = list(d.last.values())
        if (
            len(states) == len(d.tokens)
            and all(m["phase"] == want for m in states)
            and len({(m["seq"], tuple(m["ready"])) for m in states}) == 1
        ):
            if want == "hand_over" or all(m["pending"] for m in states):
                return


def test_a_killed_server_resumes_a_table_between_hands(tmp_path):
    """Killed while people look at a finished hand, or while the winning side is to choose the
    next leader: after the restart the finished hand is shown again and the winning side still
    chooses (the table waits for the people to come back instead of dealing on).  Killed just
    after the next hand was dealt: that hand is shown again."""
    db = f"sqlite:///{tmp_path / 'bonepile.db'}"
    settings = ("--grace", "60", "--hand-pause", "1000", "--rate", "1000")
    with Child(db, *settings) as first:

        async def before():
            out = []
            for k, press in enumerate([False, True, False, True]):
                tid, tokens = first.people_table("quinientos", 4, {"lead_rotation": "winning_team_chooses"})
                d = Driver(first.ws, tid, dict(enumerate(tokens)), seed=20 + k)
                await _to_hand_end(d, press)
                out.append(d)
            # and one where the next hand has been dealt, nobody has played in it yet
            tid, tokens = first.people_table("draw", 4)
            d = Driver(first.ws, tid, dict(enumerate(tokens)), seed=30)
            await d.run(
                lambda d: (
                    d.last[d.turn_seat]["view"]["hand_number"] == 2
                    and not d.last[d.turn_seat]["view"]["history"]
                ),
                timeout=60,
            )
            out.append(d)
            first.kill()
            for d in out:
                await d.close()
            return out

        drivers = asyncio.run(asyncio.wait_for(before(), 120))
    dealt = drivers.pop()
    drivers = [d for d in drivers if d.last[0]["pad"][0]["winner"] is not None]  # no tie
    assert drivers

    with Child(db, *settings) as second:

        async def after():
            for d in drivers:
                again = Driver(second.ws, d.table_id, d.tokens, seed=5)
                states = {}
                for seat, tok in d.tokens.items():
                    again.socks[seat] = await Sock.open(second.ws, d.table_id, tok)
                    states[seat] = await again.socks[seat].state()
                for seat, st in states.items():
                    before_st = strip_live(d.last[seat])
                    if before_st["phase"] == "hand_over":
                        assert strip_live(st) == before_st
                    else:  # who pressed "next" is not stored: the finished hand is shown again
                        assert st["phase"] == "hand_over" and st["ready"] == []
                        assert st["seq"] == before_st["seq"] and st["view"] == before_st["view"]
                for seat in d.tokens:
                    await again.socks[seat].send({"type": "next"})
                for seat, sock in again.socks.items():
                    st = await sock.state(lambda m: m["phase"] == "leader", timeout=30)
                    assert st["seq"] == d.last[seat]["seq"]
                    winner = st["pad"][0]["winner"]
                    assert st["pending"]["seats"] == st["table"]["sides"][winner]
                    if d.last[seat]["phase"] == "leader":  # the same choice as before the kill
                        assert st["pending"] == d.last[seat]["pending"]
                await again.close()

            for seat, tok in dealt.tokens.items():  # the new hand, as before
                sock = await Sock.open(second.ws, dealt.table_id, tok)
                st = await sock.state()
                assert st["phase"] == "play" and st["view"]["hand_number"] == 2
                assert strip_live(st) == strip_live(dealt.last[seat])
                await sock.close()

        asyncio.run(asyncio.wait_for(after(), 120))


def test_after_a_restart_a_finished_tables_sockets_get_its_end_not_4404(tmp_path):
    """Issue 27, item 12: a finished table is no longer in memory after a restart; its seat's
    socket was closed with 4404 ("no table").  Now the seat gets the last state it saw (and a
    spectator the public one), and the socket stays open."""
    from webutil import InProcess

    url = f"sqlite:///{tmp_path / 'db'}"
    with InProcess(url, grace=1000, hand_pause=0) as first:
        made = first.create(
            {
                "variant": "block",
                "players": 2,
                "options": {"target": 1},
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "casual"}],
            }
        )
        tid, tokens = made["id"], {made["seat"]: made["token"]}

        async def play():
            d = Driver(first.ws, tid, tokens, seed=3)
            try:
                await d.play_out(timeout=120)
            finally:
                await d.close()
            return d.last[made["seat"]]

        last = asyncio.run(asyncio.wait_for(play(), 180))
        assert first.info(tid)["status"] == "over"
    with InProcess(url, grace=1000, hand_pause=0) as again:
        assert tid not in again.server.tables

        async def look():
            seat = await Sock.open(again.ws, tid, tokens[made["seat"]])
            watcher = await Sock.open(again.ws, tid, None)
            try:
                mine, public = await seat.state(), await watcher.state()
                await seat.send({"type": "ping"})  # nothing to do, and no refusal
                with pytest.raises(TimeoutError):
                    await seat.recv(0.5)
                return mine, public
            finally:
                await seat.close()
                await watcher.close()

        mine, public = asyncio.run(asyncio.wait_for(look(), 60))
        assert strip_live(mine) == strip_live(last)
        assert public["view"]["seat"] is None and not public["view"]["hand"]  # a spectator: no tiles
        assert public["table"]["status"] == "over"


def test_sigterm_ends_the_server_without_leaked_semaphore_warnings(tmp_path):
    """Issue 27, item 12: uvicorn raises SIGTERM again once it has shut down, and its default
    action ended the process before the interpreter's shutdown: the worker pools' semaphores
    were reported leaked.  Now the process exits (143) after its pools are cleaned up."""
    import random
    import signal
    import time

    from bonepile.engine import Game

    srv = Child(f"sqlite:///{tmp_path / 'db'}").start()
    assert srv.proc is not None and srv.proc.stdout is not None
    try:
        srv.create({"variant": "block", "players": 2, "seats": [{"kind": "bot", "level": "expert"}] * 2})
        g = Game.new("block", {}, seed=1)
        rng = random.Random(1)
        while not g.hand.over:
            g.apply(rng.choice(g.legal_moves()))
        assert srv.post("/api/replay", content=rec.dumps(g.record()).encode()).status_code == 200
        time.sleep(1.0)  # the bots search in the worker pool meanwhile
        srv.proc.send_signal(signal.SIGTERM)
        out = srv.proc.stdout.read().decode(errors="replace")
        assert srv.proc.wait(60) == 143, out[-2000:]
    finally:
        srv.kill()
        srv.proc.stdout.close()
    assert "leaked" not in out and "Traceback" not in out, out[-2000:]
