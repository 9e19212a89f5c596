"""Ratings on the server: a finished rated table is rated once (also across a restart and a
failure before its commit), casual tables never, and the leaderboard routes."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import delete, insert, select

from bonepile.arena.skill import Rating, shown
from bonepile.web.server import Server
from bonepile.web.store import ratings as rs
from webutil import Driver, InProcess, run

PROFILE = "p1"


@pytest.fixture
def profiled(monkeypatch):
    """The creator of every new table plays as the profile PROFILE (as if the request had
    carried that profile's key)."""
    real = Server.create

    async def create(self, body, address="", profile=None):
        return await real(self, body, address, profile or {"id": PROFILE, "name": "Pat"})

    monkeypatch.setattr(Server, "create", create)


def _play(s: InProcess, rated: bool) -> str:
    made = s.create(
        {
            "variant": "block",
            "players": 2,
            "options": {"target": 1},
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "casual"}],
            "rated": rated,
        }
    )
    d = Driver(s.ws, made["id"], {made["seat"]: made["token"]})

    async def go():
        try:
            await d.play_out(timeout=120)
        finally:
            await d.close()

    run(go())
    return made["id"]


def _rows(s: InProcess) -> list:
    with s.server.store.engine.connect() as c:
        return c.execute(select(rs.ratings_t).order_by(rs.ratings_t.c.participant)).all()


def _rated(s: InProcess) -> list[str]:
    with s.server.store.engine.connect() as c:
        return [r.table_id for r in c.execute(select(rs.rated_games_t)).all()]


def test_a_finished_rated_table_is_rated_once_as_openskill_rates_it(tmp_path, profiled):
    db = f"sqlite:///{tmp_path}/db"
    with InProcess(db, grace=1000, hand_pause=0) as s:
        tid = _play(s, rated=True)
        # the rating is committed before the last move is announced: play_out saw the end after it
        info = s.info(tid)
        assert info["status"] == "over" and info["rated"] is True
        rows = _rows(s)
        assert _rated(s) == [tid]
    m = PlackettLuce()
    winner = info["winner"]
    ranks = [1.0 if winner == i else 2.0 for i in range(2)] if winner is not None else [1.0, 1.0]
    if winner is None and info["totals"][0] != info["totals"][1]:
        ranks = [1.0 if info["totals"][i] > info["totals"][1 - i] else 2.0 for i in range(2)]
    want = m.rate([[m.rating()], [m.rating()]], ranks=ranks)
    got = {r.participant: (r.mu, r.sigma, r.games) for r in rows}
    assert got == {
        f"profile:{PROFILE}": (want[0][0].mu, want[0][0].sigma, 1),
        "bot:casual": (want[1][0].mu, want[1][0].sigma, 1),
    }
    # a restart rates nothing again
    with InProcess(db, grace=1000) as s:
        assert _rated(s) == [tid]
        assert {r.participant: (r.mu, r.sigma, r.games) for r in _rows(s)} == got
        one = s.get(f"/api/ratings/block-2/profile:{PROFILE}")
        assert one.status_code == 200, one.text
        body = one.json()
        assert body["games"] == 1 and body["provisional"] is True and body["name"] == "Pat"
        assert body["rating"] == shown(Rating(body["mu"], body["sigma"]))
        # provisional players are not on the leaderboard yet
        assert s.get("/api/ratings/block-2").json()["ratings"] == []


def test_a_game_whose_rating_failed_is_rated_at_the_next_start(tmp_path, profiled, monkeypatch):
    db = f"sqlite:///{tmp_path}/db"
    real = rs.rate_table

    def fails(*a, **kw):
        raise RuntimeError("the server stopped here")

    monkeypatch.setattr(rs, "rate_table", fails)
    with InProcess(db, grace=1000, hand_pause=0) as s:
        tid = _play(s, rated=True)
        assert s.info(tid)["status"] == "over"
        assert _rated(s) == [] and _rows(s) == []
    monkeypatch.setattr(rs, "rate_table", real)
    with InProcess(db, grace=1000) as s:
        assert _rated(s) == [tid]
        assert sorted((r.participant, r.games) for r in _rows(s)) == [
            ("bot:casual", 1),
            (f"profile:{PROFILE}", 1),
        ]
    with InProcess(db, grace=1000) as s:  # and only once
        assert [r.games for r in _rows(s)] == [1, 1]


