"""Public knowledge of one hand: what every seat can read off the public history.

This is the one place where these facts are computed; bots, RL observations, the terminal,
the record printer and the web server read them from here:

* the tiles that fitted some open end before each event;
* the points each event scored during play (the count of the fives games, the Dominican
  *pase redondo*, credited on the pass that completes it) and the current count;
* each seat's *voids*: pips it is known to hold none of.  In games where a seat must play
  when it can (``turn == "must_play"``), a pass or a draw proves the seat held no tile
  fitting the open ends at that moment.  A draw brings a tile tested only against the ends
  of that moment, so a run of draws resets the seat's voids to the pips open during the
  run: earlier voids no longer hold for the tiles drawn.  While the run goes on the seat
  may hold the tile it just drew, which may fit: it has no known voids until its next
  event.  The run ends with a play of the tile drawn last (the only one that fits) or a
  pass, and from then on every tile the seat keeps lacks the pips open during the run.
* the tiles on the table, the tiles each seat laid, the tiles a seat has not seen.

``PublicKnowledge`` is incremental: ``add(seat, move)`` reads one more event of the public
history (a draw's tile is never needed).  Build one from a ``View`` with ``from_view``, or
get the one an ``Observer`` keeps up to date with ``Observer.knowledge()``.  The table's
geometry (spinner arms, doubles, the count) is the engine's own: a ``Hand`` that holds no
tiles lays each tile with ``Hand.lay``.
"""

from __future__ import annotations

from .foot import FOOT_INDEX
from .hand import Hand
from .scoring import pass_round_points
from .tiles import ARM_INDEX, BIT, DRAW, HI, PASS, PIP_MASK, SETS, TRAIN_INDEX, move, tile_of
from .variant import Variant
from .view_types import Event, Layout, View


