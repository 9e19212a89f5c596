"""The end of a hand solved across several sampled worlds at once (vector minimax): research
code, measured and not kept in the expert (docs/BENCHMARKS.md, "Less strategy fusion";
``bench/fusion.py``).

The per-world α-β of ``playout.solve`` lets the searching seat play each world as if it saw
every hand: a different line in every world, although it cannot tell them apart.  That is
*strategy fusion*, and it makes every move look better than it is.  ``fused_solve`` searches
all the worlds together: while the public play is the same, so are the searching seat's
moves, and one move is chosen for all the worlds (the one with the best weighted mean);
every other seat still chooses in each world with full knowledge of it (its partner for the
searching side, an opponent against it), so the worlds part where they would play
differently, and a pass shows which worlds it was forced in (Frank and Basin's vector
minimax, on two sides).  There is no pruning across worlds: the work is about the sum of
the worlds' full trees, so it is only used when few tiles are left.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots.playout import end_value
from bonepile.engine import Variant
from bonepile.engine.hand import Hand

#: a world's result: (score the search maximizes, net points of my side, my side won the hand)
Leaf = tuple[float, float, bool]


def leaf(h: Hand, v: Variant, my_side: int, win_weight: float, game_weight: float) -> Leaf:
    """The finished hand h seen from my side (``playout.end_value`` without the game)."""
    score, net, won, _game = end_value(h, v, my_side, win_weight, game_weight)
    return score, float(net), won


def fused_solve(
    worlds: Sequence[Hand],
    weights: Sequence[float],
    v: Variant,
    me: int,
    win_weight: float,
    game_weight: float = 0.0,
) -> list[tuple[int, float, float, float]]:
    """Every legal move of seat ``me`` in the worlds (all agree on the public play and on
    me's hand; none may draw): (move, weighted mean score, mean net points, chance to win the
    hand), the worlds searched together to the end of the hand as above.  The worlds are
    restored as they were."""
    side_of = v.seat_sides
    my_side = side_of[me]
    total = float(sum(weights))

    def mean(vals: dict[int, Leaf], k: int) -> float:
        return sum(weights[i] * vals[i][k] for i in vals) / total

    def search(idx: list[int]) -> dict[int, Leaf]:
        h0 = worlds[idx[0]]
        if h0.over:
            return {i: leaf(worlds[i], v, my_side, win_weight, game_weight) for i in idx}
        mover = h0.to_move
        if mover == me:
            best: dict[int, Leaf] | None = None
            bs = 0.0
            for m in h0.legal_moves():
                r = _after(m, idx)
                s = sum(weights[i] * r[i][0] for i in idx)
                if best is None or s > bs:
                    best, bs = r, s
            assert best is not None
            return best
        legal = {i: worlds[i].legal_moves() for i in idx}
        groups: dict[int, list[int]] = {}
        for i in idx:
            for m in legal[i]:
                groups.setdefault(m, []).append(i)
        after = {m: _after(m, grp) for m, grp in groups.items()}
        mine = side_of[mover] == my_side
        out: dict[int, Leaf] = {}
        for i in idx:
            vals = [after[m][i] for m in legal[i]]
            out[i] = max(vals, key=lambda x: x[0]) if mine else min(vals, key=lambda x: x[0])
        return out

    def _after(m: int, idx: list[int]) -> dict[int, Leaf]:
        for i in idx:
            worlds[i].push(m)
        try:
            return search(idx)
        finally:
            for i in idx:
                worlds[i].pop()

    root = worlds[0]
    if root.to_move != me or root.over:
        raise ValueError(f"seat {me} is not to move in these worlds")
    every = list(range(len(worlds)))
    out = []
    for m in root.legal_moves():
        r = _after(m, every)
        won = sum(weights[i] for i in every if r[i][2]) / total
        out.append((m, mean(r, 0), mean(r, 1), won))
    return out


__all__ = ["fused_solve", "leaf"]
