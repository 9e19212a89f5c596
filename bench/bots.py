"""Bot strength and speed: expert vs random, expert vs greedy, greedy vs random.

For the 4-player partnership block game and for each variant at its default player count,
each pairing plays ``--hands`` deals twice (duplicate deals): bot A on the even seats and
bot B on the odd seats, then the same deal with the bots swapped.  One hand per deal (the
first hand of a game: dealer rules of hand 1).  Reported per pairing: the share of hands won
by A with a Wilson 95% interval (ties -- no winner -- count as not won), ties, and the
median milliseconds per decision of each bot (over all its decisions, and over decisions
with a real choice, i.e. two or more legal actions), and A's net points per hand (a side's
points minus the other sides', averaged per side; Billitonnen scores no points).  In Cinque
the hand goes to the side that scored more points in it.

    PYTHONPATH=src python bench/bots.py --hands 100 --time 0.1
    PYTHONPATH=src python bench/bots.py --hands 50 --simulations 40 --only block-teams
    PYTHONPATH=src python bench/bots.py --hands 100 --algo ismcts --only block-teams --no-peers

At the end, ``bench/bots_peers.py`` (head-to-head against the peer engines' bots) runs if
present.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from research import research_expert

from bonepile.bots import Budget, make_bot
from bonepile.engine import Game, make_variant
from bonepile.engine.variant import VARIANT_NAMES

GAMES = [("block-teams", "block", {"players": 4, "teams": True})] + [
    (name, name, {}) for name in VARIANT_NAMES
]
PAIRINGS = [("expert", "random"), ("expert", "greedy"), ("greedy", "random")]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def side_won(variant, res, side_seats: set[int]) -> bool | None:
    """Did the seats in side_seats win the hand? None for a tie.  Where points are scored
    during play (Cinque) the hand goes to the side that scored more in it."""
    if variant.in_play is not None:
        a_pts = sum(p for i, p in enumerate(res.points) if variant.sides[i][0] in side_seats)
        b_pts = sum(res.points) - a_pts
        return None if a_pts == b_pts else a_pts > b_pts
    if res.winner is None:
        return None
    if variant.scoring == "result_only":  # Billitonnen: the winner is a seat
        return res.winner in side_seats
    return variant.sides[res.winner][0] in side_seats


def play_pairing(name: str, opts: dict, a: str, b: str, hands: int, budget: Budget, seed: int, algo: str):
    v = make_variant(name, opts)
    won = ties = total = 0
    net = 0.0
    ms: dict[str, list[float]] = {a: [], b: []}
    choice_ms: dict[str, list[float]] = {a: [], b: []}
    for deal in range(hands):
        for swap in (0, 1):
            levels = [(a, b)[(s + swap) % 2] for s in range(v.players)]
            game = Game.new(name, opts, seed=seed * 1_000_003 + deal)
            bots = [
                research_expert(v, seed + 17 * deal + s, budget, {"algo": algo})
                if lv == "expert"
                else make_bot(lv, v, seed=seed + 17 * deal + s)
                for s, lv in enumerate(levels)
            ]
            h = game.hand
            while not h.over:
                s = game.to_move
                view = game.view(s)
                t0 = time.perf_counter()
                m = bots[s].choose(view)
                dt = (time.perf_counter() - t0) * 1000
                ms[levels[s]].append(dt)
                if len(view.legal) > 1:
                    choice_ms[levels[s]].append(dt)
                game.apply(m)
            total += 1
            seats_a = {s for s in range(v.players) if levels[s] == a}
            pts = h.result.points
            mine = sum(p for i, p in enumerate(pts) if v.sides[i][0] in seats_a)
            n_a = sum(1 for side in v.sides if side[0] in seats_a)
            net += mine / n_a - (sum(pts) - mine) / (len(pts) - n_a)
            r = side_won(v, h.result, seats_a)
            if r is None:
                ties += 1
            elif r:
                won += 1
    return won, ties, total, ms, choice_ms, net / total


def med(xs: list[float]) -> str:
    return f"{statistics.median(xs):7.2f}" if xs else "    n/a"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=50, help="deals per pairing (each played twice)")
    ap.add_argument("--time", type=float, default=0.1, help="expert seconds per decision")
    ap.add_argument(
        "--simulations", type=int, default=None, help="expert sampled deals per decision (overrides --time)"
    )
    ap.add_argument("--algo", default="pimc", choices=("pimc", "ismcts"), help="expert search")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None, help="comma-separated game labels (e.g. block-teams,cinque)")
    ap.add_argument("--pairings", default=None, help="e.g. expert:random,greedy:random")
    ap.add_argument("--no-peers", action="store_true", help="skip bench/bots_peers.py")
    args = ap.parse_args(argv)
    budget = Budget(simulations=args.simulations) if args.simulations else Budget(time=args.time)
    games = GAMES if not args.only else [g for g in GAMES if g[0] in args.only.split(",")]
    pairings = PAIRINGS if not args.pairings else [tuple(p.split(":")) for p in args.pairings.split(",")]
    print(
        f"bots: {2 * args.hands} hands per pairing (duplicate deals), expert budget {budget.as_dict()}, {args.algo}"
    )
    print(
        f"{'game':<13} {'A vs B':<17} {'A won':>6} {'95% CI':>15} {'ties':>5}  "
        f"{'A ms med':>8} {'A ms choice':>11} {'B ms med':>8} {'A net/hand':>8}"
    )
    for label, name, opts in games:
        for a, b in pairings:
            won, ties, total, ms, cms, net = play_pairing(
                name, opts, a, b, args.hands, budget, args.seed, args.algo
            )
            lo, hi = wilson(won, total)
            print(
                f"{label:<13} {a + ' vs ' + b:<17} {won / total:6.1%} [{lo:5.1%}, {hi:5.1%}] {ties:5d}  "
                f"{med(ms[a]):>8} {med(cms[a]):>11} {med(ms[b]):>8} {net:+8.1f}",
                flush=True,
            )
    if not args.no_peers:
        try:
            import bots_peers  # type: ignore[import-not-found]
        except ImportError:
            return
        sys.argv = sys.argv[:1]  # the peers' script parses its own options
        bots_peers.main()


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
