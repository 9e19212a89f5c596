"""The train layout (Mexican Train, RULES.md §15): a hub double, one train per seat and the
public Mexican train, markers that open a train to everyone, a double that must be covered.

``TrainHand`` is a ``Hand`` chosen by ``Variant.layout == "trains"`` (``Hand(...)`` and
``Hand.deal`` build one); it keeps the interface of a hand (``legal_moves``, ``apply``,
``push``/``pop``, ``fits``, ``ends``, ``lay``...) and the line's hot path is left as it is.

Arms: seat ``s``'s train is arm ``s`` (named ``str(s + 1)``), the Mexican train is arm 8
(``"M"``).  Every train starts at the hub's pip.  A player may play on their own train, on
the Mexican train and on any train with a marker; after a double is laid (``pending``) the
only legal play anywhere is on that double, and the player who laid it plays again.  A
player who cannot play draws one tile and plays it if it fits, else passes, which puts a
marker on their own train; playing on one's own train lifts it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from .hand import LAYOUT_HANDS, Hand, _Snapshot, perft
from .scoring import HandResult
from .tiles import (
    BIT,
    DRAW,
    HI,
    IS_DOUBLE,
    NAME,
    OTHER,
    PASS,
    PIP_MASK,
    TRAIN_INDEX,
    TRAIN_NAMES,
    bits,
    tile_index,
)
from .variant import Variant

__all__ = ["TrainHand", "TRAIN_ARMS", "MEXICAN", "hub_of", "perft"]

#: the arm names of the train layout: the seats' trains "1".."8", then the Mexican train
TRAIN_ARMS = TRAIN_NAMES
MEXICAN = TRAIN_INDEX["M"]


#: per player count: per seat, per markers mask, the trains that seat may play on (its own,
#: the Mexican train and every marked train, in arm order), computed once
_ARMS: dict[int, list[list[tuple[int, ...]]]] = {}


def _arms_table(n: int) -> list[list[tuple[int, ...]]]:
    table = _ARMS.get(n)
    if table is None:
        table = _ARMS[n] = [
            [
                tuple(sorted({seat, MEXICAN} | {s for s in range(n) if marks >> s & 1}))
                for marks in range(1 << n)
            ]
            for seat in range(n)
        ]
    return table


def hub_of(v: Variant, number: int) -> int:
    """The hub double of hand ``number`` (1-based): the set's highest double in the first
    round, then one lower each round, round after round (13 rounds in a double-twelve set)."""
    d = v.pips - (number - 1) % (v.pips + 1)
    return tile_index(d, d)


class _TrainSnap(_Snapshot):
    """``Hand``'s snapshot and the trains' own state: their lengths, the markers, the double
    to cover.  (The base is called by name, not through ``super()``: push and pop are the
    search's inner loop.)"""

    __slots__ = ("tlen", "marks", "pending")

    def __init__(self, h: TrainHand) -> None:
        _Snapshot.__init__(self, h)
        self.tlen = h.tlen[:]
        self.marks = h.marks
        self.pending = h.pending

    def restore(self, h: TrainHand) -> None:  # type: ignore[override]  # (pushed by a TrainHand)
        _Snapshot.restore(self, h)
        h.tlen = self.tlen[:]
        h.marks, h.pending = self.marks, self.pending


class TrainHand(Hand):
    """One hand of a train game (``Variant.layout == "trains"``)."""

    __slots__ = ("hub", "tlen", "marks", "pending", "_arms_n", "_arms")

    arm_names = TRAIN_ARMS
    arm_index = TRAIN_INDEX
    _snapshot: ClassVar[type[_Snapshot]] = _TrainSnap
    _lists: ClassVar[tuple[str, ...]] = ("tlen",)

    hub: int  # the hub double
    tlen: list[int]  # tiles on each train (arm code)
    marks: int  # mask of the seats whose train has a marker
    pending: int  # the arm whose end is a double to cover, or -1

    def __init__(
        self,
        v: Variant,
        deal: Sequence[Sequence[int]],
        boneyard: Sequence[int],
        leader: int,
        *,
        must_lead: int = -1,
        number: int = 1,
        totals: Sequence[int] | None = None,
        bonus: int = 0,
        starter_first: int | None = None,
        _masks: list[int] | None = None,
    ):
        super().__init__(v, deal, boneyard, leader, number=number, totals=totals, bonus=bonus, _masks=_masks)
        self._plain = False
        self.hub = hub_of(v, number)
        self._arms_n = v.players
        self.marks = 0
        self.pending = -1
        self.placed = 1  # the hub
        self._set_table(HI[self.hub])
        self._reopen()
        if self.bpos >= self.draw_end and self._stuck_everywhere():
            self._finish("blocked", None)

    def _set_table(self, p: int) -> None:
        """The layout's arms before the first play, each starting at the hub's pip ``p``:
        a train per seat and the Mexican train."""
        n = self._arms_n
        self._arms = _arms_table(n)
        self.pip = [p if a < n or a == MEXICAN else -1 for a in range(MEXICAN + 1)]
        self.dbl = [False] * (MEXICAN + 1)
        self.occ = [False] * (MEXICAN + 1)
        self.tlen = [0] * (MEXICAN + 1)

    # ------------------------------------------------------------------ construction
    @classmethod
    def deal(
        cls,
        v: Variant,
        rng: random.Random,
        *,
        number: int = 1,
        prev: HandResult | None = None,
        prev_leader: int | None = None,
        totals: Sequence[int] | None = None,
        bonus: int = 0,
    ) -> Hand:
        """A random deal of the set less the hub double; the first leader by lot, then the
        next seat each hand."""
        hub = hub_of(v, number)
        rnd = rng.random
        pool = [t for t in range(v.n_tiles) if t != hub]
        keys = [rnd() for _ in pool]  # (a random key per tile, in tile order, as sorted(key=) draws them)
        tiles = [pool[i] for i in sorted(range(len(pool)), key=keys.__getitem__)]
        deal, pos = [], 0
        for size in v.hand_sizes:
            deal.append(tiles[pos : pos + size])
            pos += size
        if prev_leader is None:
            leader = rng.randrange(v.players)
        else:
            leader = (prev_leader + 1) % v.players
        return cls(v, deal, tiles[pos:], leader, number=number, totals=totals, bonus=bonus)

    # ------------------------------------------------------------------ queries
    def arms_for(self, seat: int) -> tuple[int, ...]:
        """The trains ``seat`` may play on now: only the double to cover when there is one,
        else its own, the Mexican train and every train with a marker."""
        if self.pending >= 0:
            return (self.pending,)
        return self._arms[seat][self.marks]

    def _reopen(self) -> None:
        pip = self.pip
        if self.pending >= 0:
            self.open_arms = (self.pending,)
            self.open_mask = PIP_MASK[pip[self.pending]] & self.v.all_tiles
            return
        arms: tuple[int, ...] = self._arms[self.to_move][self.marks]
        self.open_arms = arms
        m = 0
        for a in arms:
            m |= PIP_MASK[pip[a]]
        self.open_mask = m & self.v.all_tiles

    def fits(self, t: int) -> list[int]:
        """The trains on which the player to move may lay tile ``t`` now."""
        pip = self.pip
        base = t * 13
        return [a for a in self.open_arms if OTHER[base + pip[a]] >= 0]

    def ends(self) -> dict[str, int]:
        """Every train's open pip by arm name (whoever may play there)."""
        return {TRAIN_ARMS[a]: p for a, p in enumerate(self.pip) if p >= 0}

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        hand = self.masks[self.to_move]
        if hand & self.open_mask:
            out: list[int] = []
            pip = self.pip
            for a in self.open_arms:
                x = hand & PIP_MASK[pip[a]]
                while x:  # tiles lowest first (tiles.bits), as moves (tiles.move: tile << 5 | arm)
                    low = x & -x
                    out.append((low.bit_length() - 1) << 5 | a)
                    x ^= low
            return out
        if not self.drew and self.bpos < self.draw_end:
            return [DRAW]
        return [PASS]

    def count(self) -> int:
        return 0

    def _stuck_everywhere(self) -> bool:
        """Can no seat play any tile it holds (the stock being empty, the hand is blocked)?"""
        pip = self.pip
        if self.pending >= 0:  # everyone must cover the double
            return not self.in_hands & PIP_MASK[pip[self.pending]]
        # the Mexican train and the marked trains are open to every seat, its own train to each
        common = PIP_MASK[pip[MEXICAN]]
        marks = self.marks
        while marks:
            low = marks & -marks
            common |= PIP_MASK[pip[low.bit_length() - 1]]
            marks ^= low
        if self.in_hands & common:
            return False
        masks = self.masks
        return not any(masks[s] & PIP_MASK[pip[s]] for s in range(self.n))

    # ------------------------------------------------------------------ moves
    def apply(self, m: int) -> None:
        seat = self.to_move
        if m < PASS:
            t, a = m >> 5, m & 31  # tiles.tile_of / arm_of (ARM_BITS 5, asserted in hand.py)
            bit = BIT[t]
            hand = self.masks[seat] ^ bit
            self.masks[seat] = hand
            self.in_hands ^= bit
            self.log.append((seat, m, t))
            self.passes = 0
            self.drew = False
            self.placed += 1
            self._place(t, a, seat)
            if not hand:
                self._reopen()
                self._finish("domino", seat)
                return
        elif m == PASS:
            self.log.append((seat, m, -1))
            self.passes += 1
            self.drew = False
            self._passed(seat)
        else:
            t = self.boneyard[self.bpos]
            self.bpos += 1
            self.masks[seat] |= BIT[t]
            self.in_hands |= BIT[t]
            self.log.append((seat, m, t))
            self.drew = True
        self._reopen()
        if self.bpos >= self.draw_end and self._stuck_everywhere():
            self._finish("blocked", None)

    def lay(self, m: int, seat: int = -1) -> None:
        """The table's geometry of a play by ``seat`` (-1: no seat; the turn stays)."""
        self.placed += 1
        self._place(m >> 5, m & 31, seat)
        self._reopen()

    def note_pass(self, seat: int) -> None:
        """The table's geometry of a pass by ``seat``."""
        self._passed(seat)
        self._reopen()

    def _place(self, t: int, a: int, seat: int) -> None:
        """Tile ``t`` laid on train ``a`` by ``seat`` (-1: the table alone): a double must be
        covered and its player plays again, else the turn passes; playing on one's own train
        lifts its marker."""
        pip = self.pip
        pip[a] = OTHER[t * 13 + pip[a]]
        self.tlen[a] += 1
        self.occ[a] = True
        self.dbl[a] = d = IS_DOUBLE[t]
        if d:
            self.pending = a
        elif self.pending == a:
            self.pending = -1
        if a == seat:
            self.marks &= ~(1 << seat)
        if seat >= 0 and self.pending < 0:
            self.to_move = self._next[seat]

    def _passed(self, seat: int) -> None:
        """A pass by ``seat``: a marker on its train, the turn passes."""
        self.marks |= 1 << seat
        self.to_move = self._next[seat]

    def table_key(self) -> tuple[int, ...]:
        """The table, as small numbers (0 to 63: the search's ``position_key`` packs each in
        6 bits): per train its open end and whether it ends in a double, the markers (4 seats
        a number), the double to cover and the seat to move.  A train's length changes nothing
        that follows, so two moves leading to the same ends are one decision."""
        pip, dbl = self.pip, self.dbl
        marks = self.marks
        return (
            *[(pip[a] + 1) << 1 | dbl[a] for a in range(MEXICAN + 1)],
            marks & 15,
            marks >> 4,
            self.pending + 1,
            self.to_move,
        )

    def why_illegal(self, m: int) -> str:
        seat = self.to_move
        if m == PASS:
            if self.legal_moves() == [DRAW]:
                return f"seat {seat} cannot pass: it must draw from the boneyard"
            playable = bits(self.masks[seat] & self.open_mask)
            return f"seat {seat} cannot pass: it holds {NAME[playable[0]]}, which fits"
        if m == DRAW:
            if self.drew:
                return f"seat {seat} has already drawn this turn"
            if self.bpos >= self.draw_end:
                return "no tile can be drawn: the boneyard is empty"
            return f"seat {seat} cannot draw while holding a tile that fits"
        t, a = m >> 5, m & 31
        if not self.masks[seat] & BIT[t]:
            return f"seat {seat} does not hold {NAME[t]}"
        name = TRAIN_ARMS[a] if a < len(TRAIN_ARMS) else str(a)
        if a >= len(TRAIN_ARMS) or self.pip[a] < 0:
            return f"train {name} is not in this game"
        if self.pending >= 0 and a != self.pending:
            return f"the double on train {TRAIN_ARMS[self.pending]} must be covered first"
        if a not in self.open_arms:
            return f"seat {seat} may not play on train {name}: it is another player's and has no marker"
        return f"{NAME[t]} does not fit train {name} (open end {self.pip[a]})"


LAYOUT_HANDS["trains"] = TrainHand
