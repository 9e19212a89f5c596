"""A person who has a seat but is not at the table (not yet connected, or gone for less than
the grace period) holds the game: even forced turns and the end of a hand wait for them."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from bonepile.web.app import create_app


def _client(tmp_path, **settings) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path}/w.db", bot_delay=0, **settings))


def _blind_table(c: TestClient) -> dict:
    # Blind Hugie: most turns of the person are forced (turn up the front tile), so without
    # this rule whole hands would be played before the person's page connects.
    r = c.post(
        "/api/tables",
        json={
            "variant": "blind-hugie",
            "players": 3,
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "level": "random"},
                {"kind": "bot", "level": "random"},
            ],
        },
    )
    assert r.status_code == 200, r.text
    return r.json()


def test_forced_turns_wait_for_a_person_not_yet_connected(tmp_path):
    with _client(tmp_path, grace=60) as c:
        t = _blind_table(c)
        time.sleep(1.5)
        info = c.get(f"/api/tables/{t['id']}").json()
        assert info["hands"] == 0
        assert info["seats"][0]["bot_playing"] is False
        with c.websocket_connect(f"/ws/tables/{t['id']}?token={t['token']}") as ws:
            # connected: the person's forced turns are played for them, and the hand ends;
            # then the table waits for the person's "next"
            deadline = time.monotonic() + 30
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state" and msg["phase"] in ("hand_over", "over"):
                    break
                if (
                    msg["type"] == "state"
                    and msg["phase"] == "play"
                    and msg["view"]["to_move"] == 0
                    and not msg["forced"]
                ):  # the turned-up tile fits two ends: a choice
                    ws.send_json({"type": "move", "move": msg["view"]["legal"][0]["move"]})
                assert time.monotonic() < deadline
            if msg["phase"] == "over":  # a first hand worth the target (61) ended the game
                return
            seq = msg["seq"]
            time.sleep(0.5)
            info = c.get(f"/api/tables/{t['id']}").json()
            assert info["hands"] == 1  # still the first hand's end: nobody dealt the next one
            ws.send_json({"type": "next"})
            while True:
                msg = ws.receive_json()
                if msg["type"] == "state" and msg["seq"] > seq and msg["view"]["hand_number"] == 2:
                    break
                assert time.monotonic() < deadline


@pytest.mark.slow
def test_after_the_grace_period_a_bot_plays_the_absent_persons_seat(tmp_path):
    # another person is at the table: seat 0's person never came, a bot plays for them
    with _client(tmp_path, grace=0.5) as c:
        r = c.post(
            "/api/tables",
            json={
                "variant": "blind-hugie",
                "players": 3,
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}],
            },
        )
        assert r.status_code == 200, r.text
        t = r.json()
        joined = c.post(f"/api/tables/{t['id']}/join", json={"name": "B"}).json()
        assert joined["seat"] == 1
        deadline = time.monotonic() + 60
        with c.websocket_connect(f"/ws/tables/{t['id']}?token={joined['token']}") as ws:
            while True:
                msg = ws.receive_json()
                if msg["type"] != "state":
                    continue
                if msg["table"]["hands"] >= 1:
                    break
                if msg["phase"] == "play" and msg["view"]["to_move"] == 1 and not msg["forced"]:
                    ws.send_json({"type": "move", "move": msg["view"]["legal"][0]["move"]})
                assert time.monotonic() < deadline, "the table never went on without the person"
            assert msg["table"]["seats"][0]["bot_playing"] is True
