"""An independent move generator for every variant, written from RULES.md only.

Small, slow and meant to be obviously correct: it does not use the engine's hand logic
(``bonepile.engine.hand``) or its ``Variant`` components; the rules of each game are read
off its name and options here, section by section.  A state is plain lists and dicts,
copied whole on every move.

Moves are tuples: ``("lead", "6-4")`` (the first tile of a layout, laid ``[6|4]``, §0.3),
``("play", "6-4", "R")`` (a tile on an arm, §0.3/§0.4), ``("draw",)`` and ``("pass",)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

Tile = tuple[int, int]  # (high, low)
Move = tuple[str, ...]

DEFAULT_PLAYERS = {
    "quinientos": 4,
    "cinque": 4,
    "draw": 4,
    "block": 4,
    "passing": 4,
    "blind-hugie": 4,
    "billitonnen": 4,
    "all-fives": 4,
    "muggins": 4,
    "fives-and-threes": 4,
    "dominican": 4,
    "cuban": 4,
}
OPPOSITE = {"L": "R", "R": "L"}


def top_pip(name: str, options: Mapping[str, Any]) -> int:
    """The set's highest pip: §14 Cuban double-nine; Draw/Block their ``set`` option (§3.4);
    the other games double-six."""
    if name == "cuban":
        return 9
    if name in ("draw", "block"):
        return {"double-six": 6, "double-nine": 9, "double-twelve": 12}[options.get("set", "double-six")]
    return 6


def tile_of(text: str) -> Tile:
    a, b = (int(x) for x in text.split("-"))
    return (max(a, b), min(a, b))


def name_of(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def other_end(t: Tile, pip: int) -> int:
    return t[1] if t[0] == pip else t[0]


@dataclass(frozen=True)
class Rules:
    """What move generation needs to know about a game (RULES.md §7.1/§7.3)."""

    players: int
    turn: str  # "must" (§1.3, §2.3, §3.3), "voluntary" (§4.3), "blind" (§5.3, §6.2)
    spinner: bool = False  # §2.3: the first double has four sides
    any_order: bool = False  # §2.4 C-a spinner_any_order
    reserve: int = 0  # boneyard tiles never drawn (§3.4 D-f; §4.3: 2)
    draw_ends_turn: bool = True  # §4.4 P-d
    pass_cycle: bool = False  # §4.3 (c) end_on_full_pass_cycle
    keep_turning: bool = False  # §5.4 B-b while_playable; §6.2 Billitonnen
    starter: bool = False  # the first boneyard tile starts the layout (§5.4 B-a, §6.2 3 players)
    fives: bool = False  # §2.3: a count that is a multiple of 5 scores for the mover's team
    threes: bool = False  # §11: the count scores count/5 and count/3 (Fives and Threes)
    immediate_target: int | None = None  # §2.4 C-e target_rule="immediate": the game ends at once
    teams: bool = True  # points go to seat % 2 (partners), else to the seat


def rules_for(name: str, options: Mapping[str, Any]) -> Rules:
    o = dict(options)
    n = o.pop("players", DEFAULT_PLAYERS[name])
    if name == "block" and top_pip(name, options) != 6:  # §14.1: the tiles not dealt are unused
        return Rules(
            n, "must", reserve=(top_pip(name, options) + 1) * (top_pip(name, options) + 2) // 2 - 7 * n
        )
    if name in ("quinientos", "block", "draw"):
        return Rules(n, "must", reserve=o.get("boneyard_reserve", 0))
    if name == "cinque":
        immediate = o.get("target", 100) if o.get("target_rule") == "immediate" else None
        return Rules(
            n,
            "must",
            spinner=True,
            any_order=o.get("spinner_any_order", False),
            fives=True,
            immediate_target=immediate,
        )
    if name == "passing":
        return Rules(
            n,
            "voluntary",
            reserve=2,
            draw_ends_turn=o.get("draw_ends_turn", True),
            pass_cycle=o.get("end_on_full_pass_cycle", True),
        )
    if name == "blind-hugie":
        return Rules(
            n,
            "blind",
            keep_turning=o.get("tiles_per_turn", "one") == "while_playable",
            starter=o.get("full_deal_starter", False),
        )
    if name == "billitonnen":
        return Rules(n, "blind", keep_turning=True, starter=n == 3)
    teams = o.get("teams", False)
    if name == "all-fives":  # §9: Cinque's spinner and count, with drawing
        immediate = o.get("target", 250) if o.get("target_rule") == "immediate" else None
        return Rules(n, "must", spinner=True, fives=True, immediate_target=immediate, teams=teams)
    if name == "muggins":  # §10: a line, fives, the last two tiles never drawn
        return Rules(n, "must", reserve=2, fives=True, teams=teams)
    if name == "fives-and-threes":  # §11: a line, no drawing, first to 61 at once
        out_of_play = 28 - n * deal_sizes(name, options, 0)[0]  # §11: no drawing
        return Rules(
            n, "must", reserve=out_of_play, threes=True, immediate_target=o.get("target", 61), teams=teams
        )
    if name == "dominican":  # §12: Quinientos' play
        return Rules(n, "must")
    if name == "cuban":  # §14: ten tiles each, the fifteen others never drawn; pass when stuck
        return Rules(n, "must", reserve=15)
    raise ValueError(name)


def first_lead(
    name: str, options: Mapping[str, Any], hands: Sequence[Sequence[Tile]]
) -> tuple[int | None, Tile | None]:
    """First hand's leader and forced lead tile (None: chance / any tile).

    §1.3 Quinientos and §2.3 Cinque: the 6-6 holder leads the 6-6 (Quinientos ``first_lead="any"``:
    any tile); §3.3 Draw/Block: the holder of the highest double leads it (``lead_highest_double``),
    nobody holding a double → random; the other games draw for the lead."""
    if name not in ("quinientos", "cinque", "draw", "block", "muggins", "dominican", "cuban"):
        return None, None
    for d in range(top_pip(name, options), -1, -1):
        for seat, hand in enumerate(hands):
            if (d, d) in hand:
                forced = options.get("first_lead", "double_six") == "double_six" and options.get(
                    "lead_highest_double", True
                )
                return seat, ((d, d) if forced else None)
    return None, None


def deal_sizes(name: str, options: Mapping[str, Any], leader: int) -> list[int]:
    """Tiles dealt to each seat (seat order): §1.3, §2.3 7 each; §3.3 Draw 7 (2 players) or 5,
    Block 7; §4.3 7 (2-3 players) or 6; §5.3 7/5/5 (``deal="full"``: 14/9/7, §5.4 B-a);
    §6.2 9 / 7 / 6,6,6,5,5 in turn order from the starting player."""
    n = options.get("players", DEFAULT_PLAYERS[name])
    if name == "cuban":
        return [10] * n
    if name in ("quinientos", "cinque", "block", "muggins", "dominican"):  # §10, §12: 7 each
        return [7] * n
    if name == "all-fives":  # §9: 9 / 7 / 5
        return [{2: 9, 3: 7, 4: 5}[n]] * n
    if name == "fives-and-threes":  # §11: the league's 9 / 6
        return [{2: 9, 4: 6}[n]] * n
    if name == "draw":
        return [7 if n == 2 else 5] * n
    if name == "passing":
        return [7 if n < 4 else 6] * n
    if name == "blind-hugie":
        full = options.get("deal", "standard") == "full"
        return [{2: 14, 3: 9, 4: 7}[n] if full else {2: 7, 3: 5, 4: 5}[n]] * n
    if n == 5:
        return [6 if (seat - leader) % n < 3 else 5 for seat in range(n)]
    return [{3: 9, 4: 7}[n]] * n


@dataclass
class State:
    rules: Rules
    hands: list[list[Tile]]  # blind games: the row, front (next turned up) first
    stock: list[Tile]  # boneyard still face down, next drawn first
    to_move: int
    must_lead: Tile | None = None
    laid: bool = False  # a layout exists
    ends: dict[str, int] = field(default_factory=dict)  # arm -> exposed number
    spin: int | None = None  # the spinner's number
    occupied: set[str] = field(default_factory=set)  # spinner sides holding a tile
    doubled: set[str] = field(default_factory=set)  # arms whose last tile is a double
    totals: list[int] = field(default_factory=list)  # Cinque: game score per team, before the hand
    points: list[int] = field(default_factory=list)  # Cinque: scored in this hand per team
    game_won: bool = False  # Cinque, target_rule="immediate"
    passes: int = 0  # consecutive passes
    drew: bool = False  # drew this turn (draw_ends_turn=False)


def start(
    rules: Rules,
    hands: Sequence[Sequence[Tile]],
    stock: Sequence[Tile],
    leader: int,
    must_lead: Tile | None = None,
    totals: Sequence[int] = (0, 0),
) -> State:
    sides = 2 if rules.teams else rules.players
    totals = list(totals) + [0] * (sides - len(totals))
    s = State(
        rules, [list(h) for h in hands], list(stock), leader, must_lead, totals=totals, points=[0] * sides
    )
    if rules.starter:
        _lay(s, s.stock.pop(0))
    return s


def _lay(s: State, t: Tile) -> None:
    """The first tile of the layout, laid [high|low] (§0.3); a double is the spinner (§2.3)."""
    s.laid = True
    if s.rules.spinner and t[0] == t[1]:
        s.spin = t[0]
        s.ends = {"L": t[0], "R": t[0], "U": t[0], "D": t[0]}
        s.occupied = set()
    else:
        s.ends = {"L": t[0], "R": t[1]}
        s.occupied = {"L", "R"}
        if t[0] == t[1]:
            s.doubled = {"L", "R"}


def count(s: State) -> int:
    """§2.3 the ends' count: every arm holding a tile counts its exposed number (twice for a
    double), and the spinner counts twice its number while fewer than two sides hold a tile
    (§2.4 C-a: the same with spinner_any_order).  §10/§11: a double led on a line, alone on
    the table, shows each half once: it counts its pips."""
    if s.spin is None and s.doubled == {"L", "R"} and s.ends["L"] == s.ends["R"]:
        return 2 * s.ends["L"]
    total = sum(s.ends[a] * (2 if a in s.doubled else 1) for a in s.occupied)
    if s.spin is not None and len(s.occupied) < 2:
        total += 2 * s.spin
    return total


def _score(s: State, seat: int) -> None:
    c = count(s)
    if s.rules.threes:  # §11: 15 scores 3 fives and 5 threes
        scored = (c // 5 if c % 5 == 0 else 0) + (c // 3 if c % 3 == 0 else 0) if c > 0 else 0
    else:
        scored = c if c > 0 and c % 5 == 0 else 0
    if scored:
        team = seat % 2 if s.rules.teams else seat
        s.points[team] += scored
        target = s.rules.immediate_target
        if target is not None and s.totals[team] + s.points[team] >= target:
            s.game_won = True


def open_arms(s: State) -> list[str]:
    if s.spin is None:
        return ["L", "R"]
    if s.rules.any_order or {"L", "R"} <= s.occupied:  # §2.3: U/D after both L and R
        return ["L", "R", "U", "D"]
    return ["L", "R"]


def drawable(s: State) -> int:
    if s.rules.turn == "blind":
        return 0
    return max(0, len(s.stock) - s.rules.reserve)


def fits_anywhere(s: State) -> bool:
    vals = {s.ends[a] for a in open_arms(s)}
    return any(p in vals for h in s.hands for t in h for p in t)


def is_over(s: State) -> bool:
    if not s.laid:
        return False
    if any(not h for h in s.hands) or s.game_won:  # domino, or the game is won (§2.4 C-e)
        return True
    if s.rules.pass_cycle and s.passes >= s.rules.players:  # §4.3 (c)
        return True
    return not fits_anywhere(s) and drawable(s) == 0  # blocked (§0.6)


def end_kind(s: State) -> str | None:
    """How an over hand ended: "domino", "blocked" (a pass cycle is scored as a block, §4.3 c)
    or "unfinished" (Cinque's immediate target, §2.4 C-e, cut the hand short); None while it
    goes on.  A move that reaches the target while it also ends the hand (domino or block)
    leaves the hand ended that way: RULES.md does not say, the engine does so."""
    if not is_over(s):
        return None
    if any(not h for h in s.hands):
        return "domino"
    saved, s.game_won = s.game_won, False
    blocked = is_over(s)
    s.game_won = saved
    return "blocked" if blocked else "unfinished"


def legal(s: State) -> list[Move]:
    if is_over(s):
        return []
    hand = s.hands[s.to_move]
    if s.rules.turn == "blind":
        candidates = [hand[0]]  # the tile turned up
    else:
        candidates = sorted(set(hand))
    if not s.laid:
        if s.must_lead is not None:
            return [("lead", name_of(s.must_lead))]
        return [("lead", name_of(t)) for t in candidates]
    plays: list[Move] = [
        ("play", name_of(t), arm) for t in candidates for arm in open_arms(s) if s.ends[arm] in t
    ]
    if s.rules.turn == "must":
        if plays:
            return plays
        return [("draw",)] if drawable(s) else [("pass",)]
    if s.rules.turn == "blind":
        return plays or [("pass",)]
    out = plays
    if drawable(s) and not s.drew:
        out.append(("draw",))
    return out + [("pass",)]


def _next(s: State) -> None:
    s.to_move = (s.to_move + 1) % s.rules.players


def clone(s: State) -> State:
    return replace(
        s,
        hands=[h[:] for h in s.hands],
        stock=s.stock[:],
        ends=dict(s.ends),
        occupied=set(s.occupied),
        doubled=set(s.doubled),
        points=s.points[:],
    )


def apply(s: State, m: Move) -> State:
    """The state after move m (a new state; s is unchanged)."""
    s = clone(s)
    me = s.to_move
    hand = s.hands[me]
    if m[0] in ("lead", "play"):
        t = tile_of(m[1])
        if s.rules.turn == "blind":
            assert hand[0] == t
            hand.pop(0)
        else:
            hand.remove(t)
        s.passes = 0
        s.drew = False
        if m[0] == "lead":
            _lay(s, t)
        else:
            arm = m[2]
            pip = s.ends[arm]
            assert pip in t
            if s.rules.spinner and s.spin is None and t[0] == t[1]:
                # §2.3/§0.4: the first double becomes the spinner; the line it was played on
                # is the opposite side, the side it was played towards is still free
                s.spin = pip
                s.occupied = {OPPOSITE[arm]}
                s.ends["U"] = s.ends["D"] = pip
            else:
                s.ends[arm] = other_end(t, pip)
                s.occupied.add(arm)
                if t[0] == t[1]:
                    s.doubled.add(arm)
                else:
                    s.doubled.discard(arm)
        if s.rules.fives or s.rules.threes:
            _score(s, me)
        if not s.rules.keep_turning:
            _next(s)
    elif m[0] == "draw":
        hand.append(s.stock.pop(0))
        s.passes = 0
        if s.rules.turn == "voluntary":
            if s.rules.draw_ends_turn:
                _next(s)
            else:
                s.drew = True
        # §3.3: a player who cannot play keeps drawing: still their turn
    else:
        if s.rules.turn == "blind":  # §5.3: the tile goes to the back of the row
            hand.append(hand.pop(0))
        s.passes += 1
        s.drew = False
        _next(s)
    return s


def perft(s: State, depth: int) -> int:
    if depth == 0 or is_over(s):
        return 1
    moves = legal(s)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(s, m), depth - 1) for m in moves)


def divide(s: State, depth: int) -> dict[Move, int]:
    return {m: perft(apply(s, m), depth - 1) for m in legal(s)}


# ------------------------------------------------------------------ trains (RULES.md §15)
# Mexican Train, written from RULES.md §15 alone: a hub double, one train per seat (named
# "1".."n") and the Mexican train "M".  On a turn a seat plays one tile on its own train, on
# "M" or on a train with a marker; a double must be covered before anything else (its player
# goes again); stuck, it draws one tile (once), then plays or passes, and a pass puts a
# marker on its own train, which its next play there lifts.  The hand ends when a seat has no
# tile left, or when the stock is empty and no seat could lay any tile.


@dataclass
class TrainState:
    hands: list[list[Tile]]
    stock: list[Tile]
    ends: dict[str, int]  # train name -> open pip
    markers: set[str] = field(default_factory=set)
    cover: str | None = None  # the train ending in a double that must be covered
    turn: int = 0
    drew: bool = False
    done: bool = False


def train_start(
    players: int, hub: int, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile], leader: int
) -> TrainState:
    ends = {str(s + 1): hub for s in range(players)}
    ends["M"] = hub
    s = TrainState([list(h) for h in hands], list(stock), ends, turn=leader)
    s.done = _train_blocked(s)
    return s


def _trains_open_to(s: TrainState, seat: int) -> list[str]:
    if s.cover is not None:
        return [s.cover]
    mine = str(seat + 1)
    return [name for name in s.ends if name in (mine, "M") or name in s.markers]


def _train_plays(s: TrainState, seat: int) -> list[Move]:
    out = []
    for name in _trains_open_to(s, seat):
        for t in s.hands[seat]:
            if s.ends[name] in t:
                out.append(("play", name_of(t), name))
    return out


def _train_blocked(s: TrainState) -> bool:
    return not s.stock and not any(_train_plays(s, seat) for seat in range(len(s.hands)))


def train_legal(s: TrainState) -> list[Move]:
    if s.done:
        return []
    plays = _train_plays(s, s.turn)
    if plays:
        return plays
    if s.stock and not s.drew:
        return [("draw",)]
    return [("pass",)]


def train_apply(s: TrainState, m: Move) -> TrainState:
    s = TrainState(
        [h[:] for h in s.hands], s.stock[:], dict(s.ends), set(s.markers), s.cover, s.turn, s.drew, s.done
    )
    n = len(s.hands)
    seat = s.turn
    if m[0] == "draw":
        s.hands[seat].append(s.stock.pop(0))
        s.drew = True
    elif m[0] == "pass":
        s.markers.add(str(seat + 1))
        s.drew = False
        s.turn = (seat + 1) % n
    else:
        t, name = tile_of(m[1]), m[2]
        s.hands[seat].remove(t)
        s.ends[name] = other_end(t, s.ends[name])
        if name == str(seat + 1):
            s.markers.discard(name)
        s.drew = False
        if t[0] == t[1]:
            s.cover = name  # its player plays again
        else:
            if s.cover == name:
                s.cover = None
            s.turn = (seat + 1) % n
        if not s.hands[seat]:
            s.done = True
            return s
    s.done = _train_blocked(s)
    return s


def train_perft(s: TrainState, depth: int) -> int:
    if depth == 0 or s.done:
        return 1
    moves = train_legal(s)
    if depth == 1:
        return len(moves)
    return sum(train_perft(train_apply(s, m), depth - 1) for m in moves)


# ------------------------------------------------------------------ chicken foot (RULES.md §16)
# Chicken Foot, written from RULES.md §16 alone: a centre double with ``spokes`` arms (named
# "A".. in order; with four arms the names "E" and "F" are never used), each started with one
# tile, in name order, before any other play.  A later double closes the arm it ends and makes
# three toes (named on from "G", in the order made), started one at a time in name order before
# any other play; no foot may be made once 30 names are taken (the move code's 32 arms).
# Stuck, a seat draws one tile (once), then plays or passes; the hand ends when a seat has no
# tile left, or when the stock is empty and no seat could lay any tile.

FOOT_LETTERS = [chr(65 + i) for i in range(26)] + ["A" + chr(65 + i) for i in range(6)]


@dataclass
class FootState:
    hands: list[list[Tile]]
    stock: list[Tile]
    ends: dict[str, int | None]  # arm name -> open pip (None: closed by a double)
    todo: list[str]  # arms still to start, in the order they must be
    names: int  # arm names taken (the six centre names always count)
    turn: int = 0
    drew: bool = False
    done: bool = False


def foot_start(
    spokes: int, hub: int, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile], leader: int
) -> FootState:
    arms = FOOT_LETTERS[:spokes]
    s = FootState([list(h) for h in hands], list(stock), {a: hub for a in arms}, list(arms), 6, turn=leader)
    s.done = _foot_blocked(s)
    return s


def _foot_plays(s: FootState, seat: int) -> list[Move]:
    where = s.todo[:1] if s.todo else [a for a, p in s.ends.items() if p is not None]
    out = []
    for name in where:
        for t in s.hands[seat]:
            if s.ends[name] in t and (t[0] != t[1] or s.names + 3 <= 32):
                out.append(("play", name_of(t), name))
    return out


def _foot_blocked(s: FootState) -> bool:
    return not s.stock and not any(_foot_plays(s, seat) for seat in range(len(s.hands)))


def foot_legal(s: FootState) -> list[Move]:
    if s.done:
        return []
    plays = _foot_plays(s, s.turn)
    if plays:
        return plays
    if s.stock and not s.drew:
        return [("draw",)]
    return [("pass",)]


def foot_apply(s: FootState, m: Move) -> FootState:
    s = FootState(
        [h[:] for h in s.hands], s.stock[:], dict(s.ends), s.todo[:], s.names, s.turn, s.drew, s.done
    )
    n = len(s.hands)
    seat = s.turn
    if m[0] == "draw":
        s.hands[seat].append(s.stock.pop(0))
        s.drew = True
    elif m[0] == "pass":
        s.drew = False
        s.turn = (seat + 1) % n
    else:
        t, name = tile_of(m[1]), m[2]
        s.hands[seat].remove(t)
        if s.todo and s.todo[0] == name:
            s.todo.pop(0)
        if t[0] == t[1]:
            s.ends[name] = None
            toes = FOOT_LETTERS[s.names : s.names + 3]
            s.names += 3
            for toe in toes:
                s.ends[toe] = t[0]
            s.todo += toes
        else:
            s.ends[name] = other_end(t, s.ends[name])  # type: ignore[arg-type]
        s.drew = False
        s.turn = (seat + 1) % n
        if not s.hands[seat]:
            s.done = True
            return s
    s.done = _foot_blocked(s)
    return s


def foot_perft(s: FootState, depth: int) -> int:
    if depth == 0 or s.done:
        return 1
    moves = foot_legal(s)
    if depth == 1:
        return len(moves)
    return sum(foot_perft(foot_apply(s, m), depth - 1) for m in moves)
