"""Chicken Foot's double blank (RULES.md §16: left in a hand it counts 50, not its 0 pips) as
the hand's summary shows it: the breakdown names the 50 apart from the pips, and every part of
every game's breakdown has words in each of the six languages (the score pad reads them)."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Game, Hand, make_variant, notation
from bonepile.engine.record import describe
from bonepile.engine.tiles import tile_index
from bonepile.engine.variant import ENGINE_VARIANTS, PLAYER_COUNTS
from bonepile.web.words.i18n import LANGUAGES, catalogue


def T(name: str) -> int:
    a, b = (int(x) for x in name.split("-"))
    return tile_index(a, b)


def blocked(name: str, rows: list[list[str]], plays: list[str], **options: object) -> Hand:
    """A hand of ``name`` from named tiles, no stock, played with ``plays`` to its end."""
    v = make_variant(name, {"players": len(rows), **options})
    h = Hand(v, [[T(x) for x in r] for r in rows], [], 0)
    for tok in plays:
        h.apply(h.check(notation.parse(h, tok)))
    assert h.over
    return h


def test_s16_the_double_blank_left_in_a_hand_is_named_in_the_breakdown():
    h = blocked("chicken-foot", [["9-1", "0-0", "3-2"], ["9-5", "4-4"]], ["9-1", "9-5"], spokes=6)
    res = h.result
    assert h.end == "blocked" and res.winner == 1
    assert res.pips == (5, 8)  # the double blank's own pips: 0
    assert res.breakdown == {"pips": [5, 8], "double_blank": [50, 0], "penalties": [55, 8]}
    assert res.points == (55, 8)
    # nobody holds it: no such part
    h = blocked("chicken-foot", [["9-1", "6-6", "3-2"], ["9-5", "4-4"]], ["9-1", "9-5"], spokes=6)
    assert h.result.breakdown == {"pips": [17, 8], "penalties": [17, 8]}


def test_s15_mexican_trains_double_blank_counts_its_pips():
    v = make_variant("mexican-train", {"players": 2})
    assert v.double_blank == 0
    # round 13's hub is the double blank, so hold it in round 1 instead and block at once
    h = Hand(v, [[T("0-0"), T("3-2")], [T("4-4")]], [], 0)
    assert h.over and h.end == "blocked"
    assert h.result.breakdown == {"pips": [5, 8], "penalties": [5, 8]}


def test_s16_a_records_description_names_the_double_blanks_50():
    for seed in range(400):  # a finished hand where someone was left with the double blank
        g = Game.new("chicken-foot", {"players": 3, "rounds": 1}, seed=seed)
        rng = random.Random(seed)
        while not g.over:
            g.apply(rng.choice(g.legal_moves()))
        if g.hand.masks[0] & 1 or g.hand.masks[1] & 1 or g.hand.masks[2] & 1:
            break
    else:
        pytest.fail("no hand ended with the double blank in a hand")
    res = g.hand.result
    holder = next(s for s in range(3) if g.hand.masks[s] & 1)
    assert res.breakdown["double_blank"][holder] == 50
    assert res.points[holder] == res.pips[holder] + 50
    text = describe(g)
    assert "double_blank [" in text and "penalties [" in text


def breakdown_parts() -> set[str]:
    parts: set[str] = {"double_blank"}
    for name in ENGINE_VARIANTS:
        for players in PLAYER_COUNTS[name]:
            for seed in range(3):
                g = Game(make_variant(name, {"players": players}), seed=seed)
                rng = random.Random(seed)
                while not g.hand.over:
                    g.apply(rng.choice(g.legal_moves()))
                parts |= set(g.hand.result.breakdown)
    return parts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_part_of_a_hands_breakdown_has_words_in_every_language(lang):
    words = catalogue(lang)
    parts = breakdown_parts()
    assert {"penalties", "pips"} <= parts
    missing = sorted(p for p in parts if f"score.part.{p}" not in words)
    assert not missing, f"{lang}: no words for the breakdown parts {missing}"
    assert "50" in words["score.part.double_blank"]
