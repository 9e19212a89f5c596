"""Issue 27, item 12: who may take a free seat.  A listed table's free seats are open to the
public (that is what listing a table is for); a seat its creator kept for a profile
(``"for": <profile id>``) is taken only with that profile's key; a private table's seats only
with its invite link.  Refusals change nothing."""

from __future__ import annotations

import pytest

from webutil import InProcess


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    db = tmp_path_factory.mktemp("kept") / "db"
    with InProcess(f"sqlite:///{db}", grace=1000, hand_pause=1000) as s:
        yield s


def test_a_seat_kept_for_a_profile_is_taken_only_by_it(srv):
    with srv.client() as c:
        ana, ben, eve = (c.post("/api/profiles", json={"name": n}).json() for n in ("Ana", "Ben", "Eve"))
        seats = [{"kind": "human"}, {"kind": "human", "for": ben["id"]}, {"kind": "human"}]
        made = c.post(
            "/api/tables", json={"variant": "block", "players": 3, "seats": seats}, headers=auth(ana["key"])
        ).json()
        tid = made["id"]
        info = c.get(f"/api/tables/{tid}").json()
        kept = info["seats"][1]
        assert (kept["claimed"], kept["profile"], kept["name"]) == (False, ben["id"], "Ben")
        assert tid in [x["id"] for x in c.get("/api/tables").json()["tables"]]  # still listed
        # a stranger, with or without a profile, cannot take Ben's seat...
        for headers in ({}, auth(eve["key"])):
            r = c.post(f"/api/tables/{tid}/join", json={"seat": 1}, headers=headers)
            assert r.status_code == 403 and r.json()["code"] == "seat_reserved", r.text
        assert c.get(f"/api/tables/{tid}").json()["seats"][1]["claimed"] is False
        # ...but the open seat is anyone's: a join without a seat number gets it, not Ben's
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Cy"})
        assert r.status_code == 200 and r.json()["seat"] == 2, r.text
        r = c.post(f"/api/tables/{tid}/join", json={})  # only Ben's seat is left
        assert r.status_code == 403 and r.json()["code"] == "seat_reserved"
        r = c.post(f"/api/tables/{tid}/join", json={}, headers=auth(ben["key"]))
        assert r.status_code == 200 and r.json()["seat"] == 1 and r.json()["token"], r.text
        after = c.get(f"/api/tables/{tid}").json()
        assert after["status"] == "playing" and after["seats"][1]["profile"] == ben["id"]


def test_a_seat_is_kept_only_for_a_profile_that_exists_and_never_the_creators(srv):
    with srv.client() as c:
        for seats, code in [
            ([{"kind": "human"}, {"kind": "human", "for": "0" * 16}], "no_profile"),
            ([{"kind": "human"}, {"kind": "human", "for": "not a profile!"}], "bad_request"),
            ([{"kind": "human", "for": "0" * 16}, {"kind": "human"}], "bad_request"),
        ]:
            before = len(srv.server.tables)
            r = c.post("/api/tables", json={"variant": "block", "players": 2, "seats": seats})
            assert r.status_code == 400 and r.json()["code"] == code, r.text
            assert len(srv.server.tables) == before


def test_a_kept_seat_nobody_took_is_a_bots_when_the_game_starts(srv):
    with srv.client() as c:
        ben = c.post("/api/profiles", json={"name": "Ben"}).json()
        seats = [{"kind": "human"}, {"kind": "human", "for": ben["id"]}]
        made = c.post("/api/tables", json={"variant": "block", "players": 2, "seats": seats}).json()
        c.post(f"/api/tables/{made['id']}/start", json={"token": made["token"]})
        seat = c.get(f"/api/tables/{made['id']}").json()["seats"][1]
        assert (seat["kind"], seat["profile"]) == ("bot", None)  # the game is not counted as Ben's
