"""Seeded deals: hand ``n`` of the game with seed ``S`` is dealt from
``random.Random(derive(S, "hand", n))``.

A hand's tiles therefore depend only on the game's seed and the hand's number, not on how
earlier hands were played: every replay of a game (another seating in the arena, an undo in
terminal play, a server rebuilding a table from its stored actions) gets the same tiles for
the same hand.  The derivation is stable across runs, processes and platforms; stored games
rely on it, so it must never change.
"""

from __future__ import annotations

import hashlib
import random


def derive(*parts: object) -> int:
    """A 63-bit seed derived from the parts (stable across runs, processes and platforms)."""
    text = ":".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def hand_rng(game_seed: int, number: int) -> random.Random:
    """The random generator hand ``number`` of game ``game_seed`` is dealt from."""
    return random.Random(derive(game_seed, "hand", number))


def new_seed() -> int:
    """A fresh game seed from the operating system's entropy."""
    return random.SystemRandom().getrandbits(62)
