"""Expert search algorithms head to head: ISMCTS vs PIMC (or either vs random).

Duplicate deals of one game (default: the 4-player partnership block game): each deal is
played twice, bot A on the even seats then on the odd seats, one hand per deal.  Reported:
A's share of hands won with a Wilson 95% interval, ties, and the median / 99th percentile /
maximum milliseconds per decision with a real choice (two or more legal actions).

    PYTHONPATH=src python bench/expert_algos.py --hands 100 --a ismcts --b pimc
    PYTHONPATH=src python bench/expert_algos.py --hands 100 --a ismcts --b random
    PYTHONPATH=src python bench/expert_algos.py --a ismcts --akw '{"exploration": 1.0}'
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import side_won, wilson
from research import research_expert

from bonepile.bots import Budget, make_bot
from bonepile.engine import Game, make_variant


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=50, help="deals (each played twice)")
    ap.add_argument("--a", default="ismcts", help="pimc, ismcts or random")
    ap.add_argument("--b", default="pimc", help="pimc, ismcts or random")
    ap.add_argument("--akw", default="{}", help="extra ExpertBot options of A, as JSON")
    ap.add_argument("--bkw", default="{}", help="extra ExpertBot options of B, as JSON")
    ap.add_argument("--time", type=float, default=0.1, help="seconds per decision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="block-teams", help="block-teams or a variant name")
    args = ap.parse_args(argv)
    name, opts = ("block", {"players": 4, "teams": True}) if args.game == "block-teams" else (args.game, {})
    v = make_variant(name, opts)
    kws = {"a": json.loads(args.akw), "b": json.loads(args.bkw)}
    algo = {"a": args.a, "b": args.b}

    def bot(label: str, seed: int):
        if algo[label] == "random":
            return make_bot("random", v, seed=seed)
        return research_expert(v, seed, Budget(time=args.time), {"algo": algo[label], **kws[label]})

    won = ties = total = 0
    ms: dict[str, list[float]] = {"a": [], "b": []}
    for deal in range(args.hands):
        for swap in (0, 1):
            labels = ["ab"[(s + swap) % 2] for s in range(v.players)]
            game = Game.new(name, opts, seed=args.seed * 1_000_003 + deal)
            bots = [bot(lab, args.seed + 17 * deal + s) for s, lab in enumerate(labels)]
            h = game.hand
            while not h.over:
                s = game.to_move
                view = game.view(s)
                t0 = time.perf_counter()
                m = bots[s].choose(view)
                if len(view.legal) > 1:
                    ms[labels[s]].append((time.perf_counter() - t0) * 1000)
                game.apply(m)
            total += 1
            r = side_won(v, h.result, {s for s in range(v.players) if labels[s] == "a"})
            if r is None:
                ties += 1
            elif r:
                won += 1
    lo, hi = wilson(won, total)

    def q(xs: list[float], p: float) -> float:
        return sorted(xs)[int(p * (len(xs) - 1))] if xs else 0.0

    print(
        f"{args.game}: A={args.a}{kws['a'] or ''} vs B={args.b}{kws['b'] or ''}: A won {won}/{total} "
        f"= {won / total:.1%} [{lo:.1%}, {hi:.1%}], ties {ties}"
    )
    for lab in "ab":
        if ms[lab]:
            print(
                f"  {lab.upper()} ms per choice: median {q(ms[lab], 0.5):.1f}, p99 {q(ms[lab], 0.99):.1f}, "
                f"max {max(ms[lab]):.1f}"
            )


if __name__ == "__main__":
    main()
