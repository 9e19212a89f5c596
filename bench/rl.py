"""RL environments: steps and full games per second, observation + mask at every decision.

    PYTHONPATH=src python bench/rl.py [--seconds 3] [--all]

A random agent plays; at every decision the environment builds the acting seat's observation
vector and action mask (PettingZoo: ``env.last()``; OpenSpiel: ``observation_tensor`` and
``legal_actions``).  The reference is OpenSpiel's ``python_team_dominoes`` (4 players, one
hand, no boneyard) with tensors; the bonepile counterpart is the 4-player partnership Block
game, one hand per episode.  ``--all`` adds every variant's PettingZoo figures.
"""
from __future__ import annotations

import argparse
import random
import time

import numpy as np


def bench_openspiel(name: str, params: dict | None, seconds: float) -> tuple[int, int, float]:
    import pyspiel
    game = pyspiel.load_game(name, params or {})
    rng = random.Random(0)
    games = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            p = state.current_player()
            state.observation_tensor(p)
            legal = state.legal_actions(p)
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - t0


def bench_pettingzoo(variant: str, options: dict, seconds: float, wrapped: bool,
                     episode: str = "hand") -> tuple[int, int, float]:
    from bonepile.rl.pettingzoo import env, raw_env
    e = (env if wrapped else raw_env)(variant, episode=episode, **options)
    rng = random.Random(0)
    games = steps = 0
    e.reset(seed=0)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        e.reset()
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - t0


def bench_gym(variant: str, options: dict, seconds: float) -> tuple[int, int, float]:
    from bonepile.rl.gym import BonepileEnv
    e = BonepileEnv(variant, opponents="random", **options)
    rng = random.Random(0)
    games = steps = 0
    obs, info = e.reset(seed=0)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        obs, info = e.reset()
        term = False
        while not term:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _r, term, _t, info = e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        games += 1
    return games, steps, time.perf_counter() - t0


def row(label: str, result: tuple[int, int, float], ref: float | None = None) -> float:
    games, steps, dt = result
    gps = games / dt
    extra = f"  {gps / ref:5.1f}x" if ref else ""
    print(f"{label:64s} {gps:9.0f} games/s {steps / dt:9.0f} steps/s{extra}")
    return gps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--all", action="store_true", help="every variant's PettingZoo figures")
    args = ap.parse_args()
    sec = args.seconds
    teams = {"players": 4, "teams": True}
    ref = None
    try:
        import pyspiel  # noqa: F401
        import open_spiel.python.games  # noqa: F401  (registers python_team_dominoes)
        ref = row("OpenSpiel python_team_dominoes (obs tensor)", bench_openspiel(
            "python_team_dominoes", None, sec))
    except ImportError:
        print("open_spiel not installed: no reference figure")
    row("bonepile PettingZoo block 4p teams, hand (env)",
        bench_pettingzoo("block", teams, sec, wrapped=True), ref)
    row("bonepile PettingZoo block 4p teams, hand (raw_env)",
        bench_pettingzoo("block", teams, sec, wrapped=False), ref)
    row("bonepile Gymnasium block 4p teams, hand (random bots)", bench_gym("block", teams, sec), ref)
    if ref is not None:
        import bonepile.rl.openspiel  # noqa: F401
        row("bonepile OpenSpiel python_bonepile_block 4p teams (obs tensor)",
            bench_openspiel("python_bonepile_block", teams, sec), ref)
    row("bonepile PettingZoo block 4p teams, whole game to 100 (env)",
        bench_pettingzoo("block", teams, sec, wrapped=True, episode="game"))
    if args.all:
        from bonepile.engine.variant import PLAYER_COUNTS
        for name, counts in PLAYER_COUNTS.items():
            for n in counts:
                opts = {"players": n} if len(counts) > 1 else {}
                row(f"PettingZoo {name} {n}p, hand (env)",
                    bench_pettingzoo(name, opts, sec / 3, wrapped=True))


if __name__ == "__main__":
    main()
