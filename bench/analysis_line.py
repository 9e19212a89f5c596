"""The analysis with every hand shown, a hand's decisions solved one by one from the first
(``Solver.values``) against together from the last (``Solver.values_line``, what ``analyze``
does): the values must be the same, move for move; the seconds of each, side by side.

    PYTHONPATH=src python bench/analysis_line.py [--hands 2] [RECORD...]

Without records: every example under examples/.  ``--hands N`` takes each record's first N
hands.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import time

from bonepile.analysis.exact import Solver
from bonepile.engine import record as rec
from bonepile.engine.hand import Hand

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def decision_positions(h: Hand) -> list[Hand]:
    pos = h.fresh()
    out = []
    for _s, m, _t in h.log:
        if len(pos.choices()) > 1:
            out.append(pos.copy())
        pos.apply(m)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="*")
    ap.add_argument("--hands", type=int, default=2)
    a = ap.parse_args()
    files = a.records or sorted(str(p) for p in EXAMPLES.glob("*.record.json"))
    print(
        "| record | decisions | one by one (s) | from the last (s) | ratio | same values | kinds one by one | kinds from the last |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for f in files:
        g = rec.read(f)
        positions = [decision_positions(h) for h in g.hands[: a.hands] if h.over]
        n = sum(map(len, positions))
        t0 = time.perf_counter()
        one = []
        for line in positions:
            s = Solver(g.variant)
            one.extend(s.values(p) for p in line)
        t1 = time.perf_counter()
        together = []
        for line in positions:
            together.extend(Solver(g.variant).values_line(line))
        t2 = time.perf_counter()
        kinds = collections.Counter(x.kind for d in together for x in d.values())
        kinds_one = collections.Counter(x.kind for d in one for x in d.values())
        same = one == together
        ratio = (t1 - t0) / (t2 - t1) if t2 > t1 else float("inf")
        name = pathlib.Path(f).name
        print(
            f"| {name} | {n} | {t1 - t0:.1f} | {t2 - t1:.1f} | {ratio:.2f} | {'yes' if same else 'NO'} | "
            + ", ".join(f"{k} {v}" for k, v in sorted(kinds_one.items()))
            + " | "
            + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
            + " |",
            flush=True,
        )


if __name__ == "__main__":
    main()
