"""Who leads a hand: the first-hand and later-hand rules of each variant (its ``Variant``
fields ``first_lead``, ``later_lead``, ``must_lead_double`` and ``no_double_lead``)."""

from __future__ import annotations

from collections.abc import Sequence

from .scoring import HandResult
from .tiles import bits, heavier
from .variant import Variant
from .vocab import LeadHow


def rule_leader(
    v: Variant,
    masks: Sequence[int],
    prev: HandResult | None,
    prev_leader: int | None,
    first: bool | None = None,
) -> tuple[int | None, int, LeadHow]:
    """Who leads a hand and which tile they must lead (-1: any).

    Returns (leader, must_lead, how); leader is None when chance (``how == "chance"``) or a
    player's choice (``"choice"``) decides, or when the rule needs the previous hand and it is
    unknown (``"unknown"``); ``how == "redeal"`` when the deal must be redealt."""
    n = v.players
    if first is None:
        first = prev is None and prev_leader is None
    kind = v.first_lead if first else v.later_lead
    if kind == "team_choice":  # the winning side picks; after a tie the lead rotates
        if prev is None:
            return None, -1, "unknown"
        if prev.winner is not None:
            return None, -1, "choice"
        kind = "rotate"
    if kind == "rotate":
        if prev_leader is None:
            return None, -1, "unknown"
        return (prev_leader + 1) % n, -1, "rotate"
    if kind == "chance":
        return None, -1, "chance"
    if kind == "winner":
        if prev is None:
            return None, -1, "unknown"
        if prev.next_lead is not None:
            return prev.next_lead, -1, "winner"
    if kind == "dominoer":
        if prev is None:
            return None, -1, "unknown"
        if prev.end == "domino":
            return prev.dominoer, -1, "dominoer"
        if v.first_lead == "chance":  # after a block, the first-hand rule: by lot
            return None, -1, "chance"
    # "highest_double", "first", and the fall-backs above
    best, holder = -1, -1
    for t in v.tile_set.doubles_high_first:
        for s, m in enumerate(masks):
            if m >> t & 1:
                best, holder = t, s
                break
        if best >= 0:
            break
    if best >= 0:
        return holder, (best if v.must_lead_double else -1), "double"
    if v.no_double_lead == "redeal":
        return None, -1, "redeal"
    if v.no_double_lead == "heaviest_tile":
        heavy, holder = -1, -1
        for s, m in enumerate(masks):
            for t in bits(m):
                if heavy < 0 or heavier(t, heavy):
                    heavy, holder = t, s
        return holder, heavy, "heaviest"
    return None, -1, "chance"
