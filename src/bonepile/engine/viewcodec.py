"""A seat's ``View`` as plain JSON data and back, exactly (``view_from_dict(view_to_dict(v))
== v``).  Stored puzzles and anything else that keeps a position for later use this form.

A View holds only what its seat may know, so its JSON form holds nothing hidden either.
Tiles are written by name (``"6-4"``), moves as ints dense in the view's set (``tile*4 + arm``
for a play, ``4*n_tiles`` for a pass, ``4*n_tiles + 1`` for a draw: 112 and 113 in the
double-six set, as they always were), arms by letter.  Every field of the View is a key of the
object except ``pips``, written only for a set other than double-six (so the form of every
double-six view is unchanged); a key missing, a value of the wrong kind or an unknown tile (or
one outside the view's set) is a ``ValueError`` that names it.
"""

from __future__ import annotations

from typing import Any, cast

from .foot import FOOT_NAMES
from .tiles import NAME, SETS, TRAIN_NAMES, dense_id, dense_move
from .view_types import Event, Layout, Placed, View
from .vocab import Action, HandEnd

__all__ = ["FORMAT", "view_from_dict", "view_to_dict"]

#: the version of this form, written in every object
FORMAT = 1

_TILE = {name: t for t, name in enumerate(NAME)}
_ARMS = ("L", "R", "U", "D")
#: the arm names of each layout kind (``Layout.kind``); a line's views keep their form
_KIND_ARMS = {"line": _ARMS, "trains": TRAIN_NAMES, "foot": FOOT_NAMES}
_ACTIONS = ("play", "pass", "draw")
_ENDS = ("domino", "blocked", "unfinished")


def _tile_name(t: int | None) -> str | None:
    return None if t is None else NAME[t]


def _move_out(m: int, n_tiles: int, arms: int = 4) -> int:
    return dense_id(m, n_tiles, arms)


def view_to_dict(view: View) -> dict[str, Any]:
    """The JSON form of ``view`` (only lists, dicts, strings, ints, booleans and None)."""
    lay = view.layout
    n_tiles = SETS[view.pips].n_tiles
    out: dict[str, Any] = {
        "format": FORMAT,
        "variant": view.variant,
        "players": view.players,
        "seat": view.seat,
        "sides": [list(s) for s in view.sides],
        "hand_number": view.hand_number,
        "leader": view.leader,
        "to_move": view.to_move,
        "legal": [_move_out(m, n_tiles, len(_KIND_ARMS[lay.kind])) for m in view.legal],
        "hand": [NAME[t] for t in view.hand],
        "tile_counts": list(view.tile_counts),
        "face_up": [[[pos, NAME[t]] for pos, t in row] for row in view.face_up],
        "turned_up": _tile_name(view.turned_up),
        "peek": _tile_name(view.peek),
        "layout": {
            "first": _tile_name(lay.first),
            "first_left": lay.first_left,
            "arms": {a: [[NAME[p.tile], p.inner, p.outer] for p in ps] for a, ps in lay.arms.items()},
            "ends": dict(lay.ends),
            "double_ends": sorted(lay.double_ends),
            "spinner": lay.spinner,
            "spinner_at": None if lay.spinner_at is None else list(lay.spinner_at),
        },
        "drawable": view.drawable,
        "boneyard_size": view.boneyard_size,
        "history": [[e.seat, e.action, _tile_name(e.tile), e.arm] for e in view.history],
        "totals": list(view.totals),
        "hand_points": list(view.hand_points),
        "over": view.over,
        "end": view.end,
        "revealed": None if view.revealed is None else [[NAME[t] for t in r] for r in view.revealed],
        "blind": view.blind,
        "round_bonus": view.round_bonus,
    }
    if view.pips != 6:
        out["pips"] = view.pips
    if lay.kind != "line":  # written only for the other layouts (a line's form is unchanged)
        out["layout"].update(
            kind=lay.kind,
            hub=_tile_name(lay.hub),
            owners=dict(lay.owners),
            open=sorted(lay.open),
            pending=lay.pending,
            parents={a: list(p) for a, p in lay.parents.items()},
        )
    return out


