"""Mexican Train engine speed, side by side with an earlier commit: random play (hands per
second, 2, 4 and 8 players) and the search's push/pop (moves tried per second).

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


def work(hands: int) -> dict[str, float]:
    """One version's figures (run in a worker process, its ``bonepile`` on PYTHONPATH)."""
    from bonepile.engine import Game, Hand, make_variant

    out: dict[str, float] = {}
    for n in PLAYERS:
        v = make_variant("mexican-train", {"players": n, "rounds": 1})
        rng = random.Random(n)
        t0 = time.process_time()
        for seed in range(hands):
            h = Game(v, seed=seed, snapshots=False).hand
            while not h.over:
                ms = h.legal_moves()
                h.apply(ms[rng.randrange(len(ms))])
        secs = time.process_time() - t0
        out[f"random play, {n} players (hands/s)"] = hands / secs
    # for scale: a line game's random play, per move (a train hand is five times as long)
    v = make_variant("draw", {"players": 2})
    moves = 0
    t0 = time.process_time()
    for seed in range(hands * 4):
        h = Game(v, seed=seed, snapshots=False).hand
        while not h.over:
            ms = h.legal_moves()
            h.apply(ms[rng.randrange(len(ms))])
            moves += 1
    out["(draw, 2 players, double-six: moves/s)"] = moves / (time.process_time() - t0)
    # the search's step: every legal move pushed, its replies listed, popped
    v = make_variant("mexican-train", {"players": 4, "rounds": 1})
    rng = random.Random(0)
    tried = 0
    t0 = time.process_time()
    for seed in range(hands // 3):
        h = Hand.deal(v, random.Random(seed))
        while not h.over:
            ms = h.legal_moves()
            for m in ms:
                h.push(m)
                h.legal_moves()
                h.pop()
                tried += 1
            h.apply(ms[rng.randrange(len(ms))])
    out["push, legal moves, pop, 4 players (moves/s)"] = tried / (time.process_time() - t0)
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
    print(f"{'':46} {'before':>10} {'after':>10} {'ratio':>7}   ({args.rounds} rounds, medians, CPU time)")
    for key in before[0]:
        b = statistics.median(r[key] for r in before)
        a = statistics.median(r[key] for r in after)
        print(f"{key:46} {b:10,.0f} {a:10,.0f} {a / b:6.2f}x")


if __name__ == "__main__":
    main()
