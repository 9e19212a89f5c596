"""Issue 13, finding 10: every waiting table was public and its seats could be squatted.  A
private table is not listed and its seats are joined only with the secret of its invite link."""

from __future__ import annotations

import sqlite3
from urllib.parse import parse_qs, urlsplit

from webutil import InProcess

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
            ({"name": "Sam"}, "this table is private: it can be joined only with its invite link"),
            ({"name": "Sam", "invite": ""}, "only with its invite link"),
            ({"name": "Sam", "invite": 5}, "only with its invite link"),
            ({"name": "Sam", "invite": "x" * 1000}, "only with its invite link"),
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
