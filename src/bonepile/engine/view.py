"""What one seat may know: the censored state handed to bots, web clients and RL agents;
and what everybody at the table may know: the seat-less ``PublicView`` of a spectator.

A ``View`` is built from a hand by copying out only public facts and the seat's own tiles;
it holds no reference to the hand, so nothing reachable from a view leads to hidden tiles.
A ``PublicView`` holds the public facts alone: no tile of any hand before the hand is over
(every seat's tiles are revealed then, as they are to the seats), draws as counts.
"""

from __future__ import annotations

from .foot import FOOT_NAMES, HUB_ARMS
from .hand import Hand
from .knowledge import PublicKnowledge
from .tiles import ARM_NAMES, DRAW, HI, IS_DOUBLE, LO, OTHER, PASS, TRAIN_NAMES, arm_of, bits, tile_of
from .view_types import PUBLIC_FIELDS, Event, Layout, Placed, PublicView, View, public_of
from .vocab import HandEnd

#: the types of views are defined in view_types.py and read from here too
__all__ = [
    "PUBLIC_FIELDS",
    "arm_names",
    "Event",
    "Layout",
    "Observer",
    "Placed",
    "PublicView",
    "View",
    "build_layout",
    "hand_view",
    "observer",
    "public_of",
    "public_view",
]


def arm_names(view: View) -> tuple[str, ...] | str:
    """The names of the arms of the view's layout by arm code, as move tokens write them
    (``Hand.arm_names`` of the hand behind it): a line's L R U D, the trains' 1..8 and M, a
    chicken foot's arms and toes."""
    kind = view.layout.kind
    return TRAIN_NAMES if kind == "trains" else FOOT_NAMES if kind == "foot" else ARM_NAMES


def build_layout(
    first_move: tuple[int, int] | None,
    placements: list[tuple[int, int, int]],
    ends: dict[str, int],
    spinner_variant: bool,
    starter: tuple[int, int] | None = None,
) -> Layout:
    """Rebuild arm contents from the placements: (tile, arm, pip it attached to)."""
    arms: dict[str, list[Placed]] = {"L": [], "R": [], "U": [], "D": []}
    spinner = None
    spinner_at = None
    first = first_left = None
    if starter is not None:
        first, first_left = starter
    elif first_move is not None:
        first, first_left = first_move
    if first is not None and spinner_variant and IS_DOUBLE[first]:
        spinner, spinner_at = HI[first], ("C", 0)
    for t, arm, attached in placements:
        other = LO[t] if HI[t] == attached else HI[t]
        name = ARM_NAMES[arm]
        if spinner_variant and spinner is None and IS_DOUBLE[t]:
            spinner, spinner_at = attached, (name, len(arms[name]))
        arms[name].append(Placed(t, attached, other))
    double_ends = set()
    for name in ends:
        tiles = arms[name]
        if tiles:
            if IS_DOUBLE[tiles[-1].tile] and spinner_at != (name, len(tiles) - 1):
                double_ends.add(name)
        elif first is not None and IS_DOUBLE[first] and spinner is None and name in "LR":
            double_ends.add(name)
    return Layout(
        first,
        first_left,
        {k: tuple(v) for k, v in arms.items() if v},
        ends,
        frozenset(double_ends),
        spinner,
        spinner_at,
    )


