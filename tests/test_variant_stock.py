"""The stock a deal leaves to draw from (``Variant.stock``), read by the game descriptions."""

from __future__ import annotations

import pytest

from bonepile.engine import Game, make_variant


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
