"""What one seat knows, read off its View: the public facts (tiles not yet seen, suits a seat
has shown it lacks) seen from that seat, with its own hand, its partner and who plays next.
The public facts themselves are the engine's (``engine.knowledge``)."""

from __future__ import annotations

from functools import cached_property

from ..engine import Variant, View
from ..engine.knowledge import PublicKnowledge, layout_tiles, unseen_tiles
from ..engine.tiles import PIPS, bits, mask_of


class SeatKnowledge:
    def __init__(self, variant: Variant, view: View) -> None:
        self.v = variant
        self.view = view
        self.n = view.players
        self.me = view.seat
        self.my_side = variant.side_of(view.seat)

    @cached_property
    def public(self) -> PublicKnowledge:
        return PublicKnowledge.from_view(self.v, self.view)

    @cached_property
    def own(self) -> int:
        return mask_of(self.view.hand)

    @cached_property
    def table(self) -> int:
        return layout_tiles(self.view.layout)

    @cached_property
    def unseen(self) -> int:
        """Tiles the seat has not seen (in other hands, the boneyard, face-down rows)."""
        return unseen_tiles(self.view)

    @property
    def voids(self) -> list[int]:
        """Per seat, a mask of pips it is known to hold none of (must-play games)."""
        return self.public.voids

    def next_seat(self, k: int = 1) -> int:
        return (self.me + k) % self.n

    def is_partner(self, seat: int) -> bool:
        return seat != self.me and self.v.side_of(seat) == self.my_side

    def mean_unseen_pips(self) -> float:
        u = bits(self.unseen)
        return sum(PIPS[t] for t in u) / len(u) if u else 0.0
