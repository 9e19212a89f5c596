"""Bots: players that see only their own seat's ``View``.

``make_bot(name, variant, seed=..., budget=...)`` builds one (``Budget``: how long a search
may think; None: the bot's default).  ``LEVELS`` are the levels people
choose from (beginner, casual, strong, expert; ``DEFAULT_LEVEL`` is offered first),
``BOT_LEVELS`` every built-in name (the researchers' ``random`` and ``greedy`` too); a name
may also be a plugin's (entry-point group ``bonepile.bots``) or ``module:Class``
(``plugins``).
"""

from __future__ import annotations

from ..engine import Variant
from .base import Bot, BotError, Evaluation, ask
from .budget import EXPERT_BUDGET, HINT_BUDGET, Budget
from .expert import ExpertBot, ExpertConfig
from .greedy import GreedyBot
from .hint import hint
from .levels import DEFAULT_LEVEL, LEVELS
from .plugins import builtin_names, resolve
from .random_bot import RandomBot

#: the built-in bots' classes by researcher name
BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}
#: every built-in name (researchers' names and levels)
BOT_LEVELS = builtin_names()


def make_bot(level: str, variant: Variant, *, seed: int | None = None, budget: Budget | None = None) -> Bot:
    """A bot of the named level (or plugin) for ``variant``; ``budget`` goes to a bot that
    searches (e.g. ``Budget(time=0.1)`` or ``Budget(simulations=200)`` for the expert; a bot
    that takes none is built without it).  BotError (a BonepileError) when the name leads to
    no bot."""
    return resolve(level)(variant, seed=seed, budget=budget)


__all__ = [
    "BOTS",
    "BOT_LEVELS",
    "LEVELS",
    "DEFAULT_LEVEL",
    "Bot",
    "BotError",
    "Budget",
    "EXPERT_BUDGET",
    "HINT_BUDGET",
    "ExpertConfig",
    "Evaluation",
    "RandomBot",
    "GreedyBot",
    "ExpertBot",
    "hint",
    "make_bot",
    "ask",
]
