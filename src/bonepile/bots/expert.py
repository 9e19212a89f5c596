"""Search over the hidden information: perfect-information Monte Carlo (PIMC).

For each decision the expert draws hidden worlds that agree with its View (``sampler``),
and in every world plays each legal action followed by a rollout to the end of the hand with
a fast club-player policy for all seats (partners included: a partner is on the bot's side
and plays the same policy).  The same world and the same rollout random numbers are used for
every action (common random numbers), so differences between actions are not noise of the
deal.  Close to the end of a hand in two-sided games the rollout is replaced by an exact
α-β search of the world (the bot's side maximizes, the other side minimizes).  ``fusion=N``
instead searches N worlds together from there (``fusion.fused_solve``: one line of the bot's
own for all of them); measured, it seldom chooses another move (bench/fusion.py), so it is off.

Objective: the points the bot's side gains in the hand, net of the other sides, plus a
bonus for winning the hand (``win_weight``); where points are scored during play (Cinque)
"winning the hand" means scoring more points in it than the other side.  ``evaluate``
reports both the expected net points and the hand-win chance of every action.

The game, not only the hand: a playout that ends the game (the scores before the hand plus
its points reach the target) adds ``game_weight`` for a win and takes it off for a loss.
Where points are scored during play (Cinque) every seat's playout plays like a fives player
(``playout.fives_guard_move``: the points now less the next seat's best reply), and the playouts are
short and deterministic by default (``tuned_defaults``).  There the worlds are also weighed by
how the other seats chose (``infer``: policy-based inference, ``inference.PlayModel``): each
searched world is picked from ``infer`` sampled deals in proportion to the probability of the
plays seen under a points-taking model of play.  The greedy bot's one-ply score is
added to each action's value with weight ``prior`` (it knows features of a position, such as
follow-ups and the suits kept, that short or noisy playouts miss).  Mirror-image actions
(the same table up to L/R and U/D) are searched once.

Budget: ``simulations`` worlds per decision when given (deterministic for a seed), else as
many as fit in ``time`` seconds.

``algo="ismcts"`` swaps PIMC for single-observer information-set MCTS: one tree per decision
keyed by the action sequence, each iteration on a world from a pool of sampled worlds, UCB
over the actions legal in that world (availability counts), one expansion, then the same
rollout (and endgame solver) as PIMC; the reward is the same objective, credited to the side
that chose each action.  ``simulations`` then counts iterations.  Measured on the 4-player
partnership block game at 0.1 s per decision it is not stronger than PIMC (about even head to
head, weaker against random: bench/expert_algos.py), so PIMC stays the default.
"""

from __future__ import annotations

import math
import random
import time as _time
from typing import Any

from ..engine import Variant, View
from ..engine.hand import Hand, HandResult
from .base import Bot, Evaluation
from .fusion import fused_solve
from .greedy import GreedyBot
from .inference import PlayModel, models
from .playout import (
    FIVES_POLICIES,
    blocking_move,
    game_outcome,
    policy_move,
    same_tables,
    solve,
    tiles_left,
    voluntary_move,
)
from .sampler import InconsistentView, Sampler


def _would_overrun(deadline: float | None, start: float, done: int) -> bool:
    """With ``done`` units of work finished since ``start``, would one more (at the mean
    cost so far) end past ``deadline``?  Never, without a deadline."""
    if deadline is None:
        return False
    now = _time.perf_counter()
    return now + (now - start) / done >= deadline


