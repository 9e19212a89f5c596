"""Chicken Foot: how often the 32-arm limit of a move (RULES.md §16, E-16b) keeps a double in hand.

Plays random hands and counts those in which, at some turn, the table had no room for another
foot (30 arm codes used) while the player to move held a double fitting an open end: the only
moments where the engine's play differs from the rules as written.  Prints the count with a
Wilson 95% interval per player count.

Run:  PYTHONPATH=src .venv/bin/python bench/foot_room.py [--hands 5000]
"""

from __future__ import annotations

import argparse
import random

from bonepile.arena.stats import wilson
from bonepile.engine import Hand, make_variant
from bonepile.engine.tiles import DOUBLE_MASK, PIP_MASK


def bitten(h) -> bool:
    """Does the limit keep a fitting double from the player to move now?"""
    if h.room():
        return False
    fit = 0
    for a in h.arms_for(h.to_move):
        fit |= PIP_MASK[h.pip[a]]
    return bool(h.masks[h.to_move] & fit & DOUBLE_MASK)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=5000)
    args = ap.parse_args()
    for players in (2, 4, 8):
        v = make_variant("chicken-foot", {"players": players})
        rng = random.Random(players)
        hit = 0
        for i in range(args.hands):
            h = Hand.deal(v, rng, number=1 + i % 10)
            seen = False
            while not h.over:
                seen = seen or bitten(h)
                ms = h.legal_moves()
                h.apply(ms[rng.randrange(len(ms))])
            hit += seen
        lo, hi = wilson(hit, args.hands)
        print(f"{players} players: {hit} of {args.hands} hands [{lo:.2%}, {hi:.2%}]")


if __name__ == "__main__":
    main()
