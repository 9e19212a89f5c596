"""A held-out check of the shipped puzzles' solutions with every hand shown.

For up to N shipped puzzles (spread over the games), new deals that agree with the first
step's view are drawn, with a seed the mining never used, and the exact solver
(``analysis/exact.py``: every hand and the boneyard shown) values every legal move in each.
A puzzle is *confirmed* when its solution is among the best moves on at least 90% of its deals.
Prints the share confirmed with a 95% Wilson interval, per game and in all, and the mean share
of deals that agree.

    python bench/puzzles_check.py [--puzzles 200] [--deals 20] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from bonepile.analysis.exact import Solver
from bonepile.arena.stats import wilson
from bonepile.bots.sampler import InconsistentView, Sampler
from bonepile.engine import make_variant
from bonepile.puzzles.moves import decision_of, move_of
from bonepile.puzzles.store import shipped


def check(p, deals: int, seed: int, nodes: int) -> float | None:
    """The share of fresh deals on which the solution is among the best (None: no deal)."""
    v = make_variant(p.variant, p.options)
    step = p.steps[0]
    view = step.view
    sol = move_of(view, step.solution)
    same = decision_of(v, view)
    right = {same[sol]} | {same[move_of(view, t)] for t in step.alternatives}
    rng = random.Random(f"check:{seed}:{p.id}")
    sampler = Sampler(v, view)
    solver = Solver(v, nodes=nodes, playouts=16, seed=seed)
    hits = n = 0
    for _ in range(deals):
        try:
            world = sampler.sample(rng)
        except InconsistentView:
            break
        vals = solver.values(world)
        top = max(s.score for s in vals.values())
        best = {same[m] for m, s in vals.items() if s.score >= top - 1e-9}
        hits += bool(best & right)
        n += 1
    return hits / n if n else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--nodes", type=int, default=50_000)
    a = ap.parse_args()
    by_game = defaultdict(list)
    for p in shipped():
        by_game[p.variant].append(p)
    # round-robin over the games, so a small N still covers every game
    rng = random.Random(a.seed)
    for ps in by_game.values():
        rng.shuffle(ps)
    chosen = []
    while len(chosen) < a.puzzles and any(by_game.values()):
        for g in sorted(by_game):
            if by_game[g] and len(chosen) < a.puzzles:
                chosen.append(by_game[g].pop())
    start = time.perf_counter()
    results = defaultdict(list)
    for p in chosen:
        share = check(p, a.deals, a.seed, a.nodes)
        if share is not None:
            results[p.variant].append(share)
    secs = time.perf_counter() - start
    print(f"{len(chosen)} puzzles, {a.deals} fresh deals each, seed {a.seed}, {secs:.0f} s")
    print("| game | puzzles | confirmed on >= 90% of deals (95%) | mean share of deals agreeing |")
    print("|---|---|---|---|")
    everything = []
    for g in sorted(results):
        xs = results[g]
        everything.extend(xs)
        k = sum(x >= 0.9 for x in xs)
        lo, hi = wilson(k, len(xs))
        print(
            f"| {g} | {len(xs)} | {100 * k / len(xs):.0f}% ({100 * lo:.0f}–{100 * hi:.0f}%) | {100 * sum(xs) / len(xs):.0f}% |"
        )
    k = sum(x >= 0.9 for x in everything)
    lo, hi = wilson(k, len(everything))
    print(
        f"| all | {len(everything)} | {100 * k / len(everything):.0f}% ({100 * lo:.0f}–{100 * hi:.0f}%) |"
        f" {100 * sum(everything) / len(everything):.0f}% |"
    )


if __name__ == "__main__":
    main()
