"""The ratings people see on the server: a table's seats with the change the game made once it
is rated (``GET /api/tables/{id}/ratings``, the seat labels and the game-over banner), and a
profile's rating per game over time (``GET /api/profiles/{id}/ratings``, the graphs of /me)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bonepile.arena.skill import Rating, shown
from bonepile.web.server import Server
from bonepile.web.store import ratings as rs
from test_web_ratings import _play
from webutil import InProcess

PROFILE = "p1"


@pytest.fixture
def profiled(monkeypatch):
    real = Server.create

    async def create(self, body, address="", profile=None):
        return await real(self, body, address, profile or {"id": PROFILE, "name": "Pat"})

    monkeypatch.setattr(Server, "create", create)


def test_a_rated_table_tells_each_seat_its_rating_and_change_and_the_profile_its_history(tmp_path, profiled):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000, hand_pause=0) as s:
        s.server.store.create_profile(PROFILE, "Pat", "h1")
        first = _play(s, rated=True)
        second = _play(s, rated=True)
        casual = _play(s, rated=False)
        with s.server.store.engine.connect() as c:
            hist = c.execute(
                select(rs.rating_history_t)
                .where(rs.rating_history_t.c.participant == f"profile:{PROFILE}")
                .order_by(rs.rating_history_t.c.at)
            ).all()
        assert [h.table_id for h in hist] == [first, second] and [h.games for h in hist] == [1, 2]
        after = [shown(Rating(h.mu, h.sigma)) for h in hist]
        changes = [after[0] - 1500, after[1] - after[0]]
        # the first game's won or lost points are its change, from 1500
        for tid, rating, change, games in [
            (first, after[0], changes[0], 1),
            (second, after[1], changes[1], 2),
        ]:
            body = s.get(f"/api/tables/{tid}/ratings").json()
            assert body["table"] == tid and body["game"] == "block-2" and body["rated"] and body["done"]
            assert body["seats"][0] == {
                "rating": rating,
                "games": games,
                "provisional": True,
                "change": change,
            }
            assert body["seats"][1] is None  # a bot's seat: no person's rating
            info = s.info(tid)
            won = info["winner"] == 0
            assert change > 0 if won else change < 0 if info["winner"] == 1 else True
        # a casual table: the rating now, no change
        body = s.get(f"/api/tables/{casual}/ratings").json()
        assert (body["rated"], body["done"]) == (False, False)
        assert body["seats"][0] == {"rating": after[1], "games": 2, "provisional": True, "change": None}
        # the profile's history: one game key, two points, the change of each
        h = s.get(f"/api/profiles/{PROFILE}/ratings").json()
        assert h["participant"] == f"profile:{PROFILE}" and h["most_played"] == "block-2"
        (series,) = h["games"]
        assert (series["game"], series["variant"], series["players"]) == ("block-2", "block", 2)
        assert (series["rating"], series["games"], series["provisional"]) == (after[1], 2, True)
        assert [(p["table"], p["rating"], p["change"]) for p in series["points"]] == [
            (first, after[0], changes[0]),
            (second, after[1], changes[1]),
        ]
        for path, code in [
            ("/api/profiles/nobody/ratings", "no_profile"),
            ("/api/profiles/a%20b/ratings", "no_profile"),
            ("/api/tables/nope/ratings", "no_table"),
        ]:
            r = s.get(path)
            assert r.status_code == 404 and r.json()["code"] == code, (path, r.text)


def test_a_table_of_people_filled_with_bots_is_casual_unless_asked(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000) as s:
        out = []
        for extra in [{}, {"rated_bots": True}]:
            made = s.create(
                {
                    "variant": "block",
                    "players": 2,
                    "seats": [{"kind": "human"}, {"kind": "human"}],
                    "rated": True,
                    **extra,
                }
            )
            assert s.info(made["id"])["rated"] is True
            r = s.post(f"/api/tables/{made['id']}/start", {"token": made["token"]})
            assert r.status_code == 200, r.text
            out.append((r.json()["rated"], s.info(made["id"])["rated"]))
            with s.server.store.engine.connect() as c:
                stored = c.execute(
                    select(rs.tables_t.c.settings).where(rs.tables_t.c.id == made["id"])
                ).scalar()
            out.append('"rated": true' in stored)
        assert out == [(False, False), False, (True, True), True]
        bad = s.post("/api/tables", {"variant": "block", "players": 2, "rated_bots": 1})
        assert bad.status_code == 400 and '"rated_bots" must be true' in bad.json()["error"]
