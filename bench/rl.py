"""RL environments: games and steps per second with observation + mask at every decision.

    PYTHONPATH=src python bench/rl.py [--seconds 3] [--rounds 3] [--wall] [--all]

A random agent plays; at every decision the environment builds the acting seat's observation
vector and action mask (PettingZoo: ``env.last()``; Gymnasium: ``step``/``reset``; OpenSpiel:
``observation_tensor`` and ``legal_actions``).  The reference is OpenSpiel's
``python_team_dominoes`` (4 players, one hand, no boneyard) with tensors; the bonepile
counterpart is the 4-player partnership Block game, one hand per episode.

The contenders run side by side in one process, interleaved in ``--rounds`` slices of
``--seconds / --rounds`` each, and are timed in CPU seconds of this process
(``time.process_time``), so that other programs sharing the machine do not skew the ratios;
``--wall`` times with the wall clock instead.  ``--all`` adds every variant's PettingZoo
figures.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

CLOCK = time.process_time


def openspiel_runner(name: str, params: dict | None) -> Callable[[float], tuple[int, int]]:
    import pyspiel

    game = pyspiel.load_game(name, params or {})
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, int]:
        games = steps = 0
        t0 = CLOCK()
        while CLOCK() - t0 < seconds:
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
        return games, steps

    return run


def pettingzoo_runner(
    variant: str, options: dict, wrapped: bool, episode: str = "hand"
) -> Callable[[float], tuple[int, int]]:
    from bonepile.rl.pettingzoo import env, raw_env

    e = (env if wrapped else raw_env)(variant, episode=episode, **options)
    rng = random.Random(0)
    e.reset(seed=0)

    def run(seconds: float) -> tuple[int, int]:
        games = steps = 0
        t0 = CLOCK()
        while CLOCK() - t0 < seconds:
            e.reset()
            for _agent in e.agent_iter():
                obs, _r, term, trunc, _info = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            games += 1
        return games, steps

    return run


def gym_runner(variant: str, options: dict) -> Callable[[float], tuple[int, int]]:
    from bonepile.rl.gym import BonepileEnv

    e = BonepileEnv(variant, opponents="random", **options)
    rng = random.Random(0)
    e.reset(seed=0)

    def run(seconds: float) -> tuple[int, int]:
        games = steps = 0
        t0 = CLOCK()
        while CLOCK() - t0 < seconds:
            obs, info = e.reset()
            term = False
            while not term:
                legal = obs["action_mask"].nonzero()[0]
                obs, _r, term, _t, info = e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            games += 1
        return games, steps

    return run


def measure(
    runners: list[tuple[str, Callable]],
    seconds: float,
    rounds: int,
    ref_label: str | None,
    compare: set[str] | None = None,
) -> None:
    """Run the runners interleaved; print games/s, steps/s and the ratio to the reference."""
    totals = {label: [0, 0, 0.0] for label, _ in runners}
    for _ in range(rounds):
        for label, run in runners:
            t0 = CLOCK()
            games, steps = run(seconds / rounds)
            acc = totals[label]
            acc[0] += games
            acc[1] += steps
            acc[2] += CLOCK() - t0
    ref = None
    if ref_label is not None:
        g, _s, dt = totals[ref_label]
        ref = g / dt
    for label, _ in runners:
        games, steps, dt = totals[label]
        gps = games / dt
        shown = ref and label != ref_label and (compare is None or label in compare)
        extra = f"  {gps / ref:5.1f}x" if shown else ""
        print(f"{label:64s} {gps:9.0f} games/s {steps / dt:9.0f} steps/s{extra}")


def main() -> None:
    global CLOCK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="per contender (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved slices (default 3)")
    ap.add_argument("--wall", action="store_true", help="time with the wall clock")
    ap.add_argument("--all", action="store_true", help="every variant's PettingZoo figures")
    args = ap.parse_args()
    if args.wall:
        CLOCK = time.perf_counter
    sec, rounds = args.seconds, max(1, args.rounds)
    print(f"({'wall-clock' if args.wall else 'CPU'} time, {rounds} interleaved rounds)")
    teams = {"players": 4, "teams": True}
    runners: list[tuple[str, Callable]] = []
    ref_label = None
    try:
        import open_spiel.python.games  # noqa: F401  (registers python_team_dominoes)
        import pyspiel  # noqa: F401

        ref_label = "OpenSpiel python_team_dominoes (obs tensor)"
        runners.append((ref_label, openspiel_runner("python_team_dominoes", None)))
    except ImportError:
        print("open_spiel not installed: no reference figure")
    runners += [
        ("bonepile PettingZoo block 4p teams, hand (env)", pettingzoo_runner("block", teams, wrapped=True)),
        (
            "bonepile PettingZoo block 4p teams, hand (raw_env)",
            pettingzoo_runner("block", teams, wrapped=False),
        ),
        ("bonepile Gymnasium block 4p teams, hand (random bots)", gym_runner("block", teams)),
    ]
    if ref_label is not None:
        import bonepile.rl.openspiel  # noqa: F401

        runners.append(
            (
                "bonepile OpenSpiel python_bonepile_block 4p teams (obs tensor)",
                openspiel_runner("python_bonepile_block", teams),
            )
        )
    runners.append(
        (
            "bonepile PettingZoo block 4p teams, whole game to 100 (env)",
            pettingzoo_runner("block", teams, wrapped=True, episode="game"),
        )
    )
    # (the whole-game row plays several hands per episode: no ratio to one-hand games)
    measure(runners, sec, rounds, ref_label, {label for label, _ in runners if "whole game" not in label})
    if args.all:
        from bonepile.engine.variant import PLAYER_COUNTS

        extra = []
        for name, counts in PLAYER_COUNTS.items():
            for n in counts:
                opts = {"players": n} if len(counts) > 1 else {}
                extra.append(
                    (f"PettingZoo {name} {n}p, hand (env)", pettingzoo_runner(name, opts, wrapped=True))
                )
        measure(extra, sec / 3, 1, None)


if __name__ == "__main__":
    main()
