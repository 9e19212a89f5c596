"""The value of every legal move with every hand shown (and the boneyard's order known).

With nothing hidden a hand is a game of perfect information, and its value is found by α-β
search with a transposition table: the mover's side maximizes, the other side minimizes
(two sides: the exact value).  With more than two sides the others are taken to play
together against the mover ("paranoid" search): the value is then a lower **bound**, what
the mover is sure of whatever the others do.  When a position needs more than ``nodes``
positions searched, every move of it is valued instead by playouts of the real deal with the
expert's playout policy (an **estimate**); the kind is said with each value.

The objective is the mover's side's points in the hand, net of the other sides, with a game
won in this hand worth ``game_worth`` points more (the game's target: a hand that wins the
game is worth the whole game); where the winner is a seat and there are no points
(Billitonnen) it is 1 for a won hand and 0 for a lost one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bots.expert import ExpertBot
from ..bots.playout import WEIGHT, game_outcome, same_tables
from ..engine import Variant
from ..engine.hand import Hand
from ..engine.tiles import PASS

EXACT, BOUND, ESTIMATE = "exact", "bound", "estimate"
#: positions searched per decision before its moves are estimated instead (measured: a hand
#: of the partnership block game is exact from its second or third decision on)
DEFAULT_NODES = 200_000
#: the same with a spinner (Cinque), whose positions cost twice as much and whose first ones
#: are too large either way (measured on one hand: 13 s with 11 decisions estimated, against
#: 42 s with 9 at the default)
SPINNER_NODES = 50_000


def default_nodes(variant: Variant) -> int:
    """The positions searched per decision by default in ``variant``."""
    return SPINNER_NODES if variant.spinner else DEFAULT_NODES


#: positions a transposition table holds before it is emptied (memory: about 250 MB at most)
TABLE_CAP = 400_000


@dataclass(frozen=True, slots=True)
class Shown:
    """One move's value with every hand shown: ``points`` net for the mover's side (the
    mean over playouts for an estimate), ``won`` the hand (for an estimate: the share of
    playouts won), ``game`` +1 if the game is won with this hand, -1 if lost, 0 if it goes
    on (for an estimate: the share won), ``score`` the searched objective, ``kind`` one of
    exact, bound, estimate."""

    points: float
    won: float
    game: float
    score: float
    kind: str


class _OutOfNodes(Exception):
    pass


def _key(h: Hand) -> int:
    """Everything the rest of the hand depends on, packed into one int (a table of ints takes
    a fraction of the memory of one of tuples).  The rules read each arm's open end, whether it
    ends in a double and whether it holds a tile; L and R are interchangeable, and so are U and
    D (mirror images share an entry)."""
    k = 0
    for m in h.hands:
        k = (k << 28) | m
    arms = [((h.pip[a] + 1) << 2) | (h.dbl[a] << 1) | h.occ[a] for a in range(4)]
    for x in (*sorted(arms[:2]), *sorted(arms[2:])):
        k = (k << 6) | x
    c = h.capicu_ok
    k = (k << 5) | h.bpos
    k = (k << 4) | (h.spin + 1)
    k = (k << 3) | h.to_move
    k = (k << 3) | h.passes
    k = (k << 1) | h.drew
    k = (k << 1) | (h.placed == 0)
    k = (k << 9) | (c[0] << 8) | ((c[1] + 1) << 4) | (c[2] + 1)
    k = (k << 3) | (7 if h.first_to_target is None else h.first_to_target)
    for p in h.inplay:
        k = (k << 12) | p
    for f in h.face_up or ():
        k = (k << 28) | f
    return k


class Solver:
    """Values the legal moves of positions of one variant (``values``)."""

    def __init__(
        self, variant: Variant, *, nodes: int | None = None, playouts: int = 32, seed: int = 0
    ) -> None:
        self.v = variant
        self.nodes = default_nodes(variant) if nodes is None else nodes
        self.playouts = playouts
        self.seed = seed
        self.game_worth = (
            float(variant.target) if variant.target and variant.target_rule != "single_hand" else 0.0
        )
        self.paranoid = len(variant.sides) != 2
        self.last_nodes = 0
        #: transposition tables of the hand being analysed, one per side (a hand's positions
        #: recur from one decision to the next)
        self._tables: dict[int, dict[int, tuple[int, tuple[float, float, float, float]]]] = {}
        self._hand: tuple[object, ...] | None = None

    def values(self, h: Hand) -> dict[int, Shown]:
        """Every legal move of ``h`` (a position with every hand known) with its value for
        the side to move."""
        legal = h.legal_moves()
        me = h.to_move
        side = self.v.side_of(me)
        ident = (h.deal_rows, h.boneyard, h.leader, h.totals, h.bonus)
        if ident != self._hand or sum(map(len, self._tables.values())) >= TABLE_CAP:
            self._hand = ident
            self._tables = {}
        w = h.copy()
        same = same_tables(w, legal)
        distinct = [m for i, m in enumerate(legal) if same[i] == i]
        try:
            got = self._search(w, distinct, me, side)
        except _OutOfNodes:
            got = self._estimate(h, distinct, me, side)
        return {m: got[legal[same[i]]] for i, m in enumerate(legal)}

    # ------------------------------------------------------------------ exact
    def _terminal(self, h: Hand, me: int, side: int) -> tuple[float, float, float, float]:
        res = h.result
        assert res is not None
        if self.v.scoring == "result_only":
            won = 1.0 if res.winner == me else 0.0
            return won, won, won, 0.0
        p = res.points
        mine = p[side]
        net = mine - (sum(p) - mine) / (len(p) - 1)
        if self.v.in_play is not None:
            won = 1.0 if all(mine > x for i, x in enumerate(p) if i != side) else 0.0
        else:
            won = 1.0 if res.winner == side else 0.0
        game = float(game_outcome(self.v, h, p, side)) if self.game_worth else 0.0
        return net + self.game_worth * (game > 0), net, won, game

    def _search(self, h: Hand, legal: list[int], me: int, side: int) -> dict[int, Shown]:
        side_of = self.v.seat_sides
        table = self._tables.setdefault(side, {})
        count = 0
        limit = self.nodes

        def ab(alpha: float, beta: float) -> tuple[float, float, float, float]:
            nonlocal count
            if h.over:
                return self._terminal(h, me, side)
            count += 1
            if count > limit:
                raise _OutOfNodes
            key = _key(h)
            hit = table.get(key)
            if hit is not None:
                flag, val = hit
                if flag == 0 or (flag > 0 and val[0] >= beta) or (flag < 0 and val[0] <= alpha):
                    return val
            a0, b0 = alpha, beta
            ms = h.legal_moves()
            if len(ms) > 1:
                ms.sort(key=lambda m: -WEIGHT[m >> 2] if m < PASS else 0)
            best: tuple[float, float, float, float] | None = None
            if side_of[h.to_move] == side:
                for m in ms:
                    h.push(m)
                    x = ab(alpha, beta)
                    h.pop()
                    if best is None or x[0] > best[0]:
                        best = x
                        if x[0] > alpha:
                            alpha = x[0]
                        if alpha >= beta:
                            break
            else:
                for m in ms:
                    h.push(m)
                    x = ab(alpha, beta)
                    h.pop()
                    if best is None or x[0] < best[0]:
                        best = x
                        if x[0] < beta:
                            beta = x[0]
                        if alpha >= beta:
                            break
            assert best is not None
            # a value at or below the window's floor is an upper bound, at or above its
            # ceiling a lower bound, in between exact
            flag = -1 if best[0] <= a0 else 1 if best[0] >= b0 else 0
            if len(table) >= TABLE_CAP:  # (only a cache: emptying it costs time, not values)
                table.clear()
            table[key] = (flag, best)
            return best

        kind = BOUND if self.paranoid else EXACT
        out = {}
        for m in legal:
            h.push(m)
            s, net, won, game = ab(float("-inf"), float("inf"))
            h.pop()
            out[m] = Shown(net, won, game, s, kind)
        self.last_nodes = count
        return out

    # ------------------------------------------------------------------ estimate
    def _estimate(self, h: Hand, legal: list[int], me: int, side: int) -> dict[int, Shown]:
        bot = ExpertBot(self.v, seed=self.seed, simulations=1, horizon=0)  # playouts to the end
        rng = random.Random(self.seed)
        seeds = [rng.random() for _ in range(self.playouts)]
        out = {}
        for m in legal:
            tot = [0.0, 0.0, 0.0, 0.0]
            for rs in seeds:
                w = h.copy()
                w.apply(m)
                net, won, game = bot.play_out(w, random.Random(rs), me, side)
                if self.v.scoring == "result_only":
                    score = net
                else:
                    score = net + self.game_worth * (game > 0)
                tot[0] += score
                tot[1] += net
                tot[2] += won
                tot[3] += game > 0
            n = len(seeds)
            out[m] = Shown(tot[1] / n, tot[2] / n, tot[3] / n, tot[0] / n, ESTIMATE)
        self.last_nodes = self.nodes
        return out
