"""Issue 27, item 5: spectators' sockets opening and closing from one address no longer flood
the players.  One address opens a bounded number of spectators' sockets a minute (an error
``watch_rate`` and close code 4429 past it), and the "n watching" updates reach the players
at most twice a second per table, whatever the churn (counts asserted, never times)."""

from __future__ import annotations

import asyncio
import math
import time

import pytest

from bonepile.web.play.table import WATCHING_EVERY
from webutil import InProcess, Sock, run


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("spectators") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000, address_watchers=64) as s:
        yield s


async def _drain(sock: Sock, quiet: float = 0.4) -> list[dict]:
    got = []
    while True:
        try:
            got.append(await sock.recv(timeout=quiet))
        except TimeoutError:
            return got


def test_spectator_churn_sends_the_player_a_bounded_number_of_states(srv):
    tid, tokens = srv.people_table("block", 2)
    churn = 60

    async def go():
        player = await Sock.open(srv.ws, tid, tokens[0])
        await player.state()
        await _drain(player)
        start = time.monotonic()
        for _ in range(churn):  # one at a time: each gets its state, then leaves
            s = await Sock.open(srv.ws, tid, None)
            assert (await s.state())["table"]["id"] == tid
            await s.close()
        took = time.monotonic() - start
        await asyncio.sleep(2 * WATCHING_EVERY)
        told = [m for m in await _drain(player) if m["type"] == "state"]
        # one update at once, then at most one every WATCHING_EVERY seconds, one more at the end
        bound = 2 + math.ceil(took / WATCHING_EVERY)
        assert 1 <= len(told) <= bound < churn, (len(told), bound, took)
        assert told[-1]["table"]["watching"] == 0  # the last update says how it ended
        # spectators who stay are counted once the update comes
        stay = [await Sock.open(srv.ws, tid, None) for _ in range(3)]
        last = await player.state(lambda m: m["table"]["watching"] == 3, 10, "3 watching")
        assert last["table"]["watching"] == 3
        for s in stay:
            await s.close()
        await player.close()

    run(go(), 120)


def test_spectators_sockets_opened_from_one_address_are_rate_limited(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000, hand_pause=1000, watch_rate=3) as s:
        tid, _tokens = s.people_table("block", 2)

        async def go():
            for _ in range(6):  # bursts of twice the rate a minute
                w = await Sock.open(s.ws, tid, None)
                await w.state()
                await w.close()
            w = await Sock.open(s.ws, tid, None)
            err = await w.error()
            assert err["code"] == "watch_rate" and err["params"]["s"] >= 1
            import websockets

            with pytest.raises(websockets.ConnectionClosed) as closed:
                await w.recv()
            assert closed.value.rcvd.code == 4429
            assert s.server.watching_from == {}  # nothing counted for the refused socket

        run(go(), 60)
