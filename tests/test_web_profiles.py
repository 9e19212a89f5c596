"""Profiles without passwords (docs/PROTOCOL.md, "Profiles"): a profile is made with a name
and answers with a key shown once (the server keeps only its hash); the key, and nothing
else, acts as the profile; a link code moves it to another device once; a seat taken with
a profile's key is tied to it in the stored seats; ``--profiles required`` refuses tables
without one, ``off`` has no profiles; every bad request is a clear JSON error that changes
nothing; a restarted server knows its profiles."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time

import pytest
from sqlalchemy import select

from bonepile.web.store import profile_keys_t, profile_links_t, profiles_t, tables_t
from webutil import SRC, InProcess

BOTS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def rows(srv, table) -> list[tuple]:
    with srv.server.store.engine.connect() as c:
        return sorted(tuple(r) for r in c.execute(select(table)))


def everything(srv) -> list[list[tuple]]:
    return [rows(srv, t) for t in (profiles_t, profile_keys_t, profile_links_t, tables_t)]


def stored_seats(srv, table_id: str) -> list[dict]:
    with srv.server.store.engine.connect() as c:
        return json.loads(c.execute(select(tables_t.c.seats).where(tables_t.c.id == table_id)).scalar_one())


def make(srv, name: str = "Ana") -> dict:
    r = srv.post("/api/profiles", {"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def me(srv, key: str):
    with srv.client() as c:
        return c.get("/api/profiles/me", headers=auth(key))


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("profiles") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000) as s:
        yield s


def test_a_profile_is_made_with_a_key_the_server_keeps_only_the_hash_of(srv):
    p = make(srv, "  Ana   María ")
    assert p["name"] == "Ana María" and set(p) == {"id", "name", "key"}
    assert len(p["key"]) >= 32  # 24 random bytes in base64: 192 bits
    assert me(srv, p["key"]).json() == {"id": p["id"], "name": "Ana María"}
    dump = repr(everything(srv))
    assert p["key"] not in dump
    assert hashlib.sha256(p["key"].encode()).hexdigest() in dump
    # a name is not an identity: a second Ana is another profile
    other = make(srv, "Ana María")
    assert other["id"] != p["id"] and other["key"] != p["key"]
    # no name: a default one
    assert make(srv, "")["name"] == "Player"


def test_a_profile_cannot_act_as_another(srv):
    a, b = make(srv, "Ana"), make(srv, "Bea")
    with srv.client() as c:
        # a wrong key, a key with a letter changed, a seat token: not a profile
        made = c.post("/api/tables", json={"variant": "block", "players": 2, "seats": BOTS})
        seat_token = made.json()["token"]
        changed = a["key"][:-1] + ("A" if a["key"][-1] != "A" else "B")
        for key in ("nope", changed, seat_token):
            before = everything(srv)
            for r in (
                c.get("/api/profiles/me", headers=auth(key)),
                c.patch("/api/profiles/me", json={"name": "Mallory"}, headers=auth(key)),
                c.post("/api/profiles/me/link", headers=auth(key)),
            ):
                assert r.status_code == 401 and "not known" in r.json()["error"], r.text
            assert everything(srv) == before
        # another profile's key acts as that other profile, never as this one
        r = c.patch("/api/profiles/me", json={"name": "Bea Two"}, headers=auth(b["key"]))
        assert r.json() == {"id": b["id"], "name": "Bea Two"}
        assert me(srv, a["key"]).json() == {"id": a["id"], "name": "Ana"}
        # no header, or another scheme
        assert c.get("/api/profiles/me").status_code == 401
        r = c.get("/api/profiles/me", headers={"Authorization": f"Basic {a['key']}"})
        assert r.status_code == 401 and "Bearer" in r.json()["error"]


def test_a_link_code_moves_a_profile_to_another_device_once(srv):
    a = make(srv, "Ana")
    with srv.client() as c:
        link = c.post("/api/profiles/me/link", headers=auth(a["key"])).json()
        assert len(link["code"]) == 8 and link["expires_in"] == 600
        # typed by hand: lower case, a dash in the middle
        typed = link["code"][:4].lower() + "-" + link["code"][4:]
        got = c.post("/api/profiles/claim", json={"code": typed}).json()
        assert got["id"] == a["id"] and got["name"] == "Ana" and got["key"] != a["key"]
        # both devices act as the profile; a rename on one is seen on the other
        c.patch("/api/profiles/me", json={"name": "Ana B"}, headers=auth(got["key"]))
        assert me(srv, a["key"]).json() == {"id": a["id"], "name": "Ana B"}
        # the code is used: a second claim (a replay) gets nothing and changes nothing
        before = everything(srv)
        r = c.post("/api/profiles/claim", json={"code": link["code"]})
        assert r.status_code == 404 and "used already" in r.json()["error"]
        assert everything(srv) == before
        # an expired code, and one never given
        srv.server.store.add_link(hashlib.sha256(b"ABCDEFGH").hexdigest(), a["id"], time.time() - 1)
        before = everything(srv)
        for code in ("ABCDEFGH", "ZZZZZZZZ"):
            r = c.post("/api/profiles/claim", json={"code": code})
            assert r.status_code == 404 and "expired" in r.json()["error"], r.text
        assert everything(srv) == before


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "says"),
    [
        ("post", "/api/profiles", b"{not json", 400, "not JSON"),
        ("post", "/api/profiles", b"[1, 2]", 400, "JSON object"),
        ("post", "/api/profiles", b'{"name": 7}', 400, "string"),
        ("post", "/api/profiles", b'{"name": "a\\u0000b"}', 400, "control"),
        ("post", "/api/profiles", b'{"name": "Expert Bot"}', 400, "bot"),
        ("post", "/api/profiles", b'{"name": "' + b"x" * 30 + b'"}', 400, "at most 24"),
        ("post", "/api/profiles", b'{"name": "' + b"x" * 5000 + b'"}', 413, "at most 4096 bytes"),
        ("patch", "/api/profiles/me", b'{"name": ""}', 400, "empty"),
        ("patch", "/api/profiles/me", b"{}", 400, "missing"),
        ("patch", "/api/profiles/me", b'{"name": "' + b"y" * 5000 + b'"}', 413, "at most"),
        ("post", "/api/profiles/claim", b'{"code": 12345678}', 400, "8-letter code"),
        ("post", "/api/profiles/claim", b'{"code": "ABC"}', 400, "8-letter code"),
        ("post", "/api/profiles/claim", b'{"code": "' + b"A" * 100 + b'"}', 400, "8-letter code"),
    ],
)
def test_a_bad_profile_request_is_a_clear_error_that_changes_nothing(srv, method, path, body, status, says):
    a = make(srv, "Ana")
    before = everything(srv)
    with srv.client() as c:
        r = c.request(method, path, content=body, headers=auth(a["key"]))
    assert r.status_code == status and says in r.json()["error"], r.text
    assert everything(srv) == before
    assert me(srv, a["key"]).json()["name"] == "Ana"


def test_an_oversized_key_is_refused_in_words(srv):
    with srv.client() as c:
        r = c.get("/api/profiles/me", headers=auth("k" * 5000))
    assert r.status_code == 401 and "too long" in r.json()["error"]


def test_a_seat_taken_with_a_profile_is_tied_to_it(srv):
    a, b = make(srv, "Ana"), make(srv, "Bea")
    with srv.client() as c:
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]
        made = c.post(
            "/api/tables", json={"variant": "block", "players": 4, "seats": seats}, headers=auth(a["key"])
        ).json()
        tid = made["id"]
        assert stored_seats(srv, tid)[made["seat"]]["profile"] == a["id"]
        assert stored_seats(srv, tid)[made["seat"]]["name"] == "Ana"  # the profile's name by default
        # the same profile cannot take a second seat at the table
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Ana again"}, headers=auth(a["key"]))
        assert r.status_code == 409 and "already plays seat 0" in r.json()["error"]
        # a wrong key is refused, not ignored: no seat is taken
        r = c.post(f"/api/tables/{tid}/join", json={}, headers=auth("wrong"))
        assert r.status_code == 401
        assert [s["token_hash"] is None for s in stored_seats(srv, tid)] == [False, True, True, True]
        jb = c.post(f"/api/tables/{tid}/join", json={}, headers=auth(b["key"])).json()
        anon = c.post(f"/api/tables/{tid}/join", json={"name": "Cy"}).json()
        info = c.get(f"/api/tables/{tid}").json()
    stored = stored_seats(srv, tid)
    assert [s["profile"] for s in stored] == [a["id"], b["id"], None, None]
    assert stored[jb["seat"]]["name"] == "Bea" and stored[anon["seat"]]["name"] == "Cy"
    assert [s["profile"] for s in info["seats"]] == [a["id"], b["id"], None, None]
    text = json.dumps(info)
    for secret in (a["key"], b["key"], made["token"], jb["token"], anon["token"], "token_hash", "key_hash"):
        assert secret not in text
    # the live table keeps the tie too (the next stored update writes it again)
    assert [s.profile for s in srv.server.tables[tid].seats] == [a["id"], b["id"], None, None]


def test_profiles_required_refuses_tables_without_one_and_off_has_none(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/r.db", profiles="required") as srv:
        a = make(srv, "Ana")
        with srv.client() as c:
            body = {"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            r = c.post("/api/tables", json=body)
            assert r.status_code == 401 and "only with a profile" in r.json()["error"]
            assert rows(srv, tables_t) == []
            made = c.post("/api/tables", json=body, headers=auth(a["key"])).json()
            before = everything(srv)
            r = c.post(f"/api/tables/{made['id']}/join", json={"name": "Cy"})
            assert r.status_code == 401 and "only with a profile" in r.json()["error"]
            assert everything(srv) == before
    with InProcess(f"sqlite:///{tmp_path}/o.db", profiles="off") as srv:
        with srv.client() as c:
            r = c.post("/api/profiles", json={"name": "Ana"})
            assert r.status_code == 404 and "turned off" in r.json()["error"]
            # a key sent anyway is not looked at: the seat has no profile
            made = c.post(
                "/api/tables", json={"variant": "block", "players": 2, "seats": BOTS}, headers=auth("x")
            ).json()
            assert stored_seats(srv, made["id"])[0]["profile"] is None


def test_a_restarted_server_knows_its_profiles_and_their_seats(tmp_path):
    url = f"sqlite:///{tmp_path}/k.db"
    with InProcess(url, grace=1000, hand_pause=1000) as srv:
        a = make(srv, "Ana")
        with srv.client() as c:
            seats = [{"kind": "human"}, {"kind": "human"}]
            made = c.post(
                "/api/tables", json={"variant": "block", "players": 2, "seats": seats}, headers=auth(a["key"])
            ).json()
            code = c.post("/api/profiles/me/link", headers=auth(a["key"])).json()["code"]
    with InProcess(url, grace=1000, hand_pause=1000) as srv:
        assert me(srv, a["key"]).json() == {"id": a["id"], "name": "Ana"}
        assert srv.server.tables[made["id"]].seats[0].profile == a["id"]
        got = srv.post("/api/profiles/claim", {"code": code}).json()  # a code outlives a restart
        assert got["id"] == a["id"]


def test_serve_refuses_an_unknown_profiles_mode_in_one_line():
    r = subprocess.run(
        [sys.executable, "-m", "bonepile", "serve", "--profiles", "sometimes", "--port", "0"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert r.returncode != 0
    assert "--profiles must be off, optional or required, not 'sometimes'" in r.stderr + r.stdout
