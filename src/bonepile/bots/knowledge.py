"""Public facts a player reads off a View: tiles not yet seen, suits a seat has shown it
lacks, who plays next, and a world in which to try moves (its public effects — ends, counts,
points — are the same in every world that agrees with the view)."""
from __future__ import annotations

from functools import cached_property

from ..engine import Variant, View
from ..engine.tiles import ALL_TILES, PIP_MASK, PIPS, bits, mask_of
from .sampler import _open_masks_before, bits_of_layout, history_moves


class Knowledge:
    def __init__(self, variant: Variant, view: View) -> None:
        self.v = variant
        self.view = view
        self.n = view.players
        self.me = view.seat
        self.my_side = variant.side_of(view.seat)

    @cached_property
    def own(self) -> int:
        return mask_of(self.view.hand)

    @cached_property
    def table(self) -> int:
        return mask_of(bits_of_layout(self.view))

    @cached_property
    def unseen(self) -> int:
        """Tiles the seat has not seen (in other hands, the boneyard, face-down rows)."""
        view = self.view
        seen = self.own | self.table
        for e in view.history:
            if e.tile is not None:
                seen |= 1 << e.tile
        for row in view.face_up:
            for _pos, t in row:
                seen |= 1 << t
        for t in (view.turned_up, view.peek):  # type: ignore[assignment]
            if t is not None:
                seen |= 1 << t
        return ALL_TILES & ~seen

    @cached_property
    def voids(self) -> list[int]:
        """Per seat, a mask of pips it has shown it lacks (must-play games: a pass or a draw
        with those ends open, and no unknown draw since)."""
        v, view = self.v, self.view
        out = [0] * self.n
        if v.turn != "must_play" or view.blind:
            return out
        starter = view.layout.first if v.starter else None
        first_left = view.layout.first_left if v.starter else None
        masks = _open_masks_before(v, view, history_moves(view), starter, first_left)
        for i, e in enumerate(view.history):
            if e.action == "draw" and e.tile is None:
                out[e.seat] = 0  # it may have drawn anything
            if e.action in ("pass", "draw"):
                m = masks[i]
                out[e.seat] |= sum(1 << p for p in range(7) if m & PIP_MASK[p] == PIP_MASK[p])
        return out

    def next_seat(self, k: int = 1) -> int:
        return (self.me + k) % self.n

    def is_partner(self, seat: int) -> bool:
        return seat != self.me and self.v.side_of(seat) == self.my_side

    def mean_unseen_pips(self) -> float:
        u = bits(self.unseen)
        return sum(PIPS[t] for t in u) / len(u) if u else 0.0
