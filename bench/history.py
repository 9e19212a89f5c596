"""What a profile's history costs (``GET /api/profiles/{id}/games``): one real game played to
the end with a profile, its stored rows copied to make N finished tables of that profile and
M of other profiles, then the first request (every table's result rebuilt from its actions)
and the next ones (results kept in memory) timed over HTTP on this machine.

    PYTHONPATH=src:tests python bench/history.py [--games 200] [--others 2000] [--requests 20]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]


def main() -> None:
    from sqlalchemy import insert, select

    from bonepile.web.store import actions_t, tables_t
    from test_web_history import auth, make, play
    from webutil import InProcess

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--others", type=int, default=2000)
    ap.add_argument("--requests", type=int, default=20)
    a = ap.parse_args()
    with (
        tempfile.TemporaryDirectory() as tmp,
        InProcess(f"sqlite:///{tmp}/db", grace=1000, hand_pause=0) as s,
    ):
        ana, bea = make(s, "Ana"), make(s, "Bea")
        tid = play(s, ana["key"])
        engine = s.server.store.engine
        with engine.begin() as c:
            row = dict(c.execute(select(tables_t).where(tables_t.c.id == tid)).mappings().one())
            acts = [
                dict(r) for r in c.execute(select(actions_t).where(actions_t.c.table_id == tid)).mappings()
            ]
            for i in range(a.games + a.others):
                new = f"b{i:011x}"
                seats = row["seats"] if i < a.games else row["seats"].replace(ana["id"], bea["id"])
                c.execute(
                    insert(tables_t).values(
                        {**row, "id": new, "created": row["created"] - i - 1, "seats": seats}
                    )
                )
                c.execute(insert(actions_t), [{**x, "table_id": new} for x in acts])
        with s.client() as c:
            url = f"/api/profiles/{ana['id']}/games"
            t0 = time.perf_counter()
            r = c.get(url, headers=auth(ana["key"]))
            cold = time.perf_counter() - t0
            assert r.status_code == 200 and r.json()["stats"]["games"] == a.games + 1, r.text
            warm = []
            for _ in range(a.requests):
                t0 = time.perf_counter()
                c.get(url, headers=auth(ana["key"]))
                warm.append(time.perf_counter() - t0)
        warm.sort()
        print(f"{a.games + 1} games of the profile, {a.others} of another, {len(acts)} actions each")
        print(f"first request: {cold * 1000:.0f} ms; next ones: median {warm[len(warm) // 2] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
