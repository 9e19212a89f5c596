"""Tiles of every set (double-six, double-nine, double-twelve) as small ints, with lookup tables.

Tile ``t`` is the pair ``(HI[t], LO[t])`` with ``HI >= LO``; ``t = HI*(HI+1)//2 + LO``.  The
index is triangular, so a tile has the same index in every set and the double-``n`` set is
exactly the tiles ``0 .. (n+1)(n+2)/2 - 1``: the tables below are built once for the largest
set (double-twelve: 91 tiles, pips 0..12) and serve every set.  What differs per set is its
``TileSet`` (``tile_set(pips)``): its tile count, its mask and its pip range; a ``Variant``
names its set by its highest pip (``Variant.pips``).

A set of tiles is an int mask (28 bits for double-six, up to 91).  Moves are ints:
``move(tile, arm) == tile << ARM_BITS | arm`` places a tile (for the first tile of a layout the
low bits are the orientation instead of an arm); ``ARM_BITS`` leaves room for 32 arms (a line
has four, Mexican Train nine, Chicken Foot up to 24).  ``PASS`` and ``DRAW`` are the two other
actions, past every tile move of the largest set.  Move ints are internal: what is stored
(records, views, RL action ids) writes tiles and arms, never these ints.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: the highest pip of the largest set, and its tile count
MAX_PIP = 12
MAX_TILES = (MAX_PIP + 1) * (MAX_PIP + 2) // 2  # 91

HI: list[int] = []
LO: list[int] = []
for _a in range(MAX_PIP + 1):
    for _b in range(_a + 1):
        HI.append(_a)
        LO.append(_b)

PIPS = [HI[t] + LO[t] for t in range(MAX_TILES)]
IS_DOUBLE = [HI[t] == LO[t] for t in range(MAX_TILES)]
BIT = [1 << t for t in range(MAX_TILES)]
NAME = [f"{HI[t]}-{LO[t]}" for t in range(MAX_TILES)]

#: PIP_MASK[p]: mask of the tiles that carry pip p (in the largest set: a hand of a smaller
#: set holds only its own tiles, so ``hand & PIP_MASK[p]`` is right for every set).
PIP_MASK = [0] * (MAX_PIP + 1)
for _t in range(MAX_TILES):
    PIP_MASK[HI[_t]] |= BIT[_t]
    PIP_MASK[LO[_t]] |= BIT[_t]
DOUBLE_MASK = sum(BIT[t] for t in range(MAX_TILES) if IS_DOUBLE[t])

#: the stride of ``OTHER``: one row per tile, one column per pip
STRIDE = MAX_PIP + 1  # 13
#: OTHER[t*STRIDE + p]: the other pip of tile t when its pip p is attached, or -1.  (The hot
#: paths write the stride as the literal 13.)
OTHER = [-1] * (MAX_TILES * STRIDE)
for _t in range(MAX_TILES):
    OTHER[_t * STRIDE + HI[_t]] = LO[_t]
    OTHER[_t * STRIDE + LO[_t]] = HI[_t]


@dataclass(frozen=True)
class TileSet:
    """One set of tiles: the double-``pips`` set."""

    name: str  # "double-six", "double-nine", "double-twelve" (the records' ``set``)
    pips: int  # the highest pip
    n_tiles: int
    all_tiles: int  # the mask of the set's tiles (bits 0 .. n_tiles - 1)
    doubles_high_first: tuple[int, ...]  # the set's doubles, highest first


def _make_set(name: str, pips: int) -> TileSet:
    n = (pips + 1) * (pips + 2) // 2
    doubles = tuple(t for t in range(n - 1, -1, -1) if IS_DOUBLE[t])
    return TileSet(name, pips, n, (1 << n) - 1, doubles)


#: the sets, by highest pip
SETS: dict[int, TileSet] = {
    6: _make_set("double-six", 6),
    9: _make_set("double-nine", 9),
    12: _make_set("double-twelve", 12),
}
#: the sets, by name
SET_NAMES: dict[str, TileSet] = {s.name: s for s in SETS.values()}
SIX = SETS[6]


def tile_set(pips: int) -> TileSet:
    """The set whose highest pip is ``pips`` (6, 9 or 12)."""
    return SETS[pips]


#: the double-six set's tile count and mask, for code that is double-six only by design
#: (the learned models and their features); everything else reads its variant's set
N_TILES = SIX.n_tiles  # 28
ALL_TILES = SIX.all_tiles

# Arms of a layout.  L and R are the line's two ends; U and D grow from a spinner.
L, R, U, D = 0, 1, 2, 3
ARM_NAMES = "LRUD"
ARM_INDEX = {c: i for i, c in enumerate(ARM_NAMES)}
#: the arms of the train layout (``engine/trains.py``): seat s's train is arm s, named
#: ``str(s + 1)``; the Mexican train is arm 8, "M"
TRAIN_NAMES = ("1", "2", "3", "4", "5", "6", "7", "8", "M")
TRAIN_INDEX = {c: i for i, c in enumerate(TRAIN_NAMES)}

#: a move is ``tile << ARM_BITS | arm``: room for 32 arms
ARM_BITS = 5
ARM_MASK = (1 << ARM_BITS) - 1  # 31
MAX_ARMS = 1 << ARM_BITS

PASS = MAX_TILES << ARM_BITS  # 2912: past every tile move of every set
DRAW = PASS + 1  # 2913
N_ACTIONS = DRAW + 1  # 2914: the engine's move ints (RL maps them to a dense space per set)


def move(t: int, a: int) -> int:
    """The move placing tile ``t`` on arm ``a`` (or, for a first tile, the way round ``a``)."""
    return t << ARM_BITS | a


def tile_of(m: int) -> int:
    """The tile of a play ``m`` (``m < PASS``)."""
    return m >> ARM_BITS


def arm_of(m: int) -> int:
    """The arm (or first tile's way round) of a play ``m``."""
    return m & ARM_MASK


def dense_id(m: int, n_tiles: int, arms: int = 4) -> int:
    """Move ``m`` as an id dense in a set of ``n_tiles`` tiles with ``arms`` arms per tile:
    ``tile * arms + arm`` for a play, ``arms * n_tiles`` for a pass, one more for a draw.  With
    four arms this is the form the line games' stored views and RL action ids always had (pass
    112, draw 113 in the double-six set)."""
    if m < PASS:
        return (m >> ARM_BITS) * arms + (m & ARM_MASK)
    return arms * n_tiles + (m - PASS)


def dense_move(a: int, n_tiles: int, arms: int = 4) -> int:
    """The move of dense id ``a`` (``dense_id``'s inverse; ``0 <= a < arms * n_tiles + 2``)."""
    base = arms * n_tiles
    if a < base:
        return move(a // arms, a % arms)
    return PASS + (a - base)


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
_SIX_LIMIT = 1 << 28


def mask_pips(mask: int) -> int:
    """Total pips of the tiles in a mask."""
    if mask < _SIX_LIMIT:  # double-six tiles: two table reads
        return _PIPS_LO[mask & 0x3FFF] + _PIPS_HI[mask >> 14]
    total = _PIPS_LO[mask & 0x3FFF] + _PIPS_HI[mask >> 14 & 0x3FFF]
    mask >>= 28
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() + 27]
        mask ^= low
    return total


_PIP = r"(1[0-2]|[0-9])"
_TILE_RE = re.compile(_PIP + "-" + _PIP)


def parse_tile(text: object) -> tuple[int, int, int] | None:
    """``"a-b"`` -> (tile, a, b) with a and b as written (pips 0..12: whether the tile is in a
    game's set is the caller's check), or None if malformed."""
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
