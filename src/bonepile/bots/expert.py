"""Search over the hidden information: perfect-information Monte Carlo (PIMC).

For each decision the expert draws hidden worlds that agree with its View (``sampler``),
and in every world plays each legal action followed by a rollout to the end of the hand with
a fast club-player policy for all seats (partners included: a partner is on the bot's side
and plays the same policy).  The same world and the same rollout random numbers are used for
every action (common random numbers), so differences between actions are not noise of the
deal.  Close to the end of a hand in two-sided games the rollout is replaced by an exact
α-β search of the world (``playout.solve``: the bot's side maximizes, the other minimizes).

Objective: the points the bot's side gains in the hand, net of the other sides, plus a
bonus for winning the hand (``win_weight``); where points are scored during play (Cinque)
"winning the hand" means scoring more points in it than the other side.  ``evaluate``
reports both the expected net points and the hand-win chance of every action.

The game, not only the hand: a playout that ends the game (the scores before the hand plus
its points reach the target) adds ``game_weight`` for a win and takes it off for a loss.
Where points are scored during play (Cinque) every seat's playout plays like a fives player
(``playout.fives_guard_move``: the points now less the next seat's best reply), and the
playouts are short and deterministic.  Where all tiles are dealt the worlds may be weighed
by how the other seats chose (``infer``: policy-based inference, ``inference.PlayModel``):
each searched world is picked from ``infer`` sampled deals in proportion to the probability
of the plays seen.  The greedy bot's one-ply score is added to each action's value with
weight ``prior`` (it knows features of a position, such as follow-ups and the suits kept,
that short or noisy playouts miss).  Mirror-image actions (the same table up to L/R and U/D)
are searched once.

What the search weighs is an ``ExpertConfig``; each kind of game has its preset
(``preset``), chosen by what the rules say, measured against greedy (bench/expert_greedy.py;
docs/BENCHMARKS.md).  How long it thinks is a ``Budget``: ``simulations`` worlds per decision
when given (deterministic for a seed), else as many as fit in ``time`` seconds.  Ideas that
were measured and did not pay (ISMCTS, strategy fusion at the end of a hand, other playout
policies) live in ``bench/`` with their measurements.
"""

from __future__ import annotations

import random
import time as _time
from dataclasses import dataclass

from ..engine import Variant, View
from ..engine.hand import Hand, HandResult
from ..engine.scoring import gains
from .alphabeta import OutOfNodes
from .base import Bot, Evaluation
from .budget import EXPERT_BUDGET, Budget
from .greedy import GreedyBot
from .inference import PlayModel, models
from .playout import (
    ENDGAME_NODES,
    fives_guard_move,
    game_outcome,
    policy_move,
    same_tables,
    solve,
    tiles_left,
    voluntary_move,
)
from .sampler import InconsistentView, Sampler


@dataclass(frozen=True, slots=True)
class ExpertConfig:
    """What the expert's search weighs (the budget is apart: ``Budget``)."""

    #: bonus, in points, for winning the hand (0: net points only)
    win_weight: float = 10.0
    #: share of playout moves chosen at random
    epsilon: float = 0.25
    #: plies a playout runs before the points so far are counted, where points are scored
    #: during play (0: to the end of the hand)
    horizon: int = 0
    #: weight of the greedy bot's one-ply score added to each action's search value
    prior: float = 0.5
    #: each searched world is picked from this many sampled deals by how likely they make
    #: the other seats' plays (``inference.PlayModel``; 0 or 1: every consistent world alike)
    infer: int = 0
    #: how sharply the play model prefers the likelier plays
    infer_beta: float = 0.3
    #: the kinds of player each other seat may be (``inference.PlayModel``'s mixture)
    infer_kinds: tuple[float, ...] = ()
    #: with at most this many tiles in hand in a two-sided must-play game, each world is
    #: solved exactly instead of played out
    endgame: int = 8
    #: positions such an exact endgame may search before the policy plays the world out
    #: instead (``playout.ENDGAME_NODES``)
    endgame_nodes: int = ENDGAME_NODES
    #: worth of winning (+) or losing (-) the game in this hand, where a game has a target
    game_weight: float = 50.0
    #: draw the worlds of open games in proportion to the belief model's probabilities
    #: (``beliefs``; False: every consistent world alike, before ``infer``)
    beliefs: bool = False
    #: in open games, the learned policy's estimate of each action (``policy.PolicyModel``,
    #: in points) counts as this many searched worlds in the action's value (0: off)
    policy: float = 0.0


