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
from dataclasses import dataclass, replace

from ..bots.alphabeta import TABLE_CAP, OutOfNodes, Table, alphabeta
from ..bots.budget import Budget
from ..bots.expert import ExpertBot, preset
from ..bots.playout import game_outcome, same_tables
from ..engine import Variant
from ..engine.hand import Hand
from ..engine.scoring import gains

EXACT, BOUND, ESTIMATE = "exact", "bound", "estimate"
#: positions searched per decision before its moves are estimated instead (measured: a hand
#: of the partnership block game is exact from its second or third decision on)
DEFAULT_NODES = 200_000
#: the same with a spinner (Cinque), whose positions cost twice as much and whose first ones
#: are too large either way (measured on one hand: 13 s with 11 decisions estimated, against
#: 42 s with 9 at the default)
SPINNER_NODES = 50_000

#: a position whose exact search took more than this share of the nodes is the last one of
#: its hand searched (``Solver.values_line``)
HOPELESS = 0.5


def default_nodes(variant: Variant) -> int:
    """The positions searched per decision by default in ``variant``."""
    return SPINNER_NODES if variant.spinner else DEFAULT_NODES


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
        self._tables: dict[int, Table] = {}
        self._hand: tuple[object, ...] | None = None

    def values_line(self, positions: list[Hand]) -> list[dict[int, Shown]]:
        """``values`` of each of ``positions``, positions of one hand along its line of play
        (each one reached from the one before), solved from the last one back: the search of
        a later position fills the table its earlier ones read, and once a position runs out
        of nodes every earlier one (whose search holds that position's, and more) is
        estimated at once instead of spending its nodes first (docs/BENCHMARKS.md, "Analysis
        of long hands": the same values as one by one from the first, in a quarter of the
        time on the Passing Game's example).  A position whose search took more than
        ``HOPELESS`` of the nodes ends the searches too: the one before it holds it and more
        (in the examples it needed two to five times as many), so it would nearly always spend
        every node and be estimated anyway (docs/BENCHMARKS.md, "analyze in a minute")."""
        out: list[dict[int, Shown]] = []
        out_of_nodes = False
        for h in reversed(positions):
            out.append(self._estimated(h) if out_of_nodes else self.values(h))
            out_of_nodes = (
                out_of_nodes
                or any(x.kind == ESTIMATE for x in out[-1].values())
                or self.last_nodes > HOPELESS * self.nodes
            )
        return out[::-1]

    def _estimated(self, h: Hand) -> dict[int, Shown]:
        legal = h.legal_moves()
        same = same_tables(h, legal)
        distinct = [m for i, m in enumerate(legal) if same[i] == i]
        got = self._estimate(h, distinct, h.to_move, self.v.side_of(h.to_move))
        return {m: got[legal[same[i]]] for i, m in enumerate(legal)}

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
        except OutOfNodes:
            got = self._estimate(h, distinct, me, side)
        return {m: got[legal[same[i]]] for i, m in enumerate(legal)}

    # ------------------------------------------------------------------ exact
    def _terminal(self, h: Hand, me: int, side: int) -> tuple[float, float, float, float]:
        res = h.result
        assert res is not None
        if self.v.scoring == "result_only":
            won = 1.0 if res.winner == me else 0.0
            return won, won, won, 0.0
        p = gains(self.v, res.points)
        mine = p[side]
        net = mine - (sum(p) - mine) / (len(p) - 1)
        if self.v.in_play is not None:
            won = 1.0 if all(mine > x for i, x in enumerate(p) if i != side) else 0.0
        else:
            won = 1.0 if res.winner == side else 0.0
        game = float(game_outcome(self.v, h, p, side)) if self.game_worth else 0.0
        return net + self.game_worth * (game > 0), net, won, game

    def _search(self, h: Hand, legal: list[int], me: int, side: int) -> dict[int, Shown]:
        table = self._tables.setdefault(side, {})
        count = 0
        kind = BOUND if self.paranoid else EXACT
        out = {}
        for m in legal:
            h.push(m)
            (s, net, won, game), n = alphabeta(
                h,
                self.v.seat_sides,
                side,
                lambda end: self._terminal(end, me, side),
                table=table,
                nodes=self.nodes - count,
            )
            h.pop()
            count += n
            out[m] = Shown(net, won, game, s, kind)
        self.last_nodes = count
        return out

    # ------------------------------------------------------------------ estimate
    def _estimate(self, h: Hand, legal: list[int], me: int, side: int) -> dict[int, Shown]:
        # playouts to the end of the hand
        bot = ExpertBot(
            self.v, seed=self.seed, budget=Budget(simulations=1), config=replace(preset(self.v), horizon=0)
        )
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
