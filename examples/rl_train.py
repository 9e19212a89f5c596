"""Train a tiny policy-gradient agent on 2-player Block and measure it against `random`.

    PYTHONPATH=src python examples/rl_train.py [--train 20000] [--eval 5000] [--seed 0]

numpy only.  The agent scores each legal action with a linear function of a few features read
from the observation vector (bonepile.rl.obs) and the action id: the tile's pips, whether it is
a double, how many of the agent's other tiles carry the pip it leaves open, how many tiles with
that pip are already on the table, and whether the action is a draw or a pass.  The policy is
the softmax of those scores over the legal actions, trained with REINFORCE (win/loss reward,
running-mean baseline) against the random bot.  It is then evaluated on fresh deals, and the
win rate is printed with a 95% Wilson interval, next to the random agent's on the same deals.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from bonepile.engine.tiles import HI, IS_DOUBLE, LO, PIP_MASK, PIPS, bits
from bonepile.rl.gym import BonepileEnv

N_FEATURES = 5


def features(env: BonepileEnv, obs: dict, legal: np.ndarray) -> np.ndarray:
    enc = env.encoder
    f = enc.describe(obs["observation"])
    own = sum(1 << int(t) for t in np.flatnonzero(f["hand"]))
    played = sum(1 << int(t) for t in np.flatnonzero(f["played"]))
    ends = f["ends"].reshape(4, 7)
    phi = np.zeros((len(legal), N_FEATURES))
    for i, a in enumerate(legal):
        if a >= 112:
            phi[i, 4] = 1.0
            continue
        t, arm = int(a) >> 2, int(a) & 3
        if f["empty_table"][0]:
            left = LO[t]
        else:
            p = int(np.argmax(ends[arm]))
            left = HI[t] if LO[t] == p else LO[t]
        rest = own & ~(1 << t)
        phi[i] = (
            PIPS[t] / 12.0,
            float(IS_DOUBLE[t]),
            len(bits(rest & PIP_MASK[left])) / 7.0,
            len(bits(played & PIP_MASK[left])) / 7.0,
            0.0,
        )
    return phi


def policy(theta: np.ndarray, phi: np.ndarray) -> np.ndarray:
    z = phi @ theta
    z -= z.max()
    p = np.exp(z)
    return p / p.sum()


def play(
    env: BonepileEnv, theta: np.ndarray | None, rng: np.random.Generator, seed: int, learn: list | None = None
) -> float:
    """One hand; returns the win/loss reward.  With ``learn``, records (phi, choice)."""
    obs, info = env.reset(seed=seed)
    done = False
    reward = 0.0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        if theta is None:
            k = int(rng.integers(len(legal)))
        else:
            phi = features(env, obs, legal)
            k = int(rng.choice(len(legal), p=policy(theta, phi)))
            if learn is not None:
                learn.append((phi, k))
        obs, reward, done, _, info = env.step(int(legal[k]))
    return reward


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def evaluate(env: BonepileEnv, theta, n: int, seed: int) -> tuple[int, int, int]:
    rng = np.random.default_rng(seed + 1)
    w = lo = 0
    for i in range(n):
        r = play(env, theta, rng, seed=10**6 + i)  # the same deals for every agent
        w += r > 0
        lo += r < 0
    return w, lo, n - w - lo


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=int, default=20000, help="training hands")
    ap.add_argument("--eval", type=int, default=5000, help="evaluation hands")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=0.05)
    args = ap.parse_args()
    env = BonepileEnv("block", players=2, opponents="random", reward="win_loss")
    rng = np.random.default_rng(args.seed)
    theta = np.zeros(N_FEATURES)
    baseline = 0.0
    t0 = time.perf_counter()
    for i in range(args.train):
        steps: list = []
        r = play(env, theta, rng, seed=args.seed * 10**7 + i, learn=steps)
        adv = r - baseline
        baseline += 0.01 * (r - baseline)
        for phi, k in steps:
            p = policy(theta, phi)
            theta += args.lr * adv * (phi[k] - p @ phi)
    t_train = time.perf_counter() - t0
    print(
        f"trained on {args.train} hands in {t_train:.1f} s; weights "
        f"(pips, double, own tiles on the open pip, tiles of it played, draw/pass): "
        + " ".join(f"{x:+.2f}" for x in theta)
    )
    t0 = time.perf_counter()
    for name, th in (("trained agent", theta), ("random agent", None)):
        w, lo, ties = evaluate(env, th, args.eval, args.seed)
        a, b = wilson(w, args.eval)
        print(
            f"{name:14s} vs random, 2-player Block, {args.eval} hands: won {w}, lost {lo}, "
            f"tied {ties}; win rate {w / args.eval:.3f} (95% CI {a:.3f}-{b:.3f})"
        )
    print(f"evaluation: {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
