"""How to play: the worked examples that the game picker and the page of each game draw
(served by ``routes.howto``: ``/how-to-play``, ``GET /api/howto/<game>``).

The words are in the catalogues (``static/i18n/<lang>/howto.json``); what is computed here is
every example's position and numbers.  Each example is a real hand: dealt by the engine from a
fixed seed, played with legal moves chosen by a seeded random generator, and stopped where it
shows the point being explained (the first seed whose hand shows it, the shortest such hand
among the first seeds tried).  So every picture is a legal position and every number on the
page is what the engine scores."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from ...engine.game import Game
from ...engine.hand import Hand
from ...engine.tiles import ARM_NAMES, DRAW, HI, LO, NAME, PASS, arm_of, bits, mask_pips, tile_of
from ...engine.variant import DEFAULT_PLAYERS, ENGINE_VARIANTS, PLAYER_COUNTS
from ...engine.view import hand_view
from ..protocol import layout_json

STATIC = Path(__file__).parents[1] / "static"
#: seeds tried for each example (the search stops early once enough hands showed it)
SEEDS = 4000
#: hands showing the point that are compared before the shortest is kept
ENOUGH = 12

Tile = dict[str, Any]  # {"tile": "6-4" or None for a face-down tile, "mark": bool}
Example = dict[str, Any]


# ---------------------------------------------------------------------------- playing hands
def _hands(name: str, seeds: int = SEEDS) -> Iterator[tuple[Hand, random.Random]]:
    """The first hand of a game of ``name`` (default players and rules) for each seed, with
    the generator that picks its moves."""
    for seed in range(seeds):
        yield Game.new(name, seed=seed).hand, random.Random(seed)


def _step(h: Hand, rng: random.Random) -> int:
    """Play one legal move chosen at random (a voluntary pass only when nothing else is
    possible, so that the hands of the Passing Game move on)."""
    legal = h.legal_moves()
    plays = [m for m in legal if m < PASS]
    m = rng.choice(plays) if plays else (DRAW if DRAW in legal else legal[0])
    h.apply(m)
    return m


def _finished(h: Hand, rng: random.Random) -> Hand:
    while not h.over:
        _step(h, rng)
    return h


def _search(name: str, find: Callable[[Hand, random.Random], Example | None]) -> Example:
    """The example ``find`` builds from the hand with the fewest tiles on the table among the
    first hands that show it (``find`` plays the hand itself and returns None if it does not)."""
    best: Example | None = None
    found = 0
    for h, rng in _hands(name):
        ex = find(h, rng)
        if ex is None:
            continue
        found += 1
        if best is None or ex["size"] < best["size"]:
            best = ex
        if found >= ENOUGH:
            break
    if best is None:
        raise RuntimeError(f"no hand of {name} shows this example")
    return best


# ---------------------------------------------------------------------------- shapes
def _layout(h: Hand) -> dict[str, Any]:
    return dict(layout_json(hand_view(h, 0)))


def _tiles(ts: list[int], mark: int | None = None) -> list[Tile]:
    return [{"tile": NAME[t], "mark": t == mark} for t in ts]


def _row(label: str, tiles: list[Tile], **params: Any) -> dict[str, Any]:
    return {"label": label, "params": params, "tiles": tiles}


def _example(
    id_: str,
    board: Hand,
    *,
    marks: list[str] | None = None,
    last: str | None = None,
    rows: list[dict[str, Any]] | None = None,
    values: dict[str, Any] | None = None,
) -> Example:
    """An example: the table of ``board`` with the ends ``marks`` marked and the tile ``last``
    (on the table) highlighted, rows of tiles, and the numbers its words show."""
    return {
        "id": id_,
        "board": _layout(board),
        "marks": list(marks or []),
        "last": last,
        "rows": rows or [],
        "values": values or {},
        "size": board.placed,
    }


def _last_played(h: Hand) -> tuple[int, int]:
    """The seat and the tile of the hand's last move (a play)."""
    seat, m, _ = h.log[-1]
    return seat, tile_of(m)


