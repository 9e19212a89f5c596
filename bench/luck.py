"""Luck and skill told apart (issue 29): how much of a hand's result the deal's value explains.

On N duplicate deals (each deal played twice, the sides' bots swapped, as the arena plays), the
first hand of each game is played by two pairings, expert vs expert and expert vs casual; per
hand, side 0's net result is set against:

- the deal's value as bonepile defines it (``analysis.luck.deal_value``: playouts of the deal by
  the expert's playout policy, every hand shown; ``--playouts`` of them),
- the alternative it was chosen over: the exact α-β value of the deal with every hand shown
  (perfect play by both sides; where the search needs more than ``--nodes`` positions the hand
  is left out of that column and counted),
- with ``--skill``, luck plus skill (the post-game analysis with what each seat knew,
  ``--simulations`` per decision): how much of the result the two explain together.

R² is the squared correlation over hands, with a 95% interval from 1,000 bootstrap draws of
the deals (both seatings of a deal drawn together).  The cost of each value per deal is
printed beside it.  The ceiling any value of the deal can reach is the deal's share of the
result's variance: the correlation of the two plays of each deal (the intraclass
correlation; expert vs expert, the bots' seeds differ between the two plays).

    PYTHONPATH=src python bench/luck.py                       # 100 deals of 2-player block
    PYTHONPATH=src python bench/luck.py --deals 40 --variant passing --players 4 --option teams=true --skill
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.analysis import analyze
from bonepile.analysis.exact import Solver
from bonepile.analysis.luck import DEFAULT_PLAYOUTS, deal_value, hand_result
from bonepile.bots import make_bot
from bonepile.bots.alphabeta import OutOfNodes
from bonepile.bots.budget import Budget
from bonepile.engine import Game


def r2(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    if n < 3:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy * sxy / (sxx * syy) if sxx and syy else float("nan")


def boot(
    groups: list[list[tuple[float, float]]], draws: int = 1000, seed: int = 7
) -> tuple[float, float, float]:
    """R² of the pairs, and its 95% bootstrap interval over the groups (one group per deal)."""
    rng = random.Random(seed)
    flat = [p for g in groups for p in g]
    est = r2([x for x, _ in flat], [y for _, y in flat])
    got = []
    for _ in range(draws):
        pick = [p for _ in groups for p in groups[rng.randrange(len(groups))]]
        got.append(r2([x for x, _ in pick], [y for _, y in pick]))
    got = sorted(g for g in got if g == g)
    return est, got[int(0.025 * len(got))], got[int(0.975 * len(got)) - 1]


def corr(pairs: list[tuple[float, float]]) -> float:
    r = r2([a for a, _ in pairs], [b for _, b in pairs])
    n = len(pairs)
    mx, my = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
    sign = 1.0 if sum((a - mx) * (b - my) for a, b in pairs) >= 0 else -1.0
    return sign * r**0.5


def share(pairs: list[tuple[float, float]], draws: int = 1000, seed: int = 7) -> tuple[float, float, float]:
    """The deal's share of the result's variance: the correlation of the two plays of each
    deal (side 0 holds the same tiles in both), with its 95% bootstrap interval."""
    rng = random.Random(seed)
    got = sorted(corr([pairs[rng.randrange(len(pairs))] for _ in pairs]) for _ in range(draws))
    return corr(pairs), got[int(0.025 * draws)], got[int(0.975 * draws) - 1]


def exact_value(g: Game, nodes: int) -> float | None:
    """Side 0's net points of the first hand's deal with every hand shown and perfect play."""
    h = g.hands[0].fresh()
    solver = Solver(g.variant, nodes=nodes)
    try:
        vals = solver._search(h.copy(), h.legal_moves(), h.to_move, g.variant.side_of(h.to_move))
    except OutOfNodes:
        return None
    best = max(v.points for v in vals.values())
    return best if g.variant.side_of(h.to_move) == 0 else -best


def play_hand(
    variant: str, options: dict, seed: int, levels: list[str], sims: int, bot_seed: int = 0
) -> Game:
    g = Game.new(variant, options, seed=seed)
    bots = [
        make_bot(levels[s], g.variant, seed=seed * 10 + s + 1000 * bot_seed, budget=Budget(simulations=sims))
        for s in range(g.variant.players)
    ]
    first = g.hands[0]
    while not first.over:
        s = g.to_move
        g.apply(bots[s].choose(g.view(s)))
    return g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--variant", default="block")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], help="name=value (true/false/int)")
    ap.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    ap.add_argument("--nodes", type=int, default=200_000, help="the exact value's positions per deal")
    ap.add_argument("--sims", type=int, default=16, help="the expert's simulations per decision in play")
    ap.add_argument("--skill", action="store_true", help="also analyse every hand (slow)")
    ap.add_argument("--simulations", type=int, default=8, help="the analysis's simulations per decision")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    opts: dict = {"players": args.players}
    for o in args.option:
        k, _, val = o.partition("=")
        opts[k] = {"true": True, "false": False}.get(val, int(val) if val.lstrip("-").isdigit() else val)
    print(
        f"{args.variant} {opts}, {args.deals} deals x 2 seatings, first hand; expert at {args.sims} simulations a decision"
    )
    for other in ("expert", "casual"):
        rows: dict[str, list[list[tuple[float, float]]]] = {"value": [], "exact": [], "luck+skill": []}
        cost = {"value": 0.0, "exact": 0.0}
        out_of_nodes = 0
        twice: list[tuple[float, float]] = []
        for d in range(args.deals):
            seed = args.seed * 100_000 + d
            groups: dict[str, list[tuple[float, float]]] = {k: [] for k in rows}
            both: list[float] = []
            for flip in (False, True):
                v_players = opts["players"]
                levels = [("expert" if (i % 2 == 0) != flip else other) for i in range(v_players)]
                g = play_hand(args.variant, opts, seed, levels, args.sims, int(flip))
                h = g.hands[0]
                res = hand_result(g.variant, h)[0]
                both.append(res)
                t = time.perf_counter()
                dv = deal_value(h, playouts=args.playouts, seed=seed)
                cost["value"] += time.perf_counter() - t
                groups["value"].append((dv.values[0], res))
                if not flip and len(g.variant.sides) == 2:
                    t = time.perf_counter()
                    ex = exact_value(g, args.nodes)
                    cost["exact"] += time.perf_counter() - t
                    if ex is None:
                        out_of_nodes += 1
                    else:
                        groups["exact"].append((ex, res))
                elif groups["exact"]:
                    groups["exact"].append((groups["exact"][0][0], res))
                if args.skill:
                    a = analyze(
                        g, hands=[1], ways=("knew",), budget=Budget(simulations=args.simulations), seed=seed
                    )
                    lk = a.hands[0].luck
                    assert lk is not None and lk.skill is not None
                    groups["luck+skill"].append((lk.luck[0] + lk.skill[0], res))
            twice.append((both[0], both[1]))
            for k in rows:
                if groups[k]:
                    rows[k].append(groups[k])
        print(f"expert vs {other}:")
        n = args.deals
        est, lo, hi = share(twice)
        print(
            f"  the deal's share (the two plays of a deal correlated)  {est:.3f} [{lo:.3f}, {hi:.3f}]: R² can reach it at most"
        )
        for k, gs in rows.items():
            if not gs:
                continue
            est, lo, hi = boot(gs)
            hands = sum(len(g) for g in gs)
            extra = ""
            if k in cost:
                per = cost[k] / (n * (2 if k == "value" else 1))
                extra = f"  {1000 * per:7.1f} ms a deal"
            if k == "exact":
                extra += f"  ({out_of_nodes} of {n} deals over {args.nodes:,} positions, left out)"
            print(f"  R² {k:<11} {est:.3f} [{lo:.3f}, {hi:.3f}]  {hands} hands{extra}", flush=True)


if __name__ == "__main__":
    main()
