"""One hand (round) of any variant: the state machine at the centre of the engine.

The state is a handful of ints and short lists so that ``copy()`` is cheap and ``apply()``
is fast enough for rollouts.  Moves are ints (see ``tiles``); ``legal_moves()`` lists them
and ``apply()`` applies one without checking it (``Game.play``/``Game.apply`` check first).
Everything a variant changes is read from its ``Variant`` fields.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Self

from .errors import IllegalMoveError
from .leaders import rule_leader
from .scoring import HandResult, in_play_points, pass_round_points, score_hand
from .tiles import (
    ARM_BITS,
    ARM_INDEX,
    ARM_MASK,
    ARM_NAMES,
    BIT,
    DRAW,
    HI,
    IS_DOUBLE,
    LO,
    NAME,
    OTHER,
    PASS,
    PIP_MASK,
    SETS,
    D,
    L,
    R,
    U,
    arm_of,
    bits,
    mask_of,
    mask_pips,
    move,
    tile_of,
)
from .variant import Variant
from .vocab import HandEnd

#: (HandResult and rule_leader live in scoring.py and leaders.py; callers may import them here)
__all__ = ["Hand", "HandResult", "perft", "rule_leader"]

_MUST, _VOLUNTARY, _BLIND = 0, 1, 2
#: the tiles of each set, in index order (what a deal shuffles), by tile count
_SET_TILES = {n: tuple(range(n)) for n in (28, 55, 91)}
_NEXT = {n: tuple((s + 1) % n for s in range(n)) for n in range(2, 9)}
_TURN_CODES = {"must_play": _MUST, "voluntary": _VOLUNTARY, "blind": _BLIND}


#: per set (by highest pip): PIP_MASK restricted to the set's tiles (the open mask of a table)
_SET_PIP_MASK = {p: [m & s.all_tiles for m in PIP_MASK] for p, s in SETS.items()}

#: the hand class of each layout other than the line ("trains": ``engine/trains.py``, which
#: registers itself); ``Hand(...)`` and ``Hand.deal`` build the variant's own
LAYOUT_HANDS: dict[str, type[Hand]] = {}

#: (tiles mask << ARM_BITS | arm) -> the moves placing each of those tiles on that arm
_ARM_MOVES: dict[int, tuple[int, ...]] = {}
# the hot paths below write ARM_BITS as the literal 5 and ARM_MASK as 31 (a move is
# ``tile << 5 | arm``, tiles.move): tied here
assert ARM_BITS == 5 and ARM_MASK == 31


class _Rules:
    """The constants of a variant that the hot path reads (one per variant, cached)."""

    __slots__ = (
        "blind",
        "blind_continue",
        "draw_reserve",
        "fives",
        "pip_mask",
        "next_seat",
        "nsides",
        "pass_bonus",
        "players",
        "seat_sides",
        "spinner",
        "spinner_any_order",
        "turn",
        "variant",
    )

    def __init__(self, v: Variant) -> None:
        self.variant = v
        self.players = v.players
        self.turn = _TURN_CODES[v.turn]
        self.blind = self.turn == _BLIND
        self.nsides = len(v.sides)
        #: the ends' count scores during play (any ``in_play`` rule)
        self.fives = v.in_play is not None
        self.pass_bonus = v.pass_bonus > 0
        self.seat_sides = v.seat_sides
        self.spinner = v.spinner
        self.spinner_any_order = v.spinner_any_order
        self.blind_continue = self.blind and v.blind_continue
        self.next_seat = _NEXT[v.players]
        self.draw_reserve = v.draw_reserve
        self.pip_mask = _SET_PIP_MASK[v.pips]


_RULES: dict[int, _Rules] = {}


def _rules(v: Variant) -> _Rules:
    """The hot-path constants of ``v`` (cached by variant identity)."""
    r = _RULES.get(id(v))
    if r is None or r.variant is not v:
        r = _RULES[id(v)] = _Rules(v)
    return r


class _Snapshot:
    """The state ``push`` saves before a move, for ``pop`` to restore."""

    __slots__ = (
        "bpos",
        "capicu_ok",
        "dbl",
        "drew",
        "end",
        "face_up",
        "first_to_target",
        "masks",
        "in_hands",
        "inplay",
        "log_len",
        "occ",
        "open_arms",
        "open_mask",
        "over",
        "passes",
        "pip",
        "placed",
        "result",
        "rows",
        "spin",
        "to_move",
    )

    def __init__(self, h: Hand) -> None:
        rows = h.rows
        self.masks = h.masks[:]
        self.rows = None if rows is None else [r[:] for r in rows]
        self.face_up = None if h.face_up is None else h.face_up[:]
        self.in_hands = h.in_hands
        self.bpos = h.bpos
        self.pip = h.pip[:]
        self.dbl = h.dbl[:]
        self.occ = h.occ[:]
        self.spin = h.spin
        self.open_mask = h.open_mask
        self.open_arms = h.open_arms
        self.placed = h.placed
        self.to_move = h.to_move
        self.passes = h.passes
        self.drew = h.drew
        self.over = h.over
        self.end = h.end
        self.result = h.result
        self.inplay = h.inplay[:]
        self.first_to_target = h.first_to_target
        self.capicu_ok = h.capicu_ok
        self.log_len = len(h.log)

    def restore(self, h: Hand) -> None:
        """Put the saved state back into ``h`` (copies: a snapshot may be shared with copies
        of the hand); a layout's snapshot extends both ``__init__`` and this."""
        h.masks = self.masks[:]
        h.rows = None if self.rows is None else [r[:] for r in self.rows]
        h.face_up = None if self.face_up is None else self.face_up[:]
        h.pip, h.dbl, h.occ, h.inplay = self.pip[:], self.dbl[:], self.occ[:], self.inplay[:]
        h.in_hands, h.bpos, h.spin = self.in_hands, self.bpos, self.spin
        h.open_mask, h.open_arms, h.placed = self.open_mask, self.open_arms, self.placed
        h.to_move, h.passes, h.drew, h.over = self.to_move, self.passes, self.drew, self.over
        h.end, h.result = self.end, self.result
        h.first_to_target, h.capicu_ok = self.first_to_target, self.capicu_ok


