"""RECORD.md's "Extensions" says how a hand is dealt from a seed precisely enough for another
implementation: this test is one, written from the document alone (its own Mersenne Twister,
BLAKE2b and SHA-256 from hashlib, no ``random`` module, no bonepile dealing code), and deals
the same tiles as the engine."""

from __future__ import annotations

import hashlib

import pytest

from bonepile.engine import Game
from bonepile.engine.commit import commitment
from bonepile.engine.tiles import NAME


class MT19937:
    """The generator of RECORD.md step 3, seeded by ``init_by_array`` of the seed's 32-bit words."""

    def __init__(self, seed: int):
        key = []
        n = abs(seed)
        while True:
            key.append(n & 0xFFFFFFFF)
            n >>= 32
            if not n:
                break
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i, j = i + 1, j + 1
            if i >= 624:
                mt[0], i = mt[623], 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, 624

    def next32(self) -> int:
        mt = self.mt
        if self.index >= 624:
            for k in range(624):
                y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7FFFFFFF)
                mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def random(self) -> float:
        a, b = self.next32() >> 5, self.next32() >> 6
        return (a * 67108864 + b) / 2**53

    def randrange(self, k: int) -> int:
        bits = k.bit_length()
        while True:
            r = self.next32() >> (32 - bits)
            if r < k:
                return r


def hand_generator(seed: int, n: int) -> MT19937:
    digest = hashlib.blake2b(f"{seed}:hand:{n}".encode(), digest_size=8).digest()
    return MT19937(int.from_bytes(digest, "big") >> 1)


def deal(seed: int, n: int, sizes: list[int], leader_first: bool = False):
    g = hand_generator(seed, n)
    drawn = [g.random() for _ in range(28)]
    tiles = sorted(range(28), key=lambda t: drawn[t])
    players = len(sizes)
    leader = g.randrange(players) if leader_first else 0
    if leader_first:
        sizes = [sizes[(s - leader) % players] for s in range(players)]
    rows, pos = [], 0
    for size in sizes:
        rows.append([NAME[t] for t in tiles[pos : pos + size]])
        pos += size
    return rows, [NAME[t] for t in tiles[pos:]]


def test_the_documented_commitment_bytes():
    seed, salt = 2**63 + 12345, "ab" * 20
    text = f"bonepile-deals/sha256-v1:{seed}:{salt}".encode("ascii")
    assert hashlib.sha256(text).hexdigest() == commitment(seed, salt)


@pytest.mark.parametrize(
    "variant,options,sizes,leader_first",
    [
        ("draw", {"players": 3}, [5, 5, 5], False),
        ("block", {"players": 4}, [7, 7, 7, 7], False),
        ("billitonnen", {"players": 5}, [6, 6, 6, 5, 5], True),
    ],
)
@pytest.mark.parametrize("seed", [0, 7, 2**61 + 3])
def test_an_outside_implementation_deals_what_the_engine_deals(variant, options, sizes, leader_first, seed):
    game = Game.new(variant, options, seed=seed)
    doc = game.record()
    rows, bone = deal(seed, 1, sizes, leader_first)
    assert doc["hands"][0]["deal"] == rows
    assert doc["hands"][0]["boneyard"] == bone