class _Reader:
    """Reads the fields of one JSON object, naming the bad one in every error."""

    def __init__(self, d: Any) -> None:
        if not isinstance(d, dict):
            raise ValueError("a view must be a JSON object")
        self.d = d

    def get(self, key: str) -> Any:
        if key not in self.d:
            raise ValueError(f"view: missing key {key!r}")
        return self.d[key]

    @staticmethod
    def int_(x: Any, where: str) -> int:
        if type(x) is not int:
            raise ValueError(f"view: {where} must be an integer, not {x!r}")
        return x

    @staticmethod
    def bool_(x: Any, where: str) -> bool:
        if type(x) is not bool:
            raise ValueError(f"view: {where} must be true or false, not {x!r}")
        return x

    @staticmethod
    def list_(x: Any, where: str) -> list[Any]:
        if not isinstance(x, list):
            raise ValueError(f"view: {where} must be a list, not {x!r}")
        return x

    #: the arm names of the view's layout kind
    arms: tuple[str, ...] = _ARMS
    #: the tiles of the view's set (set once ``pips`` is read; layouts are read with it)
    n_tiles = SETS[12].n_tiles

    def tile(self, x: Any, where: str) -> int:
        if not isinstance(x, str) or x not in _TILE:
            raise ValueError(f'view: {where} must be a tile such as "6-4", not {x!r}')
        t = _TILE[x]
        if t >= self.n_tiles:
            top = {28: 6, 55: 9}.get(self.n_tiles, 12)
            raise ValueError(f"view: {where} must be a tile of the view's set (pips 0-{top}), not {x!r}")
        return t

    def opt_tile(self, x: Any, where: str) -> int | None:
        return None if x is None else self.tile(x, where)

    def opt_int(self, x: Any, where: str) -> int | None:
        return None if x is None else self.int_(x, where)

    def ints(self, key: str) -> tuple[int, ...]:
        return tuple(self.int_(x, f"{key}[{i}]") for i, x in enumerate(self.list_(self.get(key), key)))

    def tiles(self, x: Any, where: str) -> tuple[int, ...]:
        return tuple(self.tile(t, f"{where}[{i}]") for i, t in enumerate(self.list_(x, where)))

    def choice(self, x: Any, where: str, allowed: tuple[str, ...]) -> str:
        if x not in allowed:
            raise ValueError(f"view: {where} must be one of {', '.join(allowed)}, not {x!r}")
        return cast(str, x)


def _layout(r: _Reader, x: Any) -> Layout:
    if not isinstance(x, dict):
        raise ValueError("view: layout must be a JSON object")
    lr = _Reader(x)
    arms: dict[str, tuple[Placed, ...]] = {}
    raw_arms = lr.get("arms")
    if not isinstance(raw_arms, dict):
        raise ValueError("view: layout.arms must be a JSON object")
    for a, ps in raw_arms.items():
        r.choice(a, "layout.arms' key", r.arms)
        placed = []
        for i, p in enumerate(r.list_(ps, f"layout.arms.{a}")):
            where = f"layout.arms.{a}[{i}]"
            if not isinstance(p, list) or len(p) != 3:
                raise ValueError(f"view: {where} must be [tile, inner, outer]")
            placed.append(Placed(r.tile(p[0], where), r.int_(p[1], where), r.int_(p[2], where)))
        arms[a] = tuple(placed)
    ends_raw = lr.get("ends")
    if not isinstance(ends_raw, dict):
        raise ValueError("view: layout.ends must be a JSON object")
    ends = {
        r.choice(a, "layout.ends' key", r.arms): r.int_(p, f"layout.ends.{a}") for a, p in ends_raw.items()
    }
    doubles = frozenset(
        r.choice(a, "layout.double_ends[]", r.arms)
        for a in r.list_(lr.get("double_ends"), "layout.double_ends")
    )
    at_raw = lr.get("spinner_at")
    spinner_at = None
    if at_raw is not None:
        if not isinstance(at_raw, list) or len(at_raw) != 2 or not isinstance(at_raw[0], str):
            raise ValueError("view: layout.spinner_at must be [arm, index] or null")
        spinner_at = (at_raw[0], r.int_(at_raw[1], "layout.spinner_at[1]"))
    kind = lr.d.get("kind", "line")
    extra: dict[str, Any] = {}
    if kind != "line":
        owners = lr.get("owners")
        if not isinstance(owners, dict):
            raise ValueError("view: layout.owners must be a JSON object")
        pending = lr.get("pending")
        if pending is not None:
            r.choice(pending, "layout.pending", r.arms)
        extra = dict(
            kind=kind,
            hub=r.opt_tile(lr.get("hub"), "layout.hub"),
            owners={
                r.choice(a, "layout.owners' key", r.arms): r.opt_int(o, f"layout.owners.{a}")
                for a, o in owners.items()
            },
            open=frozenset(
                r.choice(a, "layout.open[]", r.arms) for a in r.list_(lr.get("open"), "layout.open")
            ),
            pending=pending,
            parents=_parents(r, lr.d.get("parents", {})),
        )
    return Layout(
        first=r.opt_tile(lr.get("first"), "layout.first"),
        first_left=r.opt_int(lr.get("first_left"), "layout.first_left"),
        arms=arms,
        ends=ends,
        double_ends=doubles,
        spinner=r.opt_int(lr.get("spinner"), "layout.spinner"),
        spinner_at=spinner_at,
        **extra,
    )


