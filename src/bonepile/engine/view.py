"""What one seat may know: the censored state handed to bots, web clients and RL agents.

A ``View`` is built from a hand by copying out only public facts and the seat's own tiles;
it holds no reference to the hand, so nothing reachable from a view leads to hidden tiles.
"""
from __future__ import annotations

from dataclasses import dataclass

from .tiles import ARM_NAMES, DRAW, HI, IS_DOUBLE, LO, NAME, PASS, bits


@dataclass(frozen=True, slots=True)
class Event:
    """One action in the public history.  ``tile`` is None where the viewer may not know it
    (another seat's draw)."""

    seat: int
    action: str  # "play", "pass" or "draw"
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
    (arm, index).  ``ends`` maps each open arm to its open pip."""

    first: int | None
    first_left: int | None
    arms: dict[str, tuple[Placed, ...]]
    ends: dict[str, int]
    double_ends: frozenset[str]
    spinner: int | None
    spinner_at: tuple[str, int] | None


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
    boneyard: int  # tiles that may still be drawn
    boneyard_size: int  # tiles not dealt and not drawn (drawable or not)
    history: tuple[Event, ...]
    totals: tuple[int, ...]  # per side, before this hand
    hand_points: tuple[int, ...]  # per side, scored so far in this hand (in-play points)
    over: bool
    end: str | None
    revealed: tuple[tuple[int, ...], ...] | None  # every seat's tiles, once the hand is over
    blind: bool
    round_bonus: int = 0  # Quinientos: the bonus this round is worth to a side that dominoes


def build_layout(first_move: tuple[int, int] | None, placements: list[tuple[int, int, int]],
                 ends: dict[str, int], spinner_variant: bool,
                 starter: tuple[int, int] | None = None) -> Layout:
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
    return Layout(first, first_left, {k: tuple(v) for k, v in arms.items() if v}, ends,
                  frozenset(double_ends), spinner, spinner_at)


def hand_view(h, seat: int, hand_number: int | None = None) -> View:
    """The view of ``seat`` on hand ``h`` (a ``Hand``)."""
    v = h.v
    if not 0 <= seat < v.players:
        raise ValueError(f"no seat {seat} in a {v.players}-player game")
    blind = h.rows is not None
    history = []
    first_move = None
    for s, m, t in h.log:
        if m == PASS:
            history.append(Event(s, "pass", t if t >= 0 else None))
        elif m == DRAW:
            history.append(Event(s, "draw", t if s == seat else None))
        else:
            tile, code = m >> 2, m & 3
            if first_move is None and h.starter_first is None:
                first_move = (tile, HI[tile] if code == 0 else LO[tile])
                history.append(Event(s, "play", tile, None))
            else:
                history.append(Event(s, "play", tile, ARM_NAMES[code]))
    # the pip each placement attached to: replay arm ends
    attached = _attach_pips(h)
    ends = {ARM_NAMES[a]: h.pip[a] for a in h.open_arms}
    starter = None
    if h.starter_first is not None:
        t0 = h.boneyard[0]
        starter = (t0, h.starter_first)
    layout = build_layout(first_move, attached, ends, v.spinner, starter)
    to_move = None if h.over else h.to_move
    legal = tuple(h.legal_moves()) if to_move == seat else ()
    turned = h.turned_up() if blind else None
    peek = None
    if v.peek and to_move == seat and turned is not None and h.placed > 0 \
            and len(h.fits(turned)) > 1 and len(h.rows[seat]) > 1:
        peek = h.rows[seat][1]
    if blind:
        own: tuple[int, ...] = ()
        counts = tuple(len(r) for r in h.rows)
        face_up = tuple(tuple((i, t) for i, t in enumerate(r) if h.face_up[s] >> t & 1)
                        for s, r in enumerate(h.rows))
    else:
        own = tuple(bits(h.hands[seat]))
        counts = tuple(len(bits(m)) for m in h.hands)
        face_up = tuple(() for _ in range(v.players))
    revealed = tuple(tuple(h.held(s)) for s in range(v.players)) if h.over else None
    return View(
        variant=v.name, players=v.players, seat=seat, sides=v.sides,
        hand_number=h.number if hand_number is None else hand_number, leader=h.leader,
        to_move=to_move, legal=legal, hand=own, tile_counts=counts, face_up=face_up,
        turned_up=turned, peek=peek, layout=layout, boneyard=h.drawable(),
        boneyard_size=len(h.boneyard) - h.bpos, history=tuple(history), totals=tuple(h.totals),
        hand_points=tuple(h.current_result().points), over=h.over, end=h.end,
        revealed=revealed, blind=blind, round_bonus=h.bonus,
    )


def _attach_pips(h) -> list[tuple[int, int, int]]:
    """Each placement after the first tile as (tile, arm, the open pip it attached to)."""
    out = []
    g = h.fresh()
    for _seat, m, _tile in h.log:
        if m < PASS and g.placed > 0:
            code = m & 3
            out.append((m >> 2, code, g.pip[code]))
        g.apply(m)
    return out
