"""The ladder of bot levels (issue 11, "levels people understand").

Two measurements, both through the arena (duplicate deals: every deal set is replayed under
every seating, hand n of each game dealt from the same seed) and with a fixed number of
``--simulations`` for the expert level, so that the figures depend only on the seed, not on
the machine's load (the strong level always searches ``STRONG_SIMULATIONS`` deals):

* ``--ladder``: one arena run with the four levels at the four seats of the individual
  4-player block game; OpenSkill (Plackett-Luce) ratings as ``bonepile arena`` reports them
  (updated per game) and updated per hand, plus each level's hands won and points per hand;
* pairs (default: each level against the one below, ``random`` below beginner) in each
  game of ``--variants``: the upper level's share of hands won with a Wilson 95% interval,
  its net points per hand (its side's points minus the other side's) with a 95% interval
  over the deals (hand n of a deal set is dealt alike under both seatings: the two are
  averaged first, so the interval is over deals, not seatings), games won, and the median
  ms per decision of each.

The figures in docs/BENCHMARKS.md (Levels):

    PYTHONPATH=src python bench/levels.py --ladder --hands 1200 --simulations 40
    PYTHONPATH=src python bench/levels.py --hands 200 --most 600 --simulations 40 --variants block-teams,draw-2p
    PYTHONPATH=src python bench/levels.py --hands 200 --most 400 --simulations 40 --variants quinientos,cinque
    PYTHONPATH=src python bench/levels.py --hands 200 --most 800 --simulations 40 --variants cinque --pairs strong:casual
    PYTHONPATH=src python bench/levels.py --hands 200 --most 400 --simulations 40 --variants passing-4p,blind-hugie-2p \
        --pairs casual:beginner,strong:casual,expert:strong

Trying other levels on the same deals:

    PYTHONPATH=src python bench/levels.py --hands 600 --beginner-temperature 8 --pairs beginner:random,casual:beginner
    PYTHONPATH=src python bench/levels.py --hands 200 --strong-simulations 4 --pairs strong:casual,expert:strong

A side of ``--pairs`` may be any bot name, ``module:Class`` included (run from ``bench/`` for
``policy_bots:Blend16:casual``; see ``bench/policy_bots.py``).

``--most N`` plays further batches of ``--hands`` hands on fresh deals while neither interval
decides (hands won away from 50%, net points away from 0), up to N hands per pair.
``--strong-simulations`` and ``--beginner-temperature`` try other definitions of the levels on
the same deals (how the levels were chosen).  ``--json FILE`` writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.arena import ArenaRun, ArenaSpec, bot_stats, mean_ci, ratings, run_arena, wilson
from bonepile.bots import BOT_LEVELS, Budget, levels
from bonepile.engine import make_variant

#: label -> (variant, options)
GAMES = {
    "block-teams": ("block", {"players": 4, "teams": True}),
    "draw-2p": ("draw", {"players": 2}),
    "cinque": ("cinque", {}),
    "quinientos": ("quinientos", {}),
    "passing-4p": ("passing", {"players": 4}),
    "block-4p": ("block", {"players": 4}),
    "blind-hugie-2p": ("blind-hugie", {"players": 2}),
}
DEFAULT_VARIANTS = ("block-teams", "draw-2p", "cinque", "quinientos")
PAIRS = (("beginner", "random"), ("casual", "beginner"), ("strong", "casual"), ("expert", "strong"))


def split_pair(p: str) -> tuple[str, str]:
    """``upper:lower``, where either may be a ``module:Class`` name (a plugin or a bench bot)."""
    parts = p.split(":")
    if len(parts) == 2:
        return parts[0], parts[1]
    if len(parts) == 4:
        return ":".join(parts[:2]), ":".join(parts[2:])
    if len(parts) == 3:
        if parts[0] in BOT_LEVELS:
            return parts[0], ":".join(parts[1:])
        return ":".join(parts[:2]), parts[2]
    raise SystemExit(f"bad pair {p!r}: write upper:lower")


def decided(r: dict) -> bool:
    """Does the interval decide: hands won away from 50%, or net points away from 0?  Where
    points are scored during play (Cinque) going out first says little: points only."""
    lo, hi = r["hands_won_ci95"]
    nlo, nhi = r["net_points_ci95"]
    by_hands = not (lo <= 0.5 <= hi) and not r["points_in_play"]
    return by_hands or not (nlo <= 0 <= nhi)


def pair(
    label: str, upper: str, lower: str, hands: int, seed: int, budget: Budget, workers: int, most: int = 0
) -> dict:
    """``upper`` against ``lower`` in game ``label``: figures for ``upper``.  While the
    intervals do not decide and fewer than ``most`` hands were played, another batch of
    ``hands`` hands is played on fresh deals (seed + 1000 x batch) and pooled."""
    name, options = GAMES[label]
    v = make_variant(name, options)
    games: list = []
    elapsed = 0.0
    batch = 0
    while True:
        spec = ArenaSpec(name, options, (upper, lower), hands, seed=seed + 1000 * batch, budget=budget)
        run = run_arena(spec, workers=workers)
        elapsed += run.elapsed
        for g in run.games:
            g.deal_set += 100_000 * batch  # deal sets of different batches are different deals
        games += run.games
        batch += 1
        pooled = ArenaRun(spec, games, len({g.deal_set for g in games}), 0, elapsed, [], "hands")
        r = figures(label, v, pooled, upper, lower)
        if decided(r) or r["hands"] >= most:
            r["batches"] = batch
            return r


def figures(label: str, v, run: ArenaRun, upper: str, lower: str) -> dict:
    stats = bot_stats(run)
    up, low = stats[upper], stats[lower]
    # net points of upper per hand; hand n of a deal set is dealt alike under both seatings,
    # so the two are averaged into one unit (a hand only one seating reached is a unit alone)
    units: dict[tuple[int, int], list[float]] = {}
    ties = 0
    for g in run.games:
        mine = {v.side_of(s) for s, e in enumerate(g.seats) if e == 0}
        for n, (winner, pts, _end) in enumerate(g.hands):
            a = sum(pts[i] for i in mine)
            b = sum(p for i, p in enumerate(pts) if i not in mine)
            units.setdefault((g.deal_set, n), []).append(a - b)
            ties += winner is None
    means = [sum(x) / len(x) for x in units.values()]
    net, half = mean_ci(means)
    lo, hi = wilson(up["hands_won"], up["hands"])
    return {
        "game": label,
        "upper": upper,
        "lower": lower,
        "hands": up["hands"],
        "hands_won": up["hands_won"],
        "hands_won_lower": low["hands_won"],
        "hands_won_rate": up["hands_won_rate"],
        "hands_won_ci95": [lo, hi],
        "ties": ties,
        "net_points_per_hand": net,
        "net_points_ci95": [net - half, net + half],
        "games": up["games"],
        "games_won": up["games_won"],
        "games_won_lower": low["games_won"],
        "ms_median": [up["decision_ms_median"], low["decision_ms_median"]],
        "elapsed_s": round(run.elapsed, 1),
        "points_in_play": v.in_play is not None,
    }


def ladder(hands: int, seed: int, budget: Budget, workers: int) -> dict:
    spec = ArenaSpec("block", {"players": 4}, levels.LEVELS, hands, seed=seed, budget=budget)
    run = run_arena(spec, workers=workers)
    stats = bot_stats(run)
    rates = ratings(run)
    by_hand = ratings(run, per="hand")
    return {
        "game": "block, 4 players (individual)",
        "hands": run.hands,
        "games": len(run.games),
        "levels": {
            lv: {
                "mu": rates[lv]["mu"],
                "sigma": rates[lv]["sigma"],
                "ordinal": rates[lv]["ordinal"],
                "hand_mu": by_hand[lv]["mu"],
                "hand_sigma": by_hand[lv]["sigma"],
                "hands_won_rate": stats[lv]["hands_won_rate"],
                "hands_won_ci95": stats[lv]["hands_won_ci95"],
                "points_per_hand": stats[lv]["points_per_hand"],
                "games_won": stats[lv]["games_won"],
                "ms_median": stats[lv]["decision_ms_median"],
            }
            for lv in levels.LEVELS
        },
        "elapsed_s": round(run.elapsed, 1),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=200, help="hands per pair and game (whole deal sets)")
    ap.add_argument("--simulations", type=int, default=40, help="sampled deals per expert decision")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--variants", default=",".join(DEFAULT_VARIANTS), help=f"of {', '.join(GAMES)}")
    ap.add_argument("--pairs", default=",".join(f"{a}:{b}" for a, b in PAIRS), help="upper:lower,...")
    ap.add_argument(
        "--most", type=int, default=0, help="play more batches while undecided, up to this many hands"
    )
    ap.add_argument("--ladder", action="store_true", help="the one-run ladder instead of the pairs")
    ap.add_argument("--strong-simulations", type=int, default=None)
    ap.add_argument("--beginner-temperature", type=float, default=None)
    ap.add_argument("--json", default=None, help="write the figures to this file")
    a = ap.parse_args(argv)
    if a.strong_simulations is not None:
        levels.STRONG_SIMULATIONS = a.strong_simulations  # the workers are forked: they see it
    if a.beginner_temperature is not None:
        levels.BEGINNER_TEMPERATURE = a.beginner_temperature
    budget = Budget(simulations=a.simulations)
    print(
        f"expert simulations={a.simulations}, strong simulations={levels.STRONG_SIMULATIONS}, "
        f"beginner temperature={levels.BEGINNER_TEMPERATURE}, seed {a.seed}",
        flush=True,
    )
    out: dict = {
        "settings": {
            "simulations": a.simulations,
            "strong_simulations": levels.STRONG_SIMULATIONS,
            "beginner_temperature": levels.BEGINNER_TEMPERATURE,
            "seed": a.seed,
            "hands": a.hands,
        }
    }
    t0 = time.perf_counter()
    if a.ladder:
        res = ladder(a.hands, a.seed, budget, a.workers)
        out["ladder"] = res
        print(f"ladder: {res['game']}, {res['hands']} hands, {res['games']} games")
        print(
            "| level | OpenSkill μ ± σ (per game) | (per hand) | hands won [95%] | points per hand "
            "| games won | ms median |"
        )
        print("|---|---|---|---|---|---|---|")
        for lv, r in res["levels"].items():
            lo, hi = r["hands_won_ci95"]
            print(
                f"| {lv} | {r['mu']:.1f} ± {r['sigma']:.1f} | {r['hand_mu']:.1f} ± {r['hand_sigma']:.1f} "
                f"| {r['hands_won_rate']:.1%} "
                f"[{100 * lo:.1f}, {100 * hi:.1f}] | {r['points_per_hand']:.1f} | {r['games_won']}"
                f" | {r['ms_median']:.1f} |",
                flush=True,
            )
    else:
        out["pairs"] = []
        print(
            "| game | upper vs lower | hands won [95%] | net points per hand [95%] | games won | ms median |"
        )
        print("|---|---|---|---|---|---|")
        for game in [x.strip() for x in a.variants.split(",") if x.strip()]:
            for p in [x.strip() for x in a.pairs.split(",") if x.strip()]:
                upper, lower = split_pair(p)
                r = pair(game, upper, lower, a.hands, a.seed, budget, a.workers, a.most)
                out["pairs"].append(r)
                lo, hi = r["hands_won_ci95"]
                nlo, nhi = r["net_points_ci95"]
                print(
                    f"| {game} | {upper} vs {lower} | {r['hands_won_rate']:.1%} [{100 * lo:.1f}, "
                    f"{100 * hi:.1f}] of {r['hands']} | {r['net_points_per_hand']:+.2f} [{nlo:+.2f}, "
                    f"{nhi:+.2f}] | {r['games_won']}–{r['games_won_lower']} of {r['games']} | "
                    f"{r['ms_median'][0]:.1f} / {r['ms_median'][1]:.1f} |"
                    + ("" if decided(r) else " (undecided)"),
                    flush=True,
                )
    print(f"({time.perf_counter() - t0:.0f} s)")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