#: the presets, by what the rules of a game say (``preset_name``); measured at 0.1 s per
#: decision against greedy (bench/expert_greedy.py; docs/BENCHMARKS.md)
PRESETS: dict[str, ExpertConfig] = {
    # points scored during play (Cinque): deterministic playouts of two rounds, net points
    # only, worlds weighed by a points-taking model of play
    "points_in_play": ExpertConfig(win_weight=0.0, epsilon=0.0, horizon=8, infer=8, infer_beta=0.6),
    # blind games and a winner without points (Billitonnen): the plain search
    "blind_or_no_points": ExpertConfig(prior=0.0),
    # a partnership game of pips where every tile is dealt and every seat must play: each
    # other seat is read as a player of any tile that fits or one who sheds heavy tiles
    # (vs greedy 64.5% of hands against 58.2%, vs random level; in Quinientos it did not
    # help, 60.3% against 63.7% of 300 hands, so it stays off there)
    "partnership_block": ExpertConfig(infer=8, infer_beta=1.0, infer_kinds=(0.0, 0.5)),
    # every other open game
    "open": ExpertConfig(),
}


def _every_tile_dealt(v: Variant) -> bool:
    return sum(v.hand_sizes) == v.n_tiles


def preset_name(v: Variant) -> str:
    """The preset of a game, from its rule components."""
    if v.in_play is not None:
        return "points_in_play"
    if v.blind or v.scoring == "result_only":
        return "blind_or_no_points"
    if v.teams and v.turn == "must_play" and v.scoring == "lowest" and _every_tile_dealt(v):
        return "partnership_block"
    return "open"


def preset(v: Variant) -> ExpertConfig:
    """The expert's configuration for a game."""
    return PRESETS[preset_name(v)]


def would_overrun(deadline: float | None, start: float, done: int) -> bool:
    """With ``done`` units of work finished since ``start``, would one more (at the mean
    cost so far) end past ``deadline``?  Never, without a deadline."""
    if deadline is None:
        return False
    now = _time.perf_counter()
    return now + (now - start) / done >= deadline


