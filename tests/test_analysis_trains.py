"""The analysis with every hand shown, on the train layout (issue 31): the α-β search's
transposition key packed a train hand's table wrongly (an absent train's end and "no double to
cover" are -1, which wiped every bit packed before them: the hands), so positions with other
hands shared one entry and the analysis of the Mexican Train example said every move of every
seat was the best."""

from __future__ import annotations

import random

from bonepile.analysis.exact import Solver
from bonepile.bots.alphabeta import position_key
from bonepile.engine import Hand, make_variant
from bonepile.engine.tiles import PASS


def _endgames(players: int, count: int, tiles_left: int) -> list[Hand]:
    """Positions of random Mexican Train hands once the stock is empty and at most
    ``tiles_left`` tiles are in the hands, with a choice to make."""
    v = make_variant("mexican-train", {"players": players, "rounds": 1})
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        h = Hand.deal(v, random.Random(seed))
        rng = random.Random(seed)
        while not h.over and not (h.drawable() == 0 and h.in_hands.bit_count() <= tiles_left):
            legal = h.legal_moves()
            plays = [m for m in legal if m < PASS]
            h.apply(rng.choice(plays) if plays else legal[0])
        if not h.over and len(h.legal_moves()) > 1:
            out.append(h)
    return out


def _plain(solver: Solver, h: Hand, me: int, side: int) -> float:
    """The paranoid value by a search of every line, with no table."""
    if h.over:
        return solver._terminal(h, me, side)[0]
    vals = []
    for m in h.legal_moves():
        h.push(m)
        vals.append(_plain(solver, h, me, side))
        h.pop()
    return max(vals) if solver.v.side_of(h.to_move) == side else min(vals)


def test_train_endgame_values_match_a_search_without_a_table():
    for h in _endgames(3, 10, 11):
        solver = Solver(h.v, nodes=10**7)
        me = h.to_move
        side = h.v.side_of(me)
        values = solver.values(h.copy())
        for m, value in values.items():
            w = h.copy()
            w.push(m)
            assert value.kind == "bound"
            assert value.score == _plain(solver, w, me, side), (h.log, m)


def test_the_search_key_tells_train_positions_apart():
    """Along random hands (the stock included, 8 players: every marker bit), no two
    positions that differ in what follows share a key."""
    for players in (3, 8):
        v = make_variant("mexican-train", {"players": players, "rounds": 1})
        seen: dict[int, tuple] = {}
        for seed in range(15):
            h = Hand.deal(v, random.Random(seed))
            rng = random.Random(seed)
            while not h.over:
                state = (
                    tuple(h.masks),
                    tuple(h.pip),
                    tuple(h.dbl),
                    h.marks,
                    h.pending,
                    h.to_move,
                    h.bpos,
                    h.drew,
                )
                assert seen.setdefault(position_key(h), state) == state
                legal = h.legal_moves()
                h.apply(legal[rng.randrange(len(legal))])
