"""A table's replay sent a hand at a time shows only finished hands: while the first hand of
a game is played nobody (seat or spectator) gets its positions, and a hand asked for by
something that is not its number is refused with a code."""

from __future__ import annotations

import pytest

from webutil import InProcess


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("pages") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000) as s:
        yield s


def test_a_hand_in_play_is_in_no_replay_and_a_bad_hand_is_refused(srv):
    tid, _tokens = srv.people_table("mexican-train", 4)
    assert srv.info(tid)["status"] == "playing"
    index = srv.get(f"/api/tables/{tid}/replay")
    assert index.status_code == 200 and index.json()["hands"] == []  # the hand in play is secret
    hand = srv.get(f"/api/tables/{tid}/replay/1")
    assert hand.status_code == 404
    assert hand.json() == {
        "error": "there is no hand 1 to replay (the replay has 0)",
        "code": "replay_no_hand",
        "params": {"n": 0},
    }
    for bad in ("0", "x", "01x", "99999"):
        r = srv.get(f"/api/tables/{tid}/replay/{bad}")
        assert r.status_code == 400 and r.json()["code"] == "replay_bad_hand", (bad, r.text)
    assert srv.get("/api/tables/nosuch/replay/1").json()["code"] == "no_table"
