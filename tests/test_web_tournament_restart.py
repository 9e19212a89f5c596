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
        keys = profiles(first, 4)
        made = first.post(
            "/api/tournaments",
            {"variant": "draw", "players": 2, "rounds": 2, "hands": 1, "start_when": 4},
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
