"""Single-observer information-set MCTS: research code, measured and not kept in the expert.

One tree per decision keyed by the action sequence, each iteration on a world from a pool of
sampled worlds, UCB over the actions legal in that world (availability counts), one
expansion, then the expert's playout (and exact endgame); the reward is the expert's
objective, credited to the side that chose each action.  The budget's ``simulations`` count
iterations.  Measured on the 4-player partnership block game at 0.1 s per decision it is not
stronger than the expert's PIMC (about even head to head, weaker against random:
docs/BENCHMARKS.md; ``bench/expert_algos.py``).
"""

from __future__ import annotations

import math
import os
import random
import sys
import time as _time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from bonepile.bots import Evaluation
from bonepile.bots.expert import ExpertBot, would_overrun
from bonepile.bots.sampler import InconsistentView, Sampler
from bonepile.engine import View
from bonepile.engine.hand import Hand


class IsmctsBot(ExpertBot):
    name = "ismcts"

    def __init__(self, *args: Any, exploration: float = 0.7, pool: int = 64, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.exploration = exploration
        self.pool = pool

    def evaluate(self, view: View) -> list[Evaluation]:
        """Each iteration takes a sampled world (from a pool drawn once per decision and
        reused in turn), descends one shared tree keyed by the action sequence, choosing among
        the actions legal in that world by UCB with availability counts, expands one node,
        rolls out with the playout policy and backs up the reward of the side that chose each
        action (partners share a side, so they cooperate)."""
        start = _time.perf_counter()
        legal = list(view.legal)
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        v = self.variant
        win_weight = self.config.win_weight
        me = view.seat
        my_side = v.side_of(me)
        seat_win = v.scoring == "result_only"
        side_of = v.seat_sides if not seat_win else list(range(v.players))
        nsides = len(v.sides) if not seat_win else v.players
        rng = self.rng
        sampler = Sampler(v, view)
        deadline, limit = self.deadline(start)
        scale = 1.0 if seat_win else float(win_weight + 20.0)
        c = self.exploration
        mykey = me if seat_win else my_side
        pool: list[Hand] = []
        # a node: {action: [visits, reward sum, availability, child node, net sum, win sum]}
        root: dict[int, list[Any]] = {}
        it = 0
        while it < limit:
            if len(pool) < self.pool:
                try:
                    pool.append(sampler.sample(rng))
                except InconsistentView:
                    if not pool:
                        return [Evaluation(m, 0.0, None, "no estimate") for m in legal]
                    w0 = pool[it % len(pool)]
                else:
                    w0 = pool[-1]
            else:
                w0 = pool[it % len(pool)]
            h = w0.copy()
            node = root
            path = []  # (stats, side of the mover)
            expanded = False
            while not h.over:
                ms = h.legal_moves()
                if len(ms) == 1 and node is not root:
                    m = ms[0]
                    st = node.get(m)
                    if st is None:
                        st = node[m] = [0, 0.0, 0, {}, 0.0, 0.0]
                    st[2] += 1
                else:
                    best = None
                    bv = -1e300
                    unvisited = []
                    for mm in ms:
                        st = node.get(mm)
                        if st is None:
                            st = node[mm] = [0, 0.0, 0, {}, 0.0, 0.0]
                        st[2] += 1
                        if st[0] == 0:
                            unvisited.append(st)
                            continue
                        if not unvisited:
                            u = st[1] / st[0] + c * math.sqrt(math.log(st[2]) / st[0])
                            if u > bv:
                                bv, best = u, (mm, st)
                    if unvisited:
                        st = unvisited[int(rng.random() * len(unvisited))]
                        m = next(mm for mm in ms if node[mm] is st)
                        expanded = True
                    else:
                        m, st = best  # type: ignore[misc]
                path.append((st, side_of[h.to_move]))
                h.apply(m)
                node = st[3]
                if expanded:
                    break
            rr = random.Random(rng.random())
            if not h.over:
                net, won, game = self.play_out(h, rr, me, my_side)
            else:
                net, won, game = self.outcome(h, h.result, me, my_side)  # type: ignore[arg-type]
            # rewards per side (my side's net and win; other sides share the opposite)
            mine = (
                (1.0 if won else 0.0)
                if seat_win
                else (net + win_weight * won + self.game_weight * game) / scale
            )
            if nsides == 2 or seat_win:
                other = -mine if not seat_win else (1.0 - mine) / max(1, nsides - 1)
            else:
                other = -mine / (nsides - 1)
            for st, sd in path:
                st[0] += 1
                st[1] += mine if sd == mykey else other
                if sd == mykey:
                    st[4] += net
                    st[5] += won
            it += 1
            if would_overrun(deadline, start, it):
                break
        self.last_worlds = it
        out = []
        for i, m in enumerate(legal):
            st = root.get(m)
            n = st[0] if st else 0
            ev = st[4] / n if st and n else 0.0
            w = st[5] / n if st and n else 0.0
            out.append((n, ev + win_weight * w if not seat_win else w, i, m, ev, w))
        out.sort(key=lambda x: (-x[0], -x[1], x[2]))
        top = out[0]
        return [
            Evaluation(m, round(ev, 2), round(w, 3), self.reason(ev - top[4], w - top[5], j == 0))
            for j, (n, _s, _i, m, ev, w) in enumerate(out)
        ]
