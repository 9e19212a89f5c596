"""Mexican Train (and Chicken Foot) in the RL adapters: environment speed, and a MaskablePPO agent against random.

    PYTHONPATH=src python bench/rl_trains.py speed [--seconds 6] [--rounds 3]
    PYTHONPATH=src python bench/rl_trains.py ppo [--minutes 20] [--eval 2000] [--players 2]
                                             [--seed 0] [--out FILE.json]

``speed``: a random agent plays PettingZoo hands (the raw environment: an observation and a
mask at every decision) of Mexican Train with 2 and 4 players and 4-player Chicken Foot, next
to 2-player Block and
Cuban (the line games' encoder, double-six and double-nine); the contenders run interleaved in
``--rounds`` slices and are timed in CPU seconds of this process (``time.process_time``), so
other programs on the machine do not skew the ratios.

``ppo``: sb3-contrib's MaskablePPO (``MultiInputPolicy``, the masks from ``action_masks()``)
trains on ``bonepile/MexicanTrain-v2`` (one seat against the random bot, net rewards: the
others' penalties minus one's own) for ``--minutes`` of wall time, then plays ``--eval`` fresh
hands against random with its most likely legal action; a random agent plays the same deals
(the same seeds) as the baseline.  A hand is won by going out first or, when blocked, by the
fewest pips left (a tie is not a win).  Prints each share won with its Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import warnings
from collections.abc import Callable

CLOCK = time.process_time


def pettingzoo_runner(variant: str, options: dict) -> Callable[[float], tuple[int, int]]:
    import numpy as np

    from bonepile.rl.pettingzoo import raw_env

    e = raw_env(variant, **options)
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def run(seconds: float) -> tuple[int, int]:
        hands = steps = 0
        t0 = CLOCK()
        while CLOCK() - t0 < seconds:
            e.reset(seed=next(seeds))
            while e.agents:
                obs, _r, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            hands += 1
        return hands, steps

    return run


def speed(args: argparse.Namespace) -> None:
    cases = [
        ("mexican-train 2p", "mexican-train", {"players": 2}),
        ("mexican-train 4p", "mexican-train", {"players": 4}),
        ("chicken-foot 4p", "chicken-foot", {"players": 4}),
        ("block 2p", "block", {"players": 2}),
        ("cuban 4p", "cuban", {}),
    ]
    runners = [(label, pettingzoo_runner(v, o)) for label, v, o in cases]
    totals = {label: [0, 0, 0.0] for label, _ in runners}
    slice_s = args.seconds / args.rounds
    for _ in range(args.rounds):
        for label, run in runners:
            t0 = CLOCK()
            h, s = run(slice_s)
            t = totals[label]
            t[0] += h
            t[1] += s
            t[2] += CLOCK() - t0
    base = totals["block 2p"][1] / totals["block 2p"][2]
    print(
        f"{'PettingZoo raw_env, random agent':34} {'hands/s':>9} {'steps/s':>9} {'steps/hand':>10} {'vs block':>8}"
    )
    for label, (h, s, t) in totals.items():
        print(f"{label:34} {h / t:9.1f} {s / t:9.0f} {s / max(h, 1):10.1f} {s / t / base:8.2f}")


def _won(info: dict, seat: int) -> bool:
    return info.get("winner") == seat


def ppo(args: argparse.Namespace) -> None:
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    from bonepile.arena.stats import wilson
    from bonepile.rl.gym import GYM_IDS_V2, BonepileEnv

    torch.set_num_threads(1)
    kwargs = {"players": args.players, "opponents": "random", "reward": "net"}
    vec = make_vec_env(GYM_IDS_V2["mexican-train"], n_envs=4, seed=args.seed, env_kwargs=kwargs)
    model = MaskablePPO("MultiInputPolicy", vec, n_steps=512, batch_size=256, seed=args.seed, verbose=0)
    t0, c0 = time.monotonic(), CLOCK()
    curve = []
    while time.monotonic() - t0 < args.minutes * 60:
        model.learn(8192, reset_num_timesteps=False)
        curve.append((model.num_timesteps, round(time.monotonic() - t0)))
        print(f"  {model.num_timesteps:,} steps, {time.monotonic() - t0:.0f} s", flush=True)
    train_wall, train_cpu = time.monotonic() - t0, CLOCK() - c0

    def evaluate(agent: Callable[[np.ndarray, np.ndarray], int]) -> tuple[int, int]:
        won = hands = 0
        for k in range(args.eval):
            seat = k % args.players
            env = BonepileEnv("mexican-train", seat=seat, auto_forced=True, **kwargs)
            obs, info = env.reset(seed=1_000_000 + k)
            done = False
            while not done:
                obs, _r, done, _t, info = env.step(agent(obs, env.action_masks()))
            won += _won(info, seat)
            hands += 1
        return won, hands

    def ppo_agent(obs, mask):
        a, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(a)

    rng = random.Random(args.seed)

    def random_agent(_obs, mask):
        legal = np.flatnonzero(mask)
        return int(legal[rng.randrange(len(legal))])

    results = {}
    for name, agent in (("maskable_ppo", ppo_agent), ("random", random_agent)):
        won, hands = evaluate(agent)
        lo, hi = wilson(won, hands)
        results[name] = {"won": won, "hands": hands, "rate": won / hands, "ci95": [lo, hi]}
        print(f"{name:13} vs random: {won}/{hands} hands won = {won / hands:.1%} (95%: {lo:.1%}-{hi:.1%})")
    out = {
        "players": args.players,
        "seed": args.seed,
        "timesteps": model.num_timesteps,
        "train_wall_s": round(train_wall),
        "train_cpu_s": round(train_cpu),
        "curve": curve,
        "eval": results,
    }
    print(json.dumps(out))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


def main() -> None:
    warnings.simplefilter("ignore")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--seconds", type=float, default=6.0)
    s.add_argument("--rounds", type=int, default=3)
    t = sub.add_parser("ppo")
    t.add_argument("--minutes", type=float, default=20.0)
    t.add_argument("--eval", type=int, default=2000)
    t.add_argument("--players", type=int, default=2)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out")
    args = p.parse_args()
    speed(args) if args.cmd == "speed" else ppo(args)


if __name__ == "__main__":
    main()
