"""The types of what one seat may know (``View``) and of what everybody at the table may know
(``PublicView``, a spectator's), with the public events and the layout they hold.  They are
built by ``engine/view.py`` from a hand; ``engine/knowledge.py`` reads them.  Nothing here
refers to a hand, so nothing reachable from a view leads to hidden tiles."""

from __future__ import annotations

from dataclasses import dataclass, field

from .tiles import NAME
from .vocab import Action, HandEnd


@dataclass(frozen=True, slots=True)
class Event:
    """One action in the public history.  ``tile`` is None where the viewer may not know it
    (another seat's draw)."""

    seat: int
    action: Action
    tile: int | None = None
    arm: str | None = None  # "L", "R", "U", "D"; None for the first tile

    def __str__(self) -> str:
        if self.action == "play":
            return NAME[self.tile] + (f"@{self.arm}" if self.arm else "")  # type: ignore[index]
        if self.tile is not None:
            return f"{self.action}({NAME[self.tile]})"
        return self.action


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile on the table: ``inner`` touches the centre side, ``outer`` faces out."""

    tile: int
    inner: int
    outer: int


@dataclass(frozen=True, slots=True)
class Layout:
    """The table.  ``first`` is the first tile laid (``first_left`` facing L); ``arms`` maps
    an arm name to the tiles on it from the centre outwards; ``spinner`` is the spinner's
    pip (or None) and ``spinner_at`` where it sits: ("C", 0) for the first tile, or
    (arm, index).  ``ends`` maps each open arm to its open pip.

    A train layout (``kind == "trains"``) has no first tile and no spinner: ``hub`` is the
    centre double, ``arms`` the trains by name ("1".."8": the seat's number plus one, "M":
    the Mexican train), ``ends`` every train's open pip, ``owners`` each train's seat (None
    for the Mexican train), ``open`` the trains with a marker, ``pending`` the train whose end
    is a double to cover first.  ``parents`` is for the chicken foot (arm -> the arm and
    index of the double it grows from)."""

    first: int | None
    first_left: int | None
    arms: dict[str, tuple[Placed, ...]]
    ends: dict[str, int]
    double_ends: frozenset[str]
    spinner: int | None
    spinner_at: tuple[str, int] | None
    kind: str = "line"
    hub: int | None = None
    owners: dict[str, int | None] = field(default_factory=dict)
    open: frozenset[str] = frozenset()
    pending: str | None = None
    parents: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class View:
    variant: str
    players: int
    seat: int
    sides: tuple[tuple[int, ...], ...]
    hand_number: int
    leader: int
    to_move: int | None
    legal: tuple[int, ...]  # the seat's legal moves when it is to move, else ()
    hand: tuple[int, ...]  # the seat's own tiles (empty in blind games: rows are face down)
    tile_counts: tuple[int, ...]  # tiles each seat holds
    face_up: tuple[tuple[tuple[int, int], ...], ...]  # blind: (position, tile) face up per row
    turned_up: int | None  # blind: the tile turned up by the player to move (public)
    peek: int | None  # Billitonnen: the next tile of the seat's own row, when it may peek
    layout: Layout
    drawable: int  # tiles that may still be drawn (the boneyard's tiles are Hand.boneyard)
    boneyard_size: int  # tiles not dealt and not drawn (drawable or not)
    history: tuple[Event, ...]
    totals: tuple[int, ...]  # per side, before this hand
    hand_points: tuple[int, ...]  # per side, scored so far in this hand (in-play points)
    over: bool
    end: HandEnd | None
    revealed: tuple[tuple[int, ...], ...] | None  # every seat's tiles, once the hand is over
    blind: bool
    round_bonus: int = 0  # Quinientos: the bonus this round is worth to a side that dominoes
    pips: int = 6  # the set's highest pip (6: double-six, 9: double-nine, 12: double-twelve)


@dataclass(frozen=True, slots=True)
class PublicView:
    """What every person at the table may see (a spectator's view): the ``View`` of a seat
    without the seat's own facts (its tiles, its legal moves, its peek, its own draws).
    The fields mean what the ``View``'s of the same name mean."""

    variant: str
    players: int
    sides: tuple[tuple[int, ...], ...]
    hand_number: int
    leader: int
    to_move: int | None
    tile_counts: tuple[int, ...]
    face_up: tuple[tuple[tuple[int, int], ...], ...]
    turned_up: int | None  # blind: turned up by the player to move, for everybody to see
    layout: Layout
    drawable: int
    boneyard_size: int
    history: tuple[Event, ...]  # every draw without its tile
    totals: tuple[int, ...]
    hand_points: tuple[int, ...]
    over: bool
    end: HandEnd | None
    revealed: tuple[tuple[int, ...], ...] | None  # every seat's tiles, once the hand is over
    blind: bool
    round_bonus: int = 0
    pips: int = 6


#: the fields a seat's View shares with the PublicView (``public_of``)
PUBLIC_FIELDS = tuple(PublicView.__dataclass_fields__)


def public_of(view: View) -> PublicView:
    """The public part of a seat's view: its own facts dropped, its own draws hidden (what
    any seat's view says of the table, and the same for every seat)."""
    hist = tuple(
        Event(e.seat, "draw") if e.action == "draw" and e.tile is not None else e for e in view.history
    )
    return PublicView(
        variant=view.variant,
        players=view.players,
        sides=view.sides,
        hand_number=view.hand_number,
        leader=view.leader,
        to_move=view.to_move,
        tile_counts=view.tile_counts,
        face_up=view.face_up,
        turned_up=view.turned_up,
        layout=view.layout,
        drawable=view.drawable,
        boneyard_size=view.boneyard_size,
        history=hist,
        totals=view.totals,
        hand_points=view.hand_points,
        over=view.over,
        end=view.end,
        revealed=view.revealed,
        blind=view.blind,
        round_bonus=view.round_bonus,
        pips=view.pips,
    )
