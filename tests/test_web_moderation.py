"""Chat moderation on the server (docs/PROTOCOL.md, "mute"): a seat that mutes another is
never sent that seat's chat lines (on any of its sockets), only how many it is not shown,
while everybody else, spectators too, gets every line; a mute between two profiles is stored
and holds at the muter's later tables and after a restart, one where a seat has no profile
holds at that table only; unmuting shows the lines again; every bad request is refused in
words and changes nothing.  The server-wide word filter masks listed words for everybody."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select

from bonepile.web.app import create_app
from bonepile.web.play.chatfilter import ChatFilter
from bonepile.web.store.database import mutes_t

SEATS4 = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def until(ws, kind: str) -> dict:
    for _ in range(500):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def settle(ws, tag: str) -> list[dict]:
    """Every message the socket is sent before the answer to a ping (they come in order)."""
    ws.send_json({"type": "ping", "id": tag})
    out = []
    for _ in range(500):
        msg = ws.receive_json()
        if msg["type"] == "pong" and msg["id"] == tag:
            return out
        out.append(msg)
    raise AssertionError("no pong")


def chats(ws, tag: str) -> list[dict]:
    return [m for m in settle(ws, tag) if m["type"] == "chat"]


def stored(c: TestClient) -> set[tuple[str, str]]:
    with c.app.state.server.store.engine.connect() as conn:
        return {(r.muter, r.muted) for r in conn.execute(select(mutes_t))}


def profile(c: TestClient, name: str) -> dict:
    r = c.post("/api/profiles", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def table(c: TestClient, key: str | None, seats=None, players: int = 4) -> dict:
    body = {"variant": "block", "players": players, "seats": seats or SEATS4}
    r = c.post("/api/tables", json=body, headers=auth(key) if key else {})
    assert r.status_code == 200, r.text
    return r.json()


def join(c: TestClient, tid: str, name: str, key: str | None = None) -> dict:
    r = c.post(f"/api/tables/{tid}/join", json={"name": name}, headers=auth(key) if key else {})
    assert r.status_code == 200, r.text
    return r.json()


def sock(c: TestClient, tid: str, token: str | None = None):
    return c.websocket_connect(f"/ws/tables/{tid}" + (f"?token={token}" if token else ""))


def app(db: str, **kw):
    return create_app(db, bot_delay=0, hand_pause=60, grace=1000, bot_processes=False, **kw)


def test_a_muted_seat_is_hidden_from_the_muter_only_and_remembered(tmp_path):
    db = f"sqlite:///{tmp_path}/m.db"
    with TestClient(app(db)) as c:
        ana, ben = profile(c, "Ana"), profile(c, "Ben")
        t = table(c, ana["key"])
        b = join(c, t["id"], "Ben", ben["key"])
        with sock(c, t["id"], t["token"]) as a_ws, sock(c, t["id"], b["token"]) as b_ws:
            settle(a_ws, "a0")
            # bad requests: each refused in words, nothing changes
            bad = [
                ({"type": "mute", "seat": 0}, "you cannot mute yourself"),
                ({"type": "mute", "seat": 2}, "seat 2 is empty"),
                ({"type": "mute", "seat": 3}, "seat 3 is a bot"),
                ({"type": "mute", "seat": 4}, '"seat" must be the number of a seat at this table (0 to 3)'),
                ({"type": "mute", "seat": "1"}, '"seat" must be'),
                ({"type": "mute", "seat": True}, '"seat" must be'),
                ({"type": "unmute"}, '"seat" must be'),
            ]
            for i, (msg, words) in enumerate(bad):
                a_ws.send_json({**msg, "id": i})
                err = until(a_ws, "error")
                assert err["id"] == i and words in err["message"], err
            assert stored(c) == set()
            assert chats(a_ws, "a1") == []

            cy = join(c, t["id"], "Cy")  # no profile
            with sock(c, t["id"], cy["token"]) as c_ws, sock(c, t["id"]) as watch:
                settle(watch, "w0")
                watch.send_json({"type": "mute", "seat": 1, "id": "w"})
                err = until(watch, "error")
                assert (
                    err["message"] == "you are watching this table: only its players can mute a seat's chat"
                )
                b_ws.send_json({"type": "chat", "text": "hello from Ben"})
                until(a_ws, "chat")

                a_ws.send_json({"type": "mute", "seat": 1})
                got = until(a_ws, "chat")
                assert got == {"type": "chat", "lines": [], "full": True, "muted": [1], "hidden": 1}
                assert stored(c) == {(ana["id"], ben["id"])}  # both have profiles: stored

                b_ws.send_json({"type": "chat", "text": "can you hear me"})
                c_ws.send_json({"type": "chat", "text": "Cy here"})
                for ws in (b_ws, watch):  # everybody else gets both lines, and nothing hidden
                    lines = [(m["lines"], m["muted"], m["hidden"]) for m in chats(ws, "x")]
                    assert [x[0][0]["text"] for x in lines if x[0]][-2:] == ["can you hear me", "Cy here"]
                    assert all(x[1] == [] and x[2] == 0 for x in lines)
                seen = chats(a_ws, "a2")
                assert [m["hidden"] for m in seen] == [2, 2]
                assert [[x["text"] for x in m["lines"]] for m in seen] == [[], ["Cy here"]]

                # Cy has no profile: muted at this table only (not stored)
                a_ws.send_json({"type": "mute", "seat": 2})
                got = until(a_ws, "chat")
                assert got["muted"] == [1, 2] and got["lines"] == [] and got["hidden"] == 3
                assert stored(c) == {(ana["id"], ben["id"])}
                # a second tab of Ana's seat is never sent the muted lines either
                with sock(c, t["id"], t["token"]) as a2:
                    first = until(a2, "chat")
                    assert first["full"] and first["lines"] == [] and first["muted"] == [1, 2]
                # Cy may mute Ana in turn (at this table)
                c_ws.send_json({"type": "mute", "seat": 0})
                assert chats(c_ws, "c0")[-1]["muted"] == [0]
                a_ws.send_json({"type": "chat", "text": "anyone?"})
                assert [m["lines"] for m in chats(c_ws, "c1")] == [[]]
                assert [m["lines"][0]["text"] for m in chats(b_ws, "b1")] == ["anyone?"]
                assert [m["lines"][0]["text"] for m in chats(a_ws, "a3")] == ["anyone?"]

                # unmuting Cy shows Cy's lines again, Ben's stay hidden
                a_ws.send_json({"type": "unmute", "seat": 2})
                got = until(a_ws, "chat")
                assert got["muted"] == [1] and got["hidden"] == 2
                assert [x["text"] for x in got["lines"]] == ["Cy here", "anyone?"]
                a_ws.send_json({"type": "unmute", "seat": 2})  # twice: nothing more changes
                assert until(a_ws, "chat")["muted"] == [1]

        # another table later: Ben is muted there too, Cy (a new seat) is not
        t2 = table(c, ana["key"], seats=[{"kind": "human"}] * 3, players=3)
        b2 = join(c, t2["id"], "Ben", ben["key"])
        c2 = join(c, t2["id"], "Cy")
        with sock(c, t2["id"], t2["token"]) as a_ws, sock(c, t2["id"], b2["token"]) as b_ws:
            first = until(a_ws, "chat")  # sent on connecting: the seats muted here
            assert first == {"type": "chat", "lines": [], "full": True, "muted": [1], "hidden": 0}
            b_ws.send_json({"type": "chat", "text": "it's Ben again"})
            with sock(c, t2["id"], c2["token"]) as c_ws:
                c_ws.send_json({"type": "chat", "text": "Cy again"})
                assert [m["lines"][-1]["text"] for m in chats(c_ws, "c") if m["lines"]][-1] == "Cy again"
            seen = chats(a_ws, "a")
            assert [x["text"] for m in seen for x in m["lines"]] == ["Cy again"]
            assert seen[-1]["hidden"] == 1

    # a restart: the stored mute holds
    with TestClient(app(db)) as c:
        with sock(c, t2["id"], t2["token"]) as a_ws, sock(c, t2["id"], b2["token"]) as b_ws:
            assert until(a_ws, "chat")["muted"] == [1]
            b_ws.send_json({"type": "chat", "text": "after the restart"})
            until(b_ws, "chat")
            assert [m["lines"] for m in chats(a_ws, "r")] == [[]]
            a_ws.send_json({"type": "unmute", "seat": 1})
            got = until(a_ws, "chat")
            assert got["muted"] == [] and [x["text"] for x in got["lines"]] == ["after the restart"]
            assert stored(c) == set()
            b_ws.send_json({"type": "chat", "text": "heard now"})
            assert [m["lines"][0]["text"] for m in chats(a_ws, "r2")] == ["heard now"]


def test_a_profile_lists_and_changes_its_mutes_over_http(tmp_path):
    with TestClient(app(f"sqlite:///{tmp_path}/h.db")) as c:
        ana, ben = profile(c, "Ana"), profile(c, "Ben")
        url = "/api/profiles/me/mutes"
        assert c.get(url, headers=auth(ana["key"])).json() == {"muted": []}
        bad = [
            ("get", url, {}, 401, "no profile"),
            ("put", f"{url}/{ben['id']}", {"Authorization": "Bearer nope"}, 401, "not known"),
            ("put", f"{url}/{ana['id']}", auth(ana["key"]), 400, "you cannot mute yourself"),
            ("put", f"{url}/ffffffffffffffff", auth(ana["key"]), 404, "no profile 'ffffffffffffffff'"),
            ("delete", f"{url}/ffffffffffffffff", auth(ana["key"]), 404, "no profile"),
            ("put", f"{url}/not-an-id", auth(ana["key"]), 400, "is not a profile id"),
        ]
        for method, path, headers, status, words in bad:
            r = c.request(method, path, headers=headers)
            assert r.status_code == status and words in r.json()["error"], (path, r.text)
        assert stored(c) == set()

        # a live table where Ana sits with Ben: muting over HTTP reaches her socket at once
        t = table(c, ana["key"], seats=[{"kind": "human"}, {"kind": "human"}], players=2)
        b = join(c, t["id"], "Ben", ben["key"])
        with sock(c, t["id"], t["token"]) as a_ws, sock(c, t["id"], b["token"]) as b_ws:
            b_ws.send_json({"type": "chat", "text": "hi Ana"})
            until(a_ws, "chat")
            r = c.put(f"{url}/{ben['id']}", headers=auth(ana["key"]))
            assert r.json() == {"muted": [{"id": ben["id"], "name": "Ben"}]}
            got = until(a_ws, "chat")
            assert got["muted"] == [1] and got["lines"] == [] and got["hidden"] == 1
            assert c.put(f"{url}/{ben['id']}", headers=auth(ana["key"])).json()["muted"] == r.json()["muted"]
            assert c.get(url, headers=auth(ben["key"])).json() == {"muted": []}  # Ben muted nobody
            assert c.delete(f"{url}/{ben['id']}", headers=auth(ana["key"])).json() == {"muted": []}
            assert chats(a_ws, "h")[-1]["lines"][0]["text"] == "hi Ana"
        assert stored(c) == set()

        # muted on one device, it holds on Ana's other device (a key of its own) at a new table
        c.put(f"{url}/{ben['id']}", headers=auth(ana["key"]))
        code = c.post("/api/profiles/me/link", headers=auth(ana["key"])).json()["code"]
        other = c.post("/api/profiles/claim", json={"code": code}).json()
        assert other["id"] == ana["id"] and other["key"] != ana["key"]
        t2 = table(c, other["key"], seats=[{"kind": "human"}, {"kind": "human"}], players=2)
        b2 = join(c, t2["id"], "Ben", ben["key"])
        with sock(c, t2["id"], t2["token"]) as a_ws, sock(c, t2["id"], b2["token"]) as b_ws:
            assert until(a_ws, "chat")["muted"] == [1]
            b_ws.send_json({"type": "chat", "text": "new device, same Ana?"})
            until(b_ws, "chat")
            assert [m["lines"] for m in chats(a_ws, "d")] == [[]]


def test_the_word_filter_masks_listed_words_for_everybody(tmp_path):
    words = ChatFilter.parse("frack\n")
    with TestClient(app(f"sqlite:///{tmp_path}/f.db", chat_filter=words)) as c:
        t = table(c, None, seats=[{"kind": "human"}, {"kind": "human"}], players=2)
        b = join(c, t["id"], "Ben")
        with (
            sock(c, t["id"], t["token"]) as a_ws,
            sock(c, t["id"], b["token"]) as b_ws,
            sock(c, t["id"]) as w,
        ):
            settle(w, "w")
            b_ws.send_json({"type": "chat", "text": "oh F.R.A.C.K, fracking tiles"})
            for ws in (a_ws, b_ws, w):
                assert until(ws, "chat")["lines"][0]["text"] == "oh F.*.*.*.*, fracking tiles"
    # off by default
    with TestClient(app(f"sqlite:///{tmp_path}/g.db")) as c:
        t = table(c, None, seats=[{"kind": "human"}, {"kind": "bot"}], players=2)
        with sock(c, t["id"], t["token"]) as a_ws:
            a_ws.send_json({"type": "chat", "text": "frack"})
            assert until(a_ws, "chat")["lines"][0]["text"] == "frack"
