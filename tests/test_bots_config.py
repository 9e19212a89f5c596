"""The expert's parts: its presets chosen by what the rules say, the budget, the one α-β
solver (bots/alphabeta.py) and the one ``reply_points`` (bots/playout.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bonepile.bots import EXPERT_BUDGET, HINT_BUDGET, Budget, ExpertBot, make_bot
from bonepile.bots.alphabeta import OutOfNodes, alphabeta
from bonepile.bots.expert import PRESETS, preset, preset_name
from bonepile.bots.playout import end_value, reply_points, solve
from bonepile.engine import Hand, OptionError, make_variant
from bonepile.engine.tiles import PASS, bits, tile_of

PRESET_OF = [
    ("cinque", {}, "points_in_play"),
    # the fives games: the same preset (playouts to the end of the hand, without greedy's
    # prior, were measured weaker at 0.1 s: docs/BENCHMARKS.md)
    ("all-fives", {"players": 4}, "points_in_play"),
    ("muggins", {"players": 2}, "points_in_play"),
    ("fives-and-threes", {"players": 4}, "points_in_play"),
    ("blind-hugie", {"players": 3}, "blind_or_no_points"),
    ("billitonnen", {"players": 4}, "blind_or_no_points"),
    ("block", {"players": 4, "teams": True}, "partnership_block"),
    # partnerships, but a boneyard (draw), other scoring (Quinientos), passing at will
    ("draw", {"players": 4, "teams": True}, "open"),
    ("quinientos", {}, "open"),
    ("passing", {"players": 4, "teams": True}, "open"),
    ("block", {"players": 4}, "open"),
    ("draw", {"players": 2}, "open"),
]


@pytest.mark.parametrize("name,options,expected", PRESET_OF, ids=[f"{n}-{e}" for n, _o, e in PRESET_OF])
def test_each_game_gets_the_preset_its_rules_call_for(name, options, expected):
    v = make_variant(name, options)
    assert preset_name(v) == expected
    bot = ExpertBot(v, budget=Budget(simulations=1))
    assert bot.config is preset(v) is PRESETS[expected]


def test_the_rules_switch_off_what_they_leave_no_room_for():
    cinque = ExpertBot(make_variant("cinque", {}))
    assert cinque.horizon == 8 and cinque.endgame == 8 and cinque.game_weight == 50.0
    block3 = ExpertBot(make_variant("block", {"players": 3}))
    assert block3.horizon is None and block3.endgame == 0  # three sides: no exact endgame
    assert ExpertBot(make_variant("billitonnen", {"players": 3})).game_weight == 0  # one hand


def test_a_budget_is_checked_and_each_default_is_written_once():
    assert make_bot("expert", make_variant("cinque", {})).budget == EXPERT_BUDGET == Budget(time=0.1)
    assert HINT_BUDGET == Budget(time=0.5)
    assert Budget(time=0.2, simulations=3).as_dict() == {"time": 0.2, "simulations": 3}
    for bad, words in (
        ({"time": 0}, "--time must be a positive number"),
        ({"time": float("nan")}, "--time must be"),
        ({"time": True}, "--time must be"),
        ({"simulations": 0}, "--simulations must be at least 1"),
        ({"simulations": 2.5}, "--simulations must be"),
        ({"nodes": -1}, "--nodes must be at least 1"),
    ):
        with pytest.raises(OptionError, match=words):
            Budget(**bad)
    with pytest.raises(ValueError, match="needs a time or a number of simulations"):
        ExpertBot(make_variant("cinque", {}), budget=Budget(nodes=100))


def _positions(name, options, seed, count, tiles=28):
    """Positions of random play with a tile already on the table (and at most ``tiles`` in
    hand)."""
    v = make_variant(name, options)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        h = Hand.deal(v, rng)
        while not h.over:
            if h.placed and h.in_hands.bit_count() <= tiles and len(h.legal_moves()) > 1:
                out.append(h.copy())
                break
            h.apply(rng.choice(h.legal_moves()))
    return v, out


def _best_play(h: Hand, t: int) -> int:
    """The most the side to move scores now by one of its legal plays of tile t (0: none)."""
    side = h._side[h.to_move]
    base = h.inplay[side]
    best = 0
    for m in h.legal_moves():
        if m < PASS and tile_of(m) == t:
            h.push(m)
            best = max(best, h.inplay[side] - base)
            h.pop()
    return best


def test_reply_points_is_the_best_play_of_the_tile_now():
    """What the seat to move scores at once with a tile: for a tile it holds, the best of its
    legal plays of that tile; for one it does not, the same as if it held it."""
    _v, positions = _positions("cinque", {}, 3, 40)
    scored = 0
    for h in positions:
        seat = h.to_move
        before = h.masks[:]
        for t in bits(h.masks[seat]):
            got = reply_points(h, t)
            assert got == _best_play(h, t)
            scored += got > 0
        nxt = (seat + 1) % 4
        for t in bits(h.masks[nxt]):  # a tile of another seat, as if the mover held it
            lent = h.copy()
            lent.masks[nxt] &= ~(1 << t)
            lent.masks[seat] |= 1 << t
            assert reply_points(h, t) == _best_play(lent, t)
        assert h.masks == before
    assert scored  # some positions had points to take
    _v, plain = _positions("block", {"players": 2}, 3, 5)
    assert all(reply_points(h, t) == 0 for h in plain for t in bits(h.masks[h.to_move]))


def _minimax(h: Hand, v, side: int, leaf) -> float:
    if h.over:
        return leaf(h)[0]
    vals = []
    for m in h.legal_moves():
        h.push(m)
        vals.append(_minimax(h, v, side, leaf))
        h.pop()
    return max(vals) if v.side_of(h.to_move) == side else min(vals)


@pytest.mark.parametrize("name,options", [("block", {"teams": True}), ("cinque", {}), ("quinientos", {})])
def test_the_one_alphabeta_is_minimax_with_or_without_a_table(name, options):
    v, positions = _positions(name, options, 11, 6, tiles=8)
    for h in positions:
        side = v.side_of(h.to_move)

        def leaf(end, side=side):
            return end_value(end, v, side, 10.0, 50.0)

        want = _minimax(h, v, side, leaf)
        plain, n = alphabeta(h, v.seat_sides, side, leaf)
        tabled, _n = alphabeta(h, v.seat_sides, side, leaf, table={})
        assert plain[0] == tabled[0] == want and n > 0
        assert solve(h.copy(), v, side, 10.0, 50.0) == plain[1:]
        with pytest.raises(OutOfNodes):
            alphabeta(h.copy(), v.seat_sides, side, leaf, nodes=n - 1)
        assert alphabeta(h, v.seat_sides, side, leaf, nodes=n)[1] == n


def _chicken_foot_endgames(count: int) -> list[Hand]:
    """Two-player Chicken Foot positions of eight tiles or fewer in hand with nothing left to
    draw, whose exact endgame needs more than 1,000 positions."""
    v = make_variant("chicken-foot", {"players": 2})
    out: list[Hand] = []
    for seed in range(4000):
        rng = random.Random(seed)
        h = Hand.deal(v, rng)
        while not h.over and (h.in_hands.bit_count() > 8 or h.drawable() or not h.placed):
            ms = h.legal_moves()
            h.apply(ms[rng.randrange(len(ms))])
        if h.over:
            continue
        side = v.side_of(h.to_move)
        try:
            solve(h, v, side, 10.0, nodes=1_000)
        except OutOfNodes:
            out.append(h)
            if len(out) == count:
                break
    assert len(out) == count, "no large endgame found"
    return out


def test_a_search_cut_short_leaves_the_hand_as_it_was():
    """``OutOfNodes`` is raised from deep in the search: every move tried is taken back."""
    for h in _chicken_foot_endgames(2):
        v = h.v
        side = v.side_of(h.to_move)
        before = (h.masks[:], h.table_key(), h.to_move, len(h.log), h.legal_moves())
        with pytest.raises(OutOfNodes):
            solve(h, v, side, 10.0, nodes=500)
        assert (h.masks[:], h.table_key(), h.to_move, len(h.log), h.legal_moves()) == before


def test_an_endgame_too_large_to_solve_is_played_out_by_the_policy():
    """A playout reaching an endgame past ``endgame_nodes`` positions goes on with the expert's
    policy (it once solved a Chicken Foot endgame of 2.4 million positions for one world): the
    outcome is exactly the policy's playout of that world with the same random numbers, and
    with room enough the endgame is solved exactly."""
    for h in _chicken_foot_endgames(2):
        v = h.v
        me = h.to_move
        side = v.side_of(me)
        capped = ExpertBot(v, seed=1, config=replace(preset(v), endgame_nodes=500))
        no_endgame = ExpertBot(v, seed=1, config=replace(preset(v), endgame=0))
        assert capped.endgame == 8 and no_endgame.endgame == 0
        w1, w2 = h.copy(), h.copy()
        got = capped.play_out(w1, random.Random(7), me, side)
        want = no_endgame.play_out(w2, random.Random(7), me, side)
        assert got == want and w1.over and w1.log == w2.log
        roomy = ExpertBot(v, seed=1, config=replace(preset(v), endgame_nodes=10_000_000))
        exact = solve(h.copy(), v, side, roomy.config.win_weight, roomy.game_weight, nodes=None)
        assert roomy.play_out(h.copy(), random.Random(7), me, side) == exact
