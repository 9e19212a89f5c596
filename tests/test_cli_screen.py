"""The terminal's drawing of a tile (``cli/screen.py``): a double-six tile as ever (``[6|4]``);
in a set whose highest number has two digits (double-twelve) every number takes two places,
face-down tiles too, so that the tiles of a line and of a hand stand in even columns."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from bonepile.cli.screen import face_down_text, hand_text, layout_lines, tile_text
from bonepile.engine import Game
from bonepile.engine.tiles import HI, LO
from bonepile.engine.variant import OPTION_SPECS
from bonepile.engine.view import hand_view


def test_double_six_tiles_read_as_before():
    assert tile_text(6, 4) == "[6|4]"
    assert tile_text(0, 0) == "[0|0]"
    assert face_down_text() == "[▒|▒]"


def test_two_digit_sets_keep_every_tile_as_wide():
    assert tile_text(12, 10, 12) == "[12|10]"
    assert tile_text(9, 3, 12) == "[ 9| 3]"
    assert tile_text(9, 3, 9) == "[9|3]"
    widths = {len(tile_text(a, b, 12)) for a in range(13) for b in range(a + 1)}
    assert widths == {len(face_down_text(12))} == {7}


def test_a_hand_of_a_double_six_game_is_drawn_from_its_view():
    g = Game.new("block", seed=3)
    view = hand_view(g.hand, g.hand.to_move)
    text = hand_text(view).plain
    for t in view.hand:
        assert tile_text(HI[t], LO[t]) in text
    # the same tiles in a view of a double-twelve set take two places each
    wide = hand_text(SimpleNamespace(hand=view.hand, legal=view.legal, pips=12)).plain
    assert all(f"[{HI[t]:>2}|{LO[t]:>2}]" in wide for t in view.hand)


def test_a_double_twelve_table_in_even_columns():
    if "set" not in OPTION_SPECS["block"]:
        pytest.skip("the engine has no double-twelve set yet")
    h = Game.new("block", {"set": "double-twelve"}, seed=2).hand
    rng = random.Random(1)
    for _ in range(9):
        h.apply(rng.choice(h.legal_moves()))
    view = hand_view(h, h.to_move)
    text = "\n".join(line.plain for line in layout_lines(view)) + "\n" + hand_text(view).plain
    tiles = re.findall(r"\[[^\]]*\]", text)
    assert len(tiles) >= 9 and {len(t) for t in tiles} == {7}, tiles
