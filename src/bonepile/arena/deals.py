"""Seeds and deals that do not depend on how earlier hands were played.

Hand ``n`` of the game with seed ``S`` is dealt from ``random.Random(derive(S, "hand", n))``,
so every replay of a game (another seating in the arena, an ``undo`` in terminal play) gets the
same tiles for the same hand number, whatever happened before.
"""
from __future__ import annotations

import hashlib
import random
from typing import Callable, Sequence

from ..engine import Game
from ..engine.hand import Hand, rule_leader
from ..engine.tiles import mask_of


def derive(*parts: object) -> int:
    """A 63-bit seed derived from the parts (stable across runs, processes and platforms)."""
    text = ":".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def hand_rng(game_seed: int, number: int) -> random.Random:
    return random.Random(derive(game_seed, "hand", number))


def leader_rule(game: Game, deal: Sequence[Sequence[int]]) -> str:
    """How the next hand's leader is chosen: "choice" (the winning side picks one of its
    members), "chance", "unknown" or a rule the engine applies by itself."""
    prev = game.hands[-1].result if game.hands else None
    prev_leader = game.hands[-1].leader if game.hands else None
    return rule_leader(game.variant, [mask_of(r) for r in deal], prev, prev_leader,
                       not game.hands)[2]


def deal_next(game: Game, game_seed: int,
              choose_leader: Callable[[Game, tuple[int, ...], int, tuple], int] | None = None) -> Hand:
    """Deal the next hand of ``game`` (made with ``auto_deal=False``) from ``game_seed``.

    Where the rules let the winning side choose the leader, ``choose_leader(game, seats,
    default, deal_rows)`` picks one of ``seats`` (the winning side; a caller shows a seat only
    its own row); without it, the seeded draw ``default`` leads."""
    number = game.start_hand + len(game.hands)
    prev = game.hands[-1].result if game.hands else None
    prev_leader = game.hands[-1].leader if game.hands else None
    h = Hand.deal(game.variant, hand_rng(game_seed, number), number=number, prev=prev,
                  prev_leader=prev_leader)
    how = leader_rule(game, h.deal_rows)
    leader: int | None = None
    if how == "choice":
        seats = game.variant.sides[prev.winner]  # type: ignore[union-attr, index]
        leader = h.leader
        if choose_leader is not None:
            leader = choose_leader(game, seats, h.leader, h.deal_rows)
            if leader not in seats:
                raise ValueError(f"the leader must be one of seats {seats}")
    elif how in ("chance", "unknown"):
        leader = h.leader
    return game.next_hand(deal=h.deal_rows, boneyard=h.boneyard, leader=leader)
