"""The chicken foot layout (Chicken Foot, RULES.md §16): a centre double with six (or four)
arms, and every later double a "foot" whose three toes must be played before anything else.

``FootHand`` is a ``Hand`` chosen by ``Variant.layout == "chicken_foot"`` (``Hand(...)`` and
``Hand.deal`` build one); it keeps the interface of a hand (``legal_moves``, ``apply``,
``push``/``pop``, ``fits``, ``ends``, ``lay``...) and reuses the train layout's deal (the
round's hub double is taken out before the deal, the first leader is drawn by lot).

Arms: the centre double's arms are codes 0..5, named "A".."F" (with four arms "A".."D",
codes 4 and 5 never open); the toes are codes 6, 7, ... named "G", "H", ... in the order
they are made.  A double laid at the end of arm ``a`` closes ``a`` and makes three toes at
once, each growing from that double (``parent``: the arm and index of the double).  Arms
that must be started before play goes elsewhere (the centre's arms, a double's toes) are
filled one at a time in code order: they are alike (same open pip, empty), so the choice
of which one is no decision, and one canonical order keeps the move tree free of copies.

A move code has five bits (32 arms): six centre arms and three toes per double need 33
arms only if all nine other doubles of the set become feet in one hand; a double that
would need a 33rd arm is not playable (RULES.md §16, "Limits").
"""

from __future__ import annotations

from .hand import LAYOUT_HANDS, perft
from .tiles import (
    BIT,
    DOUBLE_MASK,
    DRAW,
    IS_DOUBLE,
    MAX_ARMS,
    NAME,
    OTHER,
    PASS,
    PIP_MASK,
    bits,
    move,
)
from .trains import TrainHand, _TrainSnap

__all__ = ["FootHand", "FOOT_NAMES", "FOOT_INDEX", "HUB_ARMS", "foot_names", "perft"]

#: the codes of the centre double's arms (toes are made from code ``HUB_ARMS`` on)
HUB_ARMS = 6
#: arm names by code: "A".."Z", then "AA".."AF" (rows.js orders them by length, then letters)
FOOT_NAMES: tuple[str, ...] = tuple(chr(65 + i) for i in range(26)) + tuple(
    "A" + chr(65 + i) for i in range(MAX_ARMS - 26)
)
FOOT_INDEX = {c: i for i, c in enumerate(FOOT_NAMES)}


def foot_names(spokes: int) -> tuple[str, ...]:
    """The names of the arms of the centre double (``spokes`` of them)."""
    return FOOT_NAMES[:spokes]


class _FootSnap(_TrainSnap):
    """The trains' snapshot and the foot's own state: the toes' doubles, the next arm to
    start, the arms made."""

    __slots__ = ("foot",)

    def __init__(self, h: FootHand) -> None:
        _TrainSnap.__init__(self, h)
        self.foot = (h.parent[:], h.fill, h.made)

    def restore(self, h: FootHand) -> None:  # type: ignore[override]  # (pushed by a FootHand)
        _TrainSnap.restore(self, h)
        parent, h.fill, h.made = self.foot
        h.parent = parent[:]


