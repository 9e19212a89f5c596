"""Issue 13, finding 2: tables are not unlimited and abandoned ones are not played forever.
Creation is rate-limited per client address, waiting tables expire, the lobby's list builds
only the tables it shows, a table with no person connected pauses its bots, and ``target``
has a maximum per game."""

from __future__ import annotations

import time

import pytest

from bonepile.web.play.table import LiveTable
from webutil import InProcess, Sock, run, wait_until

BOTS3 = [{"kind": "bot", "level": "random"}] * 3


def test_creating_tables_is_rate_limited_per_address(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", create_rate=5) as srv:
        codes = [srv.post("/api/tables", {"variant": "block", "players": 2}).status_code for _ in range(10)]
        assert codes == [200] * 10  # a burst of twice the rate a minute
        r = srv.post("/api/tables", {"variant": "block", "players": 2})
        assert r.status_code == 429
        assert "too many tables created from your address" in r.json()["error"]
        assert len(srv.server.tables) == 10


def test_a_waiting_table_expires(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", table_ttl=1.0) as srv:
        made = srv.create({"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2})
        tid = made["id"]
        assert srv.info(tid)["status"] == "waiting"
        wait_until(lambda: tid not in srv.server.tables, 20, "the waiting table to expire")
        assert srv.info(tid)["status"] == "over"  # stored as over, no winner
        assert srv.server.store.load(tid).status == "over"
        assert tid not in [x["id"] for x in srv.get("/api/tables").json()["tables"]]
        r = srv.post(f"/api/tables/{tid}/join", {"name": "late"})
        assert r.status_code == 404 and "error" in r.json()


@pytest.mark.slow
def test_the_table_list_builds_only_the_tables_it_shows(tmp_path, monkeypatch):
    with InProcess(f"sqlite:///{tmp_path}/db", create_rate=10_000) as srv:
        ids = [
            srv.create({"variant": "block", "players": 2, "seats": [{"kind": "human"}] * 2})["id"]
            for _ in range(130)
        ]
        built = []
        real = LiveTable.info

        def counting(self):
            built.append(self.id)
            return real(self)

        monkeypatch.setattr(LiveTable, "info", counting)
        listed = srv.get("/api/tables").json()["tables"]
        assert [x["id"] for x in listed] == ids[::-1][:100]  # the newest first
        assert len(built) == 100


def test_a_table_with_no_person_connected_pauses_its_bots(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=0.3) as srv:
        made = srv.create({"variant": "draw", "players": 4, "seats": [{"kind": "human"}] + BOTS3})
        t = srv.server.tables[made["id"]]
        time.sleep(2.0)  # well past the grace period: nobody ever connected
        assert t.seq == 0, f"{t.seq} actions were played at a table nobody is at"
        assert not t.seats[0].bot_playing

        async def go():
            s = await Sock.open(srv.ws, made["id"], made["token"])
            st = await s.state(
                lambda m: m["view"] is not None and (m["seq"] > 0 or m["view"]["to_move"] == 0)
            )  # the person came: play goes on
            assert st["you"] == 0
            await s.close()

        run(go(), 60)


def test_target_has_a_maximum_per_game(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db") as srv:
        for variant, top in [("draw", 1000), ("quinientos", 5000)]:
            r = srv.post("/api/tables", {"variant": variant, "options": {"target": 10**40}})
            assert r.status_code == 400
            assert r.json()["error"] == (
                f"option target must be an integer from 1 to {top} for {variant} "
                f"(on this server), not {10**40}"
            )
            assert (
                srv.post("/api/tables", {"variant": variant, "options": {"target": top}}).status_code == 200
            )
