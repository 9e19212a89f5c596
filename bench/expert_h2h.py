"""Two bot versions head to head on duplicate deals (issue 11: every kept change must beat the
previous expert at equal work).

Each deal is played twice, bot A on the even seats (side 0 in partnership games) and bot B on
the odd ones, then with the bots swapped.  A bot is ``greedy``, ``random``, a level name, or
``expert`` followed by JSON options (``expert{"horizon": 8}``), or ``cheat`` + options: the
expert given the real deal as its only world (a bench-only ceiling: how much of the gap is
hidden information).  Reported for A: hands (or games) won with a Wilson 95% interval, net
points per hand (or game) with a 95% interval over the deals (the two seatings of a deal
averaged first), and the median ms per decision with a real choice of each bot.

    PYTHONPATH=src python bench/expert_h2h.py cinque --a 'expert{}' --b greedy --deals 100
    PYTHONPATH=src python bench/expert_h2h.py cinque --a 'expert{}' --b 'expert{"horizon": 8}' --games 40
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bots import side_won, wilson
from research import research_expert

import bonepile.bots.expert as expert_mod
from bonepile.bots import EXPERT_BUDGET, Budget, make_bot
from bonepile.bots.expert import ExpertBot, preset
from bonepile.engine import Game, make_variant

_RealSampler = expert_mod.Sampler


class _TrueWorld:
    """Stands in for the sampler of a cheating expert: the real hand, every time."""

    def __init__(self, hand) -> None:
        self.hand = hand

    def sample(self, rng):
        return self.hand.copy()


class CheatExpert(ExpertBot):
    name = "cheat"
    true_hand = None


_CURRENT: list = [None]


def _sampler(variant, view, **kw):
    bot = _CURRENT[0]
    if isinstance(bot, CheatExpert):
        return _TrueWorld(bot.true_hand)
    return _RealSampler(variant, view, **kw)


expert_mod.Sampler = _sampler  # type: ignore[assignment,misc]


def parse_spec(spec: str) -> tuple[str, dict]:
    for kind in ("expert", "cheat"):
        if spec.startswith(kind):
            rest = spec[len(kind) :].strip()
            return kind, (json.loads(rest) if rest else {})
    return spec, {}


def build(spec: str, v, seed: int, sims: int | None):
    kind, opts = parse_spec(spec)
    if kind == "cheat":
        sims = opts.pop("simulations", 1)
        # (it sees the deal: no inference of it)
        config = replace(preset(v), **{"infer": 0, **opts})
        return CheatExpert(v, seed=seed, budget=Budget(simulations=sims), config=config)
    if kind == "expert":
        return research_expert(v, seed, Budget(simulations=sims) if sims else EXPERT_BUDGET, opts)
    return make_bot(kind, v, seed=seed)


def _net(v, pts, seats_a: set[int]) -> float:
    mine = sum(p for i, p in enumerate(pts) if v.sides[i][0] in seats_a)
    n_a = sum(1 for side in v.sides if side[0] in seats_a)
    return mine / n_a - (sum(pts) - mine) / (len(pts) - n_a)


def play_deal(args: tuple) -> tuple[list[float], list[bool | None], list[float], list[float]]:
    name, opts, deal, seed, a, b, sims, games = args
    v = make_variant(name, opts)
    nets: list[float] = []
    results: list[bool | None] = []
    ms_a: list[float] = []
    ms_b: list[float] = []
    for swap in (0, 1):
        specs = [(a, b)[(s + swap) % 2] for s in range(v.players)]
        is_a = [(s + swap) % 2 == 0 for s in range(v.players)]
        game = Game.new(name, opts, seed=seed * 1_000_003 + deal)
        bots = [build(sp, v, seed + 17 * deal + s, sims) for s, sp in enumerate(specs)]
        seats_a = {s for s in range(v.players) if is_a[s]}
        net = 0.0
        while True:
            h = game.hand
            while not h.over:
                s = game.to_move
                view = game.view(s)
                bot = bots[s]
                if isinstance(bot, CheatExpert):
                    bot.true_hand = game.hand
                _CURRENT[0] = bot
                t0 = time.perf_counter()
                m = bot.choose(view)
                if len(view.legal) > 1:
                    (ms_a if is_a[s] else ms_b).append((time.perf_counter() - t0) * 1000)
                game.apply(m)
            net += _net(v, h.result.points, seats_a)
            if not games or game.over:
                break
        nets.append(net)
        if games:
            w = game.winner
            results.append(None if w is None else v.sides[w][0] in seats_a)
        else:
            results.append(side_won(v, h.result, seats_a))
    return nets, results, ms_a, ms_b


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, m, m
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - h, m + h


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("-O", "--option", action="append", default=[], help="variant option key=value")
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", default="greedy")
    ap.add_argument("--deals", type=int, default=100, help="deals (each played twice)")
    ap.add_argument("--games", action="store_true", help="whole games per deal instead of one hand")
    ap.add_argument("--simulations", type=int, default=30, help="expert worlds per decision (0: time)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-w", "--workers", type=int, default=1)
    args = ap.parse_args(argv)
    opts: dict = {}
    for kv in args.option:
        k, _, x = kv.partition("=")
        opts[k] = json.loads(x) if x not in ("",) else x
    jobs = [
        (args.variant, opts, d, args.seed, args.a, args.b, args.simulations or None, args.games)
        for d in range(args.deals)
    ]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            out = list(ex.map(play_deal, jobs))
    else:
        out = [play_deal(j) for j in jobs]
    per_deal = [sum(o[0]) / 2 for o in out]
    res = [r for o in out for r in o[1]]
    won = sum(1 for r in res if r)
    ties = sum(1 for r in res if r is None)
    lost = len(res) - won - ties
    ms_a = [x for o in out for x in o[2]]
    ms_b = [x for o in out for x in o[3]]
    lo, hi = wilson(won, len(res))
    m, nlo, nhi = mean_ci(per_deal)
    unit = "games" if args.games else "hands"
    print(
        f"{args.variant} {opts} A={args.a} B={args.b} sims={args.simulations} seed={args.seed}: "
        f"A won {won}/{len(res)} {unit} {won / len(res):.1%} [{lo:.1%}, {hi:.1%}] (lost {lost}, ties {ties}); "
        f"net {m:+.2f} [{nlo:+.2f}, {nhi:+.2f}] per {unit[:-1]}; "
        f"ms median A {statistics.median(ms_a) if ms_a else 0:.1f} B {statistics.median(ms_b) if ms_b else 0:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
