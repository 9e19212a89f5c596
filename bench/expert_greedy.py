"""Expert vs greedy in every variant and player count that has decisions (issue 11, goal 2).

Duplicate deals as in ``bench/bots.py``: each deal is played twice, the expert on the even
seats and greedy on the odd ones, then the same deal with the bots swapped.  Per game:
hands won by the expert's side with a Wilson 95% interval (ties count as not won), ties, net
points per hand for the expert's side (its points minus the other sides', averaged per side)
with a 95% interval over the deals (the two hands of a deal are averaged first, so the
interval is over independent deals), and the median ms per expert decision with a real
choice.  ``--games N`` plays N whole games per seating instead (to the target, duplicate
seeds) and reports games won.

    PYTHONPATH=src python bench/expert_greedy.py --hands 200 --simulations 30
    PYTHONPATH=src python bench/expert_greedy.py --hands 200 --simulations 30 --only cinque
    PYTHONPATH=src python bench/expert_greedy.py --games 50 --simulations 30 --only cinque
    PYTHONPATH=src python bench/expert_greedy.py --hands 100 --expert '{"rollout": "greedy"}'

``--expert`` passes further options to the expert (JSON), to compare versions on the same
deals.  Fixed ``--simulations`` keep the result independent of the machine's load.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import side_won, wilson
from research import research_expert

from bonepile.bots import Budget, make_bot
from bonepile.engine import Game, make_variant
from bonepile.engine.variant import PLAYER_COUNTS

#: (label, variant, options): every variant and player count, plus the partnership games
GAMES = [
    (f"{name}-{n}p" if len(counts) > 1 else name, name, {"players": n} if len(counts) > 1 else {})
    for name, counts in PLAYER_COUNTS.items()
    for n in counts
]
GAMES.insert(
    GAMES.index(("block-4p", "block", {"players": 4})) + 1,
    ("block-teams", "block", {"players": 4, "teams": True}),
)


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, m, m
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - h, m + h


def _net(v, pts, seats_a: set[int]) -> float:
    mine = sum(p for i, p in enumerate(pts) if v.sides[i][0] in seats_a)
    n_a = sum(1 for side in v.sides if side[0] in seats_a)
    return mine / n_a - (sum(pts) - mine) / (len(pts) - n_a)


def play(name: str, opts: dict, deals: int, budget: Budget, expert: dict, seed: int, games: bool = False):
    """Returns (won, ties, total, net per deal, ms per expert choice, expert decisions)."""
    v = make_variant(name, opts)
    won = ties = total = decisions = 0
    nets: list[float] = []
    cms: list[float] = []
    for deal in range(deals):
        pair = []
        for swap in (0, 1):
            levels = [("expert", "greedy")[(s + swap) % 2] for s in range(v.players)]
            game = Game.new(name, opts, seed=seed * 1_000_003 + deal)
            bots = [
                research_expert(v, seed + 17 * deal + s, budget, expert)
                if lv == "expert"
                else make_bot(lv, v, seed=seed + 17 * deal + s)
                for s, lv in enumerate(levels)
            ]
            seats_a = {s for s in range(v.players) if levels[s] == "expert"}
            net = 0.0
            while True:
                h = game.hand
                while not h.over:
                    s = game.to_move
                    view = game.view(s)
                    t0 = time.perf_counter()
                    m = bots[s].choose(view)
                    if levels[s] == "expert" and len(view.legal) > 1:
                        cms.append((time.perf_counter() - t0) * 1000)
                        decisions += 1
                    game.apply(m)
                net += _net(v, h.result.points, seats_a)
                if not games or game.over:
                    break
            total += 1
            pair.append(net)
            if games:
                w = game.winner
                if w is None:
                    r = None
                elif v.scoring == "result_only":  # Billitonnen: the winner is a seat
                    r = w in seats_a
                else:
                    r = v.sides[w][0] in seats_a
            else:
                r = side_won(v, h.result, seats_a)
            if r is None:
                ties += 1
            elif r:
                won += 1
        nets.append(sum(pair) / 2)
    return won, ties, total, nets, cms, decisions


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help="deals per game (each played twice)")
    ap.add_argument("--games", type=int, default=0, help="whole games per seating instead of hands")
    ap.add_argument("--simulations", type=int, default=30, help="expert sampled deals per decision")
    ap.add_argument("--expert", default="{}", help="further expert options, JSON")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None, help="comma-separated labels (e.g. cinque,block-teams)")
    args = ap.parse_args(argv)
    budget = Budget(simulations=args.simulations)
    expert = json.loads(args.expert)
    games = GAMES if not args.only else [g for g in GAMES if g[0] in args.only.split(",")]
    unit = "games" if args.games else "hands"
    n = args.games or args.hands
    print(
        f"expert vs greedy: {2 * n} {unit} per game (duplicate), expert {budget.as_dict()} {expert or ''}, seed {args.seed}"
    )
    print(
        f"{'game':<15} {unit:>5} {'won':>6} {'95% CI':>15} {'ties':>5} "
        f"{'net/hand':>8} {'95% CI':>15} {'ms/choice':>9} {'choices':>7}"
    )
    for label, name, opts in games:
        won, ties, total, nets, cms, dec = play(name, opts, n, budget, expert, args.seed, bool(args.games))
        lo, hi = wilson(won, total)
        m, nlo, nhi = mean_ci(nets)
        per = "net/game" if args.games else ""
        print(
            f"{label:<15} {total:5d} {won / total:6.1%} [{lo:5.1%}, {hi:5.1%}] {ties:5d} "
            f"{m:+8.2f} [{nlo:+6.2f}, {nhi:+6.2f}] {statistics.median(cms) if cms else 0:9.1f} "
            f"{dec:7d} {per}",
            flush=True,
        )


if __name__ == "__main__":
    main()
