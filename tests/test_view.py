"""Hidden information: what `Game.view(seat)` may show (RULES.md §0.5, §5.3, §6.2; view.py).

Random games of every variant and player count are played with random legal moves; at every
step every seat's view is checked against the full state:
* non-blind games: the seat's own tiles, and never a tile held by another seat or still in the
  boneyard (draws by other seats carry no tile);
* blind games (§5.3 "Nobody, including the owner, may see face-down tiles"): no tiles at all in
  `hand`; only the turned-up tile (public), face-up doubles (public) and, in Billitonnen, the
  peek of the player to move (§6.2 step 3) are visible;
* tile counts, the turned-up tile, face-up doubles, the peek, `legal`, `revealed`;
* nothing reachable from a View object is the Hand or the Game or one of their containers.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from bonepile import Game
from bonepile.engine import DRAW, PASS, Hand
from bonepile.engine.tiles import HI, IS_DOUBLE, LO, tile_of
from bonepile.engine.view import hand_view
from support import BLIND_HUGIE_ALL_OPTIONS

CASES = [
    ("quinientos", {}),
    ("quinientos", {"first_lead": "any"}),
    ("cinque", {}),
    ("cinque", {"spinner_any_order": True}),
    *[("draw", {"players": n}) for n in (2, 3, 4)],
    ("draw", {"players": 4, "teams": True}),
    ("draw", {"players": 3, "boneyard_reserve": 2}),
    *[("block", {"players": n}) for n in (2, 3, 4)],
    *[("passing", {"players": n}) for n in (2, 3, 4)],
    ("passing", {"players": 4, "teams": True}),
    ("passing", {"players": 3, "draw_ends_turn": False}),
    *[("blind-hugie", {"players": n}) for n in (2, 3, 4)],
    *[("blind-hugie", {"players": n, "deal": "full", "tiles_per_turn": "while_playable"}) for n in (2, 3, 4)],
    *[("blind-hugie", {"players": n, "unplayable_doubles_face_up": True}) for n in (2, 3, 4)],
    ("blind-hugie", {"players": 3, "deal": "full", "full_deal_starter": True}),
    ("blind-hugie", dict(BLIND_HUGIE_ALL_OPTIONS)),
    ("blind-hugie", {"players": 4, "teams": True, "row_side": "left"}),
    *[("billitonnen", {"players": n}) for n in (3, 4, 5)],
]
SEEDS = range(3)
MAX_MOVES = 160


def _case_id(case):
    v, o = case
    return v + "-" + "-".join(f"{k}={x}" for k, x in o.items())


def face_up_rule(g: Game) -> bool:
    return g.variant.name == "billitonnen" or bool(g.variant.options.get("unplayable_doubles_face_up"))


def expected_face_up(g: Game, h: Hand) -> set[int]:
    """Doubles turned up, found unplayable and put back face up, not played since."""
    out: set[int] = set()
    if h.rows is None or not face_up_rule(g):
        return out
    for _s, m, t in h.log:
        if m == PASS and t >= 0 and IS_DOUBLE[t]:
            out.add(t)
        elif m < PASS:
            out.discard(tile_of(m))
    return out


def fits_both(h: Hand, t: int) -> bool:
    e = h.ends()
    return len(e) == 2 and all(p in (HI[t], LO[t]) for p in e.values())


def layout_tiles(layout) -> set[int]:
    out = {p.tile for arm in layout.arms.values() for p in arm}
    if layout.first is not None:
        out.add(layout.first)
    return out


def check_view(g: Game, h: Hand, seat: int) -> None:
    v = hand_view(h, seat) if h is not g.hand else g.view(seat)
    n = g.variant.players
    blind = h.rows is not None
    held = [set(h.held(s)) for s in range(n)]
    undrawn = set(h.boneyard[h.bpos :])
    turned = h.rows[h.to_move][0] if blind and not h.over else None
    faceup = expected_face_up(g, h)
    peek = None
    if (
        g.variant.name == "billitonnen"
        and not h.over
        and h.to_move == seat
        and h.ends()
        and fits_both(h, turned)
        and len(h.rows[seat]) > 1
    ):
        peek = h.rows[seat][1]
    hidden = set(undrawn)
    for s in range(n):
        if s != seat or blind:
            hidden |= held[s]
    hidden -= faceup
    hidden.discard(turned)
    hidden.discard(peek)
    where = f"{g.variant.name} {dict(g.variant.options)} seat {seat}, move {len(h.log)}"

    # own tiles
    if blind:
        assert v.hand == (), f"{where}: a blind seat sees its own face-down tiles"
    else:
        assert set(v.hand) == held[seat] and len(v.hand) == len(held[seat]), f"{where}: own hand"
    assert v.tile_counts == tuple(len(h.held(s)) for s in range(n)), f"{where}: tile_counts"
    assert v.boneyard_size == len(undrawn), f"{where}: boneyard_size"
    if blind:
        assert v.drawable == 0, f"{where}: nothing is drawn in a blind game"

    # history: plays are public, other seats' draws are not; blind passes name the tile that
    # was turned up (it was face up for everyone to see before going back)
    assert len(v.history) == len(h.log), f"{where}: history length"
    for i, (ev, (s, m, t)) in enumerate(zip(v.history, h.log)):
        assert ev.seat == s, f"{where}: event {i} seat"
        if m == DRAW:
            assert ev.action == "draw"
            assert ev.tile == (t if s == seat else None), (
                f"{where}: event {i}: draw by seat {s} shows {ev.tile}"
            )
        elif m == PASS:
            assert ev.action == "pass"
            assert ev.tile == (t if blind else None), f"{where}: event {i}: pass shows {ev.tile}"
        else:
            assert ev.action == "play" and ev.tile == tile_of(m), f"{where}: event {i}: play"
            assert ev.tile not in hidden
        if ev.action != "pass" and ev.tile is not None:
            assert ev.tile not in hidden, f"{where}: event {i} reveals hidden tile {ev.tile}"

    # blind-game public information
    assert v.turned_up == turned, f"{where}: turned_up {v.turned_up} vs {turned}"
    assert v.peek == peek, f"{where}: peek {v.peek}, expected {peek}"
    assert len(v.face_up) == n
    for s in range(n):
        shown = {t for _pos, t in v.face_up[s]}
        assert all(IS_DOUBLE[t] for t in shown), f"{where}: a non-double is face up in row {s}"
        assert shown == (faceup & held[s]), f"{where}: face-up doubles of row {s}: {shown}"
        for pos, t in v.face_up[s]:
            assert h.rows[s][pos] == t, f"{where}: face-up {t} is not at position {pos} of row {s}"

    # the table and the result
    assert not (layout_tiles(v.layout) & (hidden | undrawn)), f"{where}: the layout shows a hidden tile"
    assert not (set(v.hand) & hidden), f"{where}: hand shows another seat's tile"
    if h.over:
        assert v.revealed is not None and [set(r) for r in v.revealed] == held, f"{where}: revealed"
    else:
        assert v.revealed is None, f"{where}: revealed before the hand is over"

    # moves
    if not h.over and h.to_move == seat and h is g.hand and not g.over:
        assert v.to_move == seat
        assert tuple(v.legal) == tuple(g.legal_moves()) and v.legal, f"{where}: legal"
    else:
        assert v.legal == (), f"{where}: legal moves shown to a seat that is not to move"

    check_no_backrefs(v, h, g)


_LEAVES = (int, float, str, bytes, bool, type(None))


def check_no_backrefs(view, h: Hand, g: Game) -> None:
    """Walk every object reachable from the view; none may be the Hand, the Game, or one of
    their (non-empty) containers."""
    forbidden = {id(h): "Hand", id(g): "Game", id(g.hands): "Game.hands"}
    for name in (
        "rows",
        "hands",
        "log",
        "face_up",
        "boneyard",
        "deal_rows",
        "pip",
        "occ",
        "dbl",
        "inplay",
        "given_tokens",
    ):
        x = getattr(h, name, None)
        if isinstance(x, (list, tuple, dict, set)) and len(x):
            forbidden[id(x)] = f"Hand.{name}"
            if name in ("rows", "deal_rows"):
                for r in x:
                    if len(r):
                        forbidden[id(r)] = f"Hand.{name}[i]"
    seen: set[int] = set()
    stack = [("view", view)]
    while stack:
        path, obj = stack.pop()
        if isinstance(obj, _LEAVES):
            continue
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        assert not isinstance(obj, (Hand, Game)), f"{path} is a {type(obj).__name__}"
        assert id(obj) not in forbidden, f"{path} is the game's own {forbidden[id(obj)]}"
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            for f in dataclasses.fields(obj):
                stack.append((f"{path}.{f.name}", getattr(obj, f.name)))
        elif isinstance(obj, dict):
            for k, x in obj.items():
                stack.append((f"{path}[{k!r}].key", k))
                stack.append((f"{path}[{k!r}]", x))
        elif isinstance(obj, (list, tuple, set, frozenset)):
            for i, x in enumerate(obj):
                stack.append((f"{path}[{i}]", x))
        else:
            for attr in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, attr):
                    stack.append((f"{path}.{attr}", getattr(obj, attr)))
            if hasattr(obj, "__dict__") and not isinstance(obj, type):
                for k, x in vars(obj).items():
                    stack.append((f"{path}.{k}", x))
            if hasattr(obj, "__self__"):
                stack.append((f"{path}.__self__", obj.__self__))
            for i, cell in enumerate(getattr(obj, "__closure__", None) or ()):
                stack.append((f"{path}.__closure__[{i}]", cell.cell_contents))


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_view_hides_what_a_seat_may_not_know(case):
    variant, options = case
    for seed in SEEDS:
        rng = random.Random(1000 + seed)
        g = Game.new(variant, options, seed=seed)
        n = g.variant.players
        moves = 0
        while True:
            h = g.hand
            for seat in range(n):
                check_view(g, h, seat)
            if g.over or moves >= MAX_MOVES:
                break
            legal = g.legal_moves()
            assert legal and g.to_move is not None
            g.apply(rng.choice(legal))
            moves += 1
            if h.over:  # the hand just ended (a new one may have been dealt): its final view
                assert h.result is not None
                for seat in range(n):
                    check_view(g, h, seat)


def test_view_of_every_finished_hand_reveals_everything_and_legal_empty():
    g = Game.new("blind-hugie", {"players": 2}, seed=11)
    rng = random.Random(5)
    while not g.over:
        g.apply(rng.choice(g.legal_moves()))
    for h in g.hands:
        for seat in range(2):
            v = hand_view(h, seat)
            assert v.over and v.legal == () and v.to_move is None and v.turned_up is None
            assert [sorted(r) for r in v.revealed] == [sorted(h.held(s)) for s in range(2)]


@pytest.mark.parametrize("variant,players", [("billitonnen", 4), ("draw", 2), ("blind-hugie", 3)])
def test_view_of_a_seat_that_does_not_exist_is_an_error(variant, players):
    g = Game.new(variant, {"players": players}, seed=1)
    with pytest.raises(ValueError):
        g.view(players)
    with pytest.raises(ValueError):
        g.view(-1)


def test_view_is_a_snapshot_later_moves_do_not_change_it():
    g = Game.new("billitonnen", {"players": 4}, seed=2)
    v = g.view(g.to_move)
    before = (v.tile_counts, dict(v.layout.ends), len(v.history), v.turned_up, v.face_up, v.legal)
    rng = random.Random(0)
    for _ in range(10):
        if g.over:
            break
        g.apply(rng.choice(g.legal_moves()))
    assert (v.tile_counts, dict(v.layout.ends), len(v.history), v.turned_up, v.face_up, v.legal) == before
