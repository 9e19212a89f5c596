"""What every bot is: a player that sees only its seat's ``View``.

A bot is built for one variant (the rules are public) with a seed and a budget, and is asked
for a move with ``choose(view)``.  It is never handed a ``Game`` or a ``Hand``: the view is a
frozen copy of what the seat may know, so no code path leads from a bot to hidden tiles.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine import Variant, View


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A bot's opinion of one legal action: ``value`` is the expected points for the bot's
    side (net of the other sides) and ``win`` the chance of winning the hand, when known."""

    action: int
    value: float
    win: float | None = None
    reason: str = ""


class Bot:
    """Base class.  Subclasses implement ``choose``; ``evaluate`` is optional."""

    name = "bot"

    def __init__(self, variant: Variant, *, seed: int | None = None) -> None:
        self.variant = variant
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: View) -> int:
        raise NotImplementedError

    def evaluate(self, view: View) -> list[Evaluation]:
        """Every legal action with the bot's estimate of it, best first."""
        raise NotImplementedError(f"the {self.name} bot does not evaluate actions")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