def test_casual_tables_and_seats_without_a_profile_are_not_rated(tmp_path, profiled, monkeypatch):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000, hand_pause=0) as s:
        casual = _play(s, rated=False)
        monkeypatch.undo()  # no profile at the person's seat (as today, before profiles)
        no_profile = _play(s, rated=True)
        assert s.info(casual)["status"] == "over" and s.info(no_profile)["status"] == "over"
        assert s.info(casual)["rated"] is False and s.info(no_profile)["rated"] is True
        assert _rated(s) == [] and _rows(s) == []
        bad = s.post("/api/tables", {"variant": "block", "players": 2, "rated": "yes"})
        assert bad.status_code == 400 and '"rated" must be true' in bad.json()["error"]


def test_the_leaderboard_orders_by_the_rating_shown_and_the_errors(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db") as s:
        rows = [  # participant, mu, sigma, games: shown 1500 + 29.48 (mu - 25)
            ("profile:a", 30.0, 5.0, 12),  # 1647
            ("profile:b", 26.0, 2.0, 40),  # 1529
            ("profile:c", 40.0, 3.0, 9),  # 1942 but provisional
            ("bot:expert", 28.0, 1.0, 500),  # 1588
            ("profile:d", 26.0, 3.0, 10),  # 1529, ties with b: by id
        ]
        with s.server.store.engine.begin() as c:
            c.execute(delete(rs.ratings_t))
            c.execute(
                insert(rs.ratings_t),
                [
                    {
                        "participant": p,
                        "game": "cinque-4",
                        "mu": mu,
                        "sigma": sg,
                        "games": n,
                        "name": p[-1],
                        "updated": 0.0,
                    }
                    for p, mu, sg, n in rows
                ],
            )
            c.execute(
                insert(rs.ratings_t).values(
                    participant="profile:a",
                    game="draw-4",
                    mu=50.0,
                    sigma=1.0,
                    games=99,
                    name="a",
                    updated=0.0,
                )
            )
        r = s.get("/api/ratings/cinque-4")
        assert r.status_code == 200, r.text
        board = r.json()
        assert (board["game"], board["variant"], board["players"], board["provisional_games"]) == (
            "cinque-4",
            "cinque",
            4,
            10,
        )
        assert [e["participant"] for e in board["ratings"]] == [
            "profile:a",
            "bot:expert",
            "profile:b",
            "profile:d",
        ]
        assert [e["rating"] for e in board["ratings"]] == [1647, 1588, 1529, 1529]
        assert board["ratings"][1]["name"] is None  # a bot: the client names its level
        assert board["ratings"][0]["name"] == "a"
        assert not any(e["provisional"] for e in board["ratings"])
        c_ = s.get("/api/ratings/cinque-4/profile:c").json()
        assert (c_["games"], c_["provisional"], c_["rating"]) == (9, True, 1942)
        assert s.get("/api/ratings/draw-3").json()["ratings"] == []  # a game nobody played yet
        for path, status, words in [
            ("/api/ratings/chess-2", 404, "no game 'chess-2'"),
            ("/api/ratings/quinientos-2", 404, "no game 'quinientos-2'"),
            ("/api/ratings/draw", 400, "a game is written <game>-<players>"),
            ("/api/ratings/DRAW-4", 400, "a game is written"),
            ("/api/ratings/cinque-4/profile:zz", 404, "profile:zz has no rating at cinque-4"),
            ("/api/ratings/cinque-4/someone", 400, "a participant is written profile:<id> or bot:<level>"),
            ("/api/ratings/chess-2/profile:a", 404, "no game"),
        ]:
            r = s.get(path)
            assert r.status_code == status, (path, r.text)
            assert words in r.json()["error"], (path, r.text)
