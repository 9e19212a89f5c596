"""Uniformly random legal actions."""

from __future__ import annotations

from ..engine import View
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def choose(self, view: View) -> int:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        return legal[self.rng.randrange(len(legal))]
