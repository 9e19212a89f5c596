"""Where the tiles a seat cannot see probably are: ``beliefs(variant, view)``.

For each tile the viewing seat has not seen, the probability that each other seat (and the
stock: the boneyard, or the tiles set aside) holds it.  Built from the View alone, through
the engine's public knowledge (``engine.knowledge``) and the sampler's hard facts
(``sampler.Sampler``: tile counts, voids after a seat's last draw):

1. a score per (tile, holder): the learned model's (``BeliefModel``, a small network shipped
   as ``bots/models/beliefs.npz`` and run with numpy), or 1 everywhere without a model;
2. a holder the hard facts rule out scores 0;
3. the scores are projected (Sinkhorn's alternate scaling) so each tile's probabilities sum
   to 1 and each holder's expected number of tiles is the number it holds.

Blind games need no model: the tiles never turned up are shuffled into the face-down slots,
so each is in a seat's row (the viewing seat's own included) with that row's share of the
hidden slots.

The model's input (``features``) is built from the View only: the seat's own tiles, the
table, and per other seat (in turn order from the viewer) the tiles it laid, its count, the
tiles the hard facts allow it, how often each tile fitted when it played something else
(and something lighter), its passes and draws.  The training script is
``bench/train_beliefs.py``; numpy is imported here and nowhere below the bots layer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ..engine import Variant, View
from ..engine.knowledge import PublicKnowledge, history_moves
from ..engine.tiles import IS_DOUBLE, NAME, PASS, PIPS, bits, tile_of
from .mlp import Mlp
from .sampler import Sampler

#: the stock (boneyard or tiles set aside) as a holder
STOCK = -1
#: output columns of the model: the next seat, the one after, the one after that, the stock
OUTPUTS = 4
#: the shipped model
MODEL_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "beliefs.npz")
_PER_SEAT = 28 * 4 + 4
#: the length of the model's input vector
FEATURES = 28 * 2 + 3 * _PER_SEAT + 12


@dataclass(frozen=True, slots=True)
class Constraints:
    """The hard facts about the unseen tiles: which holder may hold which, and how many each
    holds (``caps``, in the order of ``holders``)."""

    tiles: tuple[int, ...]
    holders: tuple[int, ...]
    allowed: tuple[tuple[bool, ...], ...]  # per tile, per holder
    caps: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Beliefs:
    """Per unseen tile (``tiles``), per holder (``holders``: seats, ``STOCK``), the
    probability that the holder has the tile (``probs``)."""

    seat: int
    tiles: tuple[int, ...]
    holders: tuple[int, ...]
    probs: tuple[tuple[float, ...], ...]

    def prob(self, tile: int, holder: int) -> float:
        """The probability that ``holder`` holds ``tile`` (0 for a tile the seat has seen)."""
        if tile not in self.tiles or holder not in self.holders:
            return 0.0
        return self.probs[self.tiles.index(tile)][self.holders.index(holder)]

    def likeliest(self, holder: int, k: int = 3) -> list[tuple[int, float]]:
        """The ``k`` tiles ``holder`` most probably holds, with their probabilities, likeliest
        first (ties by tile number)."""
        if holder not in self.holders:
            return []
        j = self.holders.index(holder)
        ranked = sorted(((t, row[j]) for t, row in zip(self.tiles, self.probs)), key=lambda x: (-x[1], x[0]))
        return [(t, p) for t, p in ranked[:k] if p > 0]

    def expected(self, holder: int) -> float:
        """How many unseen tiles ``holder`` is expected to hold (its count, by construction)."""
        if holder not in self.holders:
            return 0.0
        j = self.holders.index(holder)
        return sum(row[j] for row in self.probs)

    def weights(self) -> dict[int, dict[int, float]]:
        """Per unseen tile, per holder, its probability: how the sampler weighs its fill
        (``Sampler(weights=...)``)."""
        return {t: dict(zip(self.holders, row)) for t, row in zip(self.tiles, self.probs)}

    def as_json(self, variant: Variant, k: int = 3) -> list[dict[str, Any]]:
        """Per holder, where it sits and its likeliest tiles: ``[{"seat": s | null, "place":
        "right", "tiles": [{"tile": "6-4", "p": 0.72}, ...]}]`` (seat ``null``, place
        ``"stock"``: the boneyard or the tiles set aside)."""
        return [
            {
                "seat": None if h == STOCK else h,
                "place": "stock" if h == STOCK else place(variant, self.seat, h),
                "tiles": [{"tile": NAME[t], "p": round(p, 3)} for t, p in self.likeliest(h, k)],
            }
            for h in self.holders
        ]


def place(variant: Variant, me: int, seat: int) -> str:
    """Where ``seat`` sits seen from ``me``, as the table page draws it: ``"left"``,
    ``"right"``, ``"across"``, ``"across_left"``, ``"across_right"``, or ``"you"``.  Play
    goes round the table in the variant's direction: counterclockwise, the next seat in turn
    sits on your right; clockwise, on your left."""
    n = variant.players
    if seat == me:
        return "you"
    cw = variant.direction == "clockwise"
    order = [(me + 1 + i) % n if cw else (me + n - 1 - i) % n for i in range(n - 1)]
    if n == 2:
        places = ["across"]
    elif n == 3:
        places = ["left", "right"]
    elif n == 4:
        places = ["left", "across", "right"]
    else:
        places = ["left", "across_left", "across_right", "right"]
    return places[order.index(seat)]


#: the English name of each place, and of the stock
PLACE_WORDS = {
    "left": "Left",
    "right": "Right",
    "across": "Across",
    "across_left": "Across left",
    "across_right": "Across right",
    "stock": "The boneyard",
}


#: the least probability at which a tile is said to be "probably" held: more likely than not;
#: read by the terminal's words here and the web hint's line (``bots.hint.likely_tiles``)
LIKELY = 0.5


def english(variant: Variant, b: Beliefs, per_seat: int = 2) -> list[str]:
    """The tiles another seat (left to right, then the stock) more likely holds than not, up
    to ``per_seat`` each, in English: "Right probably holds the 6-4 (72%)", "Your partner
    surely holds the 5-5".  Blind games, where every face-down tile is as likely anywhere,
    say nothing."""
    if any(h == b.seat for h in b.holders):
        return []
    me_side = variant.side_of(b.seat)
    order = {"left": 0, "across_left": 1, "across": 2, "across_right": 3, "right": 4}
    seats = sorted((h for h in b.holders if h != STOCK), key=lambda h: order[place(variant, b.seat, h)])
    lines = []
    for h in [*seats, STOCK]:
        if h == STOCK:
            who = PLACE_WORDS["stock"]
        elif variant.teams and variant.side_of(h) == me_side:
            who = "Your partner"
        else:
            who = PLACE_WORDS[place(variant, b.seat, h)]
        for t, p in b.likeliest(h, per_seat):
            if p >= 0.995:
                lines.append(f"{who} surely holds the {NAME[t]}")
            elif p >= LIKELY:
                lines.append(f"{who} probably holds the {NAME[t]} ({round(100 * p)}%)")
    return lines


def constraints(variant: Variant, view: View, sampler: Sampler | None = None) -> Constraints:
    """The hard facts of ``view``'s unseen tiles (``sampler``: one already built for it)."""
    s = sampler if sampler is not None else Sampler(variant, view)
    n, me = view.players, view.seat
    if view.blind:
        holders = tuple(range(n)) + (STOCK,)
        tiles = tuple(bits(s.unknown))
        caps_l = [s.row_sizes[x] - len(s.known_rows[x]) for x in range(n)]
        caps_l.append(len(tiles) - sum(caps_l))
        allowed = tuple(tuple(c > 0 for c in caps_l) for _ in tiles)
        return Constraints(tiles, holders, allowed, tuple(caps_l))
    others = [(me + r) % n for r in range(1, n)]
    holders = tuple(others) + (STOCK,)
    tiles = tuple(bits(s.unknown))
    caps = tuple(s.counts[x] for x in others) + (s.rest,)
    allowed = tuple(tuple(h in s.allowed[t] and caps[j] > 0 for j, h in enumerate(holders)) for t in tiles)
    return Constraints(tiles, holders, allowed, caps)


