"""How long ``bonepile analyze`` takes on every example record at the default budget, part by
part, in CPU seconds (``time.process_time``: a busy machine stretches the wall clock, not
these): the exact search with every hand shown (``Solver.values_line``), the expert with what
each seat knew (``advise``: its budget is 0.1 s of wall clock per decision, so on a quiet
machine that part takes about that per decision, whatever this process got), the seats'
beliefs, and the deal's luck (``deal_value``).  "quiet" adds the expert's wall-clock budget to
the CPU of the rest: about what the command takes on an idle core.  Also the share of the
decisions' values with every hand shown that are exact (or bounds) rather than estimates.

    PYTHONPATH=src python bench/analyze_examples.py [--only passing-4p-teams,dominican]
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections import defaultdict
from pathlib import Path

from bonepile.analysis import exact
from bonepile.engine import record as rec

analyze_mod = importlib.import_module("bonepile.analysis.analyze")
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def timed(spent: dict[str, float], part: str, fn):  # type: ignore[no-untyped-def]
    def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
        t0 = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[part] += time.process_time() - t0

    return wrapper


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="comma-separated example names (without .record.json)")
    args = ap.parse_args()
    names = sorted(p.name[: -len(".record.json")] for p in EXAMPLES.glob("*.record.json"))
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    spent: dict[str, float] = defaultdict(float)
    exact.Solver.values_line = timed(spent, "shown", exact.Solver.values_line)  # type: ignore[method-assign]
    analyze_mod.advise = timed(spent, "knew", analyze_mod.advise)  # type: ignore[attr-defined]
    analyze_mod.beliefs = timed(spent, "beliefs", analyze_mod.beliefs)  # type: ignore[attr-defined]
    analyze_mod.deal_value = timed(spent, "luck", analyze_mod.deal_value)  # type: ignore[attr-defined]
    print(
        f"{'record':28} {'decisions':>9} {'CPU s':>7} {'shown':>7} {'knew':>6} {'beliefs':>7} {'luck':>6}"
        f" {'quiet s':>8} {'wall s':>7}  exact/bound share of the values shown"
    )
    for name in names:
        spent.clear()
        game = rec.read(EXAMPLES / f"{name}.record.json")
        w0, c0 = time.perf_counter(), time.process_time()
        a = analyze_mod.analyze(game)
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        decisions = [d for h in a.hands for d in h.decisions]
        values = [m.shown for d in decisions for m in d.moves if m.shown is not None]
        solved = sum(1 for x in values if x.kind != "estimate")
        quiet = cpu - spent["knew"] + 0.1 * len(decisions)
        print(
            f"{name:28} {len(decisions):9} {cpu:7.1f} {spent['shown']:7.1f} {spent['knew']:6.1f}"
            f" {spent['beliefs']:7.1f} {spent['luck']:6.1f} {quiet:8.1f} {wall:7.1f}"
            f"  {solved}/{len(values)} = {solved / max(1, len(values)):.0%}",
            flush=True,
        )


if __name__ == "__main__":
    main()