class FootHand(TrainHand):
    """One hand of Chicken Foot (``Variant.layout == "chicken_foot"``)."""

    __slots__ = ("fill", "made", "parent", "spokes")

    arm_names = FOOT_NAMES  # type: ignore[assignment]  # (TrainHand has nine names, a foot 32)
    arm_index = FOOT_INDEX
    _snapshot = _FootSnap
    _lists = ("tlen", "parent")

    fill: int  # the next arm that must get its first tile (== made: none must)
    made: int  # arms made so far (codes below it exist; a closed arm's pip is -1)
    parent: list[int]  # per toe: arm << 8 | index of the double it grows from (-1: a centre arm)
    spokes: int  # arms round the centre double (6 or 4)

    def _set_table(self, p: int) -> None:
        """The centre double's arms, each starting at its pip ``p``; no toes yet."""
        self._arms = []  # (TrainHand's per-seat train table: a foot's arms belong to no seat)
        self.spokes = k = self.v.spokes
        self.pip = [p if a < k else -1 for a in range(MAX_ARMS)]
        self.dbl = [False] * MAX_ARMS
        self.occ = [False] * MAX_ARMS
        self.tlen = [0] * MAX_ARMS
        self.parent = [-1] * MAX_ARMS
        self.fill = 0
        self.made = HUB_ARMS

    # ------------------------------------------------------------------ queries
    def arms_for(self, seat: int) -> tuple[int, ...]:
        """The arms anyone may play on now (the same for every seat): the next arm of the
        centre double or of a double's foot while one must be started, else every open arm."""
        if self.fill < self.made:
            return (self.fill,)
        pip = self.pip
        return tuple(a for a in range(self.made) if pip[a] >= 0)

    def room(self) -> bool:
        """Is there room for one more foot (three more arms)?"""
        return self.made + 3 <= MAX_ARMS

    def _reopen(self) -> None:
        pip = self.pip
        arms = self.open_arms = self.arms_for(self.to_move)
        m = 0
        for a in arms:
            m |= PIP_MASK[pip[a]]
        m &= self.v.all_tiles
        if self.made + 3 > MAX_ARMS:
            m &= ~DOUBLE_MASK
        self.open_mask = m

    def fits(self, t: int) -> list[int]:
        """The arms on which the player to move may lay tile ``t`` now."""
        if not self.open_mask & BIT[t]:
            return []
        pip = self.pip
        base = t * 13
        return [a for a in self.open_arms if OTHER[base + pip[a]] >= 0]

    def ends(self) -> dict[str, int]:
        """Every open arm's pip by name (the arms still to start included)."""
        pip = self.pip
        return {FOOT_NAMES[a]: pip[a] for a in range(self.made) if pip[a] >= 0}

    def parents(self) -> dict[str, tuple[str, int]]:
        """Each toe's double: toe name -> (the arm it lies on, its index there)."""
        out = {}
        for a in range(HUB_ARMS, self.made):
            p = self.parent[a]
            out[FOOT_NAMES[a]] = (FOOT_NAMES[p >> 8], p & 255)
        return out

    def legal_moves(self) -> list[int]:
        if self.over:
            return []
        hand = self.masks[self.to_move] & self.open_mask
        out: list[int] = []
        if hand:
            pip = self.pip
            for a in self.open_arms:
                for t in bits(hand & PIP_MASK[pip[a]]):
                    out.append(move(t, a))
            return out
        if not self.drew and self.bpos < self.draw_end:
            return [DRAW]
        return [PASS]

    def _stuck_everywhere(self) -> bool:
        """Can no seat play any tile it holds (the stock being empty, the hand is blocked)?"""
        return not self.in_hands & self.open_mask

    # ------------------------------------------------------------------ moves
    def _place(self, t: int, a: int, seat: int) -> None:
        """Tile ``t`` laid on arm ``a`` by ``seat`` (-1: the table alone); the turn passes
        (after a double too: the next players start its toes)."""
        pip = self.pip
        q = OTHER[t * 13 + pip[a]]
        n = self.tlen[a] = self.tlen[a] + 1
        self.occ[a] = True
        if a == self.fill:
            self.fill = a + 1 if a + 1 != self.spokes else HUB_ARMS
        if IS_DOUBLE[t]:  # a foot: the arm ends here, three toes grow from the double
            pip[a] = -1
            c = self.made
            key = a << 8 | (n - 1)
            for k in range(c, c + 3):
                pip[k] = q
                self.parent[k] = key
            self.made = c + 3
            self.pending = a
        else:
            pip[a] = q
            if self.fill >= self.made:
                self.pending = -1
        if seat >= 0:
            self.to_move = self._next[seat]

    def _passed(self, seat: int) -> None:
        """A pass by ``seat`` (no markers on a foot): the turn passes."""
        self.to_move = self._next[seat]

    def table_key(self) -> tuple[int, ...]:
        """The table: every arm's end and length, the arms made, the next to start."""
        k = self.made
        return (*self.pip[:k], *self.tlen[:k], self.fill, k, self.to_move)

    def why_illegal(self, m: int) -> str:
        seat = self.to_move
        if m == PASS or m == DRAW:
            return super().why_illegal(m)
        t, a = m >> 5, m & 31
        if not self.masks[seat] & BIT[t]:
            return f"seat {seat} does not hold {NAME[t]}"
        name = FOOT_NAMES[a]
        if a >= self.made or (a < HUB_ARMS and a >= self.spokes):
            return f"arm {name} is not on the table"
        if self.pip[a] < 0:
            return f"arm {name} ends in a double: play on its toes"
        if self.fill < self.made and a != self.fill:
            nxt = FOOT_NAMES[self.fill]
            if self.fill < HUB_ARMS:
                return f"the centre double needs a tile on each of its {self.spokes} arms first: play on arm {nxt}"
            dbl = self.pending
            return f"the double at the end of arm {FOOT_NAMES[dbl]} needs its three toes first: play on toe {nxt}"
        if IS_DOUBLE[t] and not self.room():
            return f"{NAME[t]} cannot start a foot: the table has no room for more toes"
        return f"{NAME[t]} does not fit arm {name} (open end {self.pip[a]})"


LAYOUT_HANDS["chicken_foot"] = FootHand