def _parents(r: _Reader, x: Any) -> dict[str, tuple[str, int]]:
    """A chicken foot's toes: toe -> [the arm of its double, the double's index there]."""
    if not isinstance(x, dict):
        raise ValueError("view: layout.parents must be a JSON object")
    out = {}
    for a, p in x.items():
        where = f"layout.parents.{a}"
        r.choice(a, "layout.parents' key", r.arms)
        if not isinstance(p, list) or len(p) != 2:
            raise ValueError(f"view: {where} must be [arm, index]")
        out[a] = (r.choice(p[0], f"{where}[0]", r.arms), r.int_(p[1], f"{where}[1]"))
    return out


def _event(r: _Reader, x: Any, i: int) -> Event:
    where = f"history[{i}]"
    if not isinstance(x, list) or len(x) != 4:
        raise ValueError(f"view: {where} must be [seat, action, tile, arm]")
    arm = x[3]
    if arm is not None:
        r.choice(arm, f"{where}'s arm", r.arms)
    return Event(
        seat=r.int_(x[0], f"{where}'s seat"),
        action=cast(Action, r.choice(x[1], f"{where}'s action", _ACTIONS)),
        tile=r.opt_tile(x[2], f"{where}'s tile"),
        arm=arm,
    )


def view_from_dict(d: Any) -> View:
    """The View that ``view_to_dict`` wrote (ValueError naming the first bad field)."""
    r = _Reader(d)
    if r.get("format") != FORMAT:
        raise ValueError(f"view: format must be {FORMAT}, not {r.get('format')!r}")
    variant = r.get("variant")
    if not isinstance(variant, str):
        raise ValueError(f"view: variant must be a string, not {variant!r}")
    pips = d.get("pips", 6)
    if pips not in SETS or type(pips) is not int:
        raise ValueError(f"view: pips must be one of 6, 9, 12 (the set's highest pip), not {pips!r}")
    n_tiles = r.n_tiles = SETS[pips].n_tiles
    lay_raw = d.get("layout")
    kind = lay_raw.get("kind", "line") if isinstance(lay_raw, dict) else "line"
    if kind not in _KIND_ARMS:
        raise ValueError(f"view: layout.kind must be one of {', '.join(_KIND_ARMS)}, not {kind!r}")
    r.arms = _KIND_ARMS[kind]
    per_tile = len(r.arms)
    legal_ids = r.ints("legal")
    for m in legal_ids:
        if not 0 <= m < per_tile * n_tiles + 2:
            raise ValueError(f"view: legal move {m} is not a move")
    legal = tuple(dense_move(m, n_tiles, per_tile) for m in legal_ids)
    face_up = []
    for i, row in enumerate(r.list_(r.get("face_up"), "face_up")):
        cells = []
        for j, cell in enumerate(r.list_(row, f"face_up[{i}]")):
            where = f"face_up[{i}][{j}]"
            if not isinstance(cell, list) or len(cell) != 2:
                raise ValueError(f"view: {where} must be [position, tile]")
            cells.append((r.int_(cell[0], where), r.tile(cell[1], where)))
        face_up.append(tuple(cells))
    revealed_raw = r.get("revealed")
    revealed = (
        None
        if revealed_raw is None
        else tuple(r.tiles(row, f"revealed[{i}]") for i, row in enumerate(r.list_(revealed_raw, "revealed")))
    )
    end_raw = r.get("end")
    end = None if end_raw is None else cast(HandEnd, r.choice(end_raw, "end", _ENDS))
    return View(
        variant=variant,
        players=r.int_(r.get("players"), "players"),
        seat=r.int_(r.get("seat"), "seat"),
        sides=tuple(
            tuple(r.int_(s, f"sides[{i}]") for s in r.list_(side, f"sides[{i}]"))
            for i, side in enumerate(r.list_(r.get("sides"), "sides"))
        ),
        hand_number=r.int_(r.get("hand_number"), "hand_number"),
        leader=r.int_(r.get("leader"), "leader"),
        to_move=r.opt_int(r.get("to_move"), "to_move"),
        legal=legal,
        hand=r.tiles(r.get("hand"), "hand"),
        tile_counts=r.ints("tile_counts"),
        face_up=tuple(face_up),
        turned_up=r.opt_tile(r.get("turned_up"), "turned_up"),
        peek=r.opt_tile(r.get("peek"), "peek"),
        layout=_layout(r, r.get("layout")),
        drawable=r.int_(r.get("drawable"), "drawable"),
        boneyard_size=r.int_(r.get("boneyard_size"), "boneyard_size"),
        history=tuple(_event(r, e, i) for i, e in enumerate(r.list_(r.get("history"), "history"))),
        totals=r.ints("totals"),
        hand_points=r.ints("hand_points"),
        over=r.bool_(r.get("over"), "over"),
        end=end,
        revealed=revealed,
        blind=r.bool_(r.get("blind"), "blind"),
        round_bonus=r.int_(r.get("round_bonus"), "round_bonus"),
        pips=pips,
    )
