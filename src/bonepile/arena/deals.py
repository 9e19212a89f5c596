"""Seeded deals for callers that keep a game and its seed apart.

The deals themselves are the engine's (``engine.deals``: hand ``n`` of game seed ``S`` is
dealt from ``derive(S, "hand", n)``); a ``Game`` made with ``seed=S`` deals them itself."""
from __future__ import annotations

from collections.abc import Callable

from ..engine import Game
from ..engine.deals import derive, hand_rng
from ..engine.hand import Hand

__all__ = ["derive", "hand_rng", "deal_next", "leader_rule"]


def deal_next(game: Game, game_seed: int,
              choose_leader: Callable[[Game, tuple[int, ...], int, tuple], int] | None = None) -> Hand:
    """Deal the next hand of ``game`` from ``game_seed`` (the game's own seed from now on).

    Where the rules let the winning side choose the leader, ``choose_leader(game, seats,
    default, deal_rows)`` picks one of ``seats`` (a caller shows a seat only its own row);
    without it, the seeded draw ``default`` leads."""
    game.seed = game_seed
    dealt = game.deal_next()
    seats = game.leader_choosers()
    leader = None
    if seats is not None and choose_leader is not None:
        leader = choose_leader(game, seats, dealt.leader, dealt.deal_rows)
        if leader not in seats:
            raise ValueError(f"the leader must be one of seats {seats}")
    return game.next_hand(dealt=dealt, leader=leader)


def leader_rule(game: Game, deal: object = None) -> str:
    """"choice" where the winning side chooses the next hand's leader, else "rules"
    (kept for the web server until it asks ``Game.leader_choosers`` itself)."""
    return "choice" if game.leader_choosers() is not None else "rules"
