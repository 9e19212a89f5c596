"""Mexican Train (or Chicken Foot, ``--game chicken-foot``): bots against each other on
duplicate deals, and hands per second.

Each deal is played twice with the seats swapped (2 players, one round: the set's highest double),
so the luck of the deal cancels.  Prints, per pairing, the first bot's share of the hands won
(Wilson 95% interval; a tied blocked hand counts half) and its mean penalty edge (the other
bot's pips left minus its own, 95% interval), then random play's hands per second.

Run:  PYTHONPATH=src .venv/bin/python bench/trains_bots.py [--game chicken-foot] [--deals 200] [--pairs greedy:random]
"""

from __future__ import annotations

import argparse
import random
import time

from bonepile.arena.stats import mean_ci, wilson
from bonepile.bots import make_bot
from bonepile.engine import Game, make_variant


def play(v, deal_seed: int, names: list[str], bot_seed: int) -> list[int]:
    g = Game(v, seed=deal_seed)
    bots = [make_bot(n, v, seed=bot_seed + s) for s, n in enumerate(names)]
    while not g.over:
        s = g.to_move
        g.apply(bots[s].choose(g.view(s)))
    return list(g.totals)


def pairing(a: str, b: str, deals: int, players: int, game: str = "mexican-train") -> None:
    v = make_variant(game, {"players": players, "rounds": 1})
    wins = 0.0
    edges = []
    t0 = time.perf_counter()
    for d in range(deals):
        for first in (0, 1):  # seat the first bot at seat 0, then at seat 1
            names = [b] * players
            names[first] = a
            pen = play(v, 1000 + d, names, 7 * d + first)
            mine = pen[first]
            best_other = min(p for s, p in enumerate(pen) if s != first)
            wins += 1.0 if mine < best_other else 0.5 if mine == best_other else 0.0
            edges.append(best_other - mine)
    n = 2 * deals
    lo, hi = wilson(round(wins), n)
    mean, half = mean_ci(edges)
    secs = time.perf_counter() - t0
    print(
        f"{a} vs {b} ({players} players, {deals} deals x 2 seatings = {n} hands, {secs:.0f} s): "
        f"{a} wins {wins / n:.1%} [{lo:.1%}, {hi:.1%}], penalty edge {mean:+.1f} +- {half:.1f} pips"
    )


def speed(players: int, seconds: float, game: str = "mexican-train") -> None:
    v = make_variant(game, {"players": players, "rounds": 1})
    rng = random.Random(1)
    hands = moves = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        g = Game(v, seed=hands, snapshots=False)
        h = g.hand
        while not h.over:
            ms = h.legal_moves()
            h.apply(ms[rng.randrange(len(ms))])
            moves += 1
        hands += 1
    secs = time.perf_counter() - t0
    print(f"random play, {players} players: {hands / secs:,.0f} hands/s ({moves / hands:.0f} moves a hand)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="mexican-train", choices=["mexican-train", "chicken-foot"])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--pairs", nargs="*", default=["greedy:random"])
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    for p in (2, 4, 8):
        speed(p, args.seconds, args.game)
    for pair in args.pairs:
        a, b = pair.split(":")
        pairing(a, b, args.deals, args.players, args.game)


if __name__ == "__main__":
    main()
