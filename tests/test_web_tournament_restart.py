"""A tournament survives ``kill -9`` in the middle of a round: the server started again on
the same storage resumes the round's tables from their actions, the people come back to the
same seats, the next round opens and the standings agree with the stored records."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from bonepile.web.client import SeatClient
from test_web_tournaments import auth, matchpoints_from_records, play_all, profiles
from webutil import Child

pytestmark = pytest.mark.slow  # a server killed with SIGKILL and started again

ARGS = ("--grace", "1000", "--hand-pause", "0.05", "--rate", "1000")


def test_a_tournament_killed_in_a_round_loses_nothing(tmp_path):
    db = f"sqlite:///{tmp_path / 'bonepile.db'}"
    first = Child(db, *ARGS).start()
    try:
        keys = profiles(first, 2)
        made = first.post(
            "/api/tournaments",
            {"variant": "draw", "players": 2, "rounds": 2, "hands": 1, "start_when": 2},
            headers=auth(keys[0]),
        ).json()
        tid = made["id"]
        for k in keys[1:]:
            assert first.post(f"/api/tournaments/{tid}/join", {}, headers=auth(k)).status_code == 200

        async def a_few_moves() -> list[dict]:
            async def person(i: int, key: str) -> dict:
                async with httpx.AsyncClient(base_url=first.http, headers=auth(key), timeout=30) as c:
                    while True:
                        st = (await c.get(f"/api/tournaments/{tid}")).json()
                        if st["you"]:
                            break
                        await asyncio.sleep(0.05)
                you = st["you"]
                await SeatClient(first.ws, you["table"], you["token"], seed=i).play(max_moves=2, timeout=30)
                return you

            return await asyncio.gather(*(person(i, k) for i, k in enumerate(keys)))

        seated = asyncio.run(a_few_moves())
        before = first.get(f"/api/tournaments/{tid}").json()
        assert before["status"] == "playing" and len(before["rounds_played"]) == 1
    finally:
        first.kill()  # SIGKILL in the middle of round 1
    second = Child(db, *ARGS).start()
    try:
        again = second.get(f"/api/tournaments/{tid}").json()
        assert again["rounds_played"][0]["commitment"] == before["rounds_played"][0]["commitment"]
        assert [t["table"] for t in again["rounds_played"][0]["tables"]] == [
            t["table"] for t in before["rounds_played"][0]["tables"]
        ]
        # the same seat and token for each person, and the moves made before the kill kept
        for key, you in zip(keys, seated, strict=True):
            st = httpx.get(f"{second.http}/api/tournaments/{tid}", headers=auth(key)).json()
            assert st["you"] == you
        states = asyncio.run(play_all(second.http, second.ws, tid, keys, timeout=90))
        st = states[0]
        assert st["status"] == "over" and len(st["rounds_played"]) == 2
        mp, diff = matchpoints_from_records(second, st)
        assert {x["entrant"]: x["score"] for x in st["standings"]} == mp
        assert {x["entrant"]: x["difference"] for x in st["standings"]} == diff
    finally:
        second.kill()


def test_a_round_stored_before_its_tables_gets_them_at_the_next_start(tmp_path):
    """The server stopped between storing a round and storing its tables: the next start
    makes the missing tables with the same id, seed, seats and tokens."""
    import sqlalchemy as sa

    from webutil import InProcess

    path = tmp_path / "db.sqlite"
    with InProcess(f"sqlite:///{path}", grace=1000, hand_pause=0.05) as srv:
        keys = profiles(srv, 2)
        tid = srv.post(
            "/api/tournaments",
            {"variant": "draw", "players": 2, "rounds": 1, "hands": 1, "start_when": 2},
            headers=auth(keys[0]),
        ).json()["id"]
        for k in keys[1:]:
            assert srv.post(f"/api/tournaments/{tid}/join", {}, headers=auth(k)).status_code == 200
        for _ in range(200):
            seats = [
                httpx.get(f"{srv.http}/api/tournaments/{tid}", headers=auth(k)).json()["you"] for k in keys
            ]
            if all(seats):
                break
            asyncio.run(asyncio.sleep(0.05))
        lost = seats[0]["table"]
        before = srv.info(lost)
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as c:  # as if the server had died before storing this table
        assert c.execute(sa.text("DELETE FROM tables WHERE id = :t"), {"t": lost}).rowcount == 1
    engine.dispose()
    with InProcess(f"sqlite:///{path}", grace=1000, hand_pause=0.05) as srv:
        after = srv.info(lost)
        assert [s["name"] for s in after["seats"]] == [s["name"] for s in before["seats"]]
        again = [httpx.get(f"{srv.http}/api/tournaments/{tid}", headers=auth(k)).json()["you"] for k in keys]
        assert again == seats
        st = asyncio.run(play_all(srv.http, srv.ws, tid, keys))[0]
        mp, _diff = matchpoints_from_records(srv, st)
        assert {x["entrant"]: x["score"] for x in st["standings"]} == mp
