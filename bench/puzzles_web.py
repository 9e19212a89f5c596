"""What the puzzles' HTTP answers cost on the server, beside a route that does next to nothing
(``GET /api/variants``, served from a cache): the overview, the next puzzle near a rating, a
puzzle by id, and a move judged (right and wrong), each asked N times in a row over HTTP from
one client, with a profile; the shipped set.  Median and 95th percentile per answer, and the
ratio of the median to the baseline's.

    PYTHONPATH=src python bench/puzzles_web.py [--n 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200, help="requests per answer measured")
    args = ap.parse_args()

    from bonepile.puzzles.store import load
    from bonepile.web.routes.puzzles import legal_tokens, move_of, move_token
    from webutil import InProcess

    puzzles = load()
    with tempfile.TemporaryDirectory() as tmp, InProcess(f"sqlite:///{tmp}/b.db") as srv:
        with srv.client() as c:
            key = c.post("/api/profiles", json={"name": "Bench"}).json()["key"]
            auth = {"Authorization": f"Bearer {key}"}
            t0 = time.perf_counter()
            c.get("/api/puzzles", headers=auth)
            first = time.perf_counter() - t0

            def timed(fn) -> list[float]:
                out = []
                for i in range(args.n):
                    t = time.perf_counter()
                    r = fn(i)
                    out.append(time.perf_counter() - t)
                    assert r.status_code == 200, r.text
                return out

            def answer(i: int, right: bool):
                p = puzzles[i % len(puzzles)]
                view = p.steps[0].view
                sol = move_token(view, move_of(view, p.steps[0].solution))
                other = [t for t in legal_tokens(view) if t != sol]
                mv = sol if right or not other else other[0]
                return c.post(
                    f"/api/puzzles/{p.id}/moves", json={"step": 0, "move": mv, "line": []}, headers=auth
                )

            rows = {
                "GET /api/variants (baseline)": timed(lambda i: c.get("/api/variants")),
                "GET /api/puzzles": timed(lambda i: c.get("/api/puzzles", headers=auth)),
                "GET /api/puzzles/next": timed(lambda i: c.get("/api/puzzles/next", headers=auth)),
                "GET /api/puzzles/{id}": timed(
                    lambda i: c.get(f"/api/puzzles/{puzzles[i % len(puzzles)].id}", headers=auth)
                ),
                "POST moves (right)": timed(lambda i: answer(i, True)),
                "POST moves (wrong)": timed(lambda i: answer(i, False)),
            }
    base = statistics.median(rows["GET /api/variants (baseline)"])
    print(f"{len(puzzles)} shipped puzzles; the first overview (the set read) took {first * 1e3:.1f} ms")
    print(f"{'answer':32} {'median ms':>10} {'p95 ms':>8} {'x baseline':>11}")
    for name, xs in rows.items():
        xs.sort()
        med = statistics.median(xs)
        print(f"{name:32} {med * 1e3:10.2f} {xs[int(len(xs) * 0.95)] * 1e3:8.2f} {med / base:11.2f}")


if __name__ == "__main__":
    main()
