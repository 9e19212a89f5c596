"""Time per decision of the learned policy and of the searches built on it, side by side in
one run: wall-clock ms and the thread's CPU ms (what the decision costs on a quiet machine;
the wall clock of a shared machine adds the other processes' turns).  Decisions with a choice
only, along games played by the bots themselves; median and 90th percentile.

    cd bench && PYTHONPATH=../src python policy_speed.py --games 6 \\
        --bots strong,casual,policy_bots:Search8,policy_bots:Blend8
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots import make_bot
from bonepile.engine import Game

GAMES = {
    "block-teams": ("block", {"players": 4, "teams": True}),
    "cinque": ("cinque", {}),
    "quinientos": ("quinientos", {}),
    "draw-2p": ("draw", {"players": 2}),
    "passing-4p": ("passing", {"players": 4}),
}


def measure(bot_name: str, label: str, games: int, seed: int) -> tuple[list[float], list[float]]:
    name, opts = GAMES[label]
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(games):
        g = Game.new(name, opts, seed=seed + i)
        bots = [make_bot(bot_name, g.variant, seed=seed + i + s) for s in range(g.variant.players)]
        hands = 0
        while not g.over and hands < 3:
            hand = g.hand
            while not hand.over:
                view = g.view(g.to_move)
                t0, c0 = time.perf_counter(), time.thread_time()
                m = bots[g.to_move].choose(view)
                t1, c1 = time.perf_counter(), time.thread_time()
                if len(view.legal) > 1:
                    wall.append(1000 * (t1 - t0))
                    cpu.append(1000 * (c1 - c0))
                g.apply(m)
            hands += 1
    return wall, cpu


def q(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(p * len(s)))] if s else 0.0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default="block-teams,cinque,quinientos,draw-2p")
    ap.add_argument("--bots", default="strong,casual")
    a = ap.parse_args(argv)
    print(f"load: {os.getloadavg()[0]:.2f}")
    print("| game | bot | decisions | ms median (wall) | ms p90 (wall) | CPU ms median | CPU ms p90 |")
    print("|---|---|---|---|---|---|---|")
    for label in a.variants.split(","):
        for b in a.bots.split(","):
            wall, cpu = measure(b, label, a.games, a.seed)
            print(
                f"| {label} | {b} | {len(wall)} | {q(wall, 0.5):.1f} | {q(wall, 0.9):.1f} "
                f"| {q(cpu, 0.5):.1f} | {q(cpu, 0.9):.1f} |",
                flush=True,
            )
    print(f"load: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
