"""The observation vector and the action mask, computed only from what a seat may know.

Two ways, equal element for element (tests/test_rl_obs.py): ``Encoder.encode(view)`` and
``Encoder.mask(view)`` from a seat's ``View`` (the plain definition), and
``Encoder.observe(observer(hand), seat)``, which the adapters use: it reads the hand's
``engine.view.Observer`` -- the censoring boundary every View is built from -- without
building a View, and updates the vector from what changed since the last call.

One encoder serves the PettingZoo, Gymnasium and OpenSpiel adapters.  The vector is float32
with a fixed length for a given player count ``n``; seats are *relative to the observer*
(relative seat ``r`` is absolute seat ``(seat + r) % n``, so ``r = 0`` is the observer and
``r = 1`` plays next), and sides likewise start with the observer's own side.

Sizes are for the double-six set (``T = 28`` tiles, ``P = 7`` pips); a game of another set
sizes every tile field by its tile count ``T`` (55, 91) and every pip field by its pip count
``P`` (10, 13): length ``4T + 5P + 7 + n(2T + P + 5)``.

=================  ==========  ===============================================================
field              size        meaning
=================  ==========  ===============================================================
``hand``           28          1 for each tile the observer holds (empty in blind games: rows
                               are face down, even to their owner)
``played``         28          1 for each tile on the table (the starter tile included)
``played_by``      n x 28      1 where relative seat r laid that tile
``ends``           4 x 7       open pip of arm L, R, U, D, one-hot (all 0: arm not open)
``double_ends``    4           arm L, R, U, D ends in a double (it counts twice)
``spinner``        7           the spinner's pip, one-hot (all 0: no spinner)
``counts``         n           tiles held by relative seat r
``boneyard``       2           tiles that may still be drawn; tiles not dealt and not drawn
``voids``          n x 7       relative seat r is known to hold no tile with that pip: it
                               passed, or ended a run of draws, while that pip was open
                               (must-play games only: Draw, Block, Quinientos, Cinque); a new
                               run of draws resets them (``engine.knowledge`` computes them)
``turn``           n           relative seat to move, one-hot (all 0 when the hand is over)
``leader``         n           relative seat that led the hand, one-hot
``empty_table``    1           no tile laid yet (the next play leads)
``turned_up``      28          blind games: the tile the player to move has turned up
``peek``           28          Billitonnen: the next tile of the observer's own row, when it
                               may peek (it is information, not an action)
``face_up``        n x 28      blind games: tiles lying face up in relative seat r's row
``totals``         n           points per relative side before this hand, / 100, capped at
                               100 (sides past the number of sides stay 0)
``hand_points``    n           points per relative side scored so far in this hand, / 100
=================  ==========  ===============================================================

Length: ``154 + 68 n`` (290 for 2 players, 426 for 4) in the double-six set; Cuban (double-nine,
4 players) 777.

The action mask is int8 over the game's action ids (``rl/actions.py``): ``tile * 4 + arm``
places a tile on arm L=0, R=1, U=2, D=3, then pass and draw: 114 ids in the double-six set
(pass 112, draw 113), 222 in double-nine, 366 in double-twelve.  For the first tile of
a hand the low two bits are its orientation instead of an arm (0: high pip facing L); the mask
offers orientation 0 only, as the two orientations lead to the same game.
"""

from __future__ import annotations

import numpy as np

from ..engine.knowledge import PublicKnowledge, event_move
from ..engine.tiles import ARM_INDEX, SETS
from ..engine.variant import Variant
from ..engine.view import Observer, View
from .actions import Actions, actions

#: the double-six set's action count (the seven games' space; ``actions(variant).n`` in general)
N_ACTIONS = Actions(28).n  # 114
#: score fields are points / 100, clipped here (10,000 points)
SCORE_CAP = 100.0

