"""Profiles without passwords (docs/PROTOCOL.md, "Profiles"): a profile is made with a name
and answers with a key shown once (the server keeps only its hash); the key, and nothing
else, acts as the profile; a link code moves it to another device once; a seat taken with
a profile's key is tied to it in the stored seats; ``--profiles required`` refuses tables
without one, ``off`` has no profiles; every bad request is a clear JSON error that changes
nothing; a restarted server knows its profiles."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import time

import pytest
from sqlalchemy import select

from bonepile.web.store.database import profile_keys_t, profile_links_t, profiles_t, tables_t
from webutil import SRC, InProcess

pytest_plugins = ["pgcluster"]  # the pg_url fixture: a throwaway PostgreSQL cluster

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
        mine = hashlib.sha256(a["key"].encode()).hexdigest()
        srv.server.store.add_link(
            hashlib.sha256(b"ABCDEFGH").hexdigest(), a["id"], mine, time.time() - 1, time.time()
        )
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


BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (1280, 860)], ids=["phone", "desktop"])
def test_the_lobby_makes_a_profile_ties_seats_and_moves_it_to_another_device(tmp_path, size):
    """As a person: the first visit makes a profile, the table made and the seat joined are
    tied to it, "Use on another device" shows a code the other browser types to play as the
    same profile; with profiles required, a friend's first visit by invite link still sits."""
    sync_api = pytest.importorskip("playwright.sync_api")
    import shutil

    if shutil.which("chromium") is None:
        pytest.skip("no chromium on PATH")
    with InProcess(f"sqlite:///{tmp_path}/b.db", profiles="required") as srv, sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=shutil.which("chromium"), args=BROWSER_ARGS)
        try:
            ctx = b.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(srv.http + "/")
            page.wait_for_selector("body[data-ready='1']")
            stored = json.loads(page.evaluate("localStorage.getItem('bonepile:profile')"))
            assert set(stored) == {"id", "key"}
            assert me(srv, stored["key"]).json()["id"] == stored["id"]
            assert page.locator("#profile-title").inner_text() == "Your profile"
            # a table made in the lobby: its creator's seat is the profile's
            page.fill("#name", "Ana")
            page.select_option("#variant", "block")
            page.select_option("#players", "2")
            page.select_option("#seat-1", "human")
            page.click("#create")
            page.wait_for_url("**/t/*")
            tid = page.url.rsplit("/", 1)[-1].split("?")[0]
            assert stored_seats(srv, tid)[0]["profile"] == stored["id"]
            # a friend's first visit by the invite link: a profile is made, the seat tied to it
            friend = b.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True).new_page()
            friend.on("pageerror", lambda e: errors.append(str(e)))
            friend.goto(srv.http + f"/t/{tid}")
            friend.wait_for_selector("#join:not([hidden])")
            friend.fill("#join-name", "Bo")
            friend.click("#join-form button[type=submit]")
            friend.wait_for_selector("body[data-conn='1']")
            theirs = json.loads(friend.evaluate("localStorage.getItem('bonepile:profile')"))
            assert theirs["id"] != stored["id"]
            assert [s["profile"] for s in stored_seats(srv, tid)] == [stored["id"], theirs["id"]]
            # "Use on another device": the code shown, typed on a third browser
            page.goto(srv.http + "/")
            page.wait_for_selector("body[data-ready='1']")
            page.click("#profile-link")
            page.wait_for_function("/[A-Z2-9]{8}/.test(document.getElementById('profile-code').textContent)")
            shown = page.locator("#profile-code").inner_text()
            code = re.search(r"\b[A-Z2-9]{8}\b", shown).group(0)
            page.locator("#profile").screenshot(path=str(tmp_path / f"profile-{size[0]}.png"))
            other = b.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True).new_page()
            other.on("pageerror", lambda e: errors.append(str(e)))
            other.goto(srv.http + "/")
            other.wait_for_selector("body[data-ready='1']")
            made_here = json.loads(other.evaluate("localStorage.getItem('bonepile:profile')"))
            assert made_here["id"] != stored["id"]
            other.fill("#claim-code", code.lower())
            other.click("#claim")
            other.wait_for_function("document.getElementById('profile-code').textContent.length > 0")
            moved = json.loads(other.evaluate("localStorage.getItem('bonepile:profile')"))
            assert moved["id"] == stored["id"] and moved["key"] != stored["key"]
            assert "Ana" in other.locator("#profile-name").inner_text()
            other.reload()  # a device that never typed a name keeps the profile's
            other.wait_for_selector("body[data-ready='1']")
            assert "Ana" in other.locator("#profile-name").inner_text()
            assert me(srv, moved["key"]).json()["name"] == "Ana"
            # the code was used: typed again, the server's refusal is shown and nothing moves
            other.fill("#claim-code", code)
            other.click("#claim")
            other.wait_for_function("document.getElementById('alert').textContent.includes('used already')")
            assert json.loads(other.evaluate("localStorage.getItem('bonepile:profile')")) == moved
            assert not errors, errors
        finally:
            b.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.cluster)])
