"""Luck and skill told apart: what a hand's deal was worth to each side, and what the sides'
decisions lost.

**The value of a deal** (``deal_value``) is, per side, the mean net result of the hand (the
side's points less the mean of the other sides' points, as the analysis counts them) when the
hand is played from its deal, before anyone moves, by the expert's playout policy at every
seat with every hand shown (a quarter of the moves at random: ``EPSILON``), ``playouts``
times with seeded randomness; a two-sided hand's last
tiles are solved exactly (the expert's endgame).  It reads the deal only (the tiles, the
boneyard's order, the leader, the totals before the hand): never a move that was made.  The
same deal and seed give the same value on any machine, and seats whose tiles are swapped swap
their values exactly (the policy knows no seat by its number).  It was measured against the
exact α-β value of the deal with every hand shown and perfect play (``bench/luck.py``,
docs/BENCHMARKS.md): that one explained less of the result between experts and is out of
reach at the first moves of some deals; the expert playing every seat from its own view
would cost a whole search per decision of every playout.

The unit is the game's points per hand; where a hand has no points and the winner is a seat
(Billitonnen) it is the chance to win the hand, net of the others' mean chance.  Since every
side's value is net of the others', the sides' values sum to zero and a fair deal is worth 0
to everyone: a side's **luck** in a hand is its deal value (the value less the sides' mean,
which is 0).

**Skill** in a hand is read off the post-game analysis (``analyze``, with what each seat
knew): a side's *points lost* are what its decisions lost in the hand's points
(``analyze.points_lost``: the best move's expected net points less the move played's, never
below 0; a game won in the hand is not counted at the target, as the marks' loss counts it);
its skill is the other sides' mean points lost less its own, so that a side that lost less than the others has a positive
skill and the sides' skills sum to zero too.

Then, per side and hand, ``result ≈ luck + skill + noise``: the noise is what neither the
tiles nor the decisions explain (the draws' order met in play, the expert's own errors of
estimate); ``bench/luck.py`` measures how much of the result's variance luck and skill
explain.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..bots.budget import Budget
from ..bots.expert import ExpertBot, preset
from ..engine import Variant
from ..engine.hand import Hand
from ..engine.scoring import gains

#: playouts per side of a deal's value by default (measured in bench/luck.py: the value's
#: standard error is then about a seventh of the spread of deal values in the block game,
#: 30 to 160 ms a deal by the machine's load)
DEFAULT_PLAYOUTS = 256
#: with a budget of simulations (an analysis made for tests, or to be quick), the playouts
#: per simulation of the decisions' budget, at most DEFAULT_PLAYOUTS
PLAYOUTS_PER_SIMULATION = 16


def playouts_for(budget: Budget) -> int:
    """The playouts of a deal's value in an analysis of ``budget``: DEFAULT_PLAYOUTS, or
    fewer with a small budget of simulations (deterministic either way)."""
    if budget.simulations is None:
        return DEFAULT_PLAYOUTS
    return min(DEFAULT_PLAYOUTS, PLAYOUTS_PER_SIMULATION * budget.simulations)


#: share of the playouts' moves chosen at random (the search's default; a game whose
#: preset plays out without chance gets it too, so that its value is a mean, not one line)
EPSILON = 0.25


@dataclass(frozen=True, slots=True)
class DealValue:
    """What a deal is worth to each side: ``values`` (net points per side, summing to 0),
    the ``playouts`` they are a mean of and the ``seed`` they were drawn with."""

    values: tuple[float, ...]
    playouts: int
    seed: int


@dataclass(frozen=True, slots=True)
class HandLuck:
    """One hand's figures per side: the ``result`` (net points), the ``luck`` (the deal's
    value), the ``lost`` points of the side's decisions (None where its decisions were not
    analysed), the ``skill`` (None likewise) and the ``noise`` left over."""

    hand: int
    result: tuple[float, ...]
    luck: tuple[float, ...]
    lost: tuple[float, ...] | None
    skill: tuple[float, ...] | None
    noise: tuple[float, ...]


def net(points: Sequence[float]) -> tuple[float, ...]:
    """Each side's points less the mean of the other sides' points (sums to zero)."""
    total = sum(points)
    k = len(points)
    return tuple(p - (total - p) / (k - 1) for p in points)


def hand_result(v: Variant, h: Hand) -> tuple[float, ...]:
    """A finished hand's net result per side, in the unit of ``deal_value``."""
    res = h.current_result()
    if v.scoring == "result_only":
        return net(
            [1.0 if res.winner is not None and s in v.sides[res.winner] else 0.0 for s in range(len(v.sides))]
        )
    return net([float(p) for p in gains(v, res.points)])


def deal_value(h: Hand, *, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> DealValue:
    """The value of hand ``h``'s deal to each side (see the module's text): the hand is
    played from its deal (``Hand.fresh``), whatever ``h`` holds of its moves."""
    if playouts < 1:
        raise ValueError(f"a deal's value needs at least 1 playout, not {playouts}")
    v = h.v
    bot = ExpertBot(
        v, seed=seed, budget=Budget(simulations=1), config=replace(preset(v), horizon=0, epsilon=EPSILON)
    )
    rng = random.Random(seed)
    seeds = [rng.random() for _ in range(playouts)]
    start = h.fresh()
    nsides = len(v.sides)
    # with two sides one side's net result is the other's negated; with more, each side's
    # playouts are its own (the exact endgame is searched for the side it values)
    pair = nsides == 2 and v.scoring != "result_only"
    asked = range(1) if pair else range(nsides)
    sums = [0.0] * nsides
    for side in asked:
        me = v.sides[side][0]
        for rs in seeds:
            got, _won, _game = bot.play_out(start.copy(), random.Random(rs), me, side)
            sums[side] += got
    if pair:
        sums[1] = -sums[0]
        values = [x / playouts for x in sums]
    else:
        values = (
            list(net([x / playouts for x in sums]))
            if v.scoring == "result_only"
            else [x / playouts for x in sums]
        )
        mean = sum(values) / nsides
        values = [x - mean for x in values]
    return DealValue(tuple(round(x, 3) for x in values), playouts, seed)


def hand_luck(n: int, h: Hand, value: DealValue, losses: Sequence[tuple[int, float]] | None) -> HandLuck:
    """The figures of finished hand ``h`` (number ``n`` in its game; see the module's text):
    its skill from ``losses``, the (side, loss) of every decision the analysis judged with
    what the seat knew, every seat's decisions judged; None: no skill."""
    v = h.v
    result = hand_result(v, h)
    luck = value.values
    lost = skill = None
    if losses is not None:
        per = [0.0] * len(v.sides)
        for side, loss in losses:
            per[side] += loss
        lost = tuple(round(x, 3) for x in per)
        skill = tuple(round(-x, 3) for x in net(per))
    noise = tuple(
        round(r - lk - (skill[i] if skill else 0.0), 3) for i, (r, lk) in enumerate(zip(result, luck))
    )
    return HandLuck(n, tuple(round(x, 3) for x in result), luck, lost, skill, noise)
