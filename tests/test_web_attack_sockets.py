"""Issue 13, finding 5: sockets per seat and per client address are capped (an error and
close code 4429 past the cap), and a storm of sockets opening and closing on a seat already
at the table is not announced to every other socket."""

from __future__ import annotations

import asyncio

import pytest

from webutil import InProcess, Sock, run


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("socks") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000, seat_sockets=8, address_sockets=20) as s:
        yield s


async def _closed(sock: Sock) -> int:
    import websockets

    try:
        while True:
            await asyncio.wait_for(sock.ws.recv(), 30)
    except websockets.ConnectionClosed as e:
        return e.rcvd.code if e.rcvd else -1


async def _refused(sock: Sock, words: str) -> None:
    msg = await sock.recv()
    while msg["type"] != "error":
        msg = await sock.recv()
    assert words in msg["message"], msg
    assert await _closed(sock) == 4429


def test_sockets_per_seat_are_capped(srv):
    tid, tokens = srv.people_table("block", 2)

    async def go():
        socks = [await Sock.open(srv.ws, tid, tokens[0]) for _ in range(8)]
        for s in socks:
            assert (await s.state())["you"] == 0
        extra = await Sock.open(srv.ws, tid, tokens[0])
        await _refused(extra, "at most 8")
        other = await Sock.open(srv.ws, tid, tokens[1])  # another seat is not affected
        assert (await other.state())["you"] == 1
        await socks[0].close()
        await asyncio.sleep(0.2)
        again = await Sock.open(srv.ws, tid, tokens[0])  # a closed one frees its place
        assert (await again.state())["you"] == 0
        for s in socks[1:] + [other, again]:
            await s.close()

    run(go(), 120)


def test_sockets_per_address_are_capped(srv):
    tables = [srv.people_table("block", 2) for _ in range(4)]

    async def go():
        socks = []
        for tid, tokens in tables:
            for tok in tokens:
                for _ in range(3):
                    if len(socks) < 20:
                        socks.append(await Sock.open(srv.ws, tid, tok))
        for s in socks:
            await s.state()
        tid, tokens = tables[3]
        extra = await Sock.open(srv.ws, tid, tokens[1])
        await _refused(extra, "from your address")
        for s in socks:
            await s.close()
        await asyncio.sleep(0.3)
        assert srv.server.sockets_from == {}

    run(go(), 120)


def test_a_storm_of_tabs_on_one_seat_is_not_announced_to_the_others(srv):
    tid, tokens = srv.people_table("block", 2)

    async def go():
        here = await Sock.open(srv.ws, tid, tokens[0])
        await here.state()
        watcher = await Sock.open(srv.ws, tid, tokens[1])
        await watcher.state()
        await asyncio.sleep(0.3)
        for _ in range(15):  # tabs of seat 0 open and close while one stays
            tabs = [await Sock.open(srv.ws, tid, tokens[0]) for _ in range(5)]
            for tab in tabs:
                assert (await tab.state())["you"] == 0  # each new tab gets its state
            for tab in tabs:
                await tab.close()
        await asyncio.sleep(0.5)
        told = []
        while True:
            try:
                told.append(await watcher.recv(timeout=0.3))
            except TimeoutError:
                break
        assert len(told) <= 1, f"seat 1 was sent {len(told)} messages about seat 0's 75 tabs"
        await here.close()
        await watcher.close()

    run(go(), 120)
