"""A profile's history after ``bonepile serve`` is killed with SIGKILL in the middle of a
game: the games finished before the kill are listed with their exact results (their
records, replayed here by the engine, say what those are), the game being played is not;
after the restart it is played to its end and then it is listed too.  A table whose last
move was stored just before the kill, but not its result (the moment between the two
transactions), gets its result when the server starts again."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import create_engine, delete, update

from bonepile.engine import record as rec
from bonepile.engine.tally import seat_tallies, side_outcomes
from bonepile.web.store.database import result_seats_t, results_t, tables_t
from bonepile.web.store.results import resum
from webutil import Child, Driver

pytestmark = pytest.mark.slow  # a server killed with SIGKILL and started again

SETTINGS = ("--grace", "1000", "--hand-pause", "0", "--rate", "1000")


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def new_table(srv: Child, key: str, target: int) -> tuple[str, dict[int, str]]:
    r = srv.post(
        "/api/tables",
        {
            "variant": "block",
            "players": 2,
            "options": {"target": target},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "casual"}],
        },
        headers=auth(key),
    )
    assert r.status_code == 200, r.text
    made = r.json()
    return made["id"], {made["seat"]: made["token"]}


def play_out(srv: Child, tid: str, tokens: dict[int, str], seed: int) -> None:
    async def go():
        d = Driver(srv.ws, tid, tokens, seed=seed)
        try:
            await d.play_out(timeout=120)
        finally:
            await d.close()

    asyncio.run(asyncio.wait_for(go(), 180))


def history(srv: Child, pid: str, key: str) -> dict:
    with srv.client() as c:
        r = c.get(f"/api/profiles/{pid}/games?limit=100", headers=auth(key))
    assert r.status_code == 200, r.text
    return r.json()


def expected(srv: Child, tid: str) -> tuple:
    """What the table's record says of its game: totals, winner, seat 0's result and tally."""
    game = rec.replay(rec.loads(srv.get(f"/api/tables/{tid}/record").text))
    assert game.over
    return list(game.totals), game.winner, side_outcomes(game)[0], seat_tallies(game)[0]


def check(srv: Child, pid: str, key: str, finished: list[str]) -> None:
    """The history lists exactly these tables (newest first), each with the result its record
    says, and the stats are the sums of their tallies."""
    got = history(srv, pid, key)
    assert [g["table"] for g in got["games"]] == finished[::-1]
    tallies = []
    for g in got["games"]:
        totals, winner, result, tally = expected(srv, g["table"])
        assert (g["totals"], g["winner"], g["result"], g["seat"]) == (totals, winner, result, 0)
        tallies.append(tally)
    stats = got["stats"]
    assert stats["games"] == len(finished)
    assert stats["hands"] == sum(t.hands for t in tallies)
    assert stats["dominoes"] == sum(t.dominoes for t in tallies)
    assert stats["blocked_won"] == sum(t.blocked_won for t in tallies)
    points = sum(t.points for t in tallies)
    assert stats["points_per_hand"] == (round(points / stats["hands"], 2) if finished else None)


def test_history_after_a_sigkill_in_the_middle_of_a_game(tmp_path):
    path = tmp_path / "bonepile.db"
    db = f"sqlite:///{path}"
    first = Child(db, *SETTINGS).start()
    try:
        me = first.post("/api/profiles", {"name": "Ana"}).json()
        pid, key = me["id"], me["key"]
        done = []
        for k in range(3):
            tid, tokens = new_table(first, key, 1)
            play_out(first, tid, tokens, seed=k)
            done.append(tid)
        check(first, pid, key, done)
        # a longer game: killed after a few of our moves, its first hand not over
        live, live_tokens = new_table(first, key, 60)

        async def some_moves():
            d = Driver(first.ws, live, live_tokens, seed=9)
            try:
                await d.run(lambda d: d.moves >= 3, timeout=60)
            finally:
                first.kill()  # SIGKILL, its socket still open
                await d.close()

        asyncio.run(asyncio.wait_for(some_moves(), 120))
    finally:
        first.kill()

    # the moment between a game's last move and its result: the last finished table's
    # result not stored yet, nor its "over" mark
    engine = create_engine(db)
    late = done[-1]
    with engine.begin() as c:
        c.execute(delete(result_seats_t).where(result_seats_t.c.table_id == late))
        c.execute(delete(results_t).where(results_t.c.table_id == late))
        c.execute(update(tables_t).where(tables_t.c.id == late).values(status="playing"))
    resum(engine)  # and the profile's sums without it
    engine.dispose()

    with Child(db, *SETTINGS) as second:
        check(second, pid, key, done)  # the game in play is not listed; the late one is again
        assert second.info(live)["status"] == "playing"
        assert second.info(late)["status"] == "over"
        play_out(second, live, live_tokens, seed=10)
        check(second, pid, key, done + [live])
