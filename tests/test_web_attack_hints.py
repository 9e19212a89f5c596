"""Issue 13, finding 3 (in part): many sockets asking for hints on one seat cost one search
per position, not one per request (40 requests used to run 40 expert searches in the two
bot threads that the bots of every table share); and they are searched in the bot workers,
where a seat's searches are rate-limited."""

from __future__ import annotations

import pytest

from webutil import InProcess, Sock, run, wait_until


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("hints") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000, hint_time=0.2) as s:
        yield s


def test_forty_hint_requests_on_one_position_run_one_search(srv):
    tid, tokens = srv.people_table("cinque", 4)
    t = srv.server.tables[tid]
    wait_until(lambda: t.game.hands, 30, "the deal")
    mover = t.game.to_move
    before = srv.server.searches.searched

    async def go():
        socks = [await Sock.open(srv.ws, tid, tokens[mover]) for _ in range(8)]
        for s in socks:
            await s.state()
        for s in socks:
            for i in range(5):
                await s.send({"type": "hint", "id": i})
        answers = []
        for s in socks:
            for _ in range(5):
                answers.append(await s.expect(lambda m: m["type"] == "hint", 60, "hint"))
        for s in socks:
            await s.close()
        return answers

    answers = run(go(), 120)
    assert len(answers) == 40
    assert len({str(a["moves"]) for a in answers}) == 1  # the same opinion for every socket
    searched = srv.server.searches.searched - before
    assert searched == 1, f"{searched} searches for one position"
