"""The RL action ids of a game: dense over its set's tiles.

The engine's move ints leave room for the largest set (``PASS`` and ``DRAW`` come after every
tile move of the double-twelve set); an agent sees a space as small as its game's set allows:
``tile * 4 + arm`` for a play (on the first tile the low bits are its orientation), then
``4 * n_tiles`` for a pass and ``4 * n_tiles + 1`` for a draw.  In the double-six set that is
the space the seven games always had: 114 actions, pass 112, draw 113 (docs/RL.md)."""

from __future__ import annotations

from functools import cache

from ..engine.tiles import TRAIN_NAMES, dense_id, dense_move
from ..engine.variant import Variant


class Actions:
    """The action ids of a set of ``n_tiles`` tiles with ``arms`` arms a tile may go on, and
    their engine moves (``tiles.dense_id``)."""

    __slots__ = ("n", "n_tiles", "arms", "pass_id", "draw_id")

    def __init__(self, n_tiles: int, arms: int = 4) -> None:
        self.n_tiles = n_tiles
        self.arms = arms
        self.pass_id = arms * n_tiles
        self.draw_id = self.pass_id + 1
        #: how many action ids there are
        self.n = self.pass_id + 2

    def of(self, m: int) -> int:
        """The action id of engine move ``m``."""
        return dense_id(m, self.n_tiles, self.arms)

    def move(self, a: int) -> int:
        """The engine move of action id ``a`` (0 <= a < n)."""
        return dense_move(a, self.n_tiles, self.arms)


@cache
def _actions(n_tiles: int, arms: int) -> Actions:
    return Actions(n_tiles, arms)


def actions(variant: Variant) -> Actions:
    """The action ids of ``variant``'s set."""
    return _actions(variant.n_tiles, len(TRAIN_NAMES) if variant.layout == "trains" else 4)


__all__ = ["Actions", "actions"]
