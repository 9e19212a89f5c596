"""A hand's whole state through ``push``/``pop``, ``copy`` and ``undo``, slot by slot, for the
line, the trains (RULES.md §15) and the chicken foot (§16): the train layouts extend the line's
snapshot and copy, so a slot that one of them forgets shows here."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Hand, make_variant
from bonepile.engine.foot import FootHand
from bonepile.engine.hand import _Snapshot
from bonepile.engine.trains import TrainHand

CASES = [
    ("draw", {"players": 3}),
    ("cinque", {}),
    ("blind-hugie", {"players": 3}),
    ("mexican-train", {"players": 2}),
    ("mexican-train", {"players": 5}),
    ("chicken-foot", {"players": 3}),
    ("chicken-foot", {"players": 6, "spokes": 4}),
]


def state(h: Hand) -> dict[str, object]:
    """Every slot of the hand's class and its bases (lists compared by value), but the
    snapshot stack and the per-variant constants."""
    out: dict[str, object] = {}
    for name in type(h)._all_slots:
        if name == "_stack":
            continue
        x = getattr(h, name)
        out[name] = (
            [r[:] for r in x] if name == "rows" and x is not None else (x[:] if isinstance(x, list) else x)
        )
    return out


def test_every_layout_names_every_slot_once():
    for cls in (Hand, TrainHand, FootHand):
        names = cls._all_slots
        assert len(names) == len(set(names))
        assert set(Hand.__slots__) <= set(names)
    assert set(TrainHand.__slots__) <= set(FootHand._all_slots)
    assert set(FootHand.__slots__) <= set(FootHand._all_slots)
    # the layouts' own lists (copied by ``copy``) are slots of theirs
    for cls in (TrainHand, FootHand):
        assert set(cls._lists) <= set(cls._all_slots) - set(Hand.__slots__)
    assert set(TrainHand._lists) < set(FootHand._lists)


@pytest.mark.parametrize("name,options", CASES)
def test_push_pop_copy_and_undo_restore_every_slot(name, options):
    v = make_variant(name, options)
    layouts = {"line": Hand, "trains": TrainHand, "chicken_foot": FootHand}
    for seed in range(6):
        rng = random.Random(seed)
        h = Hand.deal(v, rng, number=1 + seed)
        assert type(h) is layouts[v.layout]
        assert isinstance(h._snapshot(h), _Snapshot)
        steps = 0
        while not h.over and steps < 400:
            steps += 1
            before = state(h)
            c = h.copy()
            assert type(c) is type(h) and state(c) == before
            m = rng.choice(h.legal_moves())
            h.push(m)
            after = state(h)
            c.apply(m)
            assert state(c) == after  # the copy plays as the hand did ...
            assert h.pop() == m
            assert state(h) == before  # ... and the hand came back, untouched by the copy
            h.push(m)  # push twice, pop once: the deeper snapshot is still right
            if not h.over:
                m2 = rng.choice(h.legal_moves())
                h.push(m2)
                assert h.pop() == m2
            assert state(h) == after
            if seed % 2 and h.log and rng.random() < 0.2:
                last = h.log[-1][1]
                h._stack.clear()
                assert h.undo() == last  # replayed from the deal: every slot as before the move
                assert state(h) == before
                h.apply(last)
                assert state(h) == after
        assert h.over or steps == 400
