"""OpenSpiel's ISMCTS (its Python ``ismcts.ISMCTSBot``, random rollouts) against uniform random
play on bonepile's OpenSpiel games: hands won, with 95% Wilson intervals.

    PYTHONPATH=src nice -n 10 python bench/ismcts_openspiel.py [--simulations 100]
        [--hands 40] [--games block:2,draw:2,...]

ISMCTS holds one seat (each seat in turn, deal after deal), random play the others.  At each of
its decisions the bot calls ``resample_from_infostate`` (the engine's sampler) once per
simulation.  A hand counts as won when the bot's side wins it.  The share a random seat wins
is 1/number of sides; the figure is how far ISMCTS gets above it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent / "src")]


def main() -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from bonepile.arena.stats import wilson
    from bonepile.rl import openspiel as bos

    ap = argparse.ArgumentParser()
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--games", default="block:2,draw:2,passing:2,cinque,blind-hugie:2")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"OpenSpiel ISMCTS ({a.simulations} simulations, random rollouts) vs random, {a.hands} hands each")
    rng = random.Random(a.seed)
    for item in a.games.split(","):
        name, _, players = item.partition(":")
        params = {"players": int(players)} if players else {}
        game = pyspiel.load_game(bos.game_name(name), params)
        v = game.variant
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(a.seed)),
            2.0,
            a.simulations,
            random_state=np.random.RandomState(a.seed),
        )
        won = 0
        t = time.process_time()
        for k in range(a.hands):
            seat = k % v.players
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                elif state.current_player() == seat:
                    state.apply_action(bot.step(state))
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
            won += int(state.c.hand.result.winner == v.side_of(seat))
        lo, hi = wilson(won, a.hands)
        print(
            f"{name} {v.players}p: won {won}/{a.hands} = {100 * won / a.hands:.1f}%"
            f" (95% {100 * lo:.1f}-{100 * hi:.1f}; random seat {100 / len(v.sides):.0f}%),"
            f" {time.process_time() - t:.0f} CPU-s"
        )
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
