"""The end of a hand solved across sampled worlds at once (bots/fusion.py), in the
partnership block game (RULES.md §3.3: every tile dealt, every seat must play): with one
world it is the exact α-β of that world; with several, the searching seat's own line is one
for all the worlds, so no move is worth more than when each world is solved alone, and
somewhere less; the expert's option reads nothing hidden."""

from __future__ import annotations

import random

from bonepile.bots import make_bot
from bonepile.bots.fusion import fused_solve
from bonepile.bots.greedy import GreedyBot
from bonepile.bots.playout import solve, tiles_left
from bonepile.bots.sampler import Sampler
from bonepile.engine import Game, make_variant
from test_bots import _same_view_other_deal

V = make_variant("block", {"players": 4, "teams": True})


def _endgames(count: int, most: int = 8) -> list[Game]:
    """Positions of greedy games with at most ``most`` tiles left and a choice to make."""
    out = []
    for seed in range(200):
        g = Game.new("block", {"players": 4, "teams": True}, seed=seed)
        bot = GreedyBot(V, seed=seed)
        while not g.hand.over:
            if tiles_left(g.hand) <= most and len(g.legal_moves()) > 1:
                out.append(g.copy())
                break
            g.apply(bot.choose(g.view(g.to_move)))
        if len(out) == count:
            return out
    raise AssertionError("too few end positions")


def test_3_3_fused_solve_of_one_world_is_its_exact_alpha_beta():
    for g in _endgames(25):
        me = g.to_move
        world = g.hand.copy()
        before = world.log[:]
        res = fused_solve([world], [1.0], V, me, 10.0)
        assert world.log == before  # the world is restored
        assert sorted(m for m, *_ in res) == sorted(g.legal_moves())
        for m, score, net, won in res:
            h = world.copy()
            h.apply(m)
            snet, swon, _ = solve(h, V, V.seat_sides[me], 10.0)
            assert (net, won) == (snet, float(swon))
            assert score == snet + (10.0 if swon else 0.0)


def test_3_3_one_line_for_all_worlds_is_never_worth_more_than_each_world_alone():
    """Per world, fixing the seat's own later moves across the worlds can only lower what a
    move is worth (partner and opponents still see each world); over these positions it
    does lower it somewhere (with 12 tiles left the seat still has two or three moves to
    make): the per-world solve overrates moves (strategy fusion)."""
    rng = random.Random(4)
    lower = 0
    for g in _endgames(12, most=12):
        me = g.to_move
        sampler = Sampler(V, g.view(me))
        worlds = [sampler.sample(rng) for _ in range(12)]
        weights = [1.0 + (i % 3) for i in range(12)]
        for m, score, _net, _won in fused_solve(worlds, weights, V, me, 10.0):
            alone = 0.0
            for w, wt in zip(worlds, weights):
                h = w.copy()
                h.apply(m)
                snet, swon, _ = solve(h, V, V.seat_sides[me], 10.0)
                alone += wt * (snet + (10.0 if swon else 0.0))
            alone /= sum(weights)
            assert score <= alone + 1e-9, (m, score, alone)
            lower += score < alone - 1e-9
    assert lower > 0


def test_3_3_the_experts_fused_endgame_reads_only_the_view():
    """The expert with ``fusion``: its evaluations come from the fused search at the end of
    a hand (as many worlds as asked), are the same for a seed, and are the same in a game
    whose hidden tiles differ but whose view is the same, even once the real hands are
    poisoned."""
    rng = random.Random(7)
    checked = 0
    for g in _endgames(12):
        me = g.to_move
        view = g.view(me)
        a = make_bot("expert", V, seed=3, simulations=5, fusion=16)
        ea = a.evaluate(view)
        assert a.last_worlds == 16
        assert sorted(e.action for e in ea) == sorted(view.legal)
        other = _same_view_other_deal(g, me, rng)
        if other is None:
            continue
        for s in range(V.players):
            if s != me:
                g.hand.hands[s] = 0
        b = make_bot("expert", V, seed=3, simulations=5, fusion=16)
        assert other.view(me) == view
        assert b.evaluate(other.view(me)) == ea
        checked += 1
    assert checked >= 6


def test_3_3_fusion_waits_for_the_end_of_the_hand():
    """Before the end (more tiles left than the endgame's 8) the expert searches as without
    the option: the same evaluations at a seed."""
    g = Game.new("block", {"players": 4, "teams": True}, seed=2)
    g.apply(g.legal_moves()[0])
    view = g.view(g.to_move)
    plain = make_bot("expert", V, seed=1, simulations=6).evaluate(view)
    assert make_bot("expert", V, seed=1, simulations=6, fusion=16).evaluate(view) == plain
