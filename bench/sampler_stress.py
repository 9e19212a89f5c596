"""Stress the world sampler: every decision's view of every seat must yield a world.

Plays random (and optionally greedy) hands of every preset and player count; at each decision
builds a ``Sampler`` for each seat's view and draws worlds.  Counts the views that raise
``InconsistentView`` (a valid view always has a world: the real deal) and how many of them
needed the complete search, saves failing views as ``(variant, players, deal seed, moves,
seat)`` lines, and times the common path.  Run under ``nice -n 10``; bounded by ``--seconds``.

    PYTHONPATH=src python bench/sampler_stress.py --seconds 120 [--only block:2] [--greedy]
    PYTHONPATH=src python bench/sampler_stress.py --hands 200   # the same work every run (timing)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots.greedy import GreedyBot
from bonepile.bots.sampler import InconsistentView, Sampler
from bonepile.engine import Hand, make_variant
from bonepile.engine.variant import PLAYER_COUNTS
from bonepile.engine.view import hand_view
from bonepile.rl.actions import actions


def cases(only: str | None) -> list[tuple[str, int]]:
    out = [(name, n) for name, counts in PLAYER_COUNTS.items() for n in counts]
    if only:
        keep = {tuple(x.split(":")) for x in only.split(",")}
        out = [(name, n) for name, n in out if (name, str(n)) in keep]
    return out


def run_hand(
    name: str, n: int, seed: int, greedy: bool, draws: int, stats: dict, fails: list, tries: int | None = None
) -> None:
    v = make_variant(name, {"players": n})
    h = Hand.deal(v, random.Random(seed))
    rng = random.Random(seed ^ 0x5A5A)
    bots = [GreedyBot(v, seed=seed + s) for s in range(n)] if greedy else None
    moves: list[int] = []
    while not h.over:
        for seat in range(n):
            view = hand_view(h, seat)
            sampler = Sampler(v, view) if tries is None else Sampler(v, view, tries=tries)
            t0 = time.perf_counter()
            try:
                for _ in range(draws):
                    sampler.sample(rng)
            except InconsistentView:
                stats["fail"] += 1
                fails.append(
                    # moves as the game's action ids (rl/actions.py: pass 112, draw 113 in double-six)
                    {
                        "variant": name,
                        "players": n,
                        "seed": seed,
                        "moves": list(map(actions(v).of, moves)),
                        "seat": seat,
                    }
                )
            stats["time"] += time.perf_counter() - t0
            stats["views"] += 1
            stats["fallback"] += getattr(sampler, "searches", 0)
        ms = h.legal_moves()
        if bots is not None and len(ms) > 1:
            try:
                m = bots[h.to_move].choose(hand_view(h, h.to_move))
            except InconsistentView:
                m = ms[rng.randrange(len(ms))]
        else:
            m = ms[rng.randrange(len(ms))]
        moves.append(m)
        h.apply(m)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--only", default=None, help="e.g. block:2,draw:2")
    ap.add_argument("--greedy", action="store_true", help="greedy bots choose (else random moves)")
    ap.add_argument("--draws", type=int, default=1, help="worlds drawn per view")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--tries", type=int, default=None, help="random fills before the search (1: search often)"
    )
    ap.add_argument("--hands", type=int, default=0, help="a fixed number of hands per case (not --seconds)")
    ap.add_argument("--out", default=None, help="append failing views here (JSON lines)")
    a = ap.parse_args()
    todo = cases(a.only)
    per = a.seconds / len(todo)
    print(f"{'variant':<14}{'n':>2}{'hands':>8}{'views':>9}{'fail':>6}{'search':>8}{'us/world':>10}")
    total_fail = 0
    for name, n in todo:
        stats = {"views": 0, "fail": 0, "fallback": 0, "time": 0.0}
        fails: list = []
        end = time.monotonic() + per
        hands = 0
        seeds = random.Random(f"{a.seed}:{name}:{n}")
        while (hands < a.hands) if a.hands else (time.monotonic() < end):
            run_hand(name, n, seeds.getrandbits(63), a.greedy, a.draws, stats, fails, a.tries)
            hands += 1
        us = stats["time"] / max(1, stats["views"] * a.draws) * 1e6
        print(
            f"{name:<14}{n:>2}{hands:>8}{stats['views']:>9}{stats['fail']:>6}{stats['fallback']:>8}{us:>10.1f}"
        )
        total_fail += stats["fail"]
        if a.out and fails:
            with open(a.out, "a") as f:
                for x in fails:
                    f.write(json.dumps(x) + "\n")
    print(f"failing views: {total_fail}")


if __name__ == "__main__":
    main()