def feasible_support(allowed: list[list[bool]], caps: list[int]) -> list[list[bool]]:
    """The (tile, holder) pairs some whole assignment uses: every tile to one allowed holder,
    each holder given exactly its cap.  A pair the hard facts allow but no assignment uses
    (a seat whose room the tiles only it may hold already fill) is dropped.  One assignment
    is found by augmenting paths; another one differs by cycles of swaps, so a pair outside
    it is used by some assignment when its holder reaches its tile through swaps.  Where no
    assignment exists (never for a real view), ``allowed`` is returned as it is."""
    n_t, n_h = len(allowed), len(caps)
    if sum(caps) != n_t:
        return allowed
    owner = [-1] * n_t
    load = [0] * n_h

    def augment(t: int, seen: set[int]) -> bool:
        for h in range(n_h):
            if allowed[t][h] and h not in seen:
                seen.add(h)
                if load[h] < caps[h]:
                    owner[t] = h
                    load[h] += 1
                    return True
                for u in range(n_t):
                    if owner[u] == h and augment(u, seen):
                        load[h] -= 1
                        owner[t] = h
                        load[h] += 1
                        return True
        return False

    for t in range(n_t):
        if not augment(t, set()):
            return allowed
    # giving t to h instead of its holder h' is possible when h can pass one of its tiles to
    # some h2, h2 one of its own to h3, ..., until a tile reaches h' (who has t's room):
    # reach[h] is the holders such chains from h reach
    passes = [
        {h2 for u in range(n_t) if owner[u] == h for h2 in range(n_h) if allowed[u][h2]} for h in range(n_h)
    ]
    reach = []
    for h0 in range(n_h):
        seen = {h0}
        stack = [h0]
        while stack:
            for h2 in passes[stack.pop()] - seen:
                seen.add(h2)
                stack.append(h2)
        reach.append(seen)
    return [
        [allowed[t][h] and (owner[t] == h or owner[t] in reach[h]) for h in range(n_h)] for t in range(n_t)
    ]


