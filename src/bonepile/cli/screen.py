"""The terminal's drawing of a position, from a seat's ``View`` alone: the table, the rows of
the blind games and the seat's hand.  ``bonepile play`` and ``bonepile puzzles`` both draw
with it (rich ``Text`` lines)."""

from __future__ import annotations

from typing import Any

from ..engine import View
from ..engine.tiles import HI, IS_DOUBLE, LO, PASS, tile_of


def tile_text(a: int, b: int, top: int = 6) -> str:
    """A tile as ``[6|4]``; in a set whose highest number has two digits every number takes
    two places (``[ 9|12]``), so that the tiles of a line and a hand stand in even columns."""
    w = len(str(top))
    return f"[{a:>{w}}|{b:>{w}}]"


def face_down_text(top: int = 6) -> str:
    """A face-down tile, as wide as a face-up one of the same set."""
    w = len(str(top))
    return f"[{'▒' * w}|{'▒' * w}]"


def layout_lines(view: View) -> list[Any]:
    """The table: the line of tiles (spinner in magenta, doubles in bold), the spinner's
    arms, and the open ends."""
    from rich.text import Text

    lay = view.layout
    top = view.pips
    if lay.kind == "trains":
        return train_lines(view)
    if lay.kind == "foot":
        return foot_lines(view)
    if lay.first is None:
        return [Text("Table: empty")]
    spin_at = lay.spinner_at

    def styled(text: Text, a: int, b: int, t: int, where: tuple[str, int]) -> None:
        style = "bold magenta" if where == spin_at else ("bold" if IS_DOUBLE[t] else "")
        text.append(tile_text(a, b, top), style=style)

    line = Text("Table: ")
    for i in range(len(lay.arms.get("L", ())) - 1, -1, -1):
        p = lay.arms["L"][i]
        styled(line, p.outer, p.inner, p.tile, ("L", i))
    f = lay.first
    a = lay.first_left if lay.first_left is not None else HI[f]
    styled(line, a, LO[f] if a == HI[f] else HI[f], f, ("C", 0))
    for i, p in enumerate(lay.arms.get("R", ())):
        styled(line, p.inner, p.outer, p.tile, ("R", i))
    lines = [line]
    for arm in ("U", "D"):
        tiles = lay.arms.get(arm, ())
        if tiles or arm in lay.ends:
            t = Text(f"  {arm} arm: ")
            for i, p in enumerate(tiles):
                styled(t, p.inner, p.outer, p.tile, (arm, i))
            if not tiles:
                t.append("(open, nothing played yet)")
            lines.append(t)
    ends = []
    for arm, pip in lay.ends.items():
        ends.append(f"{arm} {pip}" + (" (double)" if arm in lay.double_ends else ""))
    extra = f" · spinner {lay.spinner}" if lay.spinner is not None else ""
    lines.append(Text("Open ends: " + (", ".join(ends) or "none") + extra))
    return lines


def train_lines(view: View) -> list[Any]:
    """A train layout: the hub, then one line per train from the hub outwards, its owner,
    its marker, and the double to cover (doubles in bold, the one waiting in magenta)."""
    from rich.text import Text

    lay = view.layout
    top = view.pips
    hub = lay.hub if lay.hub is not None else 0
    lines = [Text("Hub: " + tile_text(HI[hub], LO[hub], top), style="bold")]
    for arm, pip in lay.ends.items():
        owner = lay.owners.get(arm)
        who = (
            "Mexican train"
            if owner is None
            else ("your train" if owner == view.seat else f"seat {owner}'s train")
        )
        t = Text(f"  {arm:>2} {who:<16} ")
        tiles = lay.arms.get(arm, ())
        for i, p in enumerate(tiles):
            waiting = arm == lay.pending and i == len(tiles) - 1
            style = "bold magenta" if waiting else ("bold" if IS_DOUBLE[p.tile] else "")
            t.append(tile_text(p.inner, p.outer, top), style=style)
        t.append(f" → {pip}")
        if arm in lay.open:
            t.append("  (marker: open to all)", style="yellow")
        if arm == lay.pending:
            t.append("  (double: cover it first)", style="magenta")
        lines.append(t)
    return lines


def foot_lines(view: View) -> list[Any]:
    """A chicken foot: the centre double, then one line per arm from the centre outwards,
    each double's three toes indented under the arm it ends (doubles in bold, the one still
    short of toes in magenta) and each open end."""
    from rich.text import Text

    lay = view.layout
    top = view.pips
    hub = lay.hub if lay.hub is not None else 0
    lines = [Text("Centre: " + tile_text(HI[hub], LO[hub], top), style="bold")]
    kids: dict[str, list[str]] = {}
    for toe, (arm, _i) in lay.parents.items():
        kids.setdefault(arm, []).append(toe)
    named = set(lay.arms) | set(lay.ends)
    order = sorted(named, key=lambda a: (len(a), a))

    def draw(arm: str, depth: int) -> None:
        tiles = lay.arms.get(arm, ())
        what = "toe" if arm in lay.parents else "arm"
        t = Text("  " * (depth + 1) + f"{what} {arm:<2} ")
        for i, p in enumerate(tiles):
            waiting = arm == lay.pending and i == len(tiles) - 1
            style = "bold magenta" if waiting else ("bold" if IS_DOUBLE[p.tile] else "")
            t.append(tile_text(p.inner, p.outer, top), style=style)
        if arm in lay.ends:
            t.append(f" → {lay.ends[arm]}" if tiles else f"(empty, starts at {lay.ends[arm]})")
        if arm == lay.pending:
            t.append("  (double: its three toes come first)", style="magenta")
        lines.append(t)
        for toe in sorted(kids.get(arm, ()), key=lambda a: (len(a), a)):
            draw(toe, depth + 1)

    for arm in order:
        if arm not in lay.parents:
            draw(arm, 0)
    return lines


def rows_text(view: View, s: int) -> Any:
    """Seat ``s``'s row in a blind game: face-up tiles shown, the others face down."""
    from rich.text import Text

    up = dict(view.face_up[s])
    top = view.pips
    t = Text()
    for i in range(view.tile_counts[s]):
        if i in up:
            t.append(tile_text(HI[up[i]], LO[up[i]], top), style="bold")
        else:
            t.append(face_down_text(top), style="dim")
    return t


def hand_text(view: View) -> Any:
    """The seat's own tiles, heaviest first, the playable ones starred in green."""
    from rich.text import Text

    playable = {tile_of(m) for m in view.legal if m < PASS}
    top = view.pips
    t = Text("Your hand: ")
    for tile in sorted(view.hand, key=lambda x: (-(HI[x] + LO[x]), -HI[x])):
        if tile in playable:
            t.append(tile_text(HI[tile], LO[tile], top) + "*", style="bold green")
        else:
            t.append(tile_text(HI[tile], LO[tile], top) + " ")
    return t
