"""The Gymnasium environment with and without ``auto_forced``: agent steps, hands and the share of
forced decisions per CPU-second, side by side in one run.

    PYTHONPATH=src nice -n 10 python bench/rl_forced.py [--variant block --players 2]
        [--opponents random] [--seconds 6] [--rounds 3]

A random agent (uniform over its legal actions) plays one seat against bots.  Version 1
(``auto_forced=False``) hands every decision to the agent, forced ones included; version 2
(``auto_forced=True``) plays a decision with one legal action for it.  The two run interleaved
in ``--rounds`` slices, timed in CPU seconds of this process (``time.process_time``), so that
other programs on a shared machine do not skew the ratio.
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

    from bonepile.rl.gym import BonepileEnv

    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="block")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    totals = {flag: [0, 0, 0, 0.0] for flag in (False, True)}  # steps, hands, forced steps, cpu
    envs = {
        flag: BonepileEnv(a.variant, players=a.players, opponents=a.opponents, auto_forced=flag)
        for flag in (False, True)
    }
    rng = random.Random(0)
    for r in range(a.rounds):
        for flag, env in envs.items():
            t = totals[flag]
            obs, info = env.reset(seed=1000 * r + int(flag))
            start = time.process_time()
            while time.process_time() - start < a.seconds / a.rounds:
                legal = np.flatnonzero(info["action_mask"])
                t[2] += int(len(legal) == 1)
                obs, _, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
                t[0] += 1
                if done:
                    t[1] += 1
                    obs, info = env.reset(seed=rng.getrandbits(31))
            t[3] += time.process_time() - start
    print(f"{a.variant} {a.players}p, a random agent against {a.opponents}")
    print(f"{'auto_forced':<12}{'steps/CPU-s':>12}{'hands/CPU-s':>13}{'steps/hand':>12}{'forced steps':>14}")
    base = None
    for flag, (steps, hands, forced, cpu) in totals.items():
        hands_rate = hands / cpu
        base = base or hands_rate
        print(
            f"{str(flag):<12}{steps / cpu:>12.0f}{hands_rate:>13.0f}{steps / max(hands, 1):>12.2f}"
            f"{100 * forced / max(steps, 1):>13.1f}%"
        )
    print(f"hands per CPU-second, auto_forced True / False: {hands_rate / base:.2f}x")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