def _seat_rows(h: Hand, winner_seats: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    """Every seat's tiles left at the end of a hand, with its pips."""
    out = []
    for s in range(h.n):
        label = "howto.row.player_team" if h.v.teams else "howto.row.player"
        team = h.v.side_of(s) + 1
        out.append(_row(label, _tiles(bits(h.masks[s])), player=s + 1, team=team, pips=mask_pips(h.masks[s])))
        out[-1]["won"] = s in winner_seats
    return out


def _sum_formula(parts: list[int]) -> str:
    return " + ".join(map(str, parts)) if parts else "0"


# ---------------------------------------------------------------------------- the examples
def _last_tile_bonus(kind: str) -> Callable[[Hand, random.Random], Example | None]:
    """Quinientos: a hand won by going out whose last tile earned ``kind`` (capicú or
    chuchazo): the table just before that tile, its ends marked, and the other team's tiles."""

    def find(h: Hand, rng: random.Random) -> Example | None:
        _finished(h, rng)
        res = h.result
        if res is None or res.end != "domino" or not res.breakdown.get(kind):
            return None
        before = h.copy()
        before.undo()  # the table just before the last tile
        seat, last = _last_played(h)
        # the hands whose pips the winners score: the other team's, or every other hand
        # where partners' pips count too (Dominican)
        losers = tuple(
            s
            for s in range(h.n)
            if s != seat and (h.v.count_partner_pips or h.v.side_of(s) != h.v.side_of(seat))
        )
        bd = res.breakdown
        ends = before.ends()
        rows = [_row("howto.row.last_tile", _tiles([last], last), player=seat + 1)]
        rows += [r for r in _seat_rows(h) if int(r["params"]["player"]) - 1 in losers]
        return _example(
            kind,
            before,
            marks=[a for a in ends if last in _fitting(before, a)],
            rows=rows,
            values={
                "tile": NAME[last],
                "left": ends.get("L"),
                "right": ends.get("R"),
                "player": seat + 1,
                "team": h.v.side_of(seat) + 1,
                "base": bd["base"],
                "bonus": bd["round_bonus"],
                "extra": bd[kind],
                "total": res.points[h.v.side_of(seat)],
            },
        )

    return find


def _fitting(h: Hand, arm: str) -> set[int]:
    """Tiles that fit the open end ``arm``."""
    p = h.ends()[arm]
    return {t for t in range(28) if p in (HI[t], LO[t])}


def _blocked(h: Hand, rng: random.Random) -> Example | None:
    """A blocked hand with a winner: every seat's tiles and what the winner scores."""
    _finished(h, rng)
    res = h.result
    if res is None or res.end != "blocked" or res.winner is None or not res.points[res.winner]:
        return None
    v = h.v
    pips = [mask_pips(x) for x in h.masks]
    if v.teams:
        side = [sum(pips[s] for s in seats) for seats in v.sides]
        w = res.winner
        values = {
            "team": w + 1,
            "low": side[w],
            "high": side[1 - w],
            "points": res.points[w],
            "formula": _sum_formula([pips[s] for s in v.sides[1 - w]]),
        }
        winners = v.sides[w]
    else:
        w = res.winner
        own = pips[w]
        others = [pips[s] for s in range(h.n) if s != w]
        if v.formula == "each":
            formula = " + ".join(f"({o} − {own})" for o in others)
        else:
            formula = f"{_sum_formula(others)} − {own}"
        values = {"player": w + 1, "low": own, "points": res.points[w], "formula": formula}
        winners = (w,)
    return _example("blocked", h, rows=_seat_rows(h, winners), values=values)


def _domino(h: Hand, rng: random.Random) -> Example | None:
    """A hand won by going out: what was left in the other hands and the winner's score."""
    _finished(h, rng)
    res = h.result
    if res is None or res.end != "domino" or res.dominoer is None or res.winner is None:
        return None
    d = res.dominoer
    others = [mask_pips(h.masks[s]) for s in range(h.n) if s != d]
    if h.v.teams or 0 in others:
        return None
    rows = [r for r in _seat_rows(h) if r["params"]["player"] != d + 1]
    last = NAME[_last_played(h)[1]]
    return _example(
        "domino",
        h,
        rows=rows,
        values={
            "player": d + 1,
            "tile": last,
            "points": res.points[res.winner],
            "formula": _sum_formula(others),
        },
        last=last,
    )


def _lowest(h: Hand, rng: random.Random) -> Example | None:
    """Lowest-pips scoring (the Passing Game, Blind Hugie): a hand with a winner who did not
    go out, so that both parts of "the others' pips minus your own" show."""
    _finished(h, rng)
    res = h.result
    if res is None or res.winner is None or h.v.teams:
        return None
    w = res.winner
    own = mask_pips(h.masks[w])
    if not own or not res.points[w]:
        return None
    others = [mask_pips(h.masks[s]) for s in range(h.n) if s != w]
    ex = _example(
        "score",
        h,
        rows=_seat_rows(h, (w,)),
        values={
            "player": w + 1,
            "low": own,
            "points": res.points[w],
            "formula": f"{_sum_formula(others)} − {own}",
        },
    )
    ex["values"]["end"] = res.end
    return ex


def _spinner(h: Hand, rng: random.Random) -> Example | None:
    """Cinque: the first moment all four sides of the spinner hold a tile."""
    while not h.over:
        _step(h, rng)
        if h.spin >= 0 and all(h.occ):
            lay = _layout(h)
            if sum(len(a) for a in lay["arms"].values()) + 1 != h.placed:
                return None
            return _example("spinner", h, values={"spinner": f"{h.spin}-{h.spin}"})
    return None


def _count(h: Hand, rng: random.Random) -> Example | None:
    """Cinque: a play that makes the ends add up to a multiple of five, with at least three
    ends out and a double at one of them (so that every way of counting shows)."""
    while not h.over:
        seat = h.to_move
        m = _step(h, rng)
        pts = h.count_points()
        if m >= PASS or pts < 10:
            continue
        arms = [a for a in range(4) if h.occ[a]]
        if len(arms) < 3 or not any(h.dbl[a] for a in arms) or h.placed > 12:
            continue
        parts = [f"({h.pip[a]} + {h.pip[a]})" if h.dbl[a] else str(h.pip[a]) for a in arms]
        return _example(
            "count",
            h,
            last=NAME[tile_of(m)],
            values={
                "tile": NAME[tile_of(m)],
                "formula": " + ".join(parts),
                "count": pts,
                "player": seat + 1,
                "team": h.v.side_of(seat) + 1,
            },
        )
    return None


def _draws(h: Hand, rng: random.Random) -> Example | None:
    """Draw: a turn with two or more draws before a tile fits and is played."""
    while not h.over:
        if h.placed >= 3 and h.legal_moves() == [DRAW] and len(set(h.ends().values())) == 2:
            before = h.copy()
            seat = h.to_move
            hand = bits(h.masks[seat])
            drawn = []
            while not h.over and h.to_move == seat and h.legal_moves() == [DRAW]:
                h.apply(DRAW)
                drawn.append(h.log[-1][2])
            if h.over or h.to_move != seat or len(drawn) < 2:
                return None
            m = _step(h, rng)
            if m >= PASS:
                return None
            ends = before.ends()
            return _example(
                "draw",
                before,
                marks=[ARM_NAMES[arm_of(m)]],
                rows=[
                    _row("howto.row.hand", _tiles(hand)),
                    _row("howto.row.drawn", _tiles(drawn, tile_of(m))),
                ],
                values={
                    "left": ends["L"],
                    "right": ends["R"],
                    "drawn": len(drawn),
                    "tile": NAME[tile_of(m)],
                },
            )
        _step(h, rng)
    return None


def _choices(h: Hand, rng: random.Random) -> Example | None:
    """The Passing Game: a turn where the player could play, draw or pass."""
    while not h.over:
        legal = h.legal_moves()
        plays = [m for m in legal if m < PASS]
        if (
            h.placed >= 3
            and plays
            and DRAW in legal
            and PASS in legal
            and len({tile_of(m) for m in plays}) == 1
        ):
            seat = h.to_move
            ends = h.ends()
            t = tile_of(plays[0])
            return _example(
                "turn",
                h,
                marks=[ARM_NAMES[arm_of(m)] for m in plays],
                rows=[_row("howto.row.hand", _tiles(bits(h.masks[seat]), t))],
                values={
                    "left": ends["L"],
                    "right": ends["R"],
                    "tile": NAME[t],
                    "boneyard": h.draw_end - h.bpos + h.v.draw_reserve,
                    "drawable": h.drawable(),
                },
            )
        _step(h, rng)
    return None


def _row_tiles(h: Hand, seat: int, shown: dict[int, bool]) -> list[Tile]:
    """A face-down row, front first, with the tiles in ``shown`` face up (marked or not)."""
    rows = h.rows or []
    return [{"tile": NAME[t] if t in shown else None, "mark": shown.get(t, False)} for t in rows[seat]]


def _flip(h: Hand, rng: random.Random) -> Example | None:
    """Blind Hugie: a turned-up tile that does not fit and goes to the back of the row."""
    while not h.over:
        if h.placed >= 3 and h.legal_moves() == [PASS]:
            seat = h.to_move
            t = h.turned_up()
            assert t is not None
            before = _row_tiles(h, seat, {t: True})
            board = h.copy()
            h.apply(PASS)
            after = _row_tiles(h, seat, {})
            after[-1]["mark"] = True  # the same tile, face down again at the back
            ends = board.ends()
            return _example(
                "flip",
                board,
                rows=[_row("howto.row.row_before", before), _row("howto.row.row_after", after)],
                values={"tile": NAME[t], "left": ends["L"], "right": ends["R"]},
            )
        _step(h, rng)
    return None


def _peek(h: Hand, rng: random.Random) -> Example | None:
    """Billitonnen: a turned-up tile that fits both ends, where the next tile (the peek) fits
    only if the first goes on one of them."""
    while not h.over:
        view = hand_view(h, h.to_move)
        if view.peek is not None and h.turned_up() is not None:
            t = h.turned_up()
            assert t is not None
            nxt = view.peek
            legal = h.legal_moves()
            good = []
            for m in legal:
                after = h.copy()
                after.lay(m)
                if after.fits(nxt):
                    good.append(m)
            if len(legal) == 2 and len(good) == 1 and h.placed >= 3:
                m = good[0]
                seat = h.to_move
                ends = h.ends()
                after = h.copy()
                after.lay(m)
                return _example(
                    "peek",
                    h,
                    marks=[ARM_NAMES[arm_of(x)] for x in legal],
                    rows=[_row("howto.row.row_peek", _row_tiles(h, seat, {t: True, nxt: False}))],
                    values={
                        "tile": NAME[t],
                        "next": NAME[nxt],
                        "left": ends["L"],
                        "right": ends["R"],
                        "end": after.ends()[ARM_NAMES[arm_of(m)]],
                    },
                )
        _step(h, rng)
    return None


def _chain(h: Hand, rng: random.Random) -> Example | None:
    """Billitonnen: a turn of two or more tiles that fit, ended by a double that does not
    (it goes back to the row face up)."""
    while not h.over:
        seat = h.to_move
        if h.placed >= 2 and h.legal_moves() != [PASS]:
            before = h.copy()
            turned: list[int] = []
            while not h.over and h.to_move == seat:
                t = h.turned_up()
                assert t is not None
                turned.append(t)
                _step(h, rng)
            last = turned[-1]
            if h.over or len(turned) < 3 or HI[last] != LO[last]:
                return None
            ends = before.ends()
            return _example(
                "chain",
                before,
                rows=[_row("howto.row.turned", _tiles(turned, last))],
                values={
                    "left": ends["L"],
                    "right": ends["R"],
                    "played": len(turned) - 1,
                    "tiles": ", ".join(NAME[t] for t in turned[:-1]),
                    "tile": NAME[last],
                },
            )
        _step(h, rng)
    return None


# ---------------------------------------------------------------------------- scoring games
def _ends_sum(h: Hand) -> str:
    """The ends' count as a sum, each end as it counts (a double at an end twice, the
    spinner twice while fewer than two of its sides hold a tile): "(4 + 4) + 3"."""
    parts = [f"({h.pip[a]} + {h.pip[a]})" if h.dbl[a] else str(h.pip[a]) for a in range(4) if h.occ[a]]
    if h.spin >= 0 and sum(h.occ) < 2:
        parts.append(f"({h.spin} + {h.spin})")
    return " + ".join(parts)


def _scored_play(h: Hand, rng: random.Random) -> tuple[int, int, int] | None:
    """Play one move; for a tile that scored from the ends' count, (seat, tile, points
    scored), read from the points the engine scored in play."""
    seat = h.to_move
    side = h.v.side_of(seat)
    before = h.inplay[side]
    m = _step(h, rng)
    if m >= PASS or h.inplay[side] == before:
        return None
    return seat, tile_of(m), h.inplay[side] - before


def _count_scored(arms: int, least: int) -> Callable[[Hand, random.Random], Example | None]:
    """The games that score the ends' count when a multiple of five: a play that scores at
    least ``least``, with ``arms`` ends out, one of them a double (so that every way of
    counting shows)."""

    def find(h: Hand, rng: random.Random) -> Example | None:
        while not h.over:
            scored = _scored_play(h, rng)
            if scored is None:
                continue
            seat, t, pts = scored
            out = [a for a in range(4) if h.occ[a]]
            if pts < least or len(out) < arms or not any(h.dbl[a] for a in out) or not 3 <= h.placed <= 12:
                continue
            if h.count() != pts:  # something else scored with it: not a plain example
                return None
            return _example(
                "count",
                h,
                last=NAME[t],
                values={
                    "tile": NAME[t],
                    "formula": _ends_sum(h),
                    "points": pts,
                    "player": seat + 1,
                    "team": h.v.side_of(seat) + 1,
                },
            )
        return None

    return find


def _rounded_domino(h: Hand, rng: random.Random) -> Example | None:
    """All Fives, Muggins: a hand won by going out, whose player scores the other hands'
    pips rounded to the nearest five (shown where the rounding changes the number)."""
    _finished(h, rng)
    res = h.result
    if res is None or res.end != "domino" or res.dominoer is None or h.v.teams:
        return None
    d = res.dominoer
    others = [mask_pips(h.masks[s]) for s in range(h.n) if s != d]
    points = res.breakdown.get("hand_end", 0)
    if not points or sum(others) % 5 == 0:
        return None
    last = NAME[_last_played(h)[1]]
    return _example(
        "domino",
        h,
        rows=[r for r in _seat_rows(h) if r["params"]["player"] != d + 1],
        values={
            "player": d + 1,
            "tile": last,
            "parts": _sum_formula(others),
            "pips": sum(others),
            "points": points,
        },
        last=last,
    )


def _fives_and_threes(double: bool) -> Callable[[Hand, random.Random], Example | None]:
    """Fives and Threes: a play whose ends' total both five and three go into (``double``
    False), or one that scores with a double at an end and only one of them (True)."""

    def find(h: Hand, rng: random.Random) -> Example | None:
        while not h.over:
            scored = _scored_play(h, rng)
            if scored is None or h.placed < 3 or h.placed > 14:
                continue
            seat, t, pts = scored
            total = h.count()
            both = total % 15 == 0
            at_double = any(h.dbl[a] for a in range(4) if h.occ[a])
            if both == double or (double and not at_double) or h.over:
                continue
            values: dict[str, Any] = {
                "tile": NAME[t],
                "ends": _ends_sum(h),
                "total": total,
                "points": pts,
                "player": seat + 1,
                "team": h.v.side_of(seat) + 1,
            }
            if not double:
                values.update(fives=total // 5, threes=total // 3, formula=f"{total // 5} + {total // 3}")
            return _example("double" if double else "count", h, last=NAME[t], values=values)
        return None

    return find


def _team_domino(h: Hand, rng: random.Random) -> Example | None:
    """Partnership block games (Cuban): a hand won by going out; the winners score the pips
    left in the other team's two hands."""
    _finished(h, rng)
    res = h.result
    if res is None or res.end != "domino" or res.dominoer is None or res.winner is None:
        return None
    d = res.dominoer
    side = h.v.side_of(d)
    losers = [s for s in range(h.n) if h.v.side_of(s) != side]
    last = NAME[_last_played(h)[1]]
    return _example(
        "domino",
        h,
        rows=[r for r in _seat_rows(h) if int(r["params"]["player"]) - 1 in losers],
        values={
            "player": d + 1,
            "team": side + 1,
            "tile": last,
            "formula": _sum_formula([mask_pips(h.masks[s]) for s in losers]),
            "points": res.points[side],
        },
        last=last,
    )


def _capicu(h: Hand, rng: random.Random) -> Example | None:
    """Dominican: a capicúa: every pip left + the capicúa is what going out scored (points
    from a pase redondo earlier in the hand are not part of it)."""
    ex = _last_tile_bonus("capicu")(h, rng)
    if ex is not None:
        v = ex["values"]
        v["total"] = v["base"] + v["extra"]  # what going out scored (a pase redondo is apart)
    return ex


def _pase_redondo(h: Hand, rng: random.Random) -> Example | None:
    """Dominican: a play after which every other player passes (the *pase redondo*), scored
    by the engine as the last of those passes is made."""
    while not h.over:
        before = list(h.inplay)
        m = _step(h, rng)
        gained = [b - a for a, b in zip(before, h.inplay, strict=True)]
        if not any(gained):
            continue
        seat, play, t = h.log[-h.n]
        if m != PASS or play >= PASS or any(x != PASS for _, x, _ in h.log[-h.n + 1 :]) or h.placed < 3:
            return None
        side = h.v.side_of(seat)
        return _example(
            "pase",
            h,
            last=NAME[t],
            values={"player": seat + 1, "team": side + 1, "tile": NAME[t], "points": gained[side]},
        )
    return None


# The train games (Mexican Train, Chicken Foot) read their layout as the server sends it
# (``layout_json``: trains' ``open`` markers, the ``pending`` double, a foot's ``parents``).
def _marker(h: Hand, rng: random.Random) -> Example | None:
    """Mexican Train: a player draws, still cannot play, and a marker goes on their train."""
    while not h.over:
        before = set(_layout(h).get("open") or [])
        seat = h.to_move
        m = _step(h, rng)
        lay = _layout(h)
        own = str(seat + 1)
        if m != PASS or own in before or own not in (lay.get("open") or []):
            continue
        drawn = [t for s, x, t in h.log if s == seat and x == DRAW]
        if not drawn or h.log[-2][1] != DRAW:
            return None  # the marker must follow a draw that did not fit
        return _example("marker", h, values={"player": seat + 1, "tile": NAME[drawn[-1]]})
    return None


def _double_to_cover(h: Hand, rng: random.Random) -> Example | None:
    """Mexican Train: a double just played, which must be covered before anything else."""
    while not h.over:
        seat = h.to_move
        m = _step(h, rng)
        if m >= PASS or h.placed < 4:
            continue
        t = tile_of(m)
        if HI[t] != LO[t] or not _layout(h).get("pending"):
            continue
        return _example(
            "double", h, last=NAME[t], values={"player": seat + 1, "tile": NAME[t], "pips": HI[t]}
        )
    return None


def _foot(h: Hand, rng: random.Random) -> Example | None:
    """Chicken Foot: the moment a double (not the hub) gets its third toe."""
    while not h.over:
        m = _step(h, rng)
        if m >= PASS:
            continue
        lay = _layout(h)
        parents = lay.get("parents") or {}
        played = NAME[tile_of(m)]
        # the toe this tile started, if it started one
        started = [
            a for a, p in parents.items() if p and [x["tile"] for x in lay["arms"].get(a, [])] == [played]
        ]
        if not started:
            continue
        arm, i = parents[started[0]]
        # the double's three toes (made when it was laid) each have their tile now
        toes = [a for a, p in parents.items() if p and (p[0], p[1]) == (arm, i)]
        if len(toes) != 3 or not all(lay["arms"].get(a) for a in toes):
            continue
        double = lay["arms"][arm][i]
        return _example("foot", h, last=played, values={"tile": double["tile"], "pips": double["outer"]})
    return None


def _going_out(h: Hand, rng: random.Random) -> Example | None:
    """A hand won by going out, where the pips left count against each of the others."""
    _finished(h, rng)
    res = h.result
    if res is None or res.end != "domino" or res.dominoer is None:
        return None
    d = res.dominoer
    last = NAME[_last_played(h)[1]]
    rows = [r for r in _seat_rows(h) if r["params"]["player"] != d + 1]
    return _example("score", h, rows=rows, last=last, values={"player": d + 1, "tile": last})


Finder = Callable[[Hand, random.Random], Example | None]
#: each game's examples, in the order its page shows them
ALL_PAGES: dict[str, tuple[Finder, ...]] = {
    "quinientos": (_last_tile_bonus("capicu"), _last_tile_bonus("chuchazo"), _blocked),
    "cinque": (_spinner, _count),
    "draw": (_draws, _blocked),
    "block": (_domino, _blocked),
    "passing": (_choices, _lowest),
    "blind-hugie": (_flip, _lowest),
    "billitonnen": (_chain, _peek),
    "all-fives": (_count_scored(3, 10), _rounded_domino),
    "muggins": (_count_scored(2, 5), _rounded_domino),
    "fives-and-threes": (_fives_and_threes(False), _fives_and_threes(True)),
    "cuban": (_team_domino, _blocked),
    "dominican": (_capicu, _pase_redondo),
    "mexican-train": (_marker, _double_to_cover),
    "chicken-foot": (_foot, _going_out),
}
#: the pages the site shows: the games it offers (a game the engine does not know yet, or
#: does not offer yet, is left out)
PAGES = {name: finders for name, finders in ALL_PAGES.items() if name in ENGINE_VARIANTS}


@cache
def examples(name: str) -> list[Example]:
    """The worked examples of game ``name`` (KeyError for a game we do not have)."""
    out = []
    for find in PAGES[name]:
        ex = dict(_search(name, find))
        ex.pop("size")
        out.append(ex)
    return out


def game_facts(name: str) -> dict[str, Any]:
    """The few facts the picker shows beside the words: player counts."""
    return {"name": name, "players": list(PLAYER_COUNTS[name]), "default_players": DEFAULT_PLAYERS[name]}
