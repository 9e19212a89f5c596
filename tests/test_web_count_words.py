"""The table's note on the ends' count says why it scores, in the game's own terms: "a
multiple of five" (All Fives, Cinque...), and in Fives and Threes also "a multiple of three"
or "of five and of three"; a note exactly where the engine's formula scores."""

from __future__ import annotations

import pytest

from bonepile.engine.variant import VARIANT_NAMES, make_variant
from bonepile.web.protocol import count_json
from bonepile.web.words.i18n import LANGUAGES, catalogue
from bonepile.web.words.labels import COUNT_NOTE_KEYS, count_note_key
from support import random_hand


def test_the_notes_follow_the_engines_points():
    scoring = pytest.importorskip("bonepile.engine.scoring")
    points = getattr(scoring, "in_play_points", None)
    if points is None:
        pytest.skip("the engine has no in-play formula for fives and threes yet")
    for kind in ("fives", "fives_and_threes"):
        for count in range(0, 73):
            key = count_note_key(kind, count)
            assert (key is not None) == (points(kind, count) > 0), (kind, count)


def test_which_note():
    assert count_note_key("fives", 15) == "count.multiple_of_five"
    assert count_note_key("fives", 9) is None
    assert count_note_key("fives_and_threes", 9) == "count.multiple_of_three"
    assert count_note_key("fives_and_threes", 10) == "count.multiple_of_five"
    assert count_note_key("fives_and_threes", 30) == "count.multiple_of_five_and_three"
    assert count_note_key("fives_and_threes", 0) is None and count_note_key(None, 15) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_note_has_words(lang):
    cat = catalogue(lang)
    assert all(cat.get(k) for k in COUNT_NOTE_KEYS.values())


def test_the_table_notes_every_scoring_count_over_random_hands():
    """The count the table shows (``protocol.count_json``) carries a note exactly when the
    engine scores it, in every game that scores the ends during play."""
    games = [g for g in VARIANT_NAMES if make_variant(g, {}).in_play is not None]
    assert "cinque" in games
    noted = set()
    for game in games:
        for seed in range(15):

            def check(h, game=game, seed=seed):
                c = count_json(h)
                assert c is not None and c["value"] == h.count()
                assert (c["note_key"] is not None) == (h.count_points() > 0), (game, seed)
                if c["note_key"]:
                    noted.add(c["note_key"])
                    assert c["note"] == catalogue("en")[c["note_key"]]

            random_hand(game, seed, check)
    assert "count.multiple_of_five" in noted
