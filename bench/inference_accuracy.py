"""How close the expert's sampled worlds are to the real deal (issue 11, inference).

Whole games of a 4-player partnership game (the block game, or Cinque with ``--game
cinque``) are played by four bots of one kind; at every real choice after the first two
rounds the expert's world sampler is asked for worlds of the mover's view, with policy-based
inference (each world picked from K candidate deals by the play model's weight,
``ExpertBot._inferred``) and without it (K = 0: every consistent deal alike).  Printed per
model: the share of the hidden tiles a world places with their true holder, averaged over the
worlds and the positions.  It reads the real hands only to score the worlds, never to draw
them.  A model is ``K`` (the game's tuned play model) or ``K@BETA/PIPS,PIPS...`` (its
``infer_beta`` and the ``pips`` of each kind of player, ``infer_kinds``).

    PYTHONPATH=src python bench/inference_accuracy.py --players greedy --games 40
    PYTHONPATH=src python bench/inference_accuracy.py --game cinque --models "0;8;8@0.6/0,0.25;8@1.2/0"
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from dataclasses import replace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots import make_bot
from bonepile.bots.expert import ExpertBot, ExpertConfig, preset
from bonepile.bots.inference import PlayModel, models
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game
from bonepile.engine.tiles import bits

GAMES = {"block": {"players": 4, "teams": True}, "cinque": {}}


def parse_model(text: str, tuned: ExpertConfig) -> tuple[int, float, tuple[float, ...]]:
    """``K``, ``K@BETA`` or ``K@BETA/PIPS,PIPS...`` -> (K, beta, kinds)."""
    k, _, rest = text.partition("@")
    beta_text, _, kinds_text = rest.partition("/")
    beta = float(beta_text) if beta_text else tuned.infer_beta
    if kinds_text:
        kinds = tuple(float(x) for x in kinds_text.split(","))
    else:
        kinds = tuned.infer_kinds or (0.0,)
    return int(k), beta, kinds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="greedy", help="the bot at every seat (default greedy)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=20, help="worlds per position")
    ap.add_argument("--game", choices=sorted(GAMES), default="block")
    ap.add_argument(
        "--models", default="0;8;16;32;64", help="play models, ';' separated: K or K@BETA/PIPS,PIPS..."
    )
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    tuned = preset(Game.new(args.game, GAMES[args.game], seed=0).variant)
    specs = args.models.split(";")
    ks = [parse_model(x, tuned) for x in specs]
    rng = random.Random(args.seed)
    share: dict[int, list[float]] = {i: [] for i in range(len(ks))}
    for n in range(args.games):
        g = Game.new(args.game, GAMES[args.game], seed=1000 + n)
        v = g.variant
        bots = [make_bot(args.players, v, seed=s) for s in range(v.players)]
        while not g.over:
            s = g.to_move
            view = g.view(s)
            if len(view.legal) > 1 and len(view.history) >= 8 and models(v, view):
                truth = list(g.hand.masks)
                hidden = sum(truth[o].bit_count() for o in range(v.players) if o != s)
                for i, (k, beta, kinds) in enumerate(ks):
                    expert = ExpertBot(v, seed=n, config=replace(tuned, infer=k))
                    sampler = Sampler(v, view)
                    sampler.sample(rng)
                    model = PlayModel(
                        v,
                        view,
                        sampler.moves,
                        sampler.start_hand(sampler.last_deal),
                        beta=beta,
                        mixture=kinds,
                    )
                    right = []
                    for _ in range(args.worlds):
                        w = expert._inferred(sampler, model, rng) if k > 1 else sampler.sample(rng)
                        ok = sum(
                            1
                            for o in range(v.players)
                            if o != s
                            for t in bits(truth[o])
                            if w.masks[o] >> t & 1
                        )
                        right.append(ok / hidden)
                    share[i].append(statistics.fmean(right))
            g.apply(bots[s].choose(view))
    print(f"{args.games} games of {args.game}, 4 {args.players} players, {args.worlds} worlds per position")
    for i, (k, beta, kinds) in enumerate(ks):
        if k <= 1:
            label = "every consistent deal alike"
        else:
            label = (
                f"each world picked from {k} deals, beta {beta:g}, pips {'/'.join(f'{x:g}' for x in kinds)}"
            )
        print(
            f"  {label:<56} positions {len(share[i]):5d}  "
            f"hidden tiles placed right {100 * statistics.fmean(share[i]):.1f}%"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
