"""The observation vector and action mask of the train layout (Mexican Train), computed only
from a seat's ``View``.

The line games' encoder (``obs.py``) lays out four arms L, R, U, D; a train table has a hub
and one train per seat plus the Mexican train, so it has its own space (``actions.space_name``:
``trains/double-twelve/v1``), built from the layout's facts, not its arm names.  Trains are
*relative to the observer*, as seats are: train slot ``r < n`` is the train of relative seat
``r`` (0: the observer's own, 1: the next player's...), slot ``n`` is the Mexican train.  The
action ids use the same slots (``actions.TrainActions``), so a policy reads the same in every
seat.  Sizes with ``T`` tiles (91 in double-twelve), ``P`` pips (13), ``n`` players and
``K = n + 1`` trains:

=================  ==========  ===============================================================
field              size        meaning
=================  ==========  ===============================================================
``hand``           T           1 for each tile the observer holds
``played``         T           1 for each tile on the table (the hub included)
``played_by``      n x T       1 where relative seat r laid that tile
``hub``            P           the hub double's pip, one-hot (the round: 12, 11, ... in double-12)
``ends``           K x P       open pip of each relative train, one-hot
``train_tiles``    K           tiles on each relative train (the hub not counted)
``marked``         K           the train has a marker: any player may play on it (the Mexican
                               train is always open and never marked)
``pending``        K           the train ends in a double that must be covered before any other
                               play
``counts``         n           tiles held by relative seat r
``boneyard``       2           tiles that may still be drawn; tiles not dealt and not drawn
``voids``          n x P       pips relative seat r is known to lack: it passed, or ended a run
                               of draws, while those pips were open to it
                               (``engine.knowledge``)
``turn``           n           relative seat to move, one-hot (all 0 when the hand is over)
``leader``         n           relative seat that led the hand, one-hot
``round``          1           the hand's number (1 for the first round)
``totals``         n           penalty points per relative seat before this hand, / 100
``hand_points``    n           points per relative seat this hand (the pips left, once it is
                               over), / 100
=================  ==========  ===============================================================

Length ``T(n + 2) + P(2n + 2) + 3K + 5n + 3``: 464 for 2 players, 714 for 4 in double-twelve.
"""

from __future__ import annotations

import numpy as np

from ..engine.foot import FOOT_INDEX
from ..engine.knowledge import PublicKnowledge, event_move
from ..engine.tiles import BIT, HI, MAX_ARMS, SETS, TRAIN_INDEX
from ..engine.variant import Variant
from ..engine.view import Observer, View
from ..engine.view_types import Layout
from .actions import actions

#: score fields are points / 100, clipped here (as ``obs.SCORE_CAP``)
SCORE_CAP = 100.0

#: (name, size: T tiles, P pips, n players, K trains)
FIELDS: tuple[tuple[str, str], ...] = (
    ("hand", "T"),
    ("played", "T"),
    ("played_by", "n*T"),
    ("hub", "P"),
    ("ends", "K*P"),
    ("train_tiles", "K"),
    ("marked", "K"),
    ("pending", "K"),
    ("counts", "n"),
    ("boneyard", "2"),
    ("voids", "n*P"),
    ("turn", "n"),
    ("leader", "n"),
    ("round", "1"),
    ("totals", "n"),
    ("hand_points", "n"),
)


#: the chicken foot's fields: the same, arms by their code (K = 32 arms, no owner, no marker)
FOOT_FIELDS = tuple((name, size) for name, size in FIELDS if name != "marked")


def fields_of(layout: str) -> tuple[tuple[str, str], ...]:
    """The fields of a layout ("trains" or "chicken_foot")."""
    return FOOT_FIELDS if layout == "chicken_foot" else FIELDS


def field_sizes(n: int, pips: int = 12, layout: str = "trains") -> dict[str, int]:
    """Each field's size for ``n`` players, the double-``pips`` set and ``layout``."""
    arms = MAX_ARMS if layout == "chicken_foot" else n + 1
    values = {"n": n, "K": arms, "T": SETS[pips].n_tiles, "P": pips + 1}
    out: dict[str, int] = {}
    for name, size in fields_of(layout):
        k = 1
        for part in size.split("*"):
            k *= values[part] if part in values else int(part)
        out[name] = k
    return out


