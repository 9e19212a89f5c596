"""Refusals carry codes: a client words them in its reader's language from ``error.<code>``
(with the numbers in ``params``) instead of recognising the server's English sentences."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from fastapi.testclient import TestClient

from bonepile.web.app import create_app
from bonepile.web.words.i18n import catalogue
from webutil import receive_until

WEB = Path(__file__).resolve().parents[1] / "src" / "bonepile" / "web"
STATIC = WEB / "static"


def _codes_in_source() -> dict[str, set[str]]:
    """Every ``code="..."`` given to a refusal in the server's source, with the params' names
    where a dict literal gives them (code -> parameter names)."""
    found: dict[str, set[str]] = {}
    for path in WEB.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                kws = {k.arg: k.value for k in node.keywords if k.arg}
                if (
                    "code" in kws
                    and isinstance(kws["code"], ast.Constant)
                    and isinstance(kws["code"].value, str)
                ):
                    names = found.setdefault(kws["code"].value, set())
                    p = kws.get("params")
                    if isinstance(p, ast.Dict):
                        names |= {k.value for k in p.keys if isinstance(k, ast.Constant)}
            if isinstance(node, ast.Dict):  # a message built as a literal: {"type": "error", "code": ...}
                d = {k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
                c = d.get("code")
                if d.get("type") is not None and isinstance(c, ast.Constant) and isinstance(c.value, str):
                    found.setdefault(c.value, set())
    return found


def test_every_code_the_server_sends_is_worded_with_its_numbers():
    codes = _codes_in_source()
    assert len(codes) >= 30, sorted(codes)  # the refusals a player can meet
    words = catalogue("en")  # every catalogue file of the language
    for code, params in sorted(codes.items()):
        key = f"error.{code}"
        assert key in words, f"{key} is sent but has no words"
        used = set(re.findall(r"{(\w+)}", words[key]))
        assert used <= params, f"{key} uses {used - params}, which the server does not send"


def test_the_client_no_longer_reads_the_servers_english():
    js = (STATIC / "common.js").read_text(encoding="utf-8")
    assert "SERVER_WORDS" not in js and "pattern.test" not in js
    assert "error.${code}" in js


def test_http_and_socket_refusals_carry_their_code_and_numbers(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path}/e.db", bot_delay=0, hand_pause=60)) as c:
        r = c.get("/api/tables/nosuchtable")
        assert r.status_code == 404 and r.json()["code"] == "no_table"
        t = c.post(
            "/api/tables",
            json={
                "variant": "block",
                "players": 2,
                "player": "Ana",
                "seats": [{"kind": "human"}, {"kind": "human"}],
            },
        ).json()
        r = c.post(f"/api/tables/{t['id']}/join", json={"name": "x" * 30})
        assert r.status_code == 400
        assert r.json()["code"] == "name_long" and r.json()["params"] == {"max": 24}
        assert "at most 24" in r.json()["error"]  # the English stays for everybody else
        j = c.post(f"/api/tables/{t['id']}/join", json={"name": "Ben"}).json()
        r = c.post(f"/api/tables/{t['id']}/join", json={"name": "Cy"})
        assert r.status_code == 409 and r.json()["code"] == "table_full" and "params" not in r.json()
        with (
            c.websocket_connect(f"/ws/tables/{t['id']}?token={t['token']}") as a,
            c.websocket_connect(f"/ws/tables/{t['id']}?token={j['token']}"),
        ):
            a.send_json({"type": "chat", "text": "x" * 201, "id": 7})
            e = receive_until(a, "error")
            assert e == {
                "type": "error",
                "message": "a chat message is at most 200 characters",
                "code": "chat_long",
                "params": {"max": 200},
                "id": 7,
            }
            a.send_json({"type": "next"})
            assert receive_until(a, "error")["code"] == "hand_not_over"
            a.send_json({"type": "chat", "text": 5})  # a client's fault: worded as one, in general
            assert receive_until(a, "error")["code"] == "bad_request"
        with c.websocket_connect(f"/ws/tables/{t['id']}?token=wrong") as bad:
            e = bad.receive_json()
            assert e["type"] == "error" and e["code"] == "token"
