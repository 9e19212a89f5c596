"""The stock a deal leaves to draw from (``Variant.stock``), read by the game descriptions."""

from __future__ import annotations

import random

import pytest

from bonepile.engine import Game, Hand, make_variant
from bonepile.engine.variant import ENGINE_VARIANTS, PLAYER_COUNTS


@pytest.mark.parametrize(
    "name,players,stock",
    [
        ("block", 4, 0),  # RULES.md §3: 7 each with four players, all 28 dealt
        ("block", 3, 7),
        ("block", 2, 14),  # §3 [C]: a 14-tile stock with two players
        ("draw", 4, 8),  # §3 [D]: 5 each with four players
        ("passing", 2, 12),  # the last two boneyard tiles are never drawn: 12 drawable
        ("cinque", 4, 0),
    ],
)
def test_rules_3_the_stock_is_what_the_deal_leaves(name, players, stock):
    assert make_variant(name, {"players": players}).stock == stock


@pytest.mark.parametrize("name", ["block", "draw", "passing"])
def test_the_stock_is_what_a_real_deal_leaves_drawable(name):
    for players in (2, 3, 4):
        v = make_variant(name, {"players": players})
        g = Game(v, seed=players)
        assert g.view(g.to_move).drawable == v.stock, (name, players)


#: options that change the deal, on top of each game's defaults
DEAL_OPTIONS = {
    "draw": [{"set": "double-twelve"}, {"boneyard_reserve": 2}],
    "block": [{"set": "double-nine"}],
    "chicken-foot": [{"spokes": 4}],
}


@pytest.mark.parametrize("name", ENGINE_VARIANTS)
def test_the_stock_of_every_game_and_player_count_is_what_its_deals_leave_to_draw(name):
    """RULES.md §0 and §15–16: ``Variant.stock`` is what may be drawn once the tiles are dealt,
    after the train layouts' centre double is set aside before the deal (one tile fewer), the
    Billitonnen starter is turned up and the never-drawn reserve is left out; the blind games
    draw nothing.  Checked against real deals of several hands (each round's centre double)."""
    for players in PLAYER_COUNTS[name]:
        for extra in [{}, *DEAL_OPTIONS.get(name, [])]:
            v = make_variant(name, {"players": players, **extra})
            for number in (1, 2, 5):
                h = Hand.deal(v, random.Random(players * 100 + number), number=number)
                dealt = sum(len(r) for r in h.deal_rows)
                assert dealt + len(h.boneyard) + v.set_aside == v.n_tiles, (name, players, extra)
                assert h.drawable() == v.stock, (name, players, extra, number)


def test_the_train_layouts_set_their_centre_double_aside():
    assert make_variant("mexican-train", {"players": 4}).set_aside == 1
    assert make_variant("chicken-foot", {"players": 4}).set_aside == 1
    assert all(
        make_variant(n, {}).set_aside == 0 for n in ENGINE_VARIANTS if make_variant(n, {}).layout == "line"
    )
    # the numbers people read: 91 - 1 - 4 * 15 and 55 - 1 - 4 * 7
    assert make_variant("mexican-train", {"players": 4}).stock == 30
    assert make_variant("chicken-foot", {"players": 4}).stock == 26
