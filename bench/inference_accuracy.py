"""How close the expert's sampled worlds are to the real deal (issue 11, inference).

Whole games of the 4-player partnership block game are played by four bots of one kind; at
every real choice after the first two rounds the expert's world sampler is asked for worlds
of the mover's view, with policy-based inference (each world picked from K candidate deals by
the play model's weight, ``ExpertBot._inferred``) and without it (K = 0: every consistent deal
alike).  Printed per K: the share of the hidden tiles a world places with their true holder,
averaged over the worlds and the positions.  It reads the real hands only to score the
worlds, never to draw them.

    PYTHONPATH=src python bench/inference_accuracy.py --players greedy --games 40
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots import make_bot
from bonepile.bots.expert import ExpertBot, tuned_defaults
from bonepile.bots.inference import PlayModel, models
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game
from bonepile.engine.tiles import bits

OPTIONS = {"players": 4, "teams": True}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="greedy", help="the bot at every seat (default greedy)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=20, help="worlds per position")
    ap.add_argument("--candidates", default="0,8,16,32,64", help="K values, comma separated")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    ks = [int(x) for x in args.candidates.split(",")]
    rng = random.Random(args.seed)
    share: dict[int, list[float]] = {k: [] for k in ks}
    for n in range(args.games):
        g = Game.new("block", OPTIONS, seed=1000 + n)
        v = g.variant
        tuned = tuned_defaults(v)
        bots = [make_bot(args.players, v, seed=s) for s in range(v.players)]
        while not g.over:
            s = g.to_move
            view = g.view(s)
            if len(view.legal) > 1 and len(view.history) >= 8 and models(v, view):
                truth = list(g.hand.hands)
                hidden = sum(truth[o].bit_count() for o in range(v.players) if o != s)
                for k in ks:
                    expert = ExpertBot(v, seed=n, infer=k)
                    sampler = Sampler(v, view)
                    sampler.sample(rng)
                    model = PlayModel(
                        v,
                        view,
                        sampler.moves,
                        sampler.start_hand(sampler.last_deal),
                        beta=tuned["infer_beta"],
                        mixture=tuned["infer_kinds"],
                    )
                    right = []
                    for _ in range(args.worlds):
                        w = expert._inferred(sampler, model, rng) if k > 1 else sampler.sample(rng)
                        ok = sum(
                            1
                            for o in range(v.players)
                            if o != s
                            for t in bits(truth[o])
                            if w.hands[o] >> t & 1
                        )
                        right.append(ok / hidden)
                    share[k].append(statistics.fmean(right))
            g.apply(bots[s].choose(view))
    print(f"{args.games} games of 4 {args.players} players, {args.worlds} worlds per position")
    for k in ks:
        label = "every consistent deal alike" if k <= 1 else f"each world picked from {k} deals"
        print(
            f"  {label:<32} positions {len(share[k]):5d}  hidden tiles placed right {100 * statistics.fmean(share[k]):.1f}%"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