def test_the_stored_profiles_work_on_both_databases(request, tmp_path, backend):
    """The store's profile rows on SQLite and PostgreSQL: a key finds its profile, a link code
    is claimed once and not after it expired."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    from bonepile.web.store.database import Store, normalize_url

    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/s.db"
    else:
        base = request.getfixturevalue("pg_url")
        admin = create_engine(normalize_url(base), poolclass=NullPool, isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(text("CREATE DATABASE profiles_store"))
        admin.dispose()
        url = base.rsplit("/", 1)[0] + "/profiles_store"
    store = Store(url)
    try:
        store.create_profile("p1", "Ana", "a" * 64)
        assert store.profile_by_key("a" * 64) == {"id": "p1", "name": "Ana", "key_hash": "a" * 64}
        assert store.profile_by_key("b" * 64) is None
        now = time.time()
        store.add_link("c" * 64, "p1", "a" * 64, now + 600, now)
        assert store.claim_link("c" * 64, "e" * 64, now) == {"id": "p1", "name": "Ana"}
        assert store.claim_link("c" * 64, "f" * 64, now) is None  # used
        store.add_link("d" * 64, "p1", "e" * 64, now - 1, now)
        assert store.claim_link("d" * 64, "f" * 64, now) is None  # expired
        store.add_link("9" * 64, "p1", "e" * 64, now + 600, now)
        store.add_link("8" * 64, "p1", "a" * 64, now + 600, now)
        assert store.drop_profile_key("p1", "a" * 64)
        assert store.claim_link("8" * 64, "f" * 64, now) is None  # its device is signed out
        assert store.profile_by_key("e" * 64)["id"] == "p1"  # the new device's key
        assert store.profile_by_key("f" * 64) is None
        assert store.claim_link("9" * 64, "f" * 64, now) == {"id": "p1", "name": "Ana"}
        store.rename_profile("p1", "Ana B")
        assert store.profile_by_key("e" * 64)["name"] == "Ana B"
    finally:
        store.close()


def test_link_codes_made_before_they_were_bound_to_a_key_are_dropped_by_the_upgrade(tmp_path):
    """Migration 0008_link_keys: an unbound code cannot be tied to the device that made it,
    so it goes (codes last ten minutes); profiles and keys stay."""
    from sqlalchemy import create_engine, func, inspect, text

    from bonepile.web.store import migrations
    from bonepile.web.store.database import Store

    url = f"sqlite:///{tmp_path}/old.db"
    engine = create_engine(url)
    migrations.upgrade(engine, "0007_analyses")
    with engine.begin() as c:
        c.execute(text("INSERT INTO profiles (id, name, created) VALUES ('p1', 'Ana', 1.0)"))
        c.execute(
            text("INSERT INTO profile_keys (key_hash, profile_id, created) VALUES (:k, 'p1', 1.0)"),
            {"k": "a" * 64},
        )
        c.execute(
            text(
                "INSERT INTO profile_links (code_hash, profile_id, expires, used) VALUES (:c, 'p1', :e, false)"
            ),
            {"c": "c" * 64, "e": time.time() + 600},
        )
    engine.dispose()
    store = Store(url)
    try:
        assert "key_hash" in {col["name"] for col in inspect(store.engine).get_columns("profile_links")}
        with store.engine.connect() as c:
            assert c.execute(select(func.count()).select_from(profile_links_t)).scalar() == 0
        assert store.profile_by_key("a" * 64) == {"id": "p1", "name": "Ana", "key_hash": "a" * 64}
        assert store.claim_link("c" * 64, "f" * 64, time.time()) is None
    finally:
        store.close()