def project(scores: np.ndarray, caps: np.ndarray, iterations: int = 300, tol: float = 1e-6) -> np.ndarray:
    """Scale ``scores`` (tiles x holders, >= 0; 0 where a holder is ruled out) so each row
    sums to 1 and each column to its cap (alternate scaling, until every column is within
    ``tol`` of its cap; as close as the zeros allow)."""
    p = scores.astype(np.float64)
    if p.size == 0:
        return p
    p = np.where(p > 0, np.maximum(p, 1e-12), 0.0)
    caps = caps.astype(np.float64)
    for _ in range(iterations):
        col = p.sum(axis=0)
        p *= np.divide(caps, col, out=np.zeros_like(caps), where=col > 0)
        row = p.sum(axis=1, keepdims=True)
        p /= np.where(row > 0, row, 1.0)
        if np.abs(p.sum(axis=0) - caps).max() < tol:
            break
    return p


def features(variant: Variant, view: View, cons: Constraints | None = None) -> np.ndarray:
    """The model's input for an open game's ``view``: a float32 vector of ``FEATURES``."""
    if view.blind:
        raise ValueError("the belief model reads open games only")
    if variant.pips != 6:
        raise ValueError(f"the belief model reads double-six games only, not {variant.tile_set.name}")
    cons = cons if cons is not None else constraints(variant, view)
    n, me = view.players, view.seat
    x = np.zeros(FEATURES, dtype=np.float32)
    for t in view.hand:
        x[t] = 1.0
    know = PublicKnowledge.from_view(variant, view)
    table = know.played
    for t in bits(table):
        x[28 + t] = 1.0
    allowed_of = {
        h: [t for t, row in zip(cons.tiles, cons.allowed) if row[j]] for j, h in enumerate(cons.holders)
    }
    # per seat: fitting tiles passed over, and lighter ones
    fit = np.zeros((n, 28), dtype=np.float32)
    lighter = np.zeros((n, 28), dtype=np.float32)
    stuck = [0] * n
    for e, m, before in zip(view.history, history_moves(view), know.fit_before):
        if m < PASS:
            t = tile_of(m)
            if before:
                w = PIPS[t] + (3 if IS_DOUBLE[t] else 0)
                for c in bits(before & ~(1 << t)):
                    fit[e.seat, c] += 1.0
                    if PIPS[c] + (3 if IS_DOUBLE[c] else 0) > w:
                        lighter[e.seat, c] += 1.0
        else:
            stuck[e.seat] += 1
    base = 56
    for r in range(1, min(n, 4)):
        s = (me + r) % n
        o = base + (r - 1) * _PER_SEAT
        for t in bits(know.played_by[s]):
            x[o + t] = 1.0
        for t in allowed_of.get(s, ()):
            x[o + 28 + t] = 1.0
        x[o + 56 : o + 84] = np.minimum(fit[s], 8.0) / 4.0
        x[o + 84 : o + 112] = np.minimum(lighter[s], 8.0) / 4.0
        x[o + 112] = view.tile_counts[s] / 7.0
        x[o + 113] = min(stuck[s], 8) / 4.0
        x[o + 114] = 1.0 if variant.side_of(s) == variant.side_of(me) else 0.0
        x[o + 115] = 1.0
    g = base + 3 * _PER_SEAT
    x[g] = view.boneyard_size / 14.0
    x[g + 1] = len(view.history) / 28.0
    x[g + 2 + min(n, 4) - 2] = 1.0  # 2, 3 or 4 players
    x[g + 5] = 1.0 if variant.turn == "must_play" else 0.0
    x[g + 6] = 1.0 if variant.teams else 0.0
    x[g + 7] = 1.0 if variant.in_play == "fives" else 0.0
    x[g + 8 + (view.leader - me) % n % 4] = 1.0
    return x