#: (name, size for n players)
#: (name, size: T tiles, P pips, n players)
FIELDS: tuple[tuple[str, str], ...] = (
    ("hand", "T"),
    ("played", "T"),
    ("played_by", "n*T"),
    ("ends", "4*P"),
    ("double_ends", "4"),
    ("spinner", "P"),
    ("counts", "n"),
    ("boneyard", "2"),
    ("voids", "n*P"),
    ("turn", "n"),
    ("leader", "n"),
    ("empty_table", "1"),
    ("turned_up", "T"),
    ("peek", "T"),
    ("face_up", "n*T"),
    ("totals", "n"),
    ("hand_points", "n"),
)


def field_sizes(n: int, pips: int = 6) -> dict[str, int]:
    """Each field's size for ``n`` players and the double-``pips`` set."""
    values = {"n": n, "T": SETS[pips].n_tiles, "P": pips + 1}
    out: dict[str, int] = {}
    for name, size in FIELDS:
        k = 1
        for part in size.split("*"):
            k *= values[part] if part in values else int(part)
        out[name] = k
    return out


def obs_size(n: int, pips: int = 6) -> int:
    return sum(field_sizes(n, pips).values())


class Encoder:
    """Observation vectors and action masks for one variant (the rules are public)."""

    def __init__(self, variant: Variant):
        self.variant = variant
        n = self.n = variant.players
        #: the set: its tile count T and pip count P; the action ids
        T = self.T = variant.n_tiles
        self.P = variant.pips + 1
        self.actions = actions(variant)
        self._chunks = (T + 13) // 14  # 14-tile chunks of a mask (_SPREAD14)
        sizes = field_sizes(n, variant.pips)
        self.offsets: dict[str, int] = {}
        pos = 0
        for name, _ in FIELDS:
            self.offsets[name] = pos
            pos += sizes[name]
        self.size = pos
        self.sizes = sizes
        self.nsides = len(variant.sides)
        self.seat_sides = variant.seat_sides
        self.voids_apply = variant.turn == "must_play"
        high = np.ones(pos, np.float32)
        for name in ("counts", "boneyard"):
            at = self.offsets[name]
            high[at : at + sizes[name]] = T
        for name in ("totals", "hand_points"):
            at = self.offsets[name]
            high[at : at + sizes[name]] = SCORE_CAP
        self.low = np.zeros(pos, np.float32)
        self._seen: dict[int, _HistoryState] = {}
        # the fast path (observe): state per hand observer and per seat
        self._pub: _PublicState | None = None
        o = self.offsets
        self._o_hand, self._o_played, self._o_by = o["hand"], o["played"], o["played_by"]
        self._o_ends, self._o_dbl, self._o_spinner = o["ends"], o["double_ends"], o["spinner"]
        self._o_counts, self._o_bone, self._o_voids = o["counts"], o["boneyard"], o["voids"]
        self._o_turn, self._o_empty, self._o_leader = o["turn"], o["empty_table"], o["leader"]
        self._o_totals, self._o_points = o["totals"], o["hand_points"]
        #: _rel[seat][s]: seat s relative to seat
        self._rel = [tuple((s - seat) % n for s in range(n)) for seat in range(n)]
        #: _one_hot[r]: n bytes, 1 at relative seat r (the last: all 0)
        self._one_hot = [bytes(1 if k == r else 0 for k in range(n)) for r in range(n)]
        self._one_hot.append(bytes(n))
        #: what follows empty_table, all 0: turned_up, peek, face_up, totals, hand_points
        self.blank_tail = bytes(pos - o["turned_up"])
        _spread_table()
        self._mask_bytes = bytearray(self.actions.n)
        self._mask_view = np.frombuffer(self._mask_bytes, np.int8)
        #: _side_order[seat]: the sides in relative order (own side first)
        ns = len(variant.sides)
        self._side_order = [
            tuple((variant.seat_sides[seat] + k) % ns for k in range(ns)) for seat in range(n)
        ]
        self.high = high

    # ------------------------------------------------------------------ spaces
    def observation_box(self):
        from gymnasium import spaces

        return spaces.Box(self.low, self.high, dtype=np.float32)

    def mask_box(self):
        from gymnasium import spaces

        return spaces.Box(0, 1, (self.actions.n,), dtype=np.int8)

    # ------------------------------------------------------------------ encoding
    def mask(self, view: View) -> np.ndarray:
        m = np.zeros(self.actions.n, np.int8)
        if view.legal:
            m[[self.actions.of(a) for a in view.legal]] = 1
        return m

    def encode(self, view: View) -> np.ndarray:
        """The observation vector of ``view`` (a new float32 array)."""
        n = self.n
        o = self.offsets
        seat = view.seat
        layout = view.layout
        x = np.zeros(self.size, np.float32)
        # ---- the history: tiles played by whom; the ends at each draw or pass (voids).
        # These fields are a function of (seat, first tile, history); the reading of the
        # previous history of the same seat is kept when the new one extends it.
        hist = view.history
        st = self._seen.get(seat)
        if st is not None:
            k = st.k
            if st.first != (layout.first, layout.first_left) or len(hist) < k or hist[:k] != st.hist:
                st = None
        if st is None:
            v = self.variant
            st = self._seen[seat] = _HistoryState(
                (layout.first, layout.first_left),
                PublicKnowledge(
                    v, layout.first if v.starter else None, layout.first_left if v.starter else None
                ),
            )
        if len(hist) > st.k:
            self._read(st, hist, seat, layout)
        ones = st.ones[:]
        if self.voids_apply:
            o_v = o["voids"]
            voids = st.know.voids
            for r in range(n):
                pips = voids[(seat + r) % n]
                while pips:
                    low = pips & -pips
                    ones.append(o_v + r * self.P + low.bit_length() - 1)
                    pips ^= low
        o_hand = o["hand"]
        ones += [o_hand + t for t in view.hand]
        add = ones.append
        o_played = o["played"]
        # ---- the table
        if layout.first is not None:  # (a starter tile is in no event)
            add(o_played + layout.first)
        o_ends = o["ends"]
        for arm, pip in layout.ends.items():
            add(o_ends + ARM_INDEX[arm] * self.P + pip)
        o_dbl = o["double_ends"]
        for arm in layout.double_ends:
            add(o_dbl + ARM_INDEX[arm])
        if layout.spinner is not None:
            add(o["spinner"] + layout.spinner)
        if layout.first is None:
            add(o["empty_table"])
        # ---- seats
        if view.to_move is not None:
            add(o["turn"] + (view.to_move - seat) % n)
        add(o["leader"] + (view.leader - seat) % n)
        if view.turned_up is not None:
            add(o["turned_up"] + view.turned_up)
        if view.peek is not None:
            add(o["peek"] + view.peek)
        if view.blind:
            o_f = o["face_up"]
            for s, row in enumerate(view.face_up):
                base = o_f + ((s - seat) % n) * self.T
                for _pos, t in row:
                    add(base + t)
        x[ones] = 1.0
        # ---- numbers
        oc = o["counts"]
        counts = view.tile_counts
        for r in range(n):
            x[oc + r] = counts[(seat + r) % n]
        x[o["boneyard"]] = view.drawable
        x[o["boneyard"] + 1] = view.boneyard_size
        ns = self.nsides
        own = self.seat_sides[seat]
        ot, oh = o["totals"], o["hand_points"]
        totals, points = view.totals, view.hand_points
        for k in range(ns):
            side = (own + k) % ns
            x[ot + k] = min(totals[side] / 100.0, SCORE_CAP)
            x[oh + k] = min(points[side] / 100.0, SCORE_CAP)
        return x

    def _read(self, st: _HistoryState, hist, seat: int, layout) -> None:
        """Read the events of ``hist`` past ``st.k`` into ``st``."""
        n = self.n
        o_by = self.offsets["played_by"]
        o_played = self.offsets["played"]
        add = st.ones.append
        know = st.know
        for i in range(st.k, len(hist)):
            e = hist[i]
            s = e.seat
            if e.action == "play":
                t = e.tile
                add(o_by + ((s - seat) % n) * self.T + t)
                add(o_played + t)
            know.add(s, event_move(e, layout))
        st.k = len(hist)
        st.hist = hist

    # ------------------------------------------------------------------ the fast path
    def observe(self, ob: Observer, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """The observation vector and the action mask of ``seat``, read from the hand's
        ``Observer`` (``engine.view.observer(hand)``) without building a View: equal to
        ``encode(view)`` and ``mask(view)`` for ``view = hand_view(hand, seat)``.

        The public facts are read once per change of the hand into byte strings per
        absolute seat (tiles played, voids) or for everyone (ends, boneyard...); a seat's
        vector joins them in its relative order with its own tiles.  Returns new arrays."""
        pub = self._pub
        if pub is None or pub.ob is not ob:
            pub = self._pub = _PublicState(ob, self.n, self.blank_tail, self.T, self.P)
        hist = ob.public_log()
        if len(hist) != pub.k or not pub.read:
            self._update_public(pub, hist, ob)
        own = ob.own_mask(seat)
        end = seat + self.n
        one = self._one_hot
        rel = self._rel[seat]
        tail = self._blind_tail(ob, seat, rel) if pub.blind else pub.tail
        # (by_bytes2, void_bytes2, counts2: per absolute seat, twice over: a slice from the
        # seat on lists them in relative order)
        x = np.frombuffer(
            b"".join(
                (
                    self._spread(own),
                    pub.played_bytes,
                    *pub.by_bytes2[seat:end],
                    pub.table_bytes,
                    bytes(pub.counts2[seat:end]),
                    pub.bone_bytes,
                    *pub.void_bytes2[seat:end],
                    one[rel[pub.to_move]] if pub.to_move is not None else one[-1],
                    one[rel[pub.leader]],
                    pub.empty_byte,
                    tail,
                )
            ),
            np.uint8,
        ).astype(np.float32)
        scores = pub.scores
        if scores is not None:
            totals, points = scores
            ot, oh = self._o_totals, self._o_points
            for k, side in enumerate(self._side_order[seat]):
                x[ot + k] = totals[side]
                x[oh + k] = points[side]
        legal = ob.legal(seat)
        mb = self._mask_bytes
        of = self.actions.of  # engine moves -> the game's dense action ids
        legal = [of(a) for a in legal]
        for a in legal:
            mb[a] = 1
        mask = self._mask_view.copy()
        for a in legal:
            mb[a] = 0
        return x, mask

    def _spread(self, m: int) -> bytes:
        """T bytes, byte t = 1 where tile t is in mask m."""
        if self._chunks == 2:  # double-six: 28 tiles, two chunks exactly
            return _SPREAD14[m & 16383] + _SPREAD14[m >> 14]
        return b"".join(_SPREAD14[m >> (14 * k) & 16383] for k in range(self._chunks))[: self.T]

    def _blind_tail(self, ob: Observer, seat: int, rel) -> bytes:
        """Blind games: turned_up, peek and face_up (relative), then the zeroed scores."""
        n = self.n
        tail = bytearray(len(self.blank_tail))
        turned = ob.turned_up()
        if turned is not None:
            tail[turned] = 1
        peek = ob.peek(seat)
        if peek is not None:
            tail[self.T + peek] = 1
        for s, row in enumerate(ob.face_up()):
            base = 2 * self.T + rel[s] * self.T
            for _pos, t in row:
                tail[base + t] = 1
        del n
        return bytes(tail)

    def _update_public(self, pub: _PublicState, hist, ob: Observer) -> None:
        """Read the spectator's log past ``pub.k`` (tiles played by whom; voids: pips a seat
        is known to lack) and the facts of the moment, as byte strings."""
        know = ob.knowledge()
        by, by_bytes = pub.by, pub.by_bytes
        if pub.k != len(hist):
            for s, b in enumerate(know.played_by):
                if b != by[s]:
                    by[s] = b
                    by_bytes[s] = self._spread(b)
        pub.k = len(hist)
        pub.read = True
        first = ob.first
        played = know.played
        if played != pub.played or not pub.played_bytes:
            pub.played = played
            pub.played_bytes = self._spread(played)
        pub.by_bytes2 = by_bytes * 2
        if know.voids != pub.voids:
            pub.voids = voids = know.voids[:]
            pub.void_bytes = vb = [_SPREAD14[m][: self.P] for m in voids]
            pub.void_bytes2 = vb * 2
        # ---- the facts of the moment
        to_move, end_pips, dbl_arms, counts, bone, bone_size, totals, points = ob.public_facts()
        key = (ob.placed, len(end_pips))  # the ends change only when a tile is laid
        if key != pub.table_key:
            P = self.P
            table = bytearray(4 * P + 4 + P)  # ends, double_ends, spinner
            for a, p in end_pips:
                table[a * P + p] = 1
            for a in dbl_arms:
                table[4 * P + a] = 1
            if ob.spin >= 0:
                table[4 * P + 4 + ob.spin] = 1
            pub.table_bytes = bytes(table)
            pub.table_key = key
            pub.empty_byte = b"\x01" if first is None else b"\x00"
        pub.to_move = to_move
        pub.counts2 = counts * 2
        if bone != pub.bone or bone_size != pub.bone_size or not pub.bone_bytes:
            pub.bone, pub.bone_size = bone, bone_size
            pub.bone_bytes = bytes((bone, bone_size))
        if totals != pub.totals or points != pub.points:
            pub.totals, pub.points = totals, points
            if any(totals) or any(points):
                pub.scores = (
                    [min(t / 100.0, SCORE_CAP) for t in totals],
                    [min(p / 100.0, SCORE_CAP) for p in points],
                )
            else:
                pub.scores = None

    def describe(self, x: np.ndarray) -> dict[str, np.ndarray]:
        """The named fields of an observation vector (views into it)."""
        return {name: x[self.offsets[name] : self.offsets[name] + size] for name, size in self.sizes.items()}


class _HistoryState:
    """What the encoder has read from one seat's history so far."""

    __slots__ = ("first", "hist", "k", "know", "ones")

    def __init__(self, first, know: PublicKnowledge) -> None:
        self.first = first
        self.k = 0
        self.hist: tuple = ()
        self.ones: list[int] = []  # played and played_by indices
        self.know = know  # the public knowledge of the history read


class _PublicState:
    """The fast path's reading of one hand's public facts, for every seat."""

    __slots__ = (
        "ob",
        "k",
        "read",
        "played",
        "by",
        "voids",
        "played_bytes",
        "by_bytes",
        "by_bytes2",
        "void_bytes",
        "void_bytes2",
        "table_bytes",
        "table_key",
        "empty_byte",
        "to_move",
        "leader",
        "counts2",
        "bone",
        "bone_size",
        "bone_bytes",
        "totals",
        "points",
        "scores",
        "blind",
        "tail",
    )

    def __init__(self, ob: Observer, n: int, tail: bytes, n_tiles: int = 28, n_pips: int = 7) -> None:
        self.ob = ob
        self.k = 0  # public history events read
        self.read = False  # the facts of the moment read at least once
        self.played = 0  # tiles on the table
        self.by = [0] * n  # per (absolute) seat: tiles it played
        self.voids = [0] * n  # per (absolute) seat: pips it is known to lack
        self.played_bytes = b""
        self.by_bytes = [bytes(n_tiles)] * n
        self.by_bytes2 = self.by_bytes * 2
        self.void_bytes = [bytes(n_pips)] * n
        self.void_bytes2 = self.void_bytes * 2
        self.table_bytes = b""
        self.empty_byte = b""
        self.to_move: int | None = None
        self.leader = ob.leader()
        self.counts2: tuple[int, ...] = ()
        self.bone_bytes = b""
        self.bone = self.bone_size = -1
        self.table_key: tuple[int, int] | None = None
        self.totals: tuple[int, ...] | None = None
        self.points: tuple[int, ...] | None = None
        self.scores: tuple[list[float], list[float]] | None = None
        self.blind = ob.blind()
        self.tail = tail


#: _SPREAD14[m]: 14 bytes, byte i = bit i of m (filled on first use)
_SPREAD14: list[bytes] = []


def _spread_table() -> None:
    if not _SPREAD14:
        low = [bytes((m >> i) & 1 for i in range(7)) for m in range(128)]
        _SPREAD14.extend(low[m & 127] + low[m >> 7] for m in range(1 << 14))


__all__ = ["Encoder", "FIELDS", "field_sizes", "obs_size", "N_ACTIONS"]
