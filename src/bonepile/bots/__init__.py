"""Bots: players that see only their own seat's ``View``.

``make_bot(level, variant, seed=..., **budget)`` builds one; ``BOT_LEVELS`` lists the levels.
"""

from __future__ import annotations

from typing import Any

from ..engine import OptionError, Variant
from .base import Bot, Evaluation
from .expert import ExpertBot
from .greedy import GreedyBot
from .hint import hint
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}
BOT_LEVELS = tuple(BOTS)


def make_bot(level: str, variant: Variant, *, seed: int | None = None, **budget: Any) -> Bot:
    """A bot of the named level for ``variant``; ``budget`` goes to the bot (e.g. ``time=0.1``
    or ``simulations=200`` for the expert)."""
    try:
        cls = BOTS[level]
    except KeyError:
        raise OptionError(f"unknown bot {level!r}; choose from {', '.join(BOTS)}") from None
    return cls(variant, seed=seed, **budget)


__all__ = [
    "BOTS",
    "BOT_LEVELS",
    "Bot",
    "Evaluation",
    "RandomBot",
    "GreedyBot",
    "ExpertBot",
    "hint",
    "make_bot",
]
