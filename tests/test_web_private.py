"""Issue 13, finding 10: every waiting table was public and its seats could be squatted.  A
private table is not listed and its seats are joined only with the secret of its invite link."""

from __future__ import annotations

import sqlite3
from urllib.parse import parse_qs, urlsplit

import pytest

from webutil import InProcess, Sock, run

PEOPLE3 = {"variant": "block", "players": 3, "seats": [{"kind": "human"}] * 3}


def _secret(invite: str) -> str:
    parts = urlsplit(invite)
    return parse_qs(parts.query)["invite"][0]


def test_a_private_table_is_unlisted_and_joined_only_with_its_invite(tmp_path):
    url = f"sqlite:///{tmp_path}/db"
    with InProcess(url) as srv:
        public = srv.create(PEOPLE3)
        made = srv.create({**PEOPLE3, "private": True})
        tid = made["id"]
        assert made["private"] is True and public["private"] is False
        assert public["invite"] == f"/t/{public['id']}"
        assert urlsplit(made["invite"]).path == f"/t/{tid}"
        secret = _secret(made["invite"])
        assert len(secret) >= 22  # 144 random bits
        assert [t["id"] for t in srv.get("/api/tables").json()["tables"]] == [public["id"]]
        assert srv.info(tid)["private"] is True and srv.info(public["id"])["private"] is False

        for body, words in [
            ({"name": "Sam"}, "this table is private: only its invite link lets you join or watch it"),
            ({"name": "Sam", "invite": ""}, "only its invite link lets you"),
            ({"name": "Sam", "invite": 5}, "only its invite link lets you"),
            ({"name": "Sam", "invite": "x" * 1000}, "only its invite link lets you"),
            (
                {"name": "Sam", "invite": secret[:-1] + ("A" if secret[-1] != "A" else "B")},
                "not this table's",
            ),
            (
                {"name": "Sam", "invite": _secret(srv.create({**PEOPLE3, "private": True})["invite"])},
                "not this",
            ),
        ]:
            r = srv.post(f"/api/tables/{tid}/join", body)
            assert r.status_code == 403 and words in r.json()["error"], (body, r.text)
        assert [s["claimed"] for s in srv.info(tid)["seats"]] == [True, False, False]
        j = srv.post(f"/api/tables/{tid}/join", {"name": "Sam", "invite": secret})
        assert j.status_code == 200 and j.json()["seat"] == 1
        # a public table needs no invite (and ignores one)
        assert srv.post(f"/api/tables/{public['id']}/join", {"name": "Ann"}).status_code == 200
        assert srv.post(f"/api/tables/{public['id']}/join", {"name": "Bo", "invite": "x"}).status_code == 200

        async def watch():  # a spectator (no seat token) needs the secret too
            for query in ("", "?invite=wrong"):
                s = await Sock.open(srv.ws, tid + query, None)
                msg = await s.recv()
                assert msg["type"] == "error" and "private" in msg["message"], msg
                await s.ws.wait_closed()
                assert s.ws.close_code == 4403
            s = await Sock.open(srv.ws, tid + f"?invite={secret}", None)
            st = await s.state()
            assert st["you"] is None and st["table"]["id"] == tid
            await s.close()
            s = await Sock.open(srv.ws, public["id"], None)  # a public table: anyone may watch
            assert (await s.state())["table"]["id"] == public["id"]
            await s.close()

        run(watch(), 60)
        r = srv.post("/api/tables", {**PEOPLE3, "private": "yes"})
        assert r.status_code == 400 and '"private" must be true' in r.json()["error"]

    # only the secret's hash is stored; after a restart the table is still private
    with sqlite3.connect(tmp_path / "db") as c:
        dump = "\n".join(c.iterdump())
    assert secret not in dump
    with InProcess(url) as srv:
        assert tid not in [t["id"] for t in srv.get("/api/tables").json()["tables"]]
        assert srv.post(f"/api/tables/{tid}/join", {"name": "Kim"}).status_code == 403
        j = srv.post(f"/api/tables/{tid}/join", {"name": "Kim", "invite": secret})
        assert j.status_code == 200 and j.json()["seat"] == 2
        assert srv.info(tid)["status"] == "playing"


@pytest.mark.browser
def test_the_lobby_checkbox_makes_a_private_table_and_its_link_lets_a_friend_in(tmp_path):
    import shutil

    import pytest

    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
    if shutil.which("chromium") is None:
        pytest.skip("no chromium on PATH")
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    with InProcess(f"sqlite:///{tmp_path}/db") as srv, sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=shutil.which("chromium"), args=args)
        try:
            page = b.new_context(viewport={"width": 1280, "height": 860}, bypass_csp=True).new_page()
            page.goto(srv.http + "/")
            page.wait_for_selector("body[data-ready='1']")
            box = page.locator("#private")
            assert (
                page.locator("label.private-check").inner_text().strip() == "Private table (invite link only)"
            )
            page.fill("#name", "Ana")
            page.select_option("#variant", "block")
            page.select_option("#players", "2")
            page.select_option("#seat-1", "human")
            box.check()
            page.locator("#create").scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / "lobby-private.png"))
            page.click("#create")
            page.wait_for_url("**/t/*?invite=*")
            table_id = urlsplit(page.url).path.split("/")[-1]
            page.wait_for_selector("body[data-phase='waiting']")
            link = page.input_value("#invite")
            assert link == srv.http + urlsplit(page.url).path + "?" + urlsplit(page.url).query
            assert srv.info(table_id)["private"] is True
            assert srv.get("/api/tables").json()["tables"] == []
            friend = b.new_context(bypass_csp=True).new_page()
            # without the secret the join is refused with the server's words
            friend.goto(srv.http + f"/t/{table_id}")
            friend.wait_for_selector("#join:not([hidden])")
            friend.fill("#join-name", "Bo")
            friend.click("#join-form button[type=submit]")
            friend.wait_for_function("document.getElementById('alert').textContent.includes('private')")
            # with the invite link the friend sits down and play starts
            friend.goto(link)
            friend.wait_for_selector("#join:not([hidden])")
            friend.fill("#join-name", "Bo")
            friend.click("#join-form button[type=submit]")
            friend.wait_for_selector("body[data-conn='1']")
            page.wait_for_function("document.body.dataset.phase !== 'waiting'")
            assert [s["name"] for s in srv.info(table_id)["seats"]] == ["Ana", "Bo"]
        finally:
            b.close()