def tuned_defaults(v: Variant) -> dict[str, Any]:
    """The expert's defaults for a variant, chosen by measurement against greedy
    (bench/expert_greedy.py; README, Benchmark): where points are scored during play
    (Cinque) the playouts are deterministic (epsilon 0) and stop after 8 plies (two rounds),
    each world is picked from 8 sampled deals by how likely they make the other seats'
    plays (``infer``, ``infer_beta``: bots/inference.py), the objective is net points
    (no bonus for winning the hand) and the greedy score is added with weight 0.5; in the
    other open games the greedy score is added with weight 0.5, and in the partnership block
    game (every tile dealt, every seat must play) the worlds are weighed by a mixture of two
    kinds of player (``infer_kinds``); blind games and Billitonnen keep the plain search."""
    if v.in_play == "fives":
        return {"win_weight": 0.0, "epsilon": 0.0, "horizon": 8, "prior": 0.5, "infer": 8, "infer_beta": 0.6}
    if v.turn == "blind" or v.scoring == "result_only":
        return {"win_weight": 10.0, "epsilon": 0.25, "horizon": 0, "prior": 0.0}
    out: dict[str, Any] = {"win_weight": 10.0, "epsilon": 0.25, "horizon": 0, "prior": 0.5}
    if v.turn == "must_play" and sum(v.hand_sizes) == 28 and v.teams and v.scoring == "lowest":
        # the partnership block game (every tile dealt): each other seat is read as either a
        # player of any tile that fits or one who sheds heavy tiles (measured at 0.1 s: vs
        # greedy 64.5% of hands against 58.2%, vs random level; in Quinientos it did not help,
        # 60.3% against 63.7% of 300 hands, so it stays off there)
        out.update(infer=8, infer_beta=1.0, infer_kinds=(0.0, 0.5))
    return out


