"""Post-game analysis (issue 15): how long it takes, and whether its marks make sense.

1. Time: one hand of every game (and one whole game of Quinientos) played by greedy bots,
   analysed both ways at the default budget (the expert's 0.1 s per decision with what each
   seat knew; 200,000 positions of exact search per decision with every hand shown), on one
   core; per game the seconds, the decisions and how many of them were exact, bounds or
   estimates with every hand shown.
2. Sanity: hands of the partnership block game with the expert on one side against greedy or
   random on the other (both seatings of each deal), analysed with what each seat knew:
   the share of each bot's decisions marked mistake or blunder, its accuracy (decisions marked
   best or good) and the points it lost per decision, with 95% intervals over decisions.

    PYTHONPATH=src python bench/analysis.py            # both parts
    PYTHONPATH=src python bench/analysis.py --hands 20 --skip-time
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.analysis import analyze
from bonepile.bots import make_bot
from bonepile.engine import Game

GAMES = [
    ("block (partnerships)", "block", {"teams": True}),
    ("block (4 players)", "block", None),
    ("draw", "draw", None),
    ("cinque", "cinque", None),
    ("quinientos", "quinientos", None),
    ("passing", "passing", None),
    ("blind-hugie", "blind-hugie", None),
    ("billitonnen", "billitonnen", None),
]


def wilson(k: int, n: int) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return c - h, c + h


def play(variant: str, options: dict | None, seed: int, levels: list[str], whole: bool = False) -> Game:
    g = Game.new(variant, options, seed=seed)
    bots = [make_bot(levels[s], g.variant, seed=seed * 10 + s) for s in range(g.variant.players)]
    first = g.hand
    while not g.over and (whole or not first.over):
        s = g.to_move
        g.apply(bots[s].choose(g.view(s)))
    return g


def timing(seed: int) -> None:
    print("Analysis time at the default budget, one core (greedy bots' games):")
    print(f"  {'game':<22} {'decisions':>9} {'seconds':>8}  with every hand shown")
    cases = [(name, v, o, False) for name, v, o in GAMES] + [
        ("quinientos, whole game", "quinientos", None, True)
    ]
    for name, v, o, whole in cases:
        g = play(v, o, seed, ["greedy"] * 4, whole)
        t = time.perf_counter()
        a = analyze(g)
        dt = time.perf_counter() - t
        kinds: dict[str, int] = defaultdict(int)
        n = 0
        for h in a.hands:
            for d in h.decisions:
                n += 1
                kinds[d.shown.kind if d.shown else "none"] += 1
        shown = ", ".join(f"{k} {c}" for k, c in sorted(kinds.items()))
        hands = f" ({len(a.hands)} hands)" if whole else ""
        print(f"  {name + hands:<22} {n:>9} {dt:>8.1f}  {shown}", flush=True)


def sanity(hands: int, seed: int) -> None:
    print(f"\nMarks with what each seat knew, partnership block, {hands} deals x 2 seatings per pairing:")
    for other in ("greedy", "random"):
        stats: dict[str, list] = {"expert": [], other: []}
        for d in range(hands):
            for flip in (False, True):
                levels = ["expert", other] * 2 if not flip else [other, "expert"] * 2
                g = play("block", {"teams": True}, seed + d, levels)
                a = analyze(g, ways=("knew",))
                for dec in a.hands[0].decisions:
                    stats[levels[dec.seat]].append(dec.knew)
        for who, js in stats.items():
            n = len(js)
            bad = sum(j.mark in ("mistake", "blunder") for j in js)
            ok = sum(j.mark in ("best", "good") for j in js)
            lo, hi = wilson(bad, n)
            alo, ahi = wilson(ok, n)
            mean = sum(j.loss for j in js) / n
            sd = math.sqrt(sum((j.loss - mean) ** 2 for j in js) / max(1, n - 1))
            print(
                f"  expert vs {other:<6} {who:<7} decisions {n:>4}  mistakes or blunders "
                f"{100 * bad / n:5.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]  accuracy {100 * ok / n:5.1f}% "
                f"[{100 * alo:.1f}, {100 * ahi:.1f}]  lost {mean:.2f} ± {1.96 * sd / math.sqrt(n):.2f} points",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=30, help="deals per pairing in the sanity part")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-time", action="store_true")
    ap.add_argument("--skip-sanity", action="store_true")
    args = ap.parse_args()
    if not args.skip_time:
        timing(args.seed)
    if not args.skip_sanity:
        sanity(args.hands, args.seed)


if __name__ == "__main__":
    main()