def obs_size(n: int, pips: int = 12, layout: str = "trains") -> int:
    return sum(field_sizes(n, pips, layout).values())


class TrainEncoder:
    """Observation vectors and action masks for one train or chicken foot variant (same
    interface as ``obs.Encoder``)."""

    def __init__(self, variant: Variant):
        if variant.layout not in ("trains", "chicken_foot"):
            raise ValueError(f"{variant.name} is played on neither trains nor a chicken foot")
        #: a chicken foot: arms are read by their code (they belong to no seat)
        self.foot = variant.layout == "chicken_foot"
        self.variant = variant
        n = self.n = variant.players
        T = self.T = variant.n_tiles
        self.P = variant.pips + 1
        self.actions = actions(variant)
        sizes = self.sizes = field_sizes(n, variant.pips, variant.layout)
        self.offsets: dict[str, int] = {}
        pos = 0
        for name, _ in fields_of(variant.layout):
            self.offsets[name] = pos
            pos += sizes[name]
        self.size = pos
        high = np.ones(pos, np.float32)
        for name in ("train_tiles", "counts", "boneyard"):
            at = self.offsets[name]
            high[at : at + sizes[name]] = T
        high[self.offsets["round"]] = max(variant.rounds or 1, 1)
        for name in ("totals", "hand_points"):
            at = self.offsets[name]
            high[at : at + sizes[name]] = SCORE_CAP
        self.low = np.zeros(pos, np.float32)
        self.high = high
        #: per seat: (first hand key, history read, its public knowledge)
        self._seen: dict[int, tuple[tuple[int, int], tuple, PublicKnowledge]] = {}

    # ------------------------------------------------------------------ spaces
    def observation_box(self):
        from gymnasium import spaces

        return spaces.Box(self.low, self.high, dtype=np.float32)

    def mask_box(self):
        from gymnasium import spaces

        return spaces.Box(0, 1, (self.actions.n,), dtype=np.int8)

    # ------------------------------------------------------------------ encoding
    def slot(self, name: str, seat: int) -> int:
        """The relative slot of the train named ``name`` ("1".."8", "M") for ``seat``; a
        chicken foot's arm: its code ("A" 0, "B" 1...)."""
        if self.foot:
            return FOOT_INDEX[name]
        if name == "M":
            return self.n
        return (TRAIN_INDEX[name] - seat) % self.n

    def mask(self, view: View) -> np.ndarray:
        m = np.zeros(self.actions.n, np.int8)
        if view.legal:
            of = self.actions.of
            m[[of(a, view.seat) for a in view.legal]] = 1
        return m

    def _knowledge(self, view: View) -> PublicKnowledge:
        """The public knowledge of the view's history, read on from the seat's last reading
        when the history extends it."""
        seat = view.seat
        hist = view.history
        key = (view.hand_number, view.leader)
        seen = self._seen.get(seat)
        if seen is not None:
            k_key, k_hist, know = seen
            if k_key != key or len(hist) < len(k_hist) or hist[: len(k_hist)] != k_hist:
                seen = None
        if seen is None:
            know = PublicKnowledge(self.variant, None, None, view.hand_number, view.leader)
            k_hist = ()
        layout = view.layout
        for e in hist[len(k_hist) :]:
            know.add(e.seat, event_move(e, layout))
        self._seen[seat] = (key, hist, know)
        return know

    def encode(self, view: View) -> np.ndarray:
        """The observation vector of ``view`` (a new float32 array)."""
        return self._fill(
            view.seat,
            view.hand,
            self._knowledge(view),
            view.layout,
            view.to_move,
            view.leader,
            view.tile_counts,
            view.drawable,
            view.boneyard_size,
            view.hand_number,
            view.totals,
            view.hand_points,
        )

    def observe(self, ob: Observer, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """The observation vector and the action mask of ``seat``, read from the hand's
        ``Observer`` (``engine.view.observer(hand)``) without building a View: equal to
        ``encode(view)`` and ``mask(view)`` for ``view = hand_view(hand, seat)`` (the public
        knowledge is the observer's own, read once for every seat)."""
        ob.check_seat(seat)
        to_move, _ends, _dbl, counts, drawable, bone_size, totals, points = ob.public_facts()
        x = self._fill(
            seat,
            ob.own(seat),
            ob.knowledge(),
            ob.layout(),
            to_move,
            ob.leader(),
            counts,
            drawable,
            bone_size,
            ob.number(),
            totals,
            points,
        )
        m = np.zeros(self.actions.n, np.int8)
        legal = ob.legal(seat)
        if legal:
            of = self.actions.of
            m[[of(a, seat) for a in legal]] = 1
        return x, m

    def _fill(
        self,
        seat: int,
        hand: tuple[int, ...],
        know: PublicKnowledge,
        lay: Layout,
        to_move: int | None,
        leader: int,
        counts: tuple[int, ...],
        drawable: int,
        bone_size: int,
        number: int,
        totals: tuple[int, ...] | list[int],
        points: tuple[int, ...] | list[int],
    ) -> np.ndarray:
        n, T, P = self.n, self.T, self.P
        o = self.offsets
        x = np.zeros(self.size, np.float32)
        ones: list[int] = [o["hand"] + t for t in hand]
        hub = lay.hub
        _bits_into(x, o["played"], know.played | (BIT[hub] if hub is not None else 0), T)
        o_by = o["played_by"]
        for s, by in enumerate(know.played_by):
            if by:
                _bits_into(x, o_by + ((s - seat) % n) * T, by, T)
        if hub is not None:
            ones.append(o["hub"] + HI[hub])
        slot = self.slot
        o_e = o["ends"]
        for name, pip in lay.ends.items():
            ones.append(o_e + slot(name, seat) * P + pip)
        for name in lay.open:  # (a chicken foot has no markers)
            ones.append(o["marked"] + slot(name, seat))
        if lay.pending is not None:
            ones.append(o["pending"] + slot(lay.pending, seat))
        o_v = o["voids"]
        for s, pips in enumerate(know.voids):
            if pips:
                _bits_into(x, o_v + ((s - seat) % n) * P, pips, P)
        if to_move is not None:
            ones.append(o["turn"] + (to_move - seat) % n)
        ones.append(o["leader"] + (leader - seat) % n)
        x[ones] = 1.0
        o_t = o["train_tiles"]
        for name, placed in lay.arms.items():
            x[o_t + slot(name, seat)] = len(placed)
        oc = o["counts"]
        for s, c in enumerate(counts):
            x[oc + (s - seat) % n] = c
        x[o["boneyard"]] = drawable
        x[o["boneyard"] + 1] = bone_size
        x[o["round"]] = number
        # (every seat is its own side in a train game: seat order is side order)
        ot, oh = o["totals"], o["hand_points"]
        ns = len(totals)
        own = self.variant.seat_sides[seat]
        for k in range(ns):
            side = (own + k) % ns
            x[ot + k] = min(totals[side] / 100.0, SCORE_CAP)
            x[oh + k] = min(points[side] / 100.0, SCORE_CAP)
        return x

    def describe(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """The named fields of an observation vector (views into it)."""
        return {name: x[self.offsets[name] : self.offsets[name] + size] for name, size in self.sizes.items()}


def _bits_into(x: np.ndarray, at: int, mask: int, width: int) -> None:
    """Write bit i of ``mask`` as x[at + i] (0 or 1) for i < width."""
    raw = np.frombuffer(mask.to_bytes((width + 7) // 8, "little"), np.uint8)
    x[at : at + width] = np.unpackbits(raw, bitorder="little")[:width]


__all__ = ["TrainEncoder", "FIELDS", "field_sizes", "obs_size"]
