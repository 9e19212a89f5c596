"""The leaderboard page and its names: a profile's current name is shown (looked up in one
query, so a rename shows at once), a bot has none (the page shows its level's words)."""

from __future__ import annotations

import time

from sqlalchemy import insert

from bonepile.web.store import ratings as rs
from webutil import InProcess


def seed(s: InProcess, game: str, rows: list[tuple[str, float, float, int, str | None]]) -> None:
    """Rating rows (participant, mu, sigma, games, name at its last seat) for ``game``."""
    with s.server.store.engine.begin() as c:
        for participant, mu, sigma, games, name in rows:
            c.execute(
                insert(rs.ratings_t).values(
                    participant=participant,
                    game=game,
                    mu=mu,
                    sigma=sigma,
                    games=games,
                    name=name,
                    updated=time.time(),
                )
            )


def test_the_names_lookup_gives_current_names_in_one_query(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000) as s:
        store = s.server.store
        store.create_profile("aa", "Ana", "h1")
        store.create_profile("bb", "Bo", "h2")
        assert rs.profile_names(store.engine, ["aa", "bb", "zz", "aa"]) == {"aa": "Ana", "bb": "Bo"}
        assert rs.profile_names(store.engine, []) == {}


def test_a_renamed_profile_shows_its_new_name_on_the_leaderboard(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000) as s:
        s.server.store.create_profile("aa", "Ana", "h1")
        seed(
            s,
            "block-2",
            [
                ("profile:aa", 32.0, 2.0, 12, "Ana"),
                ("bot:strong", 28.0, 1.0, 40, None),
                ("profile:gone", 20.0, 3.0, 11, "Old name"),  # a profile no longer stored
                ("profile:new", 40.0, 2.0, 3, "Newbie"),  # provisional: not listed
            ],
        )
        s.server.store.rename_profile("aa", "Ana María")
        board = s.get("/api/ratings/block-2").json()
        got = [(e["participant"], e["name"], e["games"]) for e in board["ratings"]]
        assert got == [
            ("profile:aa", "Ana María", 12),
            ("bot:strong", None, 40),
            ("profile:gone", "Old name", 11),
        ]
        one = s.get("/api/ratings/block-2/profile:aa").json()
        assert one["name"] == "Ana María" and one["rating"] == 1706  # 1500 + 29.48 * (32 - 25)


def test_the_leaderboard_page_is_served(tmp_path):
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000) as s:
        r = s.get("/leaderboard")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/leaders.js">' in r.text
        assert s.get("/static/leaders.js").status_code == 200
        lobby = s.get("/").text
        assert 'href="/leaderboard"' in lobby and 'id="rated"' in lobby


def test_every_game_the_page_offers_has_a_board(tmp_path):
    """The page builds its choices from the catalogue: each one is a game the ratings know."""
    with InProcess(f"sqlite:///{tmp_path}/db", grace=1000) as s:
        offered = [(v["name"], n) for v in s.get("/api/variants").json()["variants"] for n in v["players"]]
        assert offered
        for name, n in offered:
            r = s.get(f"/api/ratings/{name}-{n}")
            assert r.status_code == 200, (name, n, r.text)
            assert r.json()["ratings"] == []
