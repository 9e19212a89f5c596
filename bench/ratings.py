"""What rating a game and reading a leaderboard cost: N finished rated 4-player Cinque tables
(partnerships) among P profiles and the bot levels, each rated as the server rates it
(``ratings_store.rate_table``, one transaction), then ``GET /api/ratings/cinque-4`` and
``GET /api/ratings/cinque-4/<participant>`` answered by the app in this process
(Starlette's test client: the route, the query and the JSON, no network).

    PYTHONPATH=src python bench/ratings.py [--games 10000] [--profiles 1000] [--requests 500]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def main() -> None:
    from fastapi.testclient import TestClient

    from bonepile.web.app import create_app
    from bonepile.web.store import ratings as rs
    from bonepile.web.store.database import Store, TableRow

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--profiles", type=int, default=1000)
    ap.add_argument("--requests", type=int, default=500)
    args = ap.parse_args()
    rng = random.Random(1)
    levels = ["beginner", "casual", "strong", "expert"]
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/db"
        store = Store(db)
        rs.ensure_tables(store.engine)
        t0 = time.perf_counter()
        for n in range(args.games):
            seats = []
            for _ in range(4):
                if rng.random() < 0.7:
                    p = rng.randrange(args.profiles)
                    seats.append(
                        {
                            "name": f"P{p}",
                            "kind": "human",
                            "level": None,
                            "token_hash": "x",
                            "profile": f"p{p}",
                        }
                    )
                else:
                    seats.append(
                        {"name": "bot", "kind": "bot", "level": rng.choice(levels), "token_hash": None}
                    )
            if not any(s["kind"] == "human" for s in seats):
                seats[0] = {"name": "P0", "kind": "human", "level": None, "token_hash": "x", "profile": "p0"}
            tid = f"t{n}"
            store.create_table(
                TableRow(
                    tid, time.time(), "bench", "cinque", {}, n, seats, {"timer": 0, "rated": True}, "over"
                )
            )
            winner = rng.randrange(2)
            totals = [100, rng.randrange(100)] if winner == 0 else [rng.randrange(100), 100]
            rs.rate_table(store.engine, tid, rs.Outcome("cinque", 4, [[0, 2], [1, 3]], totals, winner))
        rate_ms = (time.perf_counter() - t0) * 1000 / args.games
        store.close()
        app = create_app(db, bot_processes=False)
        with TestClient(app) as client:
            board = client.get("/api/ratings/cinque-4").json()["ratings"]
            who = [e["participant"] for e in board] or ["bot:expert"]
            times: dict[str, list[float]] = {"leaderboard": [], "one": []}
            for i in range(args.requests):
                for kind, path in (
                    ("leaderboard", "/api/ratings/cinque-4"),
                    ("one", f"/api/ratings/cinque-4/{who[i % len(who)]}"),
                ):
                    s = time.perf_counter()
                    r = client.get(path)
                    times[kind].append((time.perf_counter() - s) * 1000)
                    assert r.status_code == 200, r.text
    out = {
        "games": args.games,
        "profiles": args.profiles,
        "rate_one_game_ms": round(rate_ms, 2),
        "on_leaderboard": len(board),
    }
    for kind, xs in times.items():
        out[f"{kind}_p50_ms"] = round(pct(xs, 50), 2)
        out[f"{kind}_p99_ms"] = round(pct(xs, 99), 2)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
