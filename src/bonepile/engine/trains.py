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

from .hand import LAYOUT_HANDS, Hand, perft
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
    move,
    tile_index,
)
from .variant import Variant

__all__ = ["TrainHand", "TRAIN_ARMS", "MEXICAN", "hub_of", "perft"]

#: the arm names of the train layout: the seats' trains "1".."8", then the Mexican train
TRAIN_ARMS = TRAIN_NAMES
MEXICAN = TRAIN_INDEX["M"]


def hub_of(v: Variant, number: int) -> int:
    """The hub double of hand ``number`` (1-based): the set's highest double in the first
    round, then one lower each round, round after round (13 rounds in a double-twelve set)."""
    d = v.pips - (number - 1) % (v.pips + 1)
    return tile_index(d, d)


class _TrainSnap:
    __slots__ = ("masks", "in_hands", "bpos", "tpip", "tlen", "tdbl", "marks", "pending", "placed",
                 "to_move", "passes", "drew", "over", "end", "result", "log_len")  # fmt: skip

    def __init__(self, h: TrainHand) -> None:
        self.masks = h.masks[:]
        self.in_hands = h.in_hands
        self.bpos = h.bpos
        self.tpip = h.pip[:]
        self.tlen = h.tlen[:]
        self.tdbl = h.dbl[:]
        self.marks = h.marks
        self.pending = h.pending
        self.placed = h.placed
        self.to_move = h.to_move
        self.passes = h.passes
        self.drew = h.drew
        self.over = h.over
        self.end = h.end
        self.result = h.result
        self.log_len = len(h.log)


class TrainHand(Hand):
    """One hand of a train game (``Variant.layout == "trains"``)."""

    __slots__ = ("hub", "tlen", "marks", "pending", "_arms_n")

    arm_names = TRAIN_ARMS
    arm_index = TRAIN_INDEX

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
        self.hub = hub = hub_of(v, number)
        self._arms_n = n = v.players
        p = HI[hub]
        n = v.players
        self.pip = [p if a < n or a == MEXICAN else -1 for a in range(MEXICAN + 1)]
        self.dbl = [False] * (MEXICAN + 1)
        self.occ = [False] * (MEXICAN + 1)
        self.tlen = [0] * (MEXICAN + 1)
        self.marks = 0
        self.pending = -1
        self.placed = 1  # the hub
        self._reopen()
        if self.bpos >= self.draw_end and self._stuck_everywhere():
            self._finish("blocked", None)

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
        tiles = sorted((t for t in range(v.n_tiles) if t != hub), key=lambda _: rnd())
        deal, pos = [], 0
        for size in v.hand_sizes:
            deal.append(tiles[pos : pos + size])
            pos += size
        if prev_leader is None:
            leader = rng.randrange(v.players)
        else:
            leader = (prev_leader + 1) % v.players
        return cls(v, deal, tiles[pos:], leader, number=number, totals=totals, bonus=bonus)

    def copy(self) -> TrainHand:
        h: TrainHand = object.__new__(TrainHand)
        for name in Hand.__slots__ + TrainHand.__slots__:
            setattr(h, name, getattr(self, name))
        h.masks = self.masks[:]
        h.pip = self.pip[:]
        h.dbl = self.dbl[:]
        h.occ = self.occ[:]
        h.tlen = self.tlen[:]
        h.inplay = self.inplay[:]
        h.log = self.log[:]
        h._stack = self._stack[:]
        h.given_tokens = None if self.given_tokens is None else self.given_tokens[:]
        return h

    def push(self, m: int) -> None:
        self._stack.append(_TrainSnap(self))  # type: ignore[arg-type]
        self.apply(m)

    def pop(self) -> int:
        if not self._stack:
            return self.undo()
        s: _TrainSnap = self._stack.pop()  # type: ignore[assignment]
        self.masks = s.masks[:]
        self.in_hands, self.bpos = s.in_hands, s.bpos
        self.pip = s.tpip[:]
        self.tlen = s.tlen[:]
        self.dbl = s.tdbl[:]
        self.occ = [x > 0 for x in self.tlen]
        self.marks, self.pending, self.placed = s.marks, s.pending, s.placed
        self.to_move, self.passes, self.drew, self.over = s.to_move, s.passes, s.drew, s.over
        self.end, self.result = s.end, s.result
        n = s.log_len
        m = self.log[n][1]
        del self.log[n:]
        if self.given_tokens is not None:
            del self.given_tokens[n:]
        self._reopen()
        return m

    # ------------------------------------------------------------------ queries
    def arms_for(self, seat: int) -> tuple[int, ...]:
        """The trains ``seat`` may play on now: only the double to cover when there is one,
        else its own, the Mexican train and every train with a marker."""
        if self.pending >= 0:
            return (self.pending,)
        marks = self.marks & ~(1 << seat)
        out = [seat, MEXICAN]
        while marks:
            low = marks & -marks
            out.append(low.bit_length() - 1)
            marks ^= low
        return tuple(sorted(out))

    def _reopen(self) -> None:
        seat = self.to_move
        pip = self.pip
        arms = self.open_arms = self.arms_for(seat)
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
        out: list[int] = []
        if hand & self.open_mask:
            pip = self.pip
            for a in self.open_arms:
                for t in bits(hand & PIP_MASK[pip[a]]):
                    out.append(move(t, a))
        if out:
            return out
        if not self.drew and self.bpos < self.draw_end:
            return [DRAW]
        return [PASS]

    def count(self) -> int:
        return 0

    def _stuck_everywhere(self) -> bool:
        """Can no seat play any tile it holds (the stock being empty, the hand is blocked)?"""
        pip = self.pip
        for s in range(self.n):
            hand = self.masks[s]
            for a in self.arms_for(s):
                if hand & PIP_MASK[pip[a]]:
                    return False
        return True

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
            self._lay_on(t, a)
            if a == seat:
                self.marks &= ~(1 << seat)
            self.placed += 1
            if self.pending < 0:  # not a double: the turn passes (a double: play again)
                self.to_move = self._next[seat]
            if not hand:
                self._reopen()
                self._finish("domino", seat)
                return
        elif m == PASS:
            self.log.append((seat, m, -1))
            self.passes += 1
            self.drew = False
            self.marks |= 1 << seat
            self.to_move = self._next[seat]
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
        """The table's geometry of a play by ``seat`` (its marker is lifted when it plays on
        its own train)."""
        t, a = m >> 5, m & 31
        self._lay_on(t, a)
        if a == seat:
            self.marks &= ~(1 << seat)
        self.placed += 1
        if seat >= 0 and self.pending < 0:
            self.to_move = self._next[seat]
        self._reopen()

    def note_pass(self, seat: int) -> None:
        """The table's geometry of a pass by ``seat``: a marker on its train."""
        self.marks |= 1 << seat
        self.to_move = self._next[seat]
        self._reopen()

    def _lay_on(self, t: int, a: int) -> None:
        pip = self.pip
        pip[a] = OTHER[t * 13 + pip[a]]
        self.tlen[a] += 1
        self.occ[a] = True
        self.dbl[a] = d = IS_DOUBLE[t]
        if d:
            self.pending = a
        elif self.pending == a:
            self.pending = -1

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
