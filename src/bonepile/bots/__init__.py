"""Bots: players that see only their own seat's ``View``.

``make_bot(name, variant, seed=..., **budget)`` builds one.  ``LEVELS`` are the levels people
choose from (beginner, casual, strong, expert; ``DEFAULT_LEVEL`` is offered first),
``BOT_LEVELS`` every built-in name (the researchers' ``random`` and ``greedy`` too); a name
may also be a plugin's (entry-point group ``bonepile.bots``) or ``module:Class``
(``plugins``).
"""

from __future__ import annotations

from typing import Any

from ..engine import Variant
from .base import Bot, BotError, Evaluation, ask
from .expert import ExpertBot
from .greedy import GreedyBot
from .hint import hint
from .levels import DEFAULT_LEVEL, LEVELS
from .plugins import builtin_names, resolve
from .random_bot import RandomBot

#: the built-in bots' classes by researcher name
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}
#: every built-in name (researchers' names and levels)
BOT_LEVELS = builtin_names()


def make_bot(level: str, variant: Variant, *, seed: int | None = None, **budget: Any) -> Bot:
    """A bot of the named level (or plugin) for ``variant``; ``budget`` goes to the bot (e.g.
    ``time=0.1`` or ``simulations=200`` for the expert; a ``time``/``simulations`` a bot does
    not take is dropped).  BotError (a BonepileError) when the name leads to no bot."""
    return resolve(level)(variant, seed=seed, **budget)


__all__ = [
    "BOTS",
    "BOT_LEVELS",
    "LEVELS",
    "DEFAULT_LEVEL",
    "Bot",
    "BotError",
    "Evaluation",
    "RandomBot",
    "GreedyBot",
    "ExpertBot",
    "hint",
    "make_bot",
    "ask",
]
