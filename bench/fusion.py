"""Strategy fusion at the end of a hand (issue 11, "less strategy fusion").

The expert solves each sampled world alone near the end of a hand (``playout.solve``): in
every world its own later moves fit that world's hidden hands.  ``fused.fused_solve``
searches the worlds together, one line of its own for all of them.  At positions of greedy
games with about T tiles left (the first choice with T or T-1 in hands), W worlds of the
mover's view are drawn and every legal move valued both ways; printed per T: how many moves
the worlds alone overrate and by how much on average (points + the hand-win bonus, the
expert's score), how often the two choose a different move (Wilson 95%), and the median ms of
each search.

    PYTHONPATH=src python bench/fusion.py --tiles 8,10,12,14 --positions 100 --worlds 30
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fused import fused_solve

from bonepile.arena.stats import wilson
from bonepile.bots.greedy import GreedyBot
from bonepile.bots.playout import solve, tiles_left
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game, make_variant

GAMES = {"block": {"players": 4, "teams": True}, "cinque": {}}
WIN = {"block": 10.0, "cinque": 0.0}  # the expert's hand-win bonus in each (expert.PRESETS)


def positions(game: str, tiles: int, count: int, seed: int) -> list[Game]:
    v = make_variant(game, GAMES[game])
    out = []
    for k in range(count * 20):
        g = Game.new(game, GAMES[game], seed=seed + k)
        bot = GreedyBot(v, seed=seed + k)
        while not g.hand.over:
            left = tiles_left(g.hand)
            if left < tiles - 1:
                break
            if left <= tiles and len(g.legal_moves()) > 1:
                out.append(g.copy())
                break
            g.apply(bot.choose(g.view(g.to_move)))
        if len(out) == count:
            break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="block")
    ap.add_argument("--tiles", default="8,10,12,14", help="tiles left, comma separated")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    v = make_variant(a.game, GAMES[a.game])
    win = WIN[a.game]
    rng = random.Random(a.seed)
    print(
        f"bench/fusion.py: {a.game}, {a.worlds} worlds per position, seed {a.seed}, Python {sys.version.split()[0]}"
    )
    print(
        "tiles  positions  moves overrated  mean overrating  best move differs [95%]      ms alone / fused (median)"
    )
    for tiles in (int(t) for t in a.tiles.split(",")):
        over = moves = differ = 0
        gap = 0.0
        t_alone: list[float] = []
        t_fused: list[float] = []
        found = positions(a.game, tiles, a.positions, a.seed * 1000 + tiles)
        for g in found:
            me = g.to_move
            side = v.seat_sides[me]
            sampler = Sampler(v, g.view(me))
            worlds = [sampler.sample(rng) for _ in range(a.worlds)]
            t0 = time.perf_counter()
            alone = {}
            for m in g.legal_moves():
                s = 0.0
                for w in worlds:
                    h = w.copy()
                    h.apply(m)
                    net, won, _ = solve(h, v, side, win)
                    s += net + (win if won else 0.0)
                alone[m] = s / len(worlds)
            t1 = time.perf_counter()
            fused = {m: score for m, score, _n, _w in fused_solve(worlds, [1.0] * len(worlds), v, me, win)}
            t2 = time.perf_counter()
            t_alone.append(1000 * (t1 - t0))
            t_fused.append(1000 * (t2 - t1))
            for m, s in alone.items():
                moves += 1
                gap += s - fused[m]
                over += s > fused[m] + 1e-9
            order = g.legal_moves()
            best_alone = max(order, key=lambda m: (alone[m], -order.index(m)))
            best_fused = max(order, key=lambda m: (fused[m], -order.index(m)))
            differ += best_alone != best_fused
        n = len(found)
        lo, hi = (100 * x for x in wilson(differ, n))
        print(
            f"{tiles:>5}  {n:>9}  {over:>6} of {moves:<5}  {gap / max(moves, 1):>15.2f}  "
            f"{differ:>3} of {n:<4} {100 * differ / max(n, 1):5.1f}% [{lo:4.1f}, {hi:4.1f}]    "
            f"{statistics.median(t_alone):7.1f} / {statistics.median(t_fused):.1f}"
        )


if __name__ == "__main__":
    main()
