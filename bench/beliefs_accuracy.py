"""How well each way of guessing the hidden tiles places them (issue 25, the belief model).

Whole games of the 4-player partnership block game (or ``--game``) are played by four bots of
one kind (``--players``, default greedy, as bench/inference_accuracy.py); at every real
choice after the first two rounds, the mover's unseen tiles are guessed four ways:

* ``model``: ``beliefs`` with the shipped (or ``--model``) network;
* ``facts``: ``beliefs`` without a network (the hard facts alone, projected);
* ``sampler``: the expert's worlds as drawn today (its game preset: policy-based inference
  where it applies), ``--worlds`` worlds; the frequency of each holder over the worlds;
* ``world``: one of those worlds on its own (the figure of issue 11: "44% of hidden tiles");
* ``model+sampler``, ``model world``: the same with the sampler weighed by the model
  (``ExpertConfig.beliefs``);
* with ``--posterior K`` (games without draws): ``plays``, K deals of the sampler each weighed
  by how likely it makes the other seats' plays (the expert's play model: the posterior of
  policy-based inference, the holders' weighted frequencies); ``model x plays^a``, the model's
  probabilities times those (each tile's row renormalised: the two read the plays apart, the
  model from its input, the play model from each decision's candidates), the play side raised
  to each power of ``--pool``; ``model-drawn plays``, the K deals drawn from the model's sampler and weighed
  by the plays.  ``--no-sampler`` leaves out the four sampler ways (the slow part).

Printed per way: the share of unseen tiles whose likeliest holder (argmax) is the real one,
and the log-loss (mean -ln p of the real holder; the sampler's frequencies smoothed with half
a world per allowed holder), each with a 95% interval over the games (per-game means).  The
real hands are read only to score the guesses.

    PYTHONPATH=src python bench/beliefs_accuracy.py --games 60
    PYTHONPATH=src python bench/beliefs_accuracy.py --players strong --games 30
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots import make_bot
from bonepile.bots.beliefs import BeliefModel, beliefs, constraints
from bonepile.bots.expert import ExpertBot, preset
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game
from bonepile.engine.tiles import bits

GAMES = {"block": {"players": 4, "teams": True}, "cinque": {}, "draw": {"players": 2}, "quinientos": {}}


def ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{m:.3f} [{m - h:.3f}, {m + h:.3f}]"


def posterior(v, view, cons, rng, k: int, weigh: bool, net, tuned, seed: int) -> list[list[float]]:
    """Each unseen tile's holders (``cons.holders`` order) over ``k`` deals of the sampler (drawn
    from the model's probabilities with ``weigh``), each deal weighed by the play model's
    probability of the other seats' plays; half a deal's weight of smoothing per allowed
    holder.  Games without draws: a seat holds now the unseen tiles it was dealt."""
    sampler = Sampler(v, view)
    if weigh:
        sampler.weights = beliefs(v, view, model=net, sampler=sampler).weights()
    model = ExpertBot(v, seed=seed, config=replace(tuned)).play_model(view, sampler)
    col = {h: j for j, h in enumerate(cons.holders)}
    sums = [[0.0] * len(cons.holders) for _ in cons.tiles]
    total = 0.0
    for _ in range(k):
        d = sampler.sample_deal(rng)
        if d is None:
            continue
        w = model.weight(d[0]) if model is not None else 1.0
        if w <= 0:
            continue
        total += w
        seat_of = {t: o for o, hand in enumerate(d[0]) for t in hand}
        for i, t in enumerate(cons.tiles):
            sums[i][col[seat_of.get(t, -1)]] += w
    out = []
    for row, ok in zip(sums, cons.allowed):
        eps = 0.5 * (total / k if total else 1.0)
        r = [x + eps * a for x, a in zip(row, ok)]
        z = sum(r)
        out.append([x / z for x in r])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="greedy", help="the bot at every seat (default greedy)")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--worlds", type=int, default=20, help="the sampler's worlds per position")
    ap.add_argument("--game", choices=sorted(GAMES), default="block")
    ap.add_argument("--model", help="a .npz of weights (default: the shipped model)")
    ap.add_argument("--min-history", type=int, default=8, help="positions from this many events on")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--posterior", type=int, default=0, help="deals weighed by the plays (0: off)")
    ap.add_argument("--pool", default="1", help="powers of the plays in 'model x plays', comma separated")
    ap.add_argument("--no-sampler", action="store_true", help="leave out the sampler's ways")
    args = ap.parse_args(argv)
    net = BeliefModel(args.model) if args.model else "shipped"
    rng = random.Random(args.seed)
    ways: tuple[str, ...] = ("model", "facts")
    if not args.no_sampler:
        ways += ("sampler", "world", "model+sampler", "model world")
    pools = [float(x) for x in args.pool.split(",")]
    if args.posterior:
        ways += ("plays", "model-drawn plays", *(f"model x plays^{a:g}" for a in pools))
    acc: dict[str, list[float]] = {w: [] for w in ways}
    loss: dict[str, list[float]] = {w: [] for w in ways if "world" not in w}
    positions = 0
    for n in range(args.games):
        g = Game.new(args.game, GAMES[args.game], seed=1000 + n)
        v = g.variant
        tuned = preset(v)
        bots = [make_bot(args.players, v, seed=s) for s in range(v.players)]
        a_game: dict[str, list[float]] = {w: [] for w in ways}
        l_game: dict[str, list[float]] = {w: [] for w in loss}
        while not g.over:
            s = g.to_move
            view = g.view(s)
            if len(view.legal) > 1 and len(view.history) >= args.min_history:
                truth = g.hand.masks
                sampler = Sampler(v, view)
                cons = constraints(v, view, sampler)

                where = {t: o for o in range(v.players) for t in bits(truth[o])}
                real = [cons.holders.index(where.get(t, -1)) for t in cons.tiles]
                mine = beliefs(v, view, model=net, sampler=sampler)
                for way, b in (("model", mine), ("facts", beliefs(v, view, model=None, sampler=sampler))):
                    for row, j in zip(b.probs, real):
                        a_game[way].append(1.0 if max(range(len(row)), key=row.__getitem__) == j else 0.0)
                        l_game[way].append(-math.log(max(row[j], 1e-9)))
                if args.posterior:
                    plays = {}
                    for way, weigh in (("plays", False), ("model-drawn plays", True)):
                        plays[way] = posterior(v, view, cons, rng, args.posterior, weigh, net, tuned, n)
                    for a in pools:
                        pooled = []
                        for row, prow in zip(mine.probs, plays["plays"]):
                            r = [p * q**a for p, q in zip(row, prow)]
                            z = sum(r) or 1.0
                            pooled.append([x / z for x in r])
                        plays[f"model x plays^{a:g}"] = pooled
                    for way, rows in plays.items():
                        for row, j in zip(rows, real):
                            a_game[way].append(1.0 if max(range(len(row)), key=row.__getitem__) == j else 0.0)
                            l_game[way].append(-math.log(max(row[j], 1e-9)))
                if args.no_sampler:
                    positions += 1
                    g.apply(bots[s].choose(view))
                    continue
                # today's sampler, with the preset's inference; then drawn from the model
                for way, world_way, weigh in (
                    ("sampler", "world", False),
                    ("model+sampler", "model world", True),
                ):
                    sampler = Sampler(v, view)
                    if weigh:
                        sampler.weights = beliefs(v, view, model=net, sampler=sampler).weights()
                    expert = ExpertBot(v, seed=n, config=replace(tuned))
                    model = expert.play_model(view, sampler)
                    counts = [[0] * len(cons.holders) for _ in cons.tiles]
                    col = {h: j for j, h in enumerate(cons.holders)}
                    for _ in range(args.worlds):
                        w = (
                            expert._inferred(sampler, model, rng)
                            if model is not None
                            else sampler.sample(rng)
                        )
                        right = 0
                        for i, t in enumerate(cons.tiles):
                            h = next((o for o in range(v.players) if w.masks[o] >> t & 1), -1)
                            counts[i][col[h]] += 1
                            right += h == where.get(t, -1)
                        a_game[world_way].append(right / len(cons.tiles))
                    for i, (row, ok) in enumerate(zip(counts, cons.allowed)):
                        j = real[i]
                        best = max(range(len(row)), key=lambda k: (row[k], -k))
                        a_game[way].append(1.0 if best == j else 0.0)
                        z = sum(row) + 0.5 * sum(ok)
                        l_game[way].append(-math.log((row[j] + 0.5 * ok[j]) / z))
                positions += 1
            g.apply(bots[s].choose(view))
        for w in ways:
            if a_game[w]:
                acc[w].append(statistics.fmean(a_game[w]))
        for w in loss:
            if l_game[w]:
                loss[w].append(statistics.fmean(l_game[w]))
    print(
        f"{args.games} games of {args.game}, 4 {args.players} players, {positions} positions "
        f"(history >= {args.min_history}), sampler {args.worlds} worlds; 95% intervals over games"
    )
    for w in ways:
        extra = f"  log-loss {ci(loss[w])}" if w in loss else ""
        print(f"  {w:<20} placed right {ci(acc[w])}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
