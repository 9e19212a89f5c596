"""A learned policy: a small network that scores each legal action from what the seat may see.

``PolicyBot`` plays the action its network scores highest.  It reads only the ``View``:

* the position: the belief model's input (``beliefs.features``: the seat's own tiles, the
  table, per other seat what it laid, what the hard facts still allow it, what fitted when it
  played something else, its passes and draws, the kind of game), plus a few facts of the
  moment (the points each side has scored in the hand, the number of legal actions);
* per action (``action_features``): the tile, its pips, whether it is a double, the ends it
  leaves and what they count, the points it scores now, whether it goes out, how many of the
  seat's own tiles still follow, the suits kept, ends the next seat or the partner lacks, and
  the greedy player's one-ply score.  The effects on the table are read in a world rebuilt
  from the view: every world that agrees with the view shows the same public effects.

The network maps [position, action] to a score through two ReLU layers; it is run with
numpy from ``bots/models/policy.npz`` (torch is never imported here).  It was trained by
distillation (``bench/train_policy.py``): the label of a position's action is its value in
the real deal (the hidden state, read only by the trainer to label), played out many times by
the expert's playouts and solved exactly near the end; a network that sees only the view and
is fitted to those values learns their mean over the deals the view allows.

``PolicyBot`` plays its top action; the expert adds the network's estimate to its search's
(``ExpertConfig.policy``: the estimate counts as that many searched deals), which is how the
``strong`` level uses it (``levels.strong``).  Open games only: a blind game's input is not
defined (``ValueError``).
"""

from __future__ import annotations

import os
import random
from functools import cache

import numpy as np

from ..engine import Variant, View
from ..engine.tiles import DRAW, HI, IS_DOUBLE, LO, PASS, PIP_MASK, PIPS, bits, tile_of
from .base import Bot, Evaluation
from .beliefs import FEATURES as VIEW_FEATURES
from .beliefs import constraints
from .beliefs import features as view_features
from .greedy import GreedyBot
from .mlp import Mlp
from .sampler import Sampler
from .seat_knowledge import SeatKnowledge

#: the shipped model
MODEL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "policy.npz")
#: facts of the moment added to the belief model's input
MOMENT = 4
#: features of one action
ACTION = 48
#: the network's input: position, moment, action
INPUT = VIEW_FEATURES + MOMENT + ACTION


def position_features(variant: Variant, view: View, sampler: Sampler | None = None) -> np.ndarray:
    """The position's part of the input (``VIEW_FEATURES + MOMENT`` floats), from the view."""
    if view.blind:
        raise ValueError("the policy model reads open games only")
    x = np.zeros(VIEW_FEATURES + MOMENT, dtype=np.float32)
    x[:VIEW_FEATURES] = view_features(variant, view, constraints(variant, view, sampler))
    return x


def action_features(
    variant: Variant, view: View, k: SeatKnowledge, world, greedy: dict[int, float]
) -> np.ndarray:
    """One row of ``ACTION`` floats per legal action (in ``view.legal``'s order); ``world``:
    any world that agrees with the view (only its public effects are read)."""
    legal = view.legal
    out = np.zeros((len(legal), ACTION), dtype=np.float32)
    my_side = k.my_side
    nxt = k.next_seat(1)
    before = world.inplay[my_side] if world.inplay else 0
    partners = [s for s in range(view.players) if k.is_partner(s)]
    for i, m in enumerate(legal):
        row = out[i]
        row[47] = greedy.get(m, 0.0) / 20.0
        if m == PASS:
            row[28] = 1.0
            continue
        if m == DRAW:
            row[29] = 1.0
            continue
        t = tile_of(m)
        row[t] = 1.0
        row[30] = PIPS[t] / 12.0
        row[31] = 1.0 if IS_DOUBLE[t] else 0.0
        world.push(m)
        try:
            if world.over:
                res = world.result
                row[32] = 1.0 if res.winner is not None and res.winner == my_side else 0.0
                row[33] = 1.0
                continue
            ends = [world.pip[a] for a in world.open_arms]
            for p in ends:
                row[34 + p] += 0.5
            row[41] = len(ends) / 4.0
            if world.inplay:
                row[42] = (world.inplay[my_side] - before) / 10.0
            rest = k.own & ~(1 << t)
            fit = 0
            for p in ends:
                fit |= PIP_MASK[p]
            row[43] = min(len(bits(rest & fit)), 4) / 4.0
            row[44] = len({x for u in bits(rest) for x in (HI[u], LO[u])}) / 7.0
            pips = set(ends)
            if not k.is_partner(nxt):
                row[45] = sum(1 for p in pips if k.voids[nxt] >> p & 1) / 2.0
            row[46] = sum(1 for s in partners for p in pips if k.voids[s] >> p & 1) / 2.0
        finally:
            world.pop()
    return out