class ExpertBot(Bot):
    name = "expert"

    def __init__(
        self,
        variant: Variant,
        *,
        seed: int | None = None,
        time: float = 0.1,
        simulations: int | None = None,
        win_weight: float | None = None,
        epsilon: float | None = None,
        opponent_epsilon: float | None = None,
        endgame: int = 8,
        model: float | None = None,
        algo: str = "pimc",
        exploration: float = 0.7,
        pool: int = 64,
        rollout: str = "guard",
        horizon: int | None = None,
        game_weight: float = 50.0,
        prior: float | None = None,
        infer: int | None = None,
        infer_beta: float | None = None,
        infer_pips: float = 0.0,
        infer_kinds: tuple[float, ...] | list[float] | None = None,
        shut: float = 0.0,
        fusion: int = 0,
    ) -> None:
        """Options left at None take the variant's tuned default (``tuned_defaults``):
        ``win_weight`` (bonus for winning the hand), ``epsilon`` (random share of the
        playouts), ``horizon`` (plies a Cinque playout runs before the points so far are
        counted; 0 plays to the end of the hand), ``prior`` (weight of the greedy bot's
        one-ply score added to each action's search value; PIMC only).  ``rollout="guard"``
        (default) plays the Cinque and Passing Game playouts described above; ``"greedy"``
        keeps the earlier ones (Cinque: the most points now; no pass on purpose)."""
        super().__init__(variant, seed=seed)
        if algo not in ("pimc", "ismcts"):
            raise ValueError(f"unknown expert algorithm {algo!r} (pimc or ismcts)")
        self.algo = algo
        if rollout not in FIVES_POLICIES:
            raise ValueError(f"unknown rollout policy {rollout!r} ({', '.join(FIVES_POLICIES)})")
        self.rollout = rollout
        tuned = tuned_defaults(variant)
        hz = tuned["horizon"] if horizon is None else horizon
        self.horizon = int(hz) if hz and variant.in_play == "fives" else None
        #: weight of winning (+) or losing (-) the game in this hand, from the scores and the
        #: target; 0 plays every hand for itself
        self.game_weight = (
            game_weight if variant.target is not None and variant.target_rule != "single_hand" else 0.0
        )
        self.exploration = exploration
        self.pool = pool
        self.time = time
        self.simulations = simulations
        self.win_weight = tuned["win_weight"] if win_weight is None else win_weight
        self.epsilon = tuned["epsilon"] if epsilon is None else epsilon
        self.endgame = endgame if len(variant.sides) == 2 and variant.turn == "must_play" else 0
        self.last_worlds = 0
        self.model = model
        self.opponent_epsilon = self.epsilon if opponent_epsilon is None else opponent_epsilon
        #: weight of the greedy bot's one-ply score added to each action's search value
        self.prior = tuned["prior"] if prior is None else prior
        #: policy-based inference (``inference.PlayModel``): each searched world is picked
        #: from this many sampled ones in proportion to how likely they make the other
        #: seats' plays (0 or 1: every consistent world alike)
        self.infer = int(tuned.get("infer", 0) if infer is None else infer)
        self.infer_beta = float(tuned.get("infer_beta", 0.3) if infer_beta is None else infer_beta)
        self.infer_pips = infer_pips
        #: the kinds of player each other seat may be (``inference.PlayModel``'s mixture)
        self.infer_kinds = tuple(tuned.get("infer_kinds", ()) if infer_kinds is None else infer_kinds)
        #: plain line games: a playout move that leaves the next player (an opponent) no tile
        #: to play is worth ``shut`` more (``playout.blocking_move``; 0: the plain policy)
        self.shut = shut
        #: with at most ``endgame`` tiles left, search this many worlds together to the end of
        #: the hand (``fusion.fused_solve``: one line of my own for all of them) instead of
        #: solving each world alone; 0: each alone
        self.fusion = int(fusion) if self.endgame else 0

    def choose(self, view: View) -> int:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        if len(legal) == 1:
            return legal[0]
        return self.evaluate(view)[0].action

    # ------------------------------------------------------------------ search
    def evaluate(self, view: View) -> list[Evaluation]:
        if self.algo == "ismcts":
            return self._evaluate_ismcts(view)
        start = _time.perf_counter()
        legal = list(view.legal)
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        v = self.variant
        me = view.seat
        my_side = v.side_of(me)
        seat_win = v.scoring == "result_only"  # Billitonnen: the winner is a seat
        rng = self.rng
        sampler = Sampler(v, view, model_eps=self.model)
        k = len(legal)
        value = [0.0] * k
        wins = [0.0] * k
        games = [0.0] * k
        gwins = [0.0] * k  # playouts in which my side wins the game
        gends = 0  # playouts in which the game ends
        worlds = 0
        wsum = 0.0
        same: list[int] = []  # per action: the first action that leads to the same table
        deadline = None if self.simulations is not None else start + self.time
        limit = self.simulations if self.simulations is not None else 1 << 30
        play_model = None
        if self.infer > 1 and view.history and models(v, view):
            try:
                sampler.sample(rng)
            except InconsistentView:
                pass
            else:
                play_model = PlayModel(
                    v,
                    view,
                    sampler.moves,
                    sampler.start_hand(sampler.last_deal),
                    beta=self.infer_beta,
                    pips=self.infer_pips,
                    mixture=self.infer_kinds,
                )
        if self.fusion:
            fused = self._fused(view, sampler, play_model, rng)
            if fused is not None:
                return fused
        while worlds < limit:
            try:
                world = (
                    sampler.sample(rng) if play_model is None else self._inferred(sampler, play_model, rng)
                )
            except InconsistentView:
                if worlds:
                    break
                # never expected (tests check every view yields worlds): stay legal
                return [Evaluation(m, 0.0, None, "no estimate") for m in legal]
            rseed = rng.random()
            wt = sampler.last_weight
            wsum += wt
            if not same:
                same = same_tables(world, legal)
            for i, m in enumerate(legal):
                if same[i] != i:  # a mirror image of an earlier action: the same value
                    continue
                h = world.copy()
                h.apply(m)
                net, won, game = self.play_out(h, random.Random(rseed), me, my_side)
                value[i] += wt * net
                wins[i] += wt * won
                games[i] += wt * game
                if game:
                    gends += 1
                    if game > 0:
                        gwins[i] += wt
            worlds += 1
            if _would_overrun(deadline, start, worlds):
                break
        self.last_worlds = worlds
        for i, j in enumerate(same):
            value[i], wins[i], games[i], gwins[i] = value[j], wins[j], games[j], gwins[j]
        pm = self._prior(view) if not seat_win else {}
        prior = [pm.get(m, 0.0) for m in legal]
        out = []
        for i, m in enumerate(legal):
            ev = value[i] / wsum
            w = wins[i] / wsum
            g = games[i] / wsum
            out.append(
                (
                    ev + self.win_weight * w + self.game_weight * g + prior[i] if not seat_win else w,
                    i,
                    m,
                    ev,
                    w,
                    round(gwins[i] / wsum, 3) if gends else None,
                )
            )
        out.sort(key=lambda x: (-x[0], x[1]))
        top = out[0]
        return [
            Evaluation(m, round(ev, 2), round(w, 3), self._reason(ev - top[3], w - top[4], j == 0), game=gw)
            for j, (_s, _i, m, ev, w, gw) in enumerate(out)
        ]

    def _fused(
        self, view: View, sampler: Sampler, play_model: PlayModel | None, rng: random.Random
    ) -> list[Evaluation] | None:
        """The evaluations of the end of a hand searched across ``fusion`` worlds at once, or
        None while more than ``endgame`` tiles are left (or a seat may still draw)."""
        if sum(view.tile_counts) > self.endgame or view.boneyard or not view.history:
            return None
        worlds: list[Hand] = []
        weights: list[float] = []
        while len(worlds) < self.fusion:
            try:
                w = sampler.sample(rng) if play_model is None else self._inferred(sampler, play_model, rng)
            except InconsistentView:
                break
            worlds.append(w)
            weights.append(sampler.last_weight)
        if not worlds:
            return None
        self.last_worlds = len(worlds)
        res = fused_solve(worlds, weights, self.variant, view.seat, self.win_weight, self.game_weight)
        prior = self._prior(view)
        order = {m: i for i, m in enumerate(view.legal)}
        ranked = sorted(res, key=lambda r: (-(r[1] + prior.get(r[0], 0.0)), order[r[0]]))
        top = ranked[0]
        return [
            Evaluation(m, round(net, 2), round(won, 3), self._reason(net - top[2], won - top[3], j == 0))
            for j, (m, _s, net, won) in enumerate(ranked)
        ]

    def _prior(self, view: View) -> dict[int, float]:
        """The greedy bot's one-ply score of each legal action, times ``prior`` (empty at 0)."""
        if not self.prior:
            return {}
        return {
            e.action: self.prior * e.value for e in GreedyBot(self.variant, seed=self.seed).evaluate(view)
        }

    def _inferred(self, sampler: Sampler, play_model: PlayModel, rng: random.Random) -> Hand:
        """One world picked from ``infer`` sampled deals with probability proportional to
        the play model's weight (sampling-importance-resampling); only the picked deal is
        replayed (a deal that fails the replay is dropped and another picked)."""
        cands: list[tuple[list[list[int]], list[int]]] = []
        weights = []
        tries = 0
        while len(cands) < self.infer and tries < sampler.tries:
            tries += 1
            d = sampler.sample_deal(rng)
            if d is not None:
                cands.append(d)
                weights.append(play_model.weight(d[0]))
        while cands:
            total = sum(weights)
            j = len(cands) - 1
            if total > 0:
                x = rng.random() * total
                for i, w in enumerate(weights):
                    x -= w
                    if x < 0:
                        j = i
                        break
            else:
                j = int(rng.random() * len(cands))
            world = sampler.build(*cands[j])
            if world is not None:
                return world
            del cands[j], weights[j]
        return sampler.sample(rng)

    def _evaluate_ismcts(self, view: View) -> list[Evaluation]:
        """Single-observer ISMCTS: each iteration takes a sampled world (from a pool drawn
        once per decision and reused in turn), descends one shared tree keyed by the action
        sequence, choosing among the actions legal in that world by UCB with availability
        counts, expands one node, rolls out with the playout policy and backs up the reward
        of the side that chose each action (partners share a side, so they cooperate)."""
        start = _time.perf_counter()
        legal = list(view.legal)
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        v = self.variant
        me = view.seat
        my_side = v.side_of(me)
        seat_win = v.scoring == "result_only"
        side_of = v.seat_sides if not seat_win else list(range(v.players))
        nsides = len(v.sides) if not seat_win else v.players
        rng = self.rng
        sampler = Sampler(v, view, model_eps=self.model)
        deadline = None if self.simulations is not None else start + self.time
        limit = self.simulations if self.simulations is not None else 1 << 30
        scale = 1.0 if seat_win else float(self.win_weight + 20.0)
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
                net, won, game = self._outcome(h, h.result, me, my_side)  # type: ignore[arg-type]
            # rewards per side (my side's net and win; other sides share the opposite)
            mine = (
                (1.0 if won else 0.0)
                if seat_win
                else (net + self.win_weight * won + self.game_weight * game) / scale
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
            if _would_overrun(deadline, start, it):
                break
        self.last_worlds = it
        out = []
        for i, m in enumerate(legal):
            st = root.get(m)
            n = st[0] if st else 0
            ev = st[4] / n if st and n else 0.0
            w = st[5] / n if st and n else 0.0
            out.append((n, ev + self.win_weight * w if not seat_win else w, i, m, ev, w))
        out.sort(key=lambda x: (-x[0], -x[1], x[2]))
        top = out[0]
        return [
            Evaluation(
                m,
                round(ev, 2),
                round(w, 3),
                "the best move"
                if j == 0
                else f"{ev - top[4]:+.1f} points and {100 * (w - top[5]):+.0f}% chance to win the hand "
                "against the best move",
            )
            for j, (n, _s, _i, m, ev, w) in enumerate(out)
        ]

    @staticmethod
    def _reason(dev: float, dw: float, best: bool) -> str:
        if best:
            return "the best move"
        return f"{dev:+.1f} points and {100 * dw:+.0f}% chance to win the hand against the best move"

    def play_out(self, h: Hand, rng: random.Random, me: int, my_side: int) -> tuple[float, bool, int]:
        """Play world h (every hand known) to the end of the hand, or the horizon, with the
        expert's playout policy for every seat: (net points of my side, did it win the hand,
        did it win (+1) or lose (-1) the game with it, or neither (0)).  The search's
        playouts, and the analysis's estimate of a position too large to solve."""
        side_of = self.variant.seat_sides
        eps = [
            self.epsilon if side_of[s] == my_side else self.opponent_epsilon
            for s in range(self.variant.players)
        ]
        endgame = self.endgame
        v = self.variant
        policy = (
            FIVES_POLICIES[self.rollout]
            if v.in_play == "fives"
            else voluntary_move
            if v.turn == "voluntary" and self.rollout != "greedy"
            else self._blocking
            if self.shut
            else policy_move
        )
        left = self.horizon if self.horizon is not None else 1 << 30
        while not h.over:
            if left <= 0:
                return self._outcome(h, h.unfinished_result(), me, my_side)
            left -= 1
            if endgame and h.placed and tiles_left(h) <= endgame and not h.drawable():
                return solve(h, self.variant, my_side, self.win_weight, self.game_weight)
            ms = h.legal_moves()
            h.apply(ms[0] if len(ms) == 1 else policy(h, ms, rng, eps[h.to_move]))
        return self._outcome(h, h.result, me, my_side)  # type: ignore[arg-type]

    def _blocking(self, h: Hand, ms: list[int], rng: random.Random, eps: float) -> int:
        return blocking_move(h, ms, rng, eps, self.shut)

    def _outcome(self, h: Hand, res: HandResult, me: int, my_side: int) -> tuple[float, bool, int]:
        if self.variant.scoring == "result_only":
            won = res.winner == me
            return (1.0 if won else 0.0), won, 0
        pts = res.points
        mine = pts[my_side]
        nsides = len(pts)
        if self.variant.in_play is not None:  # Cinque: the hand goes to the side scoring more
            won = all(mine > p for i, p in enumerate(pts) if i != my_side)
        else:
            won = res.winner == my_side
        game = game_outcome(self.variant, h, pts, my_side) if self.game_weight else 0
        return mine - (sum(pts) - mine) / (nsides - 1), won, game


__all__ = ["ExpertBot", "tuned_defaults"]