class ExpertBot(Bot):
    name = "expert"

    def __init__(
        self,
        variant: Variant,
        *,
        seed: int | None = None,
        budget: Budget = EXPERT_BUDGET,
        config: ExpertConfig | None = None,
    ) -> None:
        """``config`` defaults to the game's preset (``preset``).  Parts of it the rules
        leave no room for are off: the horizon outside games of points in play, the exact
        endgame outside two-sided must-play games, the game's worth where a game is one hand
        or has no target."""
        super().__init__(variant, seed=seed)
        if budget.time is None and budget.simulations is None:
            raise ValueError("the expert's budget needs a time or a number of simulations")
        self.budget = budget
        self.config = c = preset(variant) if config is None else config
        self.horizon = c.horizon if c.horizon and variant.in_play is not None else None
        self.game_weight = (
            c.game_weight if variant.target is not None and variant.target_rule != "single_hand" else 0.0
        )
        self.endgame = c.endgame if len(variant.sides) == 2 and variant.turn == "must_play" else 0
        self.last_worlds = 0

    def deadline(self, start: float) -> tuple[float | None, int]:
        """When the search must stop (None: after a count) and how many worlds it may take."""
        b = self.budget
        if b.simulations is not None:
            return None, b.simulations
        assert b.time is not None  # (checked when the bot was built)
        return start + b.time, 1 << 30

    # ------------------------------------------------------------------ search
    def evaluate(self, view: View) -> list[Evaluation]:
        start = _time.perf_counter()
        legal = list(view.legal)
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        v = self.variant
        c = self.config
        me = view.seat
        my_side = v.side_of(me)
        seat_win = v.scoring == "result_only"  # Billitonnen: the winner is a seat
        rng = self.rng
        sampler = self.sampler(view)
        k = len(legal)
        value = [0.0] * k
        wins = [0.0] * k
        games = [0.0] * k
        gwins = [0.0] * k  # playouts in which my side wins the game
        gends = 0  # playouts in which the game ends
        worlds = 0
        same: list[int] = []  # per action: the first action that leads to the same table
        deadline, limit = self.deadline(start)
        play_model = self.play_model(view, sampler)
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
            if not same:
                same = same_tables(world, legal)
            for i, m in enumerate(legal):
                if same[i] != i:  # a mirror image of an earlier action: the same value
                    continue
                h = world.copy()
                h.apply(m)
                net, won, game = self.play_out(h, random.Random(rseed), me, my_side)
                value[i] += net
                wins[i] += won
                games[i] += game
                if game:
                    gends += 1
                    if game > 0:
                        gwins[i] += 1
            worlds += 1
            if would_overrun(deadline, start, worlds):
                break
        self.last_worlds = worlds
        for i, j in enumerate(same):
            value[i], wins[i], games[i], gwins[i] = value[j], wins[j], games[j], gwins[j]
        pm = self.prior_scores(view) if not seat_win else {}
        prior = [pm.get(m, 0.0) for m in legal]
        learned = self.policy_scores(view) if not seat_win else {}
        n = float(worlds)
        share = n / (n + c.policy) if learned else 1.0
        out = []
        for i, m in enumerate(legal):
            ev = value[i] / n
            w = wins[i] / n
            g = games[i] / n
            searched = ev + c.win_weight * w + self.game_weight * g
            if learned:
                searched = share * searched + (1.0 - share) * learned[m]
            out.append(
                (
                    searched + prior[i] if not seat_win else w,
                    i,
                    m,
                    ev,
                    w,
                    round(gwins[i] / n, 3) if gends else None,
                )
            )
        out.sort(key=lambda x: (-x[0], x[1]))
        top = out[0]
        return [
            Evaluation(m, round(ev, 2), round(w, 3), self.reason(ev - top[3], w - top[4], j == 0), game=gw)
            for j, (_s, _i, m, ev, w, gw) in enumerate(out)
        ]

    def sampler(self, view: View) -> Sampler:
        """The world sampler of a decision: weighed by the belief model with ``beliefs``."""
        sampler = Sampler(self.variant, view)
        if self.config.beliefs and not view.blind:
            from .beliefs import beliefs

            sampler.weights = beliefs(self.variant, view, sampler=sampler).weights()
        return sampler

    def play_model(self, view: View, sampler: Sampler) -> PlayModel | None:
        """The model of the other seats' play the worlds are weighed by, or None (``infer``
        off, nothing to read yet, or a game the model does not cover)."""
        c = self.config
        if c.infer <= 1 or not view.history or not models(self.variant, view):
            return None
        try:
            sampler.sample(self.rng)
        except InconsistentView:
            return None
        return PlayModel(
            self.variant,
            view,
            sampler.moves,
            sampler.start_hand(sampler.last_deal),
            beta=c.infer_beta,
            mixture=c.infer_kinds,
        )

    def prior_scores(self, view: View) -> dict[int, float]:
        """The greedy bot's one-ply score of each legal action, times ``prior`` (empty at 0)."""
        prior = self.config.prior
        if not prior:
            return {}
        return {e.action: prior * e.value for e in GreedyBot(self.variant, seed=self.seed).evaluate(view)}

    def policy_scores(self, view: View) -> dict[int, float]:
        """The learned policy's estimate of each legal action, in points (empty when
        ``policy`` is 0, in blind games, or without the shipped model)."""
        if not self.config.policy or view.blind or self.variant.pips != 6:  # a double-six model
            return {}
        from .policy import inputs, shipped_model

        model = shipped_model()
        if model is None:
            return {}
        scores = model.scores(inputs(self.variant, view))
        return {m: float(x) for m, x in zip(view.legal, scores)}

    def _inferred(self, sampler: Sampler, play_model: PlayModel, rng: random.Random) -> Hand:
        """One world picked from ``infer`` sampled deals with probability proportional to
        the play model's weight (sampling-importance-resampling); only the picked deal is
        replayed (a deal that fails the replay is dropped and another picked)."""
        cands: list[tuple[list[list[int]], list[int]]] = []
        weights = []
        tries = 0
        while len(cands) < self.config.infer and tries < sampler.tries and not sampler.hard:
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

    @staticmethod
    def reason(dev: float, dw: float, best: bool) -> str:
        if best:
            return "the best move"
        return f"{dev:+.1f} points and {100 * dw:+.0f}% chance to win the hand against the best move"

    def play_out(self, h: Hand, rng: random.Random, me: int, my_side: int) -> tuple[float, bool, int]:
        """Play world h (every hand known) to the end of the hand, or the horizon, with the
        expert's playout policy for every seat: (net points of my side, did it win the hand,
        did it win (+1) or lose (-1) the game with it, or neither (0)).  The search's
        playouts, and the analysis's estimate of a position too large to solve."""
        v = self.variant
        eps = self.config.epsilon
        endgame = self.endgame
        policy = (
            fives_guard_move
            if v.in_play is not None
            else voluntary_move
            if v.turn == "voluntary"
            else policy_move
        )
        left = self.horizon if self.horizon is not None else 1 << 30
        while not h.over:
            if left <= 0:
                return self.outcome(h, h.unfinished_result(), me, my_side)
            left -= 1
            if endgame and h.placed and tiles_left(h) <= endgame and not h.drawable():
                try:
                    return solve(
                        h, v, my_side, self.config.win_weight, self.game_weight, self.config.endgame_nodes
                    )
                except OutOfNodes:  # too many positions: the policy plays this world out
                    endgame = 0
            ms = h.legal_moves()
            h.apply(ms[0] if len(ms) == 1 else policy(h, ms, rng, eps))
        return self.outcome(h, h.result, me, my_side)  # type: ignore[arg-type]

    def outcome(self, h: Hand, res: HandResult, me: int, my_side: int) -> tuple[float, bool, int]:
        """The hand's result seen from my side: (net points, hand won, game won +1 / lost -1)."""
        if self.variant.scoring == "result_only":
            won = res.winner == me
            return (1.0 if won else 0.0), won, 0
        pts = gains(self.variant, res.points)
        mine = pts[my_side]
        nsides = len(pts)
        if self.variant.in_play is not None:  # Cinque: the hand goes to the side scoring more
            won = all(mine > p for i, p in enumerate(pts) if i != my_side)
        else:
            won = res.winner == my_side
        game = game_outcome(self.variant, h, pts, my_side) if self.game_weight else 0
        return mine - (sum(pts) - mine) / (nsides - 1), won, game


__all__ = ["ExpertBot", "ExpertConfig", "PRESETS", "preset", "preset_name", "would_overrun"]
