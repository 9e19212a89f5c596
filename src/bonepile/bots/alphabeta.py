"""The one α-β search of a hand whose every tile is known: the expert's endgame in each
sampled world (``playout.solve``) and the analysis's search with every hand shown
(``analysis.exact``) are this function with different options.

One side maximizes a value read off each finished hand (``leaf``: a tuple whose first item
is the score searched, the rest carried along), every other seat minimizes it (with more than
two sides that is the "paranoid" bound).  Moves are tried heaviest tile first.  Options: a
transposition ``table`` (keyed by ``position_key``; mirror images share an entry) and a cap
on the ``nodes`` visited, past which ``OutOfNodes`` is raised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engine.hand import Hand
from ..engine.tiles import DRAW, IS_DOUBLE, MAX_TILES, PASS, PIPS, tile_of

#: a tile's weight: its pips, a double 2 more (the order moves are searched in, and the
#: playouts' heaviest tile)
WEIGHT = [PIPS[t] + (2 if IS_DOUBLE[t] else 0) for t in range(MAX_TILES)]
#: per move: its place in the search's order (heaviest tile first; a pass or draw last), as
#: a table so that sorting a node's moves calls no Python function
_ORDER = [-WEIGHT[tile_of(m)] if m < PASS else 0 for m in range(DRAW + 1)]

#: positions a transposition table holds before it is emptied (memory: about 250 MB at most)
TABLE_CAP = 400_000

#: the value of a finished hand: (score searched, anything carried along)
Leaf = Callable[[Hand], tuple[Any, ...]]
#: a transposition table: position key -> (-1 upper bound, 0 exact, 1 lower bound; value)
Table = dict[int, tuple[int, tuple[Any, ...]]]


class OutOfNodes(Exception):
    """The search needed more positions than it was allowed."""


def position_key(h: Hand) -> int:
    """Everything the rest of the hand depends on, packed into one int (a table of ints takes
    a fraction of the memory of one of tuples).  The table is read up to its mirror image
    (``Hand.table_key``), so mirror images share an entry."""
    k = 0
    w = h.v.n_tiles  # a mask's width: the set's tile count
    for m in h.masks:
        k = (k << w) | m
    for x in h.table_key():
        k = (k << 6) | x
    c = h.capicu_ok
    k = (k << 7) | h.bpos
    k = (k << 4) | (h.spin + 1)
    k = (k << 3) | h.to_move
    k = (k << 3) | min(h.passes, 7)  # (a train hand counts passes past 7; none reads them)
    k = (k << 1) | h.drew
    k = (k << 1) | (h.placed == 0)
    k = (k << 9) | (c[0] << 8) | ((c[1] + 1) << 4) | (c[2] + 1)
    k = (k << 3) | (7 if h.first_to_target is None else h.first_to_target)
    for p in h.inplay:
        k = (k << 12) | p
    for f in h.face_up or ():
        k = (k << w) | f
    return k


def alphabeta(
    h: Hand,
    seat_sides: Sequence[int],
    side: int,
    leaf: Leaf,
    *,
    table: Table | None = None,
    nodes: int | None = None,
) -> tuple[tuple[Any, ...], int]:
    """The value of ``h`` for ``side`` (the leaf of the line both sides play best) and the
    positions searched (finished hands not counted).  ``h`` is restored as it was, also when
    ``OutOfNodes`` is raised."""
    count = 0
    limit = -1 if nodes is None else nodes

    def ab(alpha: float, beta: float) -> tuple[Any, ...]:
        nonlocal count
        if h.over:
            return leaf(h)
        count += 1
        if count > limit >= 0:
            raise OutOfNodes
        key = 0
        if table is not None:
            key = position_key(h)
            hit = table.get(key)
            if hit is not None:
                flag, val = hit
                if flag == 0 or (flag > 0 and val[0] >= beta) or (flag < 0 and val[0] <= alpha):
                    return val
        a0, b0 = alpha, beta
        ms = h.legal_moves()
        if len(ms) > 1:
            ms.sort(key=_ORDER.__getitem__)
        best: tuple[Any, ...] | None = None
        if seat_sides[h.to_move] == side:
            for m in ms:
                h.push(m)
                try:  # (OutOfNodes leaves ``h`` as it was too)
                    x = ab(alpha, beta)
                finally:
                    h.pop()
                if best is None or x[0] > best[0]:
                    best = x
                    if x[0] > alpha:
                        alpha = x[0]
                    if alpha >= beta:
                        break
        else:
            for m in ms:
                h.push(m)
                try:
                    x = ab(alpha, beta)
                finally:
                    h.pop()
                if best is None or x[0] < best[0]:
                    best = x
                    if x[0] < beta:
                        beta = x[0]
                    if alpha >= beta:
                        break
        assert best is not None
        if table is not None:
            # a value at or below the window's floor is an upper bound, at or above its
            # ceiling a lower bound, in between exact
            flag = -1 if best[0] <= a0 else 1 if best[0] >= b0 else 0
            if len(table) >= TABLE_CAP:  # (only a cache: emptying it costs time, not values)
                table.clear()
            table[key] = (flag, best)
        return best

    return ab(float("-inf"), float("inf")), count


__all__ = ["WEIGHT", "TABLE_CAP", "Leaf", "Table", "OutOfNodes", "position_key", "alphabeta"]