class BeliefModel:
    """The learned scores: a multilayer perceptron (ReLU) read from a ``.npz`` of weights
    ``w0, b0, w1, b1, ...`` whose last layer gives 28 x ``OUTPUTS`` logits."""

    def __init__(self, path: str = MODEL_PATH) -> None:
        self.net = Mlp(path, FEATURES, 28 * OUTPUTS)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Logits of shape (..., 28, OUTPUTS) for inputs of shape (..., FEATURES)."""
        return self.net(x).reshape(*x.shape[:-1], 28, OUTPUTS)


@cache
def shipped_model() -> BeliefModel | None:
    """The model shipped with the package (None when its file is missing)."""
    return BeliefModel() if os.path.exists(MODEL_PATH) else None


def beliefs(
    variant: Variant,
    view: View,
    *,
    model: BeliefModel | None | str = "shipped",
    sampler: Sampler | None = None,
) -> Beliefs:
    """Where each tile ``view``'s seat has not seen probably is (see the module's doc).
    ``model``: a ``BeliefModel``, ``"shipped"`` (the package's, if present) or None (the hard
    facts alone: every allowed holder alike before the projection)."""
    if view.variant != variant.name or view.players != variant.players:
        raise ValueError("the view is not of this variant")
    cons = constraints(variant, view, sampler)
    n_t, n_h = len(cons.tiles), len(cons.holders)
    support = feasible_support([list(row) for row in cons.allowed], list(cons.caps))
    mask = np.array(support, dtype=bool).reshape(n_t, n_h)
    net = shipped_model() if model == "shipped" else model
    scores = mask.astype(np.float64)
    if net is not None and not view.blind and n_t and variant.pips == 6:  # the model is double-six's
        assert isinstance(net, BeliefModel)
        lg = net.logits(features(variant, view, cons)).astype(np.float64)
        cols = [r - 1 for r in range(1, n_h)] + [OUTPUTS - 1]
        sub = lg[list(cons.tiles)][:, cols]
        sub = sub - sub.max(axis=1, keepdims=True)
        scores = np.exp(sub) * mask
    p = project(scores, np.array(cons.caps, dtype=np.float64))
    probs = tuple(tuple(float(x) for x in row) for row in p)
    return Beliefs(view.seat, cons.tiles, cons.holders, probs)


__all__ = [
    "Beliefs",
    "BeliefModel",
    "Constraints",
    "FEATURES",
    "MODEL_PATH",
    "OUTPUTS",
    "STOCK",
    "beliefs",
    "constraints",
    "english",
    "place",
    "feasible_support",
    "features",
    "project",
    "shipped_model",
]
