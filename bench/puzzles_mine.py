"""Mine puzzles from folders of game records (``bonepile selfplay`` output) and grow the shipped
set: per game, the positions looked at, those with a choice, the puzzles found, puzzles per
1,000 positions (with a 95% Wilson interval) and the seconds it took.

    python bench/puzzles_mine.py FOLDER [FOLDER...] [--into src/bonepile/puzzles/data] [--budget-s 600]

Each FOLDER holds ``records/*.json`` of one game.  With ``--into``, the puzzles found are added
to ``<into>/<variant>.json`` (by id: a puzzle already there is kept as it is).  ``--budget-s``
stops a folder's mining after that many seconds (the records mined so far are counted).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

from bonepile.arena.stats import wilson
from bonepile.bots.budget import Budget
from bonepile.engine import record as rec
from bonepile.puzzles.mine import MINE_BUDGET, mine
from bonepile.puzzles.store import read_file, write_file


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--into", default=None)
    ap.add_argument("--budget-s", type=float, default=600.0)
    ap.add_argument("--simulations", type=int, default=MINE_BUDGET.simulations)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rows = []
    for folder in a.folders:
        files = sorted(pathlib.Path(folder, "records").glob("*.json"))
        if not files:
            print(f"{folder}: no records", file=sys.stderr)
            continue
        variant = rec.loads(files[0].read_bytes())["variant"]
        stats: dict[str, int] = {}
        found = {}
        start = time.perf_counter()
        for path in files:
            for p in mine([str(path)], budget=Budget(simulations=a.simulations), seed=a.seed, stats=stats):
                found.setdefault(p.id, p)
            if time.perf_counter() - start > a.budget_s:
                break
        secs = time.perf_counter() - start
        pos, puz = stats.get("positions", 0), stats.get("puzzles", 0)
        lo, hi = wilson(puz, pos) if pos else (0.0, 0.0)
        row = {
            "variant": variant,
            "positions": pos,
            "choices": stats.get("choices", 0),
            "puzzles": puz,
            "distinct": len(found),
            "per_1000": round(1000 * puz / pos, 1) if pos else 0.0,
            "per_1000_95": [round(1000 * lo, 1), round(1000 * hi, 1)],
            "seconds": round(secs, 1),
            "ms_per_position": round(1000 * secs / pos, 1) if pos else 0.0,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
        if a.into:
            target = pathlib.Path(a.into, f"{variant}.json")
            have = {p.id: p for p in read_file(target)} if target.exists() else {}
            for pid, p in found.items():
                have.setdefault(pid, p)
            write_file(target, sorted(have.values(), key=lambda p: p.id))
            print(f"{target}: {len(have)} puzzles", flush=True)
    print()
    print("| game | positions | with a choice | puzzles | per 1,000 positions (95%) | ms per position |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        lo, hi = r["per_1000_95"]
        print(
            f"| {r['variant']} | {r['positions']} | {r['choices']} | {r['puzzles']} | "
            f"{r['per_1000']} ({lo}–{hi}) | {r['ms_per_position']} |"
        )


if __name__ == "__main__":
    main()