def _arm_moves(key: int) -> tuple[int, ...]:
    a = key & ARM_MASK
    ms = _ARM_MOVES[key] = tuple(t << ARM_BITS | a for t in bits(key >> ARM_BITS))
    return ms


def deal_attempt(v: Variant, rng: random.Random) -> tuple[list[list[int]], list[int], int]:
    """One shuffle and deal from ``rng``: each seat's tiles, the boneyard in drawing order, and
    the leader drawn by lot before the deal where deal sizes depend on the leader (else 0).
    ``Hand.deal`` repeats it while the rules call for a redeal (RECORD.md, "Extensions")."""
    rnd = rng.random
    tiles = sorted(_SET_TILES[v.n_tiles], key=lambda _: rnd())  # a uniform random permutation
    chance_leader = rng.randrange(v.players) if v.deal_from_leader else 0
    deal, pos = [], 0
    for size in v.sizes_for(chance_leader):
        deal.append(tiles[pos : pos + size])
        pos += size
    return deal, tiles[pos:], chance_leader


class Hand:
    """The state of one hand.  Create one with ``Hand(...)`` from a given deal or with
    ``Hand.deal(variant, rng)`` for a random deal under the variant's first-hand rules."""

    __slots__ = (
        "v",
        "n",
        "number",
        "leader",
        "must_lead",
        "deal_rows",
        "boneyard",
        "starter_first",
        "masks",
        "rows",
        "face_up",
        "in_hands",
        "bpos",
        "draw_end",
        "pip",
        "dbl",
        "occ",
        "spin",
        "open_mask",
        "open_arms",
        "placed",
        "to_move",
        "passes",
        "drew",
        "log",
        "over",
        "end",
        "result",
        "inplay",
        "totals",
        "bonus",
        "first_to_target",
        "capicu_ok",
        "given_tokens",
        "_turn",
        "_fives",
        "_pass_bonus",
        "_side",
        "_spinner",
        "_any_order",
        "_continue",
        "_next",
        "_plain",
        "_pm",
        "_stack",
    )

    #: the arm names of the layout (move tokens ``a-b@E``) and their codes
    arm_names: tuple[str, ...] | str = ARM_NAMES
    arm_index: dict[str, int] = ARM_INDEX
    #: what ``push`` saves: a layout with state of its own extends ``_Snapshot``
    _snapshot: ClassVar[type[_Snapshot]] = _Snapshot
    #: every slot of the class and its bases (``copy`` and ``undo`` carry them all)
    _all_slots: ClassVar[tuple[str, ...]]
    #: a layout's own lists that a move changes (``copy`` copies them; Hand's are copied by name)
    _lists: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._all_slots = tuple(n for k in reversed(cls.__mro__) for n in k.__dict__.get("__slots__", ()))

    v: Variant
    n: int
    number: int
    leader: int
    must_lead: int  # the tile the first play must be, or -1
    deal_rows: tuple[tuple[int, ...], ...]  # as dealt (blind games: rows, front first)
    boneyard: tuple[int, ...]  # in drawing order
    starter_first: int | None  # the starter tile's pip facing L, when the boneyard starts it
    masks: list[int]  # tile mask per seat
    rows: list[list[int]] | None  # blind games: each row, front (next turned up) first
    face_up: list[int] | None  # blind games: mask of face-up tiles in each row
    in_hands: int  # union of the hands
    bpos: int  # next boneyard tile to draw
    draw_end: int  # boneyard index where drawing stops (reserve)
    pip: list[int]  # open pip of arms L, R, U, D (-1: not open)
    dbl: list[bool]  # arm ends in a double (counted twice)
    occ: list[bool]  # a tile lies on the arm (spinner sides start empty)
    spin: int  # the spinner's pip, or -1
    open_mask: int  # tiles that fit some open arm
    open_arms: tuple[int, ...]
    placed: int
    to_move: int
    passes: int  # consecutive passes
    drew: bool  # drew this turn (Passing Game with draw_ends_turn false)
    log: list[tuple[int, int, int]]  # (seat, move, tile drawn or turned up, else -1)
    over: bool
    end: HandEnd | None
    result: HandResult | None
    inplay: list[int]  # points scored during play, per side
    totals: tuple[int, ...]  # per side, before this hand
    bonus: int  # Quinientos: this round's bonus
    first_to_target: int | None
    capicu_ok: tuple[bool, int, int]  # last tile fitted both ends; the ends then
    given_tokens: list[str] | None

    def __new__(cls, v: Variant | None = None, *args: object, **kwargs: object) -> Hand:
        if cls is Hand and v is not None and v.layout != "line":
            cls = LAYOUT_HANDS[v.layout]
        return object.__new__(cls)

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
        rules = _rules(v)
        n, turn, blind, nsides = rules.players, rules.turn, rules.blind, rules.nsides
        self._fives, self._side = rules.fives, rules.seat_sides
        self._pass_bonus = rules.pass_bonus
        self._spinner, self._any_order = rules.spinner, rules.spinner_any_order
        self._continue, self._next, reserve = rules.blind_continue, rules.next_seat, rules.draw_reserve
        self._pm = rules.pip_mask
        self.v = v
        self.n = n
        self._turn = turn
        # a plain line game (play, else draw, else pass; no spinner, no in-play points, no
        # count of passes): the common case gets a short path once the first tile is down
        self._plain = turn == _MUST and not self._spinner and not self._fives and not self._pass_bonus
        self.number = number
        self.leader = leader
        self.must_lead = must_lead
        self.deal_rows = tuple(map(tuple, deal))
        self.boneyard = boneyard = tuple(boneyard)
        self.masks = hands = list(map(mask_of, deal)) if _masks is None else _masks
        self.in_hands = sum(hands)
        if blind:
            self.rows = [list(r) for r in deal]
            self.face_up = [0] * n
            self.draw_end = 0
        else:
            self.rows = self.face_up = None
            self.draw_end = len(boneyard) - reserve
        self.pip = [-1, -1, -1, -1]
        self.dbl = [False] * 4
        self.occ = [False] * 4
        self.spin = -1
        self.open_mask = 0
        self.open_arms = ()
        self._stack: list[_Snapshot] = []
        self.placed = self.bpos = self.passes = 0
        self.to_move = leader
        self.drew = self.over = False
        self.capicu_ok = (False, -1, -1)
        self.log = []  # (seat, move, tile drawn or turned up)
        self.end = self.result = self.first_to_target = self.given_tokens = None
        self.inplay = [0] * nsides
        self.totals = tuple(totals) if totals is not None else (0,) * nsides
        self.bonus = bonus
        self.starter_first = None
        if v.starter:
            t = self.boneyard[0]
            first = HI[t] if starter_first is None else starter_first
            self.starter_first = first
            self.bpos = 1
            self._lay_first(t, 0 if first == HI[t] else 1)
            self.placed = 1

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
        """A random deal; the leader follows the rules (by lot where the rules leave it to chance)."""
        if cls is Hand and v.layout != "line":
            return LAYOUT_HANDS[v.layout].deal(
                v, rng, number=number, prev=prev, prev_leader=prev_leader, totals=totals, bonus=bonus
            )
        n = v.players
        while True:
            deal, boneyard, chance_leader = deal_attempt(v, rng)
            masks = list(map(mask_of, deal))
            leader, must, how = rule_leader(v, masks, prev, prev_leader)
            if how == "redeal":
                continue
            if leader is None:
                if how == "choice":
                    leader = rng.choice(v.sides[prev.winner])  # type: ignore[union-attr, index]
                elif v.deal_from_leader:
                    leader = chance_leader
                else:  # by lot: the rules' chance, or no double dealt
                    leader = rng.randrange(n)
            return cls(
                v,
                deal,
                boneyard,
                leader,
                must_lead=must,
                number=number,
                totals=totals,
                bonus=bonus,
                _masks=masks,
            )

    def copy(self) -> Self:
        """An independent copy (for search): the lists a move changes are copied, the rest
        shared; a layout names its own lists in ``_lists``."""
        cls = type(self)
        h = object.__new__(cls)
        for name in cls._all_slots:
            setattr(h, name, getattr(self, name))
        for name in cls._lists:
            setattr(h, name, getattr(self, name)[:])
        h.masks = self.masks[:]
        if self.rows is not None:
            h.rows = [r[:] for r in self.rows]
            h.face_up = self.face_up[:]  # type: ignore[index]
        h.pip = self.pip[:]
        h.dbl = self.dbl[:]
        h.occ = self.occ[:]
        h.inplay = self.inplay[:]
        h.log = self.log[:]
        h._stack = self._stack[:]
        h.given_tokens = None if self.given_tokens is None else self.given_tokens[:]
        return h

    def fresh(self) -> Hand:
        """The same hand before any move."""
        return Hand(
            self.v,
            self.deal_rows,
            self.boneyard,
            self.leader,
            must_lead=self.must_lead,
            number=self.number,
            totals=self.totals,
            bonus=self.bonus,
            starter_first=self.starter_first,
        )

    def push(self, m: int) -> None:
        """Apply move m and remember the state before it, so that ``pop()`` restores it at
        once (for search; ``apply`` keeps no snapshot)."""
        self._stack.append(self._snapshot(self))
        self.apply(m)

    def pop(self) -> int:
        """Take back the last move; returns it.  Restores the snapshot of ``push()`` when there
        is one, otherwise replays the hand from its deal (``undo``)."""
        if not self._stack:
            return self.undo()
        s = self._stack.pop()
        s.restore(self)
        n = s.log_len
        m = self.log[n][1]
        del self.log[n:]
        if self.given_tokens is not None:
            del self.given_tokens[n:]
        return m

    def undo(self) -> int:
        """Take back the last move by replaying the hand from its deal; returns the move."""
        if not self.log:
            raise IllegalMoveError("nothing to undo in this hand")
        moves = [m for _, m, _ in self.log]
        last = moves.pop()
        tokens = self.given_tokens[:-1] if self.given_tokens else None
        h = self.fresh()
        for m in moves:
            h.apply(m)
        for name in type(self)._all_slots:
            setattr(self, name, getattr(h, name))
        self.given_tokens = tokens
        return last

    # ------------------------------------------------------------------ queries
    def drawable(self) -> int:
        d = self.draw_end - self.bpos
        return d if d > 0 else 0

    def held(self, seat: int) -> list[int]:
        """Tiles a seat holds (blind games: its row, front first).  Full information."""
        if self.rows is not None:
            return list(self.rows[seat])
        return bits(self.masks[seat])

    def turned_up(self) -> int | None:
        """Blind games: the tile the player to move turns up now."""
        if self.rows is None or self.over:
            return None
        return self.rows[self.to_move][0]

    def fits(self, t: int) -> list[int]:
        """Arms on which tile t can be placed now (not for the first tile)."""
        pip = self.pip
        base = t * 13
        return [a for a in self.open_arms if OTHER[base + pip[a]] >= 0]

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        seat = self.to_move
        if self._plain and self.placed:
            hand = self.masks[seat]
            if hand & self.open_mask:
                pip = self.pip
                k = (hand & PIP_MASK[pip[0]]) << 5
                left = _ARM_MOVES.get(k)
                if left is None:
                    left = _arm_moves(k)
                k = ((hand & PIP_MASK[pip[1]]) << 5) | 1
                right = _ARM_MOVES.get(k)
                if right is None:
                    right = _arm_moves(k)
                return [*left, *right]
            return [DRAW] if self.bpos < self.draw_end else [PASS]
        if self._turn == _BLIND:
            t = self.rows[seat][0]  # type: ignore[index]
            if self.placed == 0:
                return [move(t, 0)]
            return [move(t, a) for a in self.fits(t)] or [PASS]
        hand = self.masks[seat]
        if self.placed == 0:
            if self.must_lead >= 0:
                return [move(self.must_lead, 0)]
            return [move(t, 0) for t in bits(hand)]
        out: list[int] = []
        if hand & self.open_mask:
            pip = self.pip
            for a in self.open_arms:
                k = ((hand & PIP_MASK[pip[a]]) << 5) | a
                ms = _ARM_MOVES.get(k)
                if ms is None:
                    ms = _arm_moves(k)
                out += ms
        if self._turn == _MUST:
            if not out:
                out.append(DRAW if self.bpos < self.draw_end else PASS)
        else:
            if self.bpos < self.draw_end and not self.drew:
                out.append(DRAW)
            out.append(PASS)
        return out

    def ends(self) -> dict[str, int]:
        """Open ends by arm name, e.g. {"L": 3, "R": 5}."""
        return {ARM_NAMES[a]: self.pip[a] for a in self.open_arms}

    def count(self) -> int:
        """The ends' count (the fives games): occupied arms' exposed values, doubles twice,
        plus the spinner twice while fewer than two of its sides hold a tile.  A double led
        alone on a line shows both its halves once: it counts its pips, not twice them."""
        pip, dbl = self.pip, self.dbl
        if self.placed == 1 and dbl[L] and dbl[R] and self.spin < 0:
            return 2 * pip[L]
        total = 0
        occupied = 0
        for a in (L, R, U, D):
            if self.occ[a]:
                occupied += 1
                total += self.pip[a] * (2 if self.dbl[a] else 1)
        if self.spin >= 0 and occupied < 2:
            total += 2 * self.spin
        return total

    def count_points(self) -> int:
        """What the count scores now under the variant's in-play rule
        (``scoring.in_play_points``): Cinque's and All Fives' multiples of five, Fives and
        Threes' fives and threes; 0 where nothing is scored during play."""
        return in_play_points(self.v.in_play, self.count())

    # ------------------------------------------------------------------ applying moves
    def apply(self, m: int) -> None:
        """Apply a legal move (unchecked: use ``check`` or ``Game.apply`` for untrusted input)."""
        seat = self.to_move
        if m < PASS and self._plain and self.placed:
            # ---- a tile on a plain line (the hot path of every rollout)
            t = m >> 5
            hands = self.masks
            hand = hands[seat] ^ BIT[t]
            hands[seat] = hand
            in_hands = self.in_hands ^ BIT[t]
            self.in_hands = in_hands
            self.log.append((seat, m, t))
            pip = self.pip
            code = m & 31
            if not hand:
                pl, pr = pip[0], pip[1]
                self.capicu_ok = (OTHER[t * 13 + pl] >= 0 and OTHER[t * 13 + pr] >= 0, pl, pr)
            pip[code] = OTHER[t * 13 + pip[code]]
            pm = self._pm
            open_mask = pm[pip[0]] | pm[pip[1]]
            self.open_mask = open_mask
            self.placed += 1
            if not hand:
                self._finish("domino", seat)
            elif self.bpos >= self.draw_end and not (in_hands & open_mask):
                self._finish("blocked", None)
            else:
                self.to_move = self._next[seat]
        elif m < PASS:
            # ---- place a tile (any variant)
            t = m >> 5
            code = m & 31
            bit = BIT[t]
            if self.rows is not None:
                self.rows[seat].pop(0)
                self.face_up[seat] &= ~bit  # type: ignore[index]
            hand = self.masks[seat] ^ bit
            self.masks[seat] = hand
            self.in_hands ^= bit
            self.log.append((seat, m, t))
            self.passes = 0
            self.drew = False
            if self.placed == 0:
                self._lay_first(t, code)
            else:
                if not hand:
                    # capicú: before the last tile, it fitted both line ends
                    pl, pr = self.pip[0], self.pip[1]
                    self.capicu_ok = (OTHER[t * 13 + pl] >= 0 and OTHER[t * 13 + pr] >= 0, pl, pr)
                self._lay_on(t, code)
            self.placed += 1
            won = self._fives and self._score_count(seat)
            if not hand:
                self._finish("domino", seat)
            elif self.bpos >= self.draw_end and not (self.in_hands & self.open_mask):
                self._finish("blocked", None)
            elif won:  # target_rule "immediate": the game is won, the hand is cut short
                self._finish("unfinished", None)
            elif not self._continue:
                self.to_move = self._next[seat]
        elif m == PASS:
            t = -1
            if self._turn == _BLIND:
                row = self.rows[seat]  # type: ignore[index]
                t = row.pop(0)
                row.append(t)
                if self.v.face_up_doubles and IS_DOUBLE[t]:
                    self.face_up[seat] |= BIT[t]  # type: ignore[index]
            self.log.append((seat, m, t))
            self.passes += 1
            self.drew = False
            if self.v.pass_cycle_ends_hand and self.passes >= self.n:
                self._finish("blocked", None)
                return
            self.to_move = (seat + 1) % self.n
            if self._pass_bonus and self.placed:
                # pase redondo: every other player passed after the play of the seat to move
                pts = pass_round_points(self.v, self.passes)
                if pts and self._credit(self._side[self.to_move], pts):
                    self._finish("unfinished", None)
        else:
            t = self.boneyard[self.bpos]
            self.bpos += 1
            self.masks[seat] |= BIT[t]
            self.in_hands |= BIT[t]
            self.log.append((seat, m, t))
            self.passes = 0
            if self._turn == _VOLUNTARY:
                if self.v.draw_ends_turn:
                    self.to_move = (seat + 1) % self.n
                else:
                    self.drew = True
            if self.bpos >= self.draw_end and not (self.in_hands & self.open_mask):
                self._finish("blocked", None)

    def lay(self, m: int, seat: int = -1) -> None:
        """Lay the tile of play ``m`` on the table and nothing else: the open ends, the
        spinner and the count change; hands, turns and scores do not.  This is the table's
        geometry on its own, for reading a public history (``knowledge``) on a hand that
        holds no tiles; ``apply`` uses the same steps."""
        t, code = tile_of(m), arm_of(m)
        if self.placed == 0:
            self._lay_first(t, code)
        else:
            self._lay_on(t, code)
        self.placed += 1

    def note_pass(self, seat: int) -> None:
        """The table's geometry of a pass by ``seat`` (nothing on a line; a train layout puts
        a marker on the seat's train)."""

    def arms_for(self, seat: int) -> tuple[int, ...]:
        """The arms ``seat`` may play on now (on a line: every open arm)."""
        return self.open_arms

    def _lay_on(self, t: int, code: int) -> None:
        """Place tile t on arm ``code`` (not the first tile)."""
        pip = self.pip
        if not self._spinner:
            pip[code] = OTHER[t * 13 + pip[code]]
            pm = self._pm
            self.open_mask = pm[pip[0]] | pm[pip[1]]
            if self._fives:  # the count reads a double at a line's end twice
                self.dbl[code] = IS_DOUBLE[t]
        else:
            self._spin_place(t, code, pip[code])

    def _lay_first(self, t: int, code: int) -> None:
        a = HI[t] if code == 0 else LO[t]
        b = LO[t] if code == 0 else HI[t]
        pip, occ, dbl = self.pip, self.occ, self.dbl
        if self._spinner and a == b:
            self.spin = a
            pip[L] = pip[R] = a
            if self._any_order:
                pip[U] = pip[D] = a
        else:
            pip[L] = a
            pip[R] = b
            occ[L] = occ[R] = True
            dbl[L] = dbl[R] = a == b
        self._reopen()

    def _reopen(self) -> None:
        pip = self.pip
        pm = self._pm
        if pip[U] < 0:
            self.open_arms = (L, R)
            self.open_mask = pm[pip[L]] | pm[pip[R]]
        else:
            self.open_arms = (L, R, U, D)
            self.open_mask = pm[pip[L]] | pm[pip[R]] | pm[pip[U]] | pm[pip[D]]

    def _spin_place(self, t: int, code: int, p: int) -> None:
        """Place tile t on arm ``code`` (open pip p) in a game with a spinner."""
        pip = self.pip
        if self.spin < 0 and IS_DOUBLE[t]:
            # the first double is the spinner: the side it was played on opens
            self.spin = p
            self.occ[code] = False
            self.dbl[code] = False
            if self._any_order:
                pip[U] = pip[D] = p
        else:
            pip[code] = OTHER[t * 13 + p]
            self.dbl[code] = IS_DOUBLE[t]
            self.occ[code] = True
            if self.spin >= 0 and pip[U] < 0 and self.occ[L] and self.occ[R]:
                pip[U] = pip[D] = self.spin
        self._reopen()

    def _score_count(self, seat: int) -> bool:
        """Score the ends' count for the mover's side; True if that wins the game at once
        (``target_rule="immediate"``)."""
        c = self.count_points()
        return bool(c) and self._credit(self._side[seat], c)

    def _credit(self, side: int, points: int) -> bool:
        """Score ``points`` during play for ``side``; True if that wins the game at once
        (``target_rule="immediate"``)."""
        self.inplay[side] += points
        v = self.v
        if (
            v.target is not None
            and self.first_to_target is None
            and self.totals[side] + self.inplay[side] >= v.target
        ):
            self.first_to_target = side
            return v.target_rule == "immediate"
        return False

    # ------------------------------------------------------------------ scoring
    def pips_left(self) -> list[int]:
        return [mask_pips(h) for h in self.masks]

    def _finish(self, end: HandEnd, dominoer: int | None) -> None:
        self.over = True
        self.end = end
        self.result = score_hand(self, end, dominoer)
        res = self.result
        if self.v.target is not None and self.first_to_target is None and res.winner is not None:
            side = res.winner
            if self.totals[side] + res.points[side] >= self.v.target:
                self.first_to_target = side

    def unfinished_result(self) -> HandResult:
        """What an unfinished hand has scored so far."""
        pips = tuple(self.pips_left())
        return HandResult(
            "unfinished", None, tuple(self.inplay), pips, breakdown={"in_play": list(self.inplay)}
        )

    def current_result(self) -> HandResult:
        return self.result if self.result is not None else self.unfinished_result()

    # ------------------------------------------------------------------ move checking
    def check(self, m: int) -> int:
        """Return the canonical form of move m if legal here, else raise IllegalMoveError."""
        if self.over:
            raise IllegalMoveError(f"the hand is already over ({self.end})")
        legal = self.legal_moves()
        if m in legal:
            return m
        if 0 <= m < PASS and self.placed == 0 and arm_of(m) == 1 and (m & ~ARM_MASK) in legal:
            return m  # the first tile laid the other way round
        raise IllegalMoveError(self.why_illegal(m))

    def mirror_key(self, m: int) -> tuple[int, ...]:
        """A key equal for two moves exactly when they are one decision: they lead to the same
        table up to its mirror image.  L and R are interchangeable, and so are U and D: the
        rules and the count read only each arm's open end, whether it ends in a double and
        whether it holds a tile.  So the first tile laid either way round is one decision
        (``legal_moves`` lists one way, a record may play the other), and so is a tile that
        fits two arms showing the same end.  ``m`` must be legal (``check``)."""
        if m >= PASS:
            return (m,)
        self.push(m)
        table = self.table_key()
        self.pop()
        return (tile_of(m), *table)

    def table_key(self) -> tuple[int, ...]:
        """The table up to its mirror image: per arm its open end, whether it ends in a double
        and whether it holds a tile (all the rules and the count read), L and R in either
        order, U and D in either order."""
        pip, dbl, occ = self.pip, self.dbl, self.occ
        left = (pip[0] + 1) << 2 | dbl[0] << 1 | occ[0]
        right = (pip[1] + 1) << 2 | dbl[1] << 1 | occ[1]
        up = (pip[2] + 1) << 2 | dbl[2] << 1 | occ[2]
        down = (pip[3] + 1) << 2 | dbl[3] << 1 | occ[3]
        # (each pair in order, as sorted() would: the search calls this at every position)
        return ((left, right) if left <= right else (right, left)) + (
            (up, down) if up <= down else (down, up)
        )

    def choices(self) -> list[int]:
        """The legal moves, one per decision (``mirror_key``): a move whose mirror image is
        listed before it is left out.  More than one is a choice."""
        seen: set[tuple[int, ...]] = set()
        out = []
        for m in self.legal_moves():
            k = self.mirror_key(m)
            if k not in seen:
                seen.add(k)
                out.append(m)
        return out

    def why_illegal(self, m: int) -> str:
        seat = self.to_move
        v = self.v
        if m == PASS:
            if self._turn == _BLIND:
                return f"seat {seat} turns up {NAME[self.rows[seat][0]]}, which must be played"  # type: ignore[index]
            if self.placed == 0:
                return f"seat {seat} leads and must lay a tile, it cannot pass"
            playable = bits(self.masks[seat] & self.open_mask)
            if playable:
                return f"seat {seat} cannot pass: it holds {NAME[playable[0]]}, which fits"
            return f"seat {seat} cannot pass: it must draw from the boneyard"
        if m == DRAW:
            if self._turn == _BLIND or v.stock == 0:
                return f"there is no drawing in {v.name} with {v.players} players"
            if self.placed == 0:
                return f"seat {seat} leads and must lay a tile, it cannot draw"
            if self.drew:
                return f"seat {seat} has already drawn this turn"
            if self.bpos >= self.draw_end:
                return "no tile can be drawn: the boneyard is empty" + (
                    f" (its last {v.draw_reserve} tiles are never drawn)" if v.draw_reserve else ""
                )
            return f"seat {seat} cannot draw while holding a tile that fits"
        t, code = tile_of(m), arm_of(m)
        if self._turn == _BLIND:
            return f"seat {seat} turns up {NAME[self.rows[seat][0]]} next, not {NAME[t]}"  # type: ignore[index]
        if not self.masks[seat] & BIT[t]:
            return f"seat {seat} does not hold {NAME[t]}"
        if self.placed == 0:
            if self.must_lead >= 0:
                return f"the first tile of this hand must be {NAME[self.must_lead]}"
            return f"{NAME[t]} cannot lead here"
        if self.pip[code] < 0:
            return f"arm {ARM_NAMES[code]} is not open"
        return f"{NAME[t]} does not fit arm {ARM_NAMES[code]} (open end {self.pip[code]})"


Hand._all_slots = Hand.__slots__


def perft(h: Hand, depth: int) -> int:
    """Leaf count of the move tree from ``h`` to ``depth`` moves (or the hand's end): a
    regression measure of move generation, as chess engines use.  ``h`` is left unchanged."""
    if depth == 0 or h.over:
        return 1
    moves = h.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        h.push(m)
        total += perft(h, depth - 1)
        h.pop()
    return total