class PublicKnowledge:
    """The public facts of one hand so far, read event by event."""

    __slots__ = (
        "v",
        "n",
        "tracks_voids",
        "_table",
        "_side",
        "fit_before",
        "_fives",
        "points",
        "scorer",
        "side_points",
        "_passes",
        "_last_player",
        "voids",
        "_run",
        "played",
        "played_by",
        "events",
        "_all",
    )

    def __init__(
        self,
        v: Variant,
        starter: int | None = None,
        starter_first: int | None = None,
        number: int = 1,
        leader: int = 0,
    ) -> None:
        """``starter``: the starter tile laid before the first event (``Variant.starter``),
        with pip ``starter_first`` facing L; ``number``: the hand's number (a train layout's
        hub double is the round's), ``leader``: its first player (a train layout's open trains
        are those of the seat to move)."""
        self.v = v
        self.n = n = v.players
        #: voids are known only where a seat must play when it can
        self.tracks_voids = v.turn == "must_play"
        boneyard = [starter] if starter is not None else []
        self._table = Hand(
            v,
            [[] for _ in range(n)],
            boneyard,
            leader,
            starter_first=starter_first if starter is not None else None,
            number=number,
        )
        self._side = v.seat_sides
        #: the set's tiles (``PIP_MASK`` and the table's open mask span the largest set)
        self._all = v.all_tiles
        self._fives = v.in_play is not None
        #: per event: the mask of tiles fitting some open end before it (0: empty table)
        self.fit_before: list[int] = []
        #: per event: the points it scored during play (0: none)
        self.points: list[int] = []
        #: per event: the side those points went to (the mover's, except for a pase redondo:
        #: the side of the player every other player passed after); -1 when none
        self.scorer: list[int] = []
        #: passes in a row since the last play or draw, and the seat that made the last play
        self._passes = 0
        self._last_player = -1
        #: points scored during play so far, per side
        self.side_points = [0] * len(v.sides)
        #: per seat: the mask of pips it is known to hold none of
        self.voids = [0] * n
        #: per seat: the pips open during its run of draws going on (-1: none)
        self._run = [-1] * n
        #: tiles on the table (the starter tile included)
        self.played = BIT[starter] if starter is not None else 0
        #: per seat: the tiles it laid
        self.played_by = [0] * n
        #: events read
        self.events = 0

    @classmethod
    def from_view(cls, v: Variant, view: View) -> PublicKnowledge:
        """The public knowledge of the hand ``view`` shows."""
        if view.variant != v.name or view.players != v.players:
            raise ValueError("the view is not of this variant")
        lay = view.layout
        k = cls(
            v,
            lay.first if v.starter else None,
            lay.first_left if v.starter else None,
            view.hand_number,
            view.leader,
        )
        for e, m in zip(view.history, history_moves(view)):
            k.add(e.seat, m)
        return k

    # ------------------------------------------------------------------ reading events
    def add(self, seat: int, move: int) -> None:
        """Read the next event: ``seat`` played ``move`` (an engine move; for the first tile
        its orientation), passed (``PASS``) or drew (``DRAW``)."""
        table = self._table
        table.to_move = seat
        self.fit_before.append(self.fitting(seat))
        scored = 0
        side = self._side[seat]
        run = self._run[seat]
        if run >= 0:  # the seat's run of draws ended with this event (or goes on)
            self.voids[seat] = run
            self._run[seat] = -1
        if move < PASS:
            bit = BIT[tile_of(move)]
            self.played |= bit
            self.played_by[seat] |= bit
            table.lay(move, seat)
            self._passes, self._last_player = 0, seat
            if self._fives:
                scored = table.count_points()
        else:
            if move == PASS:
                self._passes += 1
                if self._last_player >= 0:
                    scored = pass_round_points(self.v, self._passes)
                    side = self._side[self._last_player]
            else:
                self._passes = 0
            if self.tracks_voids:
                if move == DRAW:  # the tile drawn may fit: no voids until the run ends
                    self.voids[seat] = 0
                    self._run[seat] = self.pips_for(seat)
                else:
                    self.voids[seat] |= self.pips_for(seat)
            if move == PASS:
                table.note_pass(seat)
        self.side_points[side] += scored
        self.points.append(scored)
        self.scorer.append(side if scored else -1)
        self.events += 1

    # ------------------------------------------------------------------ the moment
    @property
    def open_pips(self) -> int:
        """The mask of pips open now (0 on an empty table)."""
        table = self._table
        if not table.placed:
            return 0
        pips = 0
        for a in table.open_arms:
            pips |= 1 << table.pip[a]
        return pips

    def pips_for(self, seat: int) -> int:
        """The mask of pips ``seat`` could play on now (on a line every open end; on trains
        its own train, the Mexican train and the trains with a marker, or only the double to
        cover; on a chicken foot only the centre double or the double still short of toes
        while there is one, else every open arm)."""
        table = self._table
        if not table.placed:
            return 0
        if table.v.layout == "chicken_foot" and not table.room():  # type: ignore[attr-defined]
            return 0  # a double may fit an open pip and still not be playable (no room for its toes)
        pips = 0
        for a in table.arms_for(seat):
            pips |= 1 << table.pip[a]
        return pips

    def fitting(self, seat: int) -> int:
        """The mask of tiles ``seat`` could play now (0 on an empty table)."""
        table = self._table
        if not table.placed:
            return 0
        if table.v.layout != "trains":  # (a chicken foot's arms are open to every seat alike)
            return table.open_mask & self._all
        m = 0
        for a in table.arms_for(seat):
            m |= PIP_MASK[table.pip[a]]
        return m & self._all

    @property
    def open_tiles(self) -> int:
        """The mask of tiles fitting some open end now (0 on an empty table; on trains, the
        ends open to the seat to move)."""
        table = self._table
        if table.v.layout != "line":
            return self.fitting(table.to_move)
        return table.open_mask & self._all if table.placed else 0

    @property
    def count(self) -> int:
        """The ends' count now (Cinque's fives count; defined in every game)."""
        return self._table.count()

    def decision_key(self, m: int) -> tuple[int, ...]:
        """A key equal for two legal moves of the position exactly when they are one decision,
        as ``Hand.mirror_key`` says: they lead to the same table up to its mirror image
        (``Hand.table_key``), such as a tile that fits two ends showing the same number."""
        if m >= PASS:
            return (m,)
        table = self._table.copy()
        table.lay(m)
        return (tile_of(m), *table.table_key())

    def decisions(self, legal: tuple[int, ...] | list[int]) -> list[int]:
        """For each move of ``legal`` (legal now), the index in ``legal`` of the first move
        that is the same decision (``decision_key``): moves with the same index are alike, and
        a tile whose moves share one index needs no choice of end."""
        first: dict[tuple[int, ...], int] = {}
        return [first.setdefault(self.decision_key(m), i) for i, m in enumerate(legal)]

    def void_tiles(self, seat: int) -> int:
        """The mask of tiles ``seat`` is known not to hold (those carrying a void pip)."""
        m = 0
        voids = self.voids[seat]
        for p in range(voids.bit_length()):
            if voids >> p & 1:
                m |= PIP_MASK[p]
        return m & self._all


def history_moves(view: View) -> list[int]:
    """The engine moves of the view's public history (a draw is ``DRAW``, whatever it drew)."""
    return [event_move(e, view.layout) for e in view.history]


def event_move(e: Event, layout: Layout) -> int:
    """The engine move of one public event; the first tile laid takes its orientation from
    the layout."""
    if e.action == "pass":
        return PASS
    if e.action == "draw":
        return DRAW
    t = e.tile
    assert t is not None
    if e.arm is None:  # the first tile: its orientation
        return move(t, 0 if layout.first_left == HI[t] else 1)
    index = TRAIN_INDEX if layout.kind == "trains" else FOOT_INDEX if layout.kind == "foot" else ARM_INDEX
    return move(t, index[e.arm])


def layout_tiles(layout: Layout) -> int:
    """The mask of the tiles on the table."""
    m = BIT[layout.first] if layout.first is not None else 0
    for arm in layout.arms.values():
        for p in arm:
            m |= BIT[p.tile]
    return m


def unseen_tiles(view: View) -> int:
    """The tiles the viewing seat has not seen: in other hands, the boneyard, face-down rows."""
    seen = layout_tiles(view.layout)
    for t in view.hand:
        seen |= BIT[t]
    for e in view.history:
        if e.tile is not None:
            seen |= BIT[e.tile]
    for row in view.face_up:
        for _pos, t in row:
            seen |= BIT[t]
    for shown in (view.turned_up, view.peek):
        if shown is not None:
            seen |= BIT[shown]
    return SETS[view.pips].all_tiles & ~seen
