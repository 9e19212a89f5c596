"""Table chat: every seat at the table gets each line, as text; bad lines are refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from bonepile.web.app import create_app
from webutil import receive_until


def test_chat_reaches_every_seat_verbatim_and_is_limited(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/c.db", bot_delay=0, hand_pause=60)) as c:
        t = c.post(
            "/api/tables",
            json={
                "variant": "block",
                "players": 2,
                "player": "Ana",
                "seats": [{"kind": "human"}, {"kind": "human"}],
            },
        ).json()
        j = c.post(f"/api/tables/{t['id']}/join", json={"name": "<b>Ben</b>"}).json()
        with (
            c.websocket_connect(f"/ws/tables/{t['id']}?token={t['token']}") as a,
            c.websocket_connect(f"/ws/tables/{t['id']}?token={j['token']}") as b,
        ):
            b.send_json({"type": "chat", "text": "  <script>alert(1)</script>\n  hi  "})
            for ws in (a, b):
                line = receive_until(ws, "chat")["lines"][0]
                assert line == {
                    "seat": 1,
                    "name": "<b>Ben</b>",
                    "text": "<script>alert(1)</script> hi",
                    "at": line["at"],
                }
            a.send_json({"type": "chat", "text": "x" * 201})
            assert "at most 200" in receive_until(a, "error")["message"]
            a.send_json({"type": "chat", "text": " \n\t "})
            assert "empty" in receive_until(a, "error")["message"]
            a.send_json({"type": "chat", "text": 5})
            assert "string" in receive_until(a, "error")["message"]
        # a seat that connects later gets the recent lines
        with c.websocket_connect(f"/ws/tables/{t['id']}?token={t['token']}") as a2:
            lines = receive_until(a2, "chat")["lines"]
            assert [x["text"] for x in lines] == ["<script>alert(1)</script> hi"]
