"""The lobby's open tables carry their seated profiles' ratings (``GET /api/tables``,
docs/PROTOCOL.md ``ListedTable``): per seat the rating at that table's game and player
count, provisional or not, rated and casual tables alike; null for a bot, a free seat, a
person without a profile and a profile not rated at that game.  One query reads them all,
however many tables are listed."""

from __future__ import annotations

import time

from sqlalchemy import event, insert

from bonepile.arena.skill import PROVISIONAL_GAMES
from bonepile.web.store.database import ratings_t
from webutil import InProcess


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def rate(s: InProcess, profile: str, game: str, mu: float, sigma: float, games: int) -> None:
    with s.server.store.engine.begin() as c:
        c.execute(
            insert(ratings_t).values(
                participant=f"profile:{profile}",
                game=game,
                mu=mu,
                sigma=sigma,
                games=games,
                name="x",
                updated=time.time(),
            )
        )


def waiting_table(s: InProcess, key: str | None, variant: str = "block", **extra) -> str:
    body = {"variant": variant, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], **extra}
    r = s.post("/api/tables", body, headers=auth(key) if key else {})
    assert r.status_code == 200, r.text
    return r.json()["id"]


def test_open_tables_show_their_players_ratings_in_one_query(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db") as s:
        ana = s.post("/api/profiles", {"name": "Ana"}).json()
        bea = s.post("/api/profiles", {"name": "Bea"}).json()
        rate(s, ana["id"], "block-2", 30.0, 2.0, PROVISIONAL_GAMES + 2)
        rate(s, ana["id"], "draw-2", 20.0, 5.0, 1)  # another game: not the block table's
        rate(s, bea["id"], "block-2", 26.0, 6.0, 3)
        casual = waiting_table(s, ana["key"])
        rated = waiting_table(s, ana["key"], rated=True)
        with s.client() as c:  # Bea sits at Ana's rated table
            assert (
                c.post(
                    f"/api/tables/{rated}/join", json={"name": "Bea"}, headers=auth(bea["key"])
                ).status_code
                == 200
            )
        unrated = waiting_table(s, bea["key"], "passing")  # Bea has no passing rating
        anonymous = waiting_table(s, None)
        r = s.post(
            "/api/tables",
            {
                "variant": "block",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "casual"}],
            },
            headers=auth(bea["key"]),
        )
        with_bot = r.json()["id"]

        statements: list[str] = []

        def seen(_conn, _cursor, sql, *_rest):
            statements.append(sql)

        event.listen(s.server.store.engine, "before_cursor_execute", seen)
        try:
            listed = {t["id"]: t for t in s.get("/api/tables").json()["tables"]}
        finally:
            event.remove(s.server.store.engine, "before_cursor_execute", seen)
        assert sum("FROM ratings" in q for q in statements) == 1 and len(statements) == 1

        ana_block = {"rating": 1647, "games": PROVISIONAL_GAMES + 2, "provisional": False}
        bea_block = {"rating": 1529, "games": 3, "provisional": True}
        assert listed[casual]["ratings"] == [ana_block, None]  # a casual table shows them too
        assert listed[rated]["ratings"] == [ana_block, bea_block]
        assert listed[unrated]["ratings"] == [None, None]
        assert listed[anonymous]["ratings"] == [None, None]
        assert listed[with_bot]["ratings"] == [bea_block, None]
        # everything else of the table info is as before
        info = s.info(casual)
        assert {k: v for k, v in listed[casual].items() if k != "ratings"} == info


def test_a_list_without_profiles_asks_nothing_of_the_storage(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db") as s:
        tid = waiting_table(s, None)
        statements: list[str] = []
        engine = s.server.store.engine

        def seen(_conn, _cursor, sql, *_rest):
            statements.append(sql)

        event.listen(engine, "before_cursor_execute", seen)
        try:
            tables = s.get("/api/tables").json()["tables"]
        finally:
            event.remove(engine, "before_cursor_execute", seen)
        assert [t["id"] for t in tables] == [tid] and tables[0]["ratings"] == [None, None]
        assert statements == []


def test_the_list_is_given_without_ratings_when_the_storage_fails(tmp_path, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from bonepile.web.routes import lobby as lobby_ratings

    def broken(*_a):
        raise OperationalError("SELECT", {}, Exception("disk I/O error"))

    with InProcess(f"sqlite:///{tmp_path}/db") as s:
        ana = s.post("/api/profiles", {"name": "Ana"}).json()
        rate(s, ana["id"], "block-2", 30.0, 2.0, 20)
        tid = waiting_table(s, ana["key"])
        assert s.get("/api/tables").json()["tables"][0]["ratings"][0]["games"] == 20
        monkeypatch.setattr(lobby_ratings, "ratings_of", broken)
        r = s.get("/api/tables")
        assert r.status_code == 200
        assert [(t["id"], t["ratings"]) for t in r.json()["tables"]] == [(tid, [None, None])]