class Observer:
    """What the seats of one hand may know, read incrementally from the hand's log.

    This is the censoring boundary: ``hand_view`` builds every ``View`` from an observer, and
    the RL encoder reads one directly (without building a View).  Public facts (the layout,
    the plays and passes, tile counts, the boneyard, scores) are shared by all seats; the
    queries that take a ``seat`` answer what that seat may know: its own tiles, its legal
    moves, its history (another seat's draw shows no tile).  Get one with ``observer(h)``:
    it reads the log entries added since the last call, and a new observer replaces it when
    the log no longer extends what it has read (``pop``, ``undo``; a copy has its own log).
    Treat what the queries return as read-only.
    """

    __slots__ = (
        "_h",
        "_log",
        "_done",
        "_last",
        "_raw",
        "_pub",
        "_pub_placed",
        "_hist",
        "_arms",
        "_cur",
        "_know",
        "spin",
        "_spin_arm",
        "_spin_idx",
        "placed",
        "first",
        "first_left",
    )

    def __init__(self, h: Hand) -> None:
        self._h = h
        self._log = h.log
        self._done = 0
        self._last: tuple[int, int, int] | None = None
        #: the log as a spectator sees it: (seat, move, tile) with every draw's tile -1
        self._raw: list[tuple[int, int, int]] = []
        #: the public history: one event per log entry, every draw hidden (built on demand)
        self._pub: list[Event] = []
        self._pub_placed = 0 if h.starter_first is None and h.v.layout == "line" else 1
        #: the history as each seat sees it (its own draws shown), extended on demand
        self._hist: list[list[Event]] = [[] for _ in range(h.v.players)]
        self._know: PublicKnowledge | None = None
        trains = h.v.layout == "trains"
        n_arms = len(h.pip)
        self._arms: list[list[Placed]] = [[] for _ in range(n_arms)]
        cur = self._cur = [-1] * n_arms
        #: the spinner's pip (-1: none yet), and where it lies: arm -1 for the centre
        self.spin = -1
        self._spin_arm = self._spin_idx = -1
        #: tiles laid (the starter tile included)
        self.placed = 0
        #: the first tile laid and its pip facing L (None before)
        self.first: int | None = None
        self.first_left: int | None = None
        if h.starter_first is not None:
            first = self.first = h.boneyard[0]
            left = self.first_left = h.starter_first
            cur[0] = left
            cur[1] = OTHER[first * 13 + left]
            if h.v.spinner and IS_DOUBLE[first]:
                self.spin = cur[2] = cur[3] = left
            self.placed = 1
        if trains:  # the hub is on the table before the first move; every train starts at it
            hub = h.hub  # type: ignore[attr-defined]
            for a in range(n_arms):
                cur[a] = HI[hub]
            self.placed = 1
        elif h.v.layout == "chicken_foot":  # the centre double's arms start at it
            for a in range(HUB_ARMS):
                cur[a] = HI[h.hub]  # type: ignore[attr-defined]
            self.placed = 1

    def _read(self) -> None:
        """Read the log entries added since the last reading: the spectator's log, the
        tiles on each arm."""
        log = self._log
        add = self._raw.append
        arms, cur = self._arms, self._cur
        spinner_variant = self._h.v.spinner
        placed = self.placed
        for i in range(self._done, len(log)):
            entry = log[i]
            s, m, _t = entry
            if m >= PASS:
                # a pass is public (blind games: with the tile passed); a draw is public
                # but not the tile drawn (``history`` shows it to the drawer)
                add(entry if m == PASS else _HIDDEN_DRAW[s])
                continue
            add(entry)
            tile, code = tile_of(m), arm_of(m)
            if placed == 0:
                self.first = tile
                self.first_left = pip = HI[tile] if code == 0 else LO[tile]
                cur[0] = pip
                cur[1] = OTHER[tile * 13 + pip]
                if spinner_variant and IS_DOUBLE[tile]:
                    self.spin = cur[2] = cur[3] = pip
            else:
                p = cur[code]
                if p < 0:  # a chicken foot's toe: it starts at the pip of its double
                    par = self._h.parent[code]  # type: ignore[attr-defined]
                    p = arms[par >> 8][par & 255].outer
                arm = arms[code]
                if spinner_variant and self.spin < 0 and IS_DOUBLE[tile]:
                    self.spin = cur[2] = cur[3] = p
                    self._spin_arm, self._spin_idx = code, len(arm)
                cur[code] = other = OTHER[tile * 13 + p]
                pkey = tile * 13 + p
                pl = _PLACED.get(pkey)
                if pl is None:
                    pl = _PLACED[pkey] = Placed(tile, p, other)
                arm.append(pl)
            placed += 1
        self.placed = placed
        self._done = len(log)
        self._last = log[-1] if log else None

    def public_log(self) -> list[tuple[int, int, int]]:
        """The log as a spectator sees it, for encoders: (seat, move, tile) per entry, the
        tile -1 for every draw (and for a pass outside blind games)."""
        return self._raw

    def public_history(self) -> list[Event]:
        """The history as a spectator sees it: every draw hides its tile."""
        pub = self._pub
        raw = self._raw
        if len(pub) < len(raw):
            events = _EVENTS
            trains = self._h.v.layout == "trains"
            foot = self._h.v.layout == "chicken_foot"
            add = pub.append
            placed = self._pub_placed
            for i in range(len(pub), len(raw)):
                s, m, t = raw[i]
                if m >= PASS:
                    ekey = (s << 19) | (m << 7) | (t + 3)  # _ekey(s, m, t)
                    e = events.get(ekey)
                    if e is None:
                        e = events[ekey] = Event(s, "pass" if m == PASS else "draw", t if t >= 0 else None)
                elif trains:  # key -4: a train's arm names
                    ekey = (s << 19) | (m << 7) | 2
                    e = events.get(ekey)
                    if e is None:
                        e = events[ekey] = Event(s, "play", tile_of(m), TRAIN_NAMES[arm_of(m)])
                elif foot:  # key -5: a chicken foot's arm names
                    ekey = (s << 19) | (m << 7) | 3
                    e = events.get(ekey)
                    if e is None:
                        e = events[ekey] = Event(s, "play", tile_of(m), FOOT_NAMES[arm_of(m)])
                else:
                    ekey = (s << 19) | (m << 7) | (1 if placed == 0 else 0)  # -2 / -3
                    e = events.get(ekey)
                    if e is None:
                        e = events[ekey] = Event(
                            s, "play", tile_of(m), None if placed == 0 else ARM_NAMES[arm_of(m)]
                        )
                    placed += 1
                add(e)
            self._pub_placed = placed
        return pub

    def knowledge(self) -> PublicKnowledge:
        """The hand's public knowledge (open ends before each event, voids, points per
        event, the count), read up to the last log entry this observer has read."""
        k = self._know
        if k is None:
            h = self._h
            starter = h.boneyard[0] if h.starter_first is not None else None
            k = self._know = PublicKnowledge(h.v, starter, h.starter_first, h.number, h.leader)
        raw = self._raw
        if k.events < len(raw):
            add = k.add
            for i in range(k.events, len(raw)):
                s, m, _t = raw[i]
                add(s, m)
        return k

    # ------------------------------------------------------------------ public facts
    def check_seat(self, seat: int) -> None:
        n = self._h.v.players
        if not 0 <= seat < n:
            raise ValueError(f"no seat {seat} in a {n}-player game")

    @property
    def over(self) -> bool:
        return self._h.over

    def to_move(self) -> int | None:
        h = self._h
        return None if h.over else h.to_move

    def leader(self) -> int:
        return self._h.leader

    def number(self) -> int:
        return self._h.number

    def blind(self) -> bool:
        return self._h.rows is not None

    def end_pips(self) -> list[tuple[int, int]]:
        """(arm, open pip) of each open arm."""
        pip = self._h.pip
        return [(a, pip[a]) for a in self._h.open_arms]

    def double_end_arms(self) -> list[int]:
        """The open arms whose end tile is a double (not the spinner): it counts twice."""
        out = []
        arms = self._arms
        for a in self._h.open_arms:
            tiles = arms[a]
            if tiles:
                if IS_DOUBLE[tiles[-1].tile] and not (
                    a == self._spin_arm and self._spin_idx == len(tiles) - 1
                ):
                    out.append(a)
            elif a < 2 and self.first is not None and IS_DOUBLE[self.first] and self.spin < 0:
                out.append(a)
        return out

    def spinner_at(self) -> tuple[str, int] | None:
        if self.spin < 0:
            return None
        if self._spin_arm < 0:
            return ("C", 0)
        return (ARM_NAMES[self._spin_arm], self._spin_idx)

    def layout(self) -> Layout:
        """The table (a new Layout each time: its dicts are the caller's own)."""
        if self._h.v.layout == "trains":
            return self._train_layout()
        if self._h.v.layout == "chicken_foot":
            return self._foot_layout()
        pip = self._h.pip
        ends = {ARM_NAMES[a]: pip[a] for a in self._h.open_arms}
        dbl = 0
        for a in self.double_end_arms():
            dbl |= 1 << a
        a0, a1, a2, a3 = self._arms
        arms = {}
        if a0:
            arms["L"] = tuple(a0)
        if a1:
            arms["R"] = tuple(a1)
        if a2:
            arms["U"] = tuple(a2)
        if a3:
            arms["D"] = tuple(a3)
        return Layout(
            self.first,
            self.first_left,
            arms,
            ends,
            _ARM_SETS[dbl],
            self.spin if self.spin >= 0 else None,
            self.spinner_at(),
        )

    def _train_layout(self) -> Layout:
        h = self._h
        names = h.arm_names
        pip = h.pip
        n = h.v.players
        ends = {names[a]: p for a, p in enumerate(pip) if p >= 0}
        arms = {names[a]: tuple(tiles) for a, tiles in enumerate(self._arms) if tiles}
        doubles = frozenset(name for name, tiles in arms.items() if IS_DOUBLE[tiles[-1].tile])
        owners: dict[str, int | None] = {names[s]: s for s in range(n)}
        owners["M"] = None
        marks = h.marks  # type: ignore[attr-defined]
        pending = h.pending  # type: ignore[attr-defined]
        return Layout(
            h.hub,  # type: ignore[attr-defined]
            HI[h.hub],  # type: ignore[attr-defined]
            arms,
            ends,
            doubles,
            None,
            None,
            kind="trains",
            hub=h.hub,  # type: ignore[attr-defined]
            owners=owners,
            open=frozenset(names[s] for s in range(n) if marks >> s & 1),
            pending=names[pending] if pending >= 0 else None,
        )

    def _foot_layout(self) -> Layout:
        h = self._h
        self._read()
        made = h.made  # type: ignore[attr-defined]
        spokes = h.spokes  # type: ignore[attr-defined]
        # every arm made, an empty one too (the centre's arms and the toes still to start)
        arms = {
            FOOT_NAMES[a]: tuple(tiles)
            for a, tiles in enumerate(self._arms[:made])
            if a < spokes or a >= HUB_ARMS
        }
        doubles = frozenset(name for name, tiles in arms.items() if tiles and IS_DOUBLE[tiles[-1].tile])
        pending = h.pending  # type: ignore[attr-defined]
        hub = h.hub  # type: ignore[attr-defined]
        return Layout(
            hub,
            HI[hub],
            arms,
            h.ends(),
            doubles,
            None,
            None,
            kind="foot",
            hub=hub,
            pending=FOOT_NAMES[pending] if pending >= 0 else None,
            parents=h.parents(),  # type: ignore[attr-defined]
        )

    def counts(self) -> tuple[int, ...]:
        """Tiles each seat holds."""
        h = self._h
        if h.rows is not None:
            return tuple(map(len, h.rows))
        return tuple(map(int.bit_count, h.masks))

    def face_up(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Blind games: (position, tile) of the face-up tiles in each row."""
        h = self._h
        if h.rows is None:
            return _NO_FACE_UP[h.v.players]
        face_up = h.face_up
        assert face_up is not None
        return tuple(
            tuple((i, t) for i, t in enumerate(r) if face_up[s] >> t & 1) for s, r in enumerate(h.rows)
        )

    def turned_up(self) -> int | None:
        """Blind games: the tile the player to move has turned up."""
        h = self._h
        return h.turned_up() if h.rows is not None else None

    def drawable(self) -> int:
        return self._h.drawable()

    def boneyard_size(self) -> int:
        h = self._h
        return len(h.boneyard) - h.bpos

    def totals(self) -> tuple[int, ...]:
        return tuple(self._h.totals)

    def hand_points(self) -> tuple[int, ...]:
        h = self._h
        return tuple(h.inplay) if h.result is None else tuple(h.result.points)

    def public_facts(
        self,
    ) -> tuple[
        int | None,
        list[tuple[int, int]],
        list[int],
        tuple[int, ...],
        int,
        int,
        tuple[int, ...],
        tuple[int, ...],
    ]:
        """The public facts of the moment in one tuple, for encoders: (to_move, end_pips(),
        double_end_arms(), counts(), drawable(), boneyard_size(), totals(), hand_points())."""
        h = self._h
        pip = h.pip
        return (
            None if h.over else h.to_move,
            [(a, pip[a]) for a in h.open_arms],
            self.double_end_arms(),
            tuple(map(len, h.rows)) if h.rows is not None else tuple(map(int.bit_count, h.masks)),
            h.drawable(),
            len(h.boneyard) - h.bpos,
            h.totals,
            tuple(h.inplay) if h.result is None else h.result.points,
        )

    def end(self) -> HandEnd | None:
        return self._h.end

    def revealed(self) -> tuple[tuple[int, ...], ...] | None:
        """Every seat's tiles once the hand is over (None before)."""
        h = self._h
        if not h.over:
            return None
        return tuple(tuple(h.held(s)) for s in range(h.v.players))

    # ------------------------------------------------------------------ one seat's facts
    def history(self, seat: int) -> list[Event]:
        """The public history as ``seat`` sees it: its own draws show their tiles."""
        hist = self._hist[seat]
        pub = self.public_history()
        if len(hist) < len(pub):
            log = self._log
            events = _EVENTS
            for i in range(len(hist), len(pub)):
                e = pub[i]
                if e.seat == seat and e.action == "draw":
                    t = log[i][2]
                    ekey = _ekey(seat, DRAW, t)
                    own = events.get(ekey)
                    if own is None:
                        own = events[ekey] = Event(seat, "draw", t if t >= 0 else None)
                    e = own
                hist.append(e)
        return hist

    def own_mask(self, seat: int) -> int:
        """The seat's own tiles as a mask (0 in blind games: rows are face down)."""
        h = self._h
        return 0 if h.rows is not None else h.masks[seat]

    def own(self, seat: int) -> tuple[int, ...]:
        """The seat's own tiles, lowest first (() in blind games)."""
        m = self.own_mask(seat)
        if m >> 28:  # a larger set than double-six
            return tuple(bits(m))
        return (
            _TILES7[0][m & 127] + _TILES7[1][m >> 7 & 127] + _TILES7[2][m >> 14 & 127] + _TILES7[3][m >> 21]
        )

    def legal(self, seat: int) -> list[int]:
        """The seat's legal moves when it is to move, else [] (a new list)."""
        h = self._h
        if h.over or h.to_move != seat:
            return []
        return h.legal_moves()

    def peek(self, seat: int) -> int | None:
        """Billitonnen: the next tile of the seat's own row, when it may peek at it."""
        h = self._h
        if h.rows is None or not h.v.peek or h.over or h.to_move != seat or h.placed == 0:
            return None
        row = h.rows[seat]
        if len(row) > 1 and len(h.fits(row[0])) > 1:
            return row[1]
        return None

    def sync(self) -> Observer:
        """Read the moves added to the hand's log since the last reading (a hand that only
        moves forward, as a server's does, can keep one observer for its whole life)."""
        if len(self._log) > self._done:
            self._read()
        return self

    def view(self, seat: int, hand_number: int | None = None) -> View:
        """The View of ``seat``."""
        self.check_seat(seat)
        h = self._h
        v = h.v
        return View(
            variant=v.name,
            players=v.players,
            seat=seat,
            sides=v.sides,
            hand_number=h.number if hand_number is None else hand_number,
            leader=h.leader,
            to_move=self.to_move(),
            legal=tuple(self.legal(seat)),
            hand=self.own(seat),
            tile_counts=self.counts(),
            face_up=self.face_up(),
            turned_up=self.turned_up(),
            peek=self.peek(seat),
            layout=self.layout(),
            drawable=h.drawable(),
            boneyard_size=self.boneyard_size(),
            history=tuple(self.history(seat)),
            totals=self.totals(),
            hand_points=self.hand_points(),
            over=h.over,
            end=h.end,
            revealed=self.revealed(),
            blind=h.rows is not None,
            round_bonus=h.bonus,
            pips=h.v.pips,
        )

    def public_view(self, hand_number: int | None = None) -> PublicView:
        """The seat-less view every person at the table may see (a spectator's)."""
        h = self._h
        v = h.v
        return PublicView(
            variant=v.name,
            players=v.players,
            sides=v.sides,
            hand_number=h.number if hand_number is None else hand_number,
            leader=h.leader,
            to_move=self.to_move(),
            tile_counts=self.counts(),
            face_up=self.face_up(),
            turned_up=self.turned_up(),
            layout=self.layout(),
            drawable=h.drawable(),
            boneyard_size=self.boneyard_size(),
            history=tuple(self.public_history()),
            totals=self.totals(),
            hand_points=self.hand_points(),
            over=h.over,
            end=h.end,
            revealed=self.revealed(),
            blind=h.rows is not None,
            round_bonus=h.bonus,
            pips=h.v.pips,
        )


def observer(h: Hand) -> Observer:
    """The observer of hand ``h``, up to date with its log."""
    log = h.log
    ob = _SEEN.get(id(log))
    if ob is not None:
        done = ob._done
        if (
            ob._log is not log
            or ob._h is not h
            or len(log) < done
            or (done and log[done - 1] is not ob._last)
        ):
            ob = None
    if ob is None:
        if len(_SEEN) > 64:
            _SEEN.clear()
        ob = _SEEN[id(log)] = Observer(h)
    if len(log) > ob._done:
        ob._read()
    return ob


def hand_view(h: Hand, seat: int, hand_number: int | None = None) -> View:
    """The view of ``seat`` on hand ``h`` (a ``Hand``)."""
    return observer(h).view(seat, hand_number)


def public_view(h: Hand, hand_number: int | None = None) -> PublicView:
    """The seat-less view of hand ``h``: what every person at the table may see."""
    return observer(h).public_view(hand_number)


#: id of a hand's log -> the observer that has read it (a log only grows while a hand is
#: played: copies, undo and pop make a new or a shorter one, which gets a new observer)
_SEEN: dict[int, Observer] = {}
#: _TILES7[k][m]: the tiles of the 7-bit mask m in bits 7k..7k+6, lowest first
_TILES7 = [[tuple(7 * k + i for i in range(7) if m >> i & 1) for m in range(128)] for k in range(4)]
#: _ARM_SETS[mask]: the frozenset of the arm names in a 4-bit mask
_ARM_SETS = [frozenset(ARM_NAMES[a] for a in range(4) if m >> a & 1) for m in range(16)]
#: face_up outside blind games, per player count
_NO_FACE_UP = [((),) * n for n in range(9)]
#: a draw as a spectator sees it, per seat
_HIDDEN_DRAW = [(s, DRAW, -1) for s in range(8)]
#: Placed tiles are frozen: one shared instance per (tile, pip attached to)
_PLACED: dict[int, Placed] = {}
#: Events are frozen and equal by value: one shared instance per (seat, move, visible tile)
#: (-1: hidden or none; for plays -2: the first tile, -3: another), keyed by ``_ekey``
_EVENTS: dict[int, Event] = {}


def _ekey(seat: int, move: int, tile: int) -> int:
    return (seat << 19) | (move << 7) | (tile + 3)  # move <= DRAW < 4096, tile + 3 < 128


def _attach_pips(h: Hand) -> list[tuple[int, int, int]]:
    """Each placement after the first tile as (tile, arm, the open pip it attached to)."""
    out = []
    g = h.fresh()
    for _seat, m, _tile in h.log:
        if m < PASS and g.placed > 0:
            code = arm_of(m)
            out.append((tile_of(m), code, g.pip[code]))
        g.apply(m)
    return out
