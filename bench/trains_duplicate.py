"""Two bots of a train game (Chicken Foot, Mexican Train) on duplicate deals, in shards that
can run apart and be pooled afterwards.

``bench/trains_bots.py`` plays one pairing in one process and prints a summary at the end; an
expert hand of Chicken Foot takes about 15 s, so a sample that decides needs hours.  Here each
hand is written as one JSON line the moment it ends (a stopped run keeps its hands), a shard
takes a range of deals (``--first``, ``--deals``), and ``--report`` pools every file given.

Each deal is played twice with the seats swapped (2 players, one round), bot seeds as in
``trains_bots.py``.  The report gives the first bot's share of hands won (a tie counts half;
Wilson 95% interval over hands), its penalty edge (the other bot's pips left minus its own;
the mean of each deal's two hands, with a 95% interval over deals, which are independent where
the two hands of one deal are not), and, per decision of the first bot with a real choice, its
median seconds and worlds searched.

    PYTHONPATH=src nice -n 10 python bench/trains_duplicate.py --game chicken-foot \
        --pair expert:greedy --first 0 --deals 50 --out /tmp/cf-0.jsonl
    PYTHONPATH=src nice -n 10 python bench/trains_duplicate.py --game chicken-foot \
        --pair expert:greedy --budget '{"simulations": 16}' --first 0 --deals 50 --out /tmp/cf-16.jsonl
    PYTHONPATH=src python bench/trains_duplicate.py --report /tmp/cf-*.jsonl

A time budget (the expert's default, 0.1 s) buys fewer worlds on a loaded machine; a count of
simulations (``--budget``) plays the same on any machine, only slower.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.arena.stats import mean_ci, wilson
from bonepile.bots import Budget, make_bot
from bonepile.engine import Game, make_variant


def play_hand(
    game: str, players: int, deal: int, names: list[str], first: int, budget: Budget | None = None
) -> dict:
    """One hand of deal ``deal`` (seed 1000 + deal, as trains_bots.py), the first bot at seat
    ``first``; its decisions with a choice are timed.  ``budget``: the bots' budget (None:
    each bot's default, the expert's 0.1 s)."""
    v = make_variant(game, {"players": players, "rounds": 1})
    g = Game(v, seed=1000 + deal)
    bots = [make_bot(n, v, seed=7 * deal + first + s, budget=budget) for s, n in enumerate(names)]
    secs: list[float] = []
    worlds: list[int] = []
    while not g.over:
        s = g.to_move
        view = g.view(s)
        t0 = time.perf_counter()
        move = bots[s].choose(view)
        if s == first and len(view.legal) > 1:
            secs.append(time.perf_counter() - t0)
            worlds.append(getattr(bots[s], "last_worlds", 0))
        g.apply(move)
    pen = list(g.totals)
    return {"deal": deal, "first": first, "pen": pen, "secs": secs, "worlds": worlds}


def run(args: argparse.Namespace) -> None:
    a, b = args.pair.split(":")
    budget = Budget(**json.loads(args.budget)) if args.budget else None
    with open(args.out, "a", encoding="utf-8") as out:
        for d in range(args.first, args.first + args.deals):
            for first in (0, 1):
                names = [b] * args.players
                names[first] = a
                row = play_hand(args.game, args.players, d, names, first, budget)
                row.update(
                    game=args.game,
                    pair=args.pair,
                    players=args.players,
                    budget=args.budget,
                    cpu=time.process_time(),
                )
                out.write(json.dumps(row) + "\n")
                out.flush()


def report(paths: list[str]) -> None:
    rows = [json.loads(line) for p in paths for line in open(p, encoding="utf-8") if line.strip()]
    by_deal: dict[tuple, dict[int, dict]] = {}
    for r in rows:
        key = (r["game"], r["pair"], r["players"], r.get("budget") or "default", r["deal"])
        by_deal.setdefault(key, {})[r["first"]] = r
    groups: dict[tuple, list[dict[int, dict]]] = {}
    for key, hands in by_deal.items():
        if len(hands) == 2:  # only deals played both ways
            groups.setdefault(key[:4], []).append(hands)
    for (game, pair, players, budget), deals in sorted(groups.items()):
        wins = 0.0
        edges = []
        secs: list[float] = []
        worlds: list[int] = []
        for hands in deals:
            deal_edge = 0.0
            for first, r in hands.items():
                pen = r["pen"]
                mine = pen[first]
                other = min(p for s, p in enumerate(pen) if s != first)
                wins += 1.0 if mine < other else 0.5 if mine == other else 0.0
                deal_edge += (other - mine) / 2
                secs += r["secs"]
                worlds += r["worlds"]
            edges.append(deal_edge)
        n = 2 * len(deals)
        lo, hi = wilson(round(wins), n)
        mean, half = mean_ci(edges)
        a, b = pair.split(":")
        line = (
            f"{game}, {players} players, {a} vs {b} (budget {budget}): {len(deals)} deals = {n} hands; {a} wins "
            f"{wins / n:.1%} [{lo:.1%}, {hi:.1%}]; penalty edge {mean:+.1f} [{mean - half:+.1f}, "
            f"{mean + half:+.1f}] pips a hand"
        )
        if secs:
            q = statistics.quantiles(secs, n=10) if len(secs) > 1 else [secs[0]] * 9
            line += (
                f"; {len(secs)} decisions with a choice: median {statistics.median(secs):.2f} s, 90th "
                f"percentile {q[8]:.2f} s, longest {max(secs):.1f} s (wall clock); median "
                f"{statistics.median(worlds):.0f} worlds"
            )
        print(line)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="chicken-foot", choices=["mexican-train", "chicken-foot"])
    ap.add_argument("--pair", default="expert:greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--first", type=int, default=0, help="the first deal of this shard")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument(
        "--budget", help="the bots' budget as JSON, e.g. '{\"simulations\": 16}' (default: theirs)"
    )
    ap.add_argument("--out", help="the JSON-lines file the hands are appended to")
    ap.add_argument("--report", nargs="*", help="pool these files and print the figures")
    args = ap.parse_args()
    if args.report is not None:
        report(args.report)
    else:
        if not args.out:
            ap.error("--out is needed to play")
        run(args)


if __name__ == "__main__":
    main()
