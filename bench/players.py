"""What the players' pages cost with 10,000 stored finished games: the lobby's list
(``GET /api/tables``, 100 open tables whose seated profiles are rated: one ratings query), a
profile's page (``GET /api/profiles/{id}/games``: its history page and stats, read from the
stored results) for a profile with every one of the games and for one with a few hundred,
and a leaderboard (``GET /api/ratings/{game}``, 2,000 rated players), each asked many
times over HTTP on this machine; the median and the 99th percentile are printed.

One real game is played to the end with a profile; its stored rows (table, actions, result,
seats) are copied to make the other finished tables.

    PYTHONPATH=src:tests python bench/players.py [--games 10000] [--requests 300]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]


def timed(c, url: str, n: int, headers: dict | None = None) -> tuple[float, float]:
    """(median, p99) of n requests to url, in ms (after 5 not counted)."""
    for _ in range(5):
        assert c.get(url, headers=headers or {}).status_code == 200
    got = []
    for _ in range(n):
        t0 = time.perf_counter()
        r = c.get(url, headers=headers or {})
        got.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, r.text
    got.sort()
    return got[len(got) // 2], got[min(len(got) - 1, int(len(got) * 0.99))]


def main() -> None:
    from sqlalchemy import insert, select

    from bonepile.web.store.database import actions_t, ratings_t, result_seats_t, results_t, tables_t
    from bonepile.web.store.results import resum
    from test_web_history import auth, make, play
    from webutil import InProcess

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--few", type=int, default=300, help="games of the second profile")
    ap.add_argument("--rated", type=int, default=2_000, help="rated players on the leaderboard")
    ap.add_argument("--requests", type=int, default=300)
    a = ap.parse_args()
    rng = random.Random(1)
    with (
        tempfile.TemporaryDirectory() as tmp,
        InProcess(f"sqlite:///{tmp}/db", grace=1000, hand_pause=0) as s,
    ):
        ana, bea = make(s, "Ana"), make(s, "Bea")
        tid = play(s, ana["key"])
        engine = s.server.store.engine
        t0 = time.perf_counter()
        with engine.begin() as c:
            row = dict(c.execute(select(tables_t).where(tables_t.c.id == tid)).mappings().one())
            res = dict(c.execute(select(results_t).where(results_t.c.table_id == tid)).mappings().one())
            seats = [
                dict(r)
                for r in c.execute(select(result_seats_t).where(result_seats_t.c.table_id == tid)).mappings()
            ]
            acts = [
                dict(r) for r in c.execute(select(actions_t).where(actions_t.c.table_id == tid)).mappings()
            ]
            for i in range(a.games - 1):
                new = f"b{i:011x}"
                who = bea["id"] if i < a.few else ana["id"]
                created = row["created"] - i - 1
                c.execute(
                    insert(tables_t).values(
                        {**row, "id": new, "created": created, "seats": row["seats"].replace(ana["id"], who)}
                    )
                )
                c.execute(insert(actions_t), [{**x, "table_id": new} for x in acts])
                c.execute(insert(results_t).values({**res, "table_id": new, "created": created}))
                c.execute(
                    insert(result_seats_t),
                    [
                        {**x, "table_id": new, "created": created, "profile": who if x["profile"] else None}
                        for x in seats
                    ],
                )
            now = time.time()
            c.execute(
                insert(ratings_t),
                [
                    {
                        "participant": f"profile:{i:032x}",
                        "game": "block-2",
                        "mu": rng.uniform(15, 35),
                        "sigma": rng.uniform(1, 8),
                        "games": rng.randint(1, 60),
                        "name": f"Player {i}",
                        "updated": now,
                    }
                    for i in range(a.rated)
                ],
            )
        resum(engine)  # the profiles' sums, as the migration makes them from the stored results
        made = time.perf_counter() - t0
        # the lobby: 100 open tables, each made by a rated profile of its own
        for i in range(100):
            p = make(s, f"P{i}")
            with engine.begin() as c:
                c.execute(
                    insert(ratings_t).values(
                        participant=f"profile:{p['id']}",
                        game="block-2",
                        mu=25.0,
                        sigma=3.0,
                        games=i,
                        name=p["name"],
                        updated=now,
                    )
                )
            body = {"variant": "block", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            assert s.post("/api/tables", body, headers=auth(p["key"])).status_code == 200
        with s.client() as c:
            listed = c.get("/api/tables").json()["tables"]
            assert len(listed) == 100 and all(t["ratings"][0] for t in listed)
            history = f"/api/profiles/{ana['id']}/games"
            stats = c.get(history, headers=auth(ana["key"])).json()["stats"]
            assert stats["games"] == a.games - a.few, stats
            few = f"/api/profiles/{bea['id']}/games?game=block"
            assert c.get(few).json()["stats"]["games"] == a.few
            board = c.get("/api/ratings/block-2").json()
            assert len(board["ratings"]) == 100
            figures = [
                ("lobby (100 open tables, rated players)", timed(c, "/api/tables", a.requests)),
                (
                    f"profile page ({a.games - a.few} games)",
                    timed(c, history, a.requests, auth(ana["key"])),
                ),
                (f"profile page ({a.few} games, one game)", timed(c, few, a.requests)),
                (f"leaderboard ({a.rated + 100} rated)", timed(c, "/api/ratings/block-2", a.requests)),
            ]
        print(
            f"{a.games} finished games stored ({len(acts)} actions each) in {made:.1f} s; {a.requests} requests each"
        )
        for what, (median, p99) in figures:
            print(f"{what:42s} median {median:6.1f} ms   p99 {p99:6.1f} ms")


if __name__ == "__main__":
    main()
