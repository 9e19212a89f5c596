"""An example bonepile bot (docs/BOTS.md): lay the heaviest tile that fits.

bonepile arena block --bots heavy:HeavyBot,casual --hands 200   # run from examples/bots/
"""

from __future__ import annotations

from bonepile.bots import Bot
from bonepile.engine import DRAW, PASS, View
from bonepile.engine.tiles import IS_DOUBLE, PIPS, tile_of


class HeavyBot(Bot):
    """Sheds pips: the heaviest tile it may lay (a double wins a tie), else a draw, else a pass."""

    name = "heavy"

    def choose(self, view: View) -> int:
        plays = [m for m in view.legal if m < PASS]  # tile_of(m) is the tile, arm_of(m) the end
        if plays:
            return max(plays, key=lambda m: (PIPS[tile_of(m)], IS_DOUBLE[tile_of(m)], -m))
        return DRAW if DRAW in view.legal else view.legal[0]  # only a draw or a pass is left