def inputs(variant: Variant, view: View, rng_seed: int | None = 0) -> np.ndarray:
    """The network's input for every legal action of ``view``: shape (len(legal), INPUT).
    Built from the view alone (the no-peeking tests check it)."""
    if variant.pips != 6:
        raise ValueError(f"the policy model reads double-six games only, not {variant.tile_set.name}")
    k = SeatKnowledge(variant, view)
    sampler = Sampler(variant, view, public=k.public)
    pos = position_features(variant, view, sampler)
    world = sampler.sample(random.Random(rng_seed))
    if world.inplay:
        mine = world.inplay[k.my_side]
        pos[VIEW_FEATURES] = mine / 50.0
        pos[VIEW_FEATURES + 1] = (sum(world.inplay) - mine) / 50.0
    pos[VIEW_FEATURES + 2] = len(view.legal) / 10.0
    pos[VIEW_FEATURES + 3] = len(view.hand) / 7.0
    greedy = (
        {e.action: e.value for e in GreedyBot(variant, seed=rng_seed).evaluate(view)}
        if len(view.legal) > 1
        else {}
    )
    acts = action_features(variant, view, k, world, greedy)
    return np.concatenate([np.broadcast_to(pos, (len(acts), pos.size)), acts], axis=1)


class PolicyModel:
    """The network: a multilayer perceptron (ReLU) read from a ``.npz`` of ``w0, b0, ...``
    whose last layer gives one score per input row."""

    def __init__(self, path: str = MODEL_PATH) -> None:
        self.net = Mlp(path, INPUT, 1)

    def scores(self, x: np.ndarray) -> np.ndarray:
        """One score per row of ``x`` (shape (..., INPUT)). Identical rows (moves the policy
        cannot tell apart) get the very same score: a batched product may round a row by its
        place in the batch, differently on another processor, and a bot's choice between such
        moves would then depend on the machine."""
        flat = x.reshape(-1, x.shape[-1])
        rows, back = np.unique(flat, axis=0, return_inverse=True)
        return np.asarray(self.net(rows)[..., 0][back.reshape(-1)].reshape(x.shape[:-1]))


@cache
def shipped_model() -> PolicyModel | None:
    """The model shipped with the package (None when its file is missing)."""
    return PolicyModel() if os.path.exists(MODEL_PATH) else None


class PolicyBot(Bot):
    """Plays the action the policy network scores highest (ties: the first legal one).
    Deterministic: the seed only names the bot."""

    name = "policy"

    def __init__(
        self, variant: Variant, *, seed: int | None = None, model: PolicyModel | None = None
    ) -> None:
        super().__init__(variant, seed=seed)
        if variant.blind:
            raise ValueError("the policy bot plays open games only")
        if variant.pips != 6:
            raise ValueError(f"the policy bot plays double-six games only, not {variant.tile_set.name}")
        net = model if model is not None else shipped_model()
        if net is None:
            raise ValueError(f"no policy model at {MODEL_PATH}")
        self.model = net

    def evaluate(self, view: View) -> list[Evaluation]:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} is not to move")
        s = self.model.scores(inputs(self.variant, view))
        order = sorted(range(len(legal)), key=lambda i: (-float(s[i]), i))
        return [Evaluation(legal[i], round(float(s[i]), 3), None, "the policy's score") for i in order]


__all__ = [
    "ACTION",
    "INPUT",
    "MODEL_PATH",
    "MOMENT",
    "PolicyBot",
    "PolicyModel",
    "action_features",
    "inputs",
    "position_features",
    "shipped_model",
]
