"""Tiles of the double-six set as small ints, with lookup tables.

Tile ``t`` is the pair ``(HI[t], LO[t])`` with ``HI >= LO``; ``t = HI*(HI+1)//2 + LO``.
A set of tiles is a 28-bit int mask.  Moves are ints: ``tile*4 + arm`` places a tile
(for the first tile of a layout the low bits are the orientation instead of an arm),
``PASS`` and ``DRAW`` are the two other actions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

N_TILES = 28
ALL_TILES = (1 << N_TILES) - 1

HI: list[int] = []
LO: list[int] = []
for _a in range(7):
    for _b in range(_a + 1):
        HI.append(_a)
        LO.append(_b)

PIPS = [HI[t] + LO[t] for t in range(N_TILES)]
IS_DOUBLE = [HI[t] == LO[t] for t in range(N_TILES)]
BIT = [1 << t for t in range(N_TILES)]
NAME = [f"{HI[t]}-{LO[t]}" for t in range(N_TILES)]

#: PIP_MASK[p]: mask of the tiles that carry pip p.
PIP_MASK = [0] * 7
for _t in range(N_TILES):
    PIP_MASK[HI[_t]] |= BIT[_t]
    PIP_MASK[LO[_t]] |= BIT[_t]
DOUBLE_MASK = sum(BIT[t] for t in range(N_TILES) if IS_DOUBLE[t])

#: OTHER[t*7 + p]: the other pip of tile t when its pip p is attached, or -1.
OTHER = [-1] * (N_TILES * 7)
for _t in range(N_TILES):
    OTHER[_t * 7 + HI[_t]] = LO[_t]
    OTHER[_t * 7 + LO[_t]] = HI[_t]

# Arms of a layout.  L and R are the line's two ends; U and D grow from a spinner.
L, R, U, D = 0, 1, 2, 3
ARM_NAMES = "LRUD"
ARM_INDEX = {c: i for i, c in enumerate(ARM_NAMES)}

PASS = N_TILES * 4  # 112
DRAW = PASS + 1  # 113
N_ACTIONS = DRAW + 1  # 114: a fixed, arithmetic action space


def tile_index(a: int, b: int) -> int:
    if a < b:
        a, b = b, a
    return a * (a + 1) // 2 + b


def bits(mask: int) -> list[int]:
    """Tiles of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(tiles: Iterable[int]) -> int:
    """Mask of distinct tiles."""
    return sum(map(BIT.__getitem__, tiles))


def _pip_table(offset: int) -> list[int]:
    table = [0] * (1 << 14)
    for m in range(1, 1 << 14):
        low = m & -m
        table[m] = table[m ^ low] + PIPS[low.bit_length() - 1 + offset]
    return table


_PIPS_LO = _pip_table(0)
_PIPS_HI = _pip_table(14)


def mask_pips(mask: int) -> int:
    """Total pips of the tiles in a mask."""
    return _PIPS_LO[mask & 0x3FFF] + _PIPS_HI[mask >> 14]


_TILE_RE = re.compile(r"([0-6])-([0-6])")


def parse_tile(text: object) -> tuple[int, int, int] | None:
    """``"a-b"`` -> (tile, a, b) with a and b as written, or None if malformed."""
    if not isinstance(text, str):
        return None
    m = _TILE_RE.fullmatch(text)
    if not m:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return tile_index(a, b), a, b


def heavier(t1: int, t2: int) -> bool:
    """Is t1 the heavier tile: more pips, ties broken by the higher end."""
    return (PIPS[t1], HI[t1]) > (PIPS[t2], HI[t2])
