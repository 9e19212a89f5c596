"""Move-generation counts ("perft") checked against an independent move generator.

The oracle below is written from RULES.md §0.3/§1.3/§3.3 for line games where a player
plays a fitting tile if they can and passes otherwise (Quinientos, 4-player Block)."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import NAME, Hand, make_variant, perft


def oracle_perft(hands, ends, to_move, depth, must_lead=None, placed=0):
    """hands: list of sets of (a, b) tuples; ends: (left, right) or None before the lead."""
    n = len(hands)
    if depth == 0:
        return 1
    if ends is not None and (
        any(not h for h in hands) or not any(ends[0] in t or ends[1] in t for h in hands for t in h)
    ):
        return 1  # domino or blocked: the hand is over
    hand = hands[to_move]
    children = []
    if ends is None:
        for t in sorted(hand):
            if must_lead is None or t == must_lead:
                children.append((t, (t[0], t[1])))
    else:
        for t in sorted(hand):
            for side in (0, 1):
                pip = ends[side]
                if pip in t:
                    other = t[1] if t[0] == pip else t[0]
                    new = (other, ends[1]) if side == 0 else (ends[0], other)
                    children.append((t, new))
    if not children:
        return oracle_perft(hands, ends, (to_move + 1) % n, depth - 1) if depth > 1 else 1
    if depth == 1:
        return len(children)
    total = 0
    for t, new in children:
        rest = [set(h) for h in hands]
        rest[to_move].discard(t)
        total += oracle_perft(rest, new, (to_move + 1) % n, depth - 1)
    return total


def _pair(t: int) -> tuple[int, int]:
    a, b = (int(x) for x in NAME[t].split("-"))
    return (a, b)


def oracle_start(h: Hand):
    hands = [{_pair(t) for t in row} for row in h.deal_rows]
    return hands, (_pair(h.must_lead) if h.must_lead >= 0 else None)


@pytest.mark.parametrize(
    "variant,options", [("quinientos", {}), ("block", {"players": 4}), ("quinientos", {"first_lead": "any"})]
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_perft_matches_an_independent_move_generator(variant, options, seed):
    v = make_variant(variant, options)
    h = Hand.deal(v, random.Random(seed))
    hands, must = oracle_start(h)
    for depth in range(1, 6):
        assert perft(h, depth) == oracle_perft(hands, None, h.leader, depth, must), depth


def test_perft_pinned_counts():
    # regression figures for fixed deals (seed 1); the oracle test above checks such counts
    q = Hand.deal(make_variant("quinientos", {"first_lead": "any"}), random.Random(1))
    assert [perft(q, d) for d in range(1, 6)] == [7, 22, 73, 185, 524]
    b = Hand.deal(make_variant("block", {"players": 4}), random.Random(1))
    assert [perft(b, d) for d in range(1, 7)] == [1, 2, 6, 10, 34, 88]  # 6-6 is forced
