"""Bots of each level solve the shipped puzzles, rated with Glicko-2 as people are: does the
puzzle rating converge, and in the levels' order (the expert above the casual player)?

Every bot starts at 1500 (deviation 350), every puzzle at its mined rating (deviation 150).
The puzzles are taken in a random order; each is tried by every bot once (in a random order),
and after each attempt both the bot's and the puzzle's ratings are updated
(``puzzles.glicko2.update``).  A bot solves a puzzle when its move is right at every step.
Prints each bot's rating after each quarter of the run (with its deviation), its share solved
(95% Wilson interval) and the final order.

    python bench/puzzle_ratings.py [--puzzles 200] [--expert-simulations 64] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from bonepile.arena.stats import wilson
from bonepile.bots import make_bot
from bonepile.bots.budget import Budget
from bonepile.engine import make_variant
from bonepile.puzzles import glicko2
from bonepile.puzzles.judge import judge
from bonepile.puzzles.moves import token_of
from bonepile.puzzles.store import shipped

LEVELS = ("beginner", "casual", "strong", "expert")


def attempt(bot_name: str, p, seed: int, expert_sims: int) -> bool:
    v = make_variant(p.variant, p.options)
    bot = make_bot(bot_name, v, seed=seed, budget=Budget(simulations=expert_sims))
    for i, step in enumerate(p.steps):
        verdict = judge(p, i, token_of(step.view, bot.choose(step.view)))
        if not verdict.correct:
            return False
        if verdict.done:
            return True
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--expert-simulations", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pool = list(shipped())
    rng.shuffle(pool)
    pool = pool[: a.puzzles]
    players = {b: glicko2.Rating() for b in LEVELS}
    puzzles = {p.id: glicko2.Rating(p.rating, 150.0) for p in pool}
    solved = dict.fromkeys(LEVELS, 0)
    marks = {len(pool) * k // 4 for k in (1, 2, 3, 4)}
    history: dict[str, list[str]] = {b: [] for b in LEVELS}
    start = time.perf_counter()
    for n, p in enumerate(pool, 1):
        order = list(LEVELS)
        rng.shuffle(order)
        for b in order:
            ok = attempt(b, p, rng.randrange(1 << 30), a.expert_simulations)
            solved[b] += ok
            players[b], puzzles[p.id] = glicko2.update(players[b], puzzles[p.id], ok)
        if n in marks:
            for b in LEVELS:
                history[b].append(f"{players[b].r:.0f} ±{2 * players[b].rd:.0f}")
    secs = time.perf_counter() - start
    print(f"{len(pool)} puzzles, each tried once by each bot, seed {a.seed}, {secs:.0f} s")
    print("| bot | after 1/4 | after 1/2 | after 3/4 | final (±2 RD) | solved (95%) |")
    print("|---|---|---|---|---|---|")
    for b in LEVELS:
        lo, hi = wilson(solved[b], len(pool))
        print(
            f"| {b} | {' | '.join(history[b])} | {100 * solved[b] / len(pool):.0f}% "
            f"({100 * lo:.0f}–{100 * hi:.0f}%) |"
        )
    ranked = sorted(LEVELS, key=lambda b: -players[b].r)
    print("order by final rating: " + " > ".join(ranked))


if __name__ == "__main__":
    main()
