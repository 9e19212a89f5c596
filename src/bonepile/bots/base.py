"""What every bot is: a player that sees only its seat's ``View``.

A bot is built for one variant (the rules are public) with a seed and a budget, and is asked
for a move with ``choose(view)``.  It is never handed a ``Game`` or a ``Hand``: the view is a
frozen copy of what the seat may know, so no code path leads from a bot to hidden tiles.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import OptionError, Variant, View


class BotError(OptionError):
    """A bot that cannot be built (an unknown name, a plugin that does not load) or that
    broke the rules (an illegal move, a crash): the message says which bot and why."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A bot's opinion of one legal action: ``value`` is the expected points for the bot's
    side (net of the other sides), ``win`` the chance of winning the hand and ``game`` of
    winning the game with it, when known."""

    action: int
    value: float
    win: float | None = None
    reason: str = ""
    #: the chance that the bot's side wins the game in this hand (None: not evaluated, or the
    #: game cannot end in this hand in any playout)
    game: float | None = None
    #: why, as facts of the position (``reasons``): ({"code": ..., params}, ...)
    reasons: tuple[dict[str, Any], ...] = ()


class Bot:
    """Base class.  Subclasses implement ``choose``; ``evaluate`` is optional."""

    name = "bot"

    def __init__(self, variant: Variant, *, seed: int | None = None) -> None:
        self.variant = variant
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: View) -> int:
        """The action the bot plays: by default the best of ``evaluate`` (an only legal action
        without asking)."""
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        if len(legal) == 1:
            return legal[0]
        return self.evaluate(view)[0].action

    def evaluate(self, view: View) -> list[Evaluation]:
        """Every legal action with the bot's estimate of it, best first."""
        raise NotImplementedError(f"the {self.name} bot does not evaluate actions")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


def ask(bot: Bot, label: str, seat: int, view: View, token: Callable[[int], str] = str) -> int:
    """The bot's move for ``view``, checked: a crash or an action that is not legal is a
    BotError naming the bot, the seat and what it did (``token`` names the legal actions)."""
    try:
        m = bot.choose(view)
    except Exception as e:
        raise BotError(f"bot {label} (seat {seat}) failed: {type(e).__name__}: {e}") from None
    if isinstance(m, bool) or not isinstance(m, int) or m not in view.legal:
        legal = ", ".join(token(x) for x in view.legal)
        raise BotError(
            f"bot {label} (seat {seat}) chose {m!r}, which is not a legal action here (legal: {legal})"
        )
    return int(m)
