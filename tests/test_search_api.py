"""copy(), push()/pop() and undo() of a hand: what search relies on."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Hand, make_variant
from bonepile.engine.variant import PLAYER_COUNTS

CASES = [(name, n) for name, counts in PLAYER_COUNTS.items() for n in counts] + [
    ("cinque", {"spinner_any_order": True}),
    ("passing", {"draw_ends_turn": False}),
    (
        "blind-hugie",
        {"tiles_per_turn": "while_playable", "deal": "full", "players": 3, "full_deal_starter": True},
    ),
]


def variant_of(name, extra):
    options = dict(extra) if isinstance(extra, dict) else {"players": extra}
    if len(PLAYER_COUNTS[name]) == 1:
        options.pop("players", None)
    return make_variant(name, options)


def state(h: Hand) -> tuple:
    keep = [n for n in Hand.__slots__ if n not in ("_stack", "v", "given_tokens")]
    out = []
    for n in keep:
        x = getattr(h, n)
        if isinstance(x, list):
            x = tuple(tuple(e) if isinstance(e, list) else e for e in x)
        out.append((n, x))
    return tuple(out)


@pytest.mark.parametrize("name,extra", CASES)
def test_push_pop_restores_every_position_exactly(name, extra):
    v = variant_of(name, extra)
    rng = random.Random(11)
    for _ in range(15):
        h = Hand.deal(v, rng)
        seen = []
        while not h.over:
            seen.append(state(h))
            ms = h.legal_moves()
            h.push(ms[rng.randrange(len(ms))])
        final = state(h)
        for before in reversed(seen):
            h.pop()
            assert state(h) == before
        # and forward again along other branches, undoing through a copy
        twin = h.copy()
        while not twin.over:
            ms = twin.legal_moves()
            twin.push(ms[rng.randrange(len(ms))])
        assert state(h) == seen[0]
        assert final is not None


@pytest.mark.parametrize("name,extra", CASES)
def test_pop_on_a_copy_never_changes_the_original(name, extra):
    v = variant_of(name, extra)
    rng = random.Random(5)
    h = Hand.deal(v, rng)
    for _ in range(6):
        if h.over:
            break
        ms = h.legal_moves()
        h.push(ms[rng.randrange(len(ms))])
    before = state(h)
    twin = h.copy()
    while twin.log:
        twin.pop()
    assert state(h) == before
    assert state(twin) == state(h.fresh())


@pytest.mark.parametrize("name,extra", CASES)
def test_undo_by_replay_equals_pop(name, extra):
    v = variant_of(name, extra)
    rng = random.Random(7)
    h = Hand.deal(v, rng)
    while not h.over:
        ms = h.legal_moves()
        h.push(ms[rng.randrange(len(ms))])
    a, b = h.copy(), h.copy()
    b._stack.clear()  # no snapshots: falls back to replaying the hand
    while a.log:
        assert a.pop() == b.pop()
        assert state(a) == state(b)
