"""Train engine speed, side by side with an earlier commit: Mexican Train's random play (hands
per second, 2, 4 and 8 players) and the search's push/pop (moves tried per second), the same
two for Chicken Foot (4 players).

The earlier commit's ``src`` is extracted with ``git archive`` into a temporary folder; each
round runs both versions, one after the other, in fresh processes doing the same work (the
same deals and moves), and the figures are CPU seconds (``time.process_time``), so that a
busy machine slows both alike.  Prints the median of the rounds and the ratio after/before.

Run:  PYTHONPATH=src python bench/trains_speed.py --against <commit> [--rounds 5] [--hands 150]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = (2, 4, 8)


def random_play(v: object, hands: int, rng: random.Random) -> tuple[int, float]:
    """``hands`` hands of uniformly random moves: the moves made and the CPU seconds."""
    from bonepile.engine import Game

    moves = 0
    t0 = time.process_time()
    for seed in range(hands):
        h = Game(v, seed=seed, snapshots=False).hand
        while not h.over:
            ms = h.legal_moves()
            h.apply(ms[rng.randrange(len(ms))])
            moves += 1
    return moves, time.process_time() - t0


def search_steps(v: object, hands: int, rng: random.Random) -> float:
    """The search's step: every legal move pushed, its replies listed, popped (moves/s)."""
    from bonepile.engine import Hand

    tried = 0
    t0 = time.process_time()
    for seed in range(hands):
        h = Hand.deal(v, random.Random(seed))
        while not h.over:
            ms = h.legal_moves()
            for m in ms:
                h.push(m)
                h.legal_moves()
                h.pop()
                tried += 1
            h.apply(ms[rng.randrange(len(ms))])
    return tried / (time.process_time() - t0)


def work(hands: int) -> dict[str, float]:
    """One version's figures (run in a worker process, its ``bonepile`` on PYTHONPATH)."""
    from bonepile.engine import make_variant

    out: dict[str, float] = {}
    for n in PLAYERS:
        v = make_variant("mexican-train", {"players": n, "rounds": 1})
        _, secs = random_play(v, hands, random.Random(n))
        out[f"random play, {n} players (hands/s)"] = hands / secs
    foot = make_variant("chicken-foot", {"players": 4, "rounds": 1})
    _, secs = random_play(foot, hands, random.Random(4))
    out["chicken foot, random play, 4 players (hands/s)"] = hands / secs
    # for scale: a line game's random play, per move (a train hand is five times as long)
    moves, secs = random_play(make_variant("draw", {"players": 2}), hands * 4, random.Random(2))
    out["(draw, 2 players, double-six: moves/s)"] = moves / secs
    train = make_variant("mexican-train", {"players": 4, "rounds": 1})
    out["push, legal moves, pop, 4 players (moves/s)"] = search_steps(train, hands // 3, random.Random(0))
    out["chicken foot: push, legal moves, pop (moves/s)"] = search_steps(foot, hands // 3, random.Random(0))
    return out


def run(src: Path, hands: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, __file__, "--worker", "--hands", str(hands)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--against", help="the earlier commit (default: compare the working tree with itself)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(work(args.hands)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        before_src = ROOT / "src"
        if args.against:
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.against, "src"], capture_output=True, check=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            before_src = Path(tmp) / "src"
        before: list[dict[str, float]] = []
        after: list[dict[str, float]] = []
        for _ in range(args.rounds):
            before.append(run(before_src, args.hands))
            after.append(run(ROOT / "src", args.hands))
    print(
        f"{'':52} {'before':>10} {'after':>10} {'ratio':>7} {'rounds':>12}"
        f"   ({args.rounds} rounds, medians, CPU time; rounds: the lowest and highest ratio of one round)"
    )
    for key in before[0]:
        b = statistics.median(r[key] for r in before)
        a = statistics.median(r[key] for r in after)
        each = sorted(y[key] / x[key] for x, y in zip(before, after, strict=True))
        print(f"{key:52} {b:10,.0f} {a:10,.0f} {a / b:6.2f}x {each[0]:5.2f}-{each[-1]:.2f}x")


if __name__ == "__main__":
    main()
