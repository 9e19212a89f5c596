"""The expert's playout policies inside one known world (bots/playout.py): in a plain line
game (Block, RULES.md §3.3) the blocking policy prefers a tile that leaves the next player,
an opponent, with nothing to play over a heavier one that does not."""

from __future__ import annotations

import random

from bonepile.bots.expert import ExpertBot
from bonepile.bots.playout import blocking_move, policy_move
from bonepile.engine import make_variant
from bonepile.engine.tiles import PASS
from test_bots_greedy import DOUBLES, game_with

DEAL = [
    DOUBLES,
    ["6-5", "6-1", "1-0", "3-0", "4-0", "5-0", "2-1"],
    # no 6 and no 1: after 6-6 and 6-1 the next player has nothing to play
    ["3-2", "4-2", "5-2", "4-3", "5-3", "5-4", "2-0"],
    ["6-4", "6-3", "6-2", "6-0", "3-1", "4-1", "5-1"],
]


def _after_the_lead():
    g = game_with("block", {"players": 4, "teams": True}, DEAL)
    g.play("6-6")
    h = g.hand.copy()
    return g, h, h.legal_moves()


def test_3_3_blocking_playout_shuts_out_the_next_player():
    g, h, ms = _after_the_lead()
    tile = {m: g.token(m).split("@")[0] for m in ms}
    assert set(tile.values()) == {"6-5", "6-1"}
    rng = random.Random(0)
    # the plain policy sheds the heavier 6-5 (seat 2 then plays a 5)
    assert tile[policy_move(h, ms, rng, 0.0)] == "6-5"
    assert tile[blocking_move(h, ms, rng, 0.0, 0.0)] == "6-5"
    # 6-1 leaves 6 and 1, which seat 2 lacks: worth it once the bonus outweighs 4 pips
    assert tile[blocking_move(h, ms, rng, 0.0, 5.0)] == "6-1"
    assert tile[blocking_move(h, ms, rng, 0.0, 3.0)] == "6-5"
    h.apply(blocking_move(h, ms, rng, 0.0, 5.0))
    assert h.legal_moves() == [PASS]


def test_3_3_blocking_playout_is_the_experts_option_and_stays_legal():
    """``shut`` switches the expert's playouts to the blocking policy; its choices stay legal
    and deterministic for a seed."""
    v = make_variant("block", {"players": 4, "teams": True})
    g, _h, _ms = _after_the_lead()
    view = g.view(g.to_move)
    a = ExpertBot(v, seed=3, simulations=12, shut=8.0).evaluate(view)
    b = ExpertBot(v, seed=3, simulations=12, shut=8.0).evaluate(view)
    assert a == b
    # the option reaches the playouts: the same worlds valued otherwise
    assert [e.value for e in a] != [e.value for e in ExpertBot(v, seed=3, simulations=12).evaluate(view)]
    assert {e.action for e in a} == set(view.legal)
