"""The expert's opinion of every legal action in a game's current position."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..engine import Variant, View
from ..engine.knowledge import PublicKnowledge
from ..engine.tiles import NAME
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


def likely_tiles(
    variant: Variant, view: View, *, k: int = 3, at_least: float | None = None
) -> list[dict[str, Any]]:
    """Per other seat (in turn order from ``view``'s seat), then the stock, the unseen tiles
    it likely holds (``bots.beliefs``, from ``view`` alone): up to ``k``, each at least
    ``at_least`` probable (default ``beliefs.LIKELY``, as the terminal's words), likeliest first, as ``[{"seat": 1 | None, "tiles": [{"tile":
    "6-4", "p": 0.72}]}]`` (seat None: the stock).  Holders with nothing likely are left
    out; a blind game, where every face-down tile is as likely anywhere, says nothing."""
    if view.blind:
        return []
    from .beliefs import LIKELY, STOCK, beliefs  # (numpy, loaded when asked)

    if at_least is None:
        at_least = LIKELY
    b = beliefs(variant, view)
    out = []
    for h in b.holders:
        tiles = [{"tile": NAME[t], "p": round(p, 3)} for t, p in b.likeliest(h, k) if p >= at_least]
        if tiles:
            out.append({"seat": None if h == STOCK else h, "tiles": tiles})
    return out


def advise(variant: Variant, view: View, *, budget: Budget = HINT_BUDGET, seed: int = 0) -> list[Evaluation]:
    """The expert's evaluation of every legal action of ``view``, best first, each with its
    reasons (``bots.reasons``) as codes and in English words: what ``hint`` answers, from a
    view alone (the web server's bot workers are handed views, not games)."""
    from .expert import ExpertBot

    bot = ExpertBot(variant, seed=seed, budget=budget)
    why = Explainer(variant, view, seed)
    out = []
    for e in for_people(variant, view, bot.evaluate(view)):
        rs = tuple(why.explain(e.action))
        out.append(replace(e, reasons=rs, reason="; ".join(map(english, rs))))
    return out


def shown_figure(variant: Variant) -> str:
    """The one figure a hint shows people and ranks its moves by: ``"win"`` (the chance to win
    the hand) where a hand is only won or lost (Billitonnen), else ``"points"`` (the points
    the move is expected to bring, net of the other sides)."""
    return "win" if variant.scoring == "result_only" else "points"


def for_people(variant: Variant, view: View, evals: list[Evaluation]) -> list[Evaluation]:
    """``evals`` as a hint shows them: one move per decision (a tile whose two ends are alike,
    ``PublicKnowledge.decisions``, is listed once, as its first legal move) and ranked by the
    figure shown (``shown_figure``), best first; ties keep the expert's order."""
    legal = list(view.legal)
    decision = dict(zip(legal, PublicKnowledge.from_view(variant, view).decisions(legal)))
    seen: set[int] = set()
    kept = []
    for e in evals:
        d = decision.get(e.action, -1 - e.action)
        if d not in seen:
            seen.add(d)
            kept.append(replace(e, action=legal[d]) if d >= 0 else e)
    if shown_figure(variant) == "win":
        return sorted(kept, key=lambda e: -(e.win or 0.0))
    return sorted(kept, key=lambda e: -e.value)
