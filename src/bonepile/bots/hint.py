"""The expert's opinion of every legal action in a game's current position."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..engine import Variant, View
from .base import Evaluation
from .budget import HINT_BUDGET, Budget
from .reasons import Explainer, english

if TYPE_CHECKING:
    from .beliefs import Beliefs


def hint(
    game: Any, *, seat: int | None = None, budget: Budget = HINT_BUDGET, seed: int = 0
) -> list[tuple[str, Evaluation]]:
    """(token, evaluation) for each legal action of the seat to move, best first: the
    expected net points (``value``), the chance to win the hand (``win``) and, where the game
    may end in this hand, the game (``game``), with the reasons as facts of the position
    (``reasons``, see ``bots.reasons``) and in English words (``reason``).

    Built only from ``game.view(seat)``.  ``seat`` defaults to the seat to move; a seat that is
    not to move (or a finished game) raises ValueError."""
    to_move = game.to_move
    if to_move is None:
        raise ValueError("the game is over: no one is to move")
    if seat is None:
        seat = to_move
    if seat != to_move:
        raise ValueError(f"seat {seat} is not to move (seat {to_move} is)")
    view = game.view(seat)
    evals = advise(game.variant, view, budget=budget, seed=seed)
    return [(game.token(e.action), e) for e in evals]


def tile_beliefs(game: Any, seat: int | None = None) -> Beliefs:
    """Where the tiles ``seat`` (default: the seat to move) cannot see probably are
    (``bots.beliefs``), from ``game.view(seat)`` alone."""
    if seat is None:
        seat = game.to_move
    if seat is None:
        raise ValueError("the game is over: no one is to move")
    from .beliefs import beliefs  # (numpy, loaded when asked)

    return beliefs(game.variant, game.view(seat))


def advise(variant: Variant, view: View, *, budget: Budget = HINT_BUDGET, seed: int = 0) -> list[Evaluation]:
    """The expert's evaluation of every legal action of ``view``, best first, each with its
    reasons (``bots.reasons``) as codes and in English words: what ``hint`` answers, from a
    view alone (the web server's bot workers are handed views, not games)."""
    from .expert import ExpertBot

    bot = ExpertBot(variant, seed=seed, budget=budget)
    why = Explainer(variant, view, seed)
    out = []
    for e in bot.evaluate(view):
        rs = tuple(why.explain(e.action))
        out.append(replace(e, reasons=rs, reason="; ".join(map(english, rs))))
    return out
