"""A game its people all left leaves the lobby's list of tables being played once each has
been away longer than the grace period (issue 26: abandoned games stayed "Being played")."""

from __future__ import annotations

import time

import pytest

from webutil import InProcess, Sock, run, wait_until

GRACE = 0.8


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("abandoned") / "db"
    with InProcess(f"sqlite:///{db}", grace=GRACE, hand_pause=1000) as s:
        yield s


def _listed(srv) -> set[str]:
    return {t["id"] for t in srv.get("/api/tables").json()["tables"]}


def test_a_game_whose_people_left_leaves_the_lobby_and_comes_back_with_them(srv):
    made = srv.create(
        {"variant": "block", "players": 2, "player": "Ana", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )
    tid = made["id"]
    ben = srv.join(tid, "Ben")

    async def go():
        socks = [await Sock.open(srv.ws, tid, tok) for tok in (made["token"], ben["token"])]
        wait_until(lambda: srv.info(tid)["status"] == "playing", 30, "the start")
        time.sleep(GRACE + 0.3)
        assert tid in _listed(srv)  # people at it: listed, however long it has been
        await socks[0].close()
        time.sleep(GRACE + 0.3)
        assert tid in _listed(srv)  # one of them is still here
        await socks[1].close()
        left = time.monotonic()
        wait_until(lambda: tid not in _listed(srv), 10, "the table leaving the lobby")
        assert time.monotonic() - left < GRACE + 2
        assert srv.info(tid)["status"] == "playing"  # kept: its people may come back
        back = await Sock.open(srv.ws, tid, made["token"])
        wait_until(lambda: tid in _listed(srv), 10, "the table back in the lobby")
        await back.close()

    run(go())
