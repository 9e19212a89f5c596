"""Variants as data: a frozen declaration of rule components, built from a preset and options.

Every game of RULES.md is a preset (``PRESETS``) plus the named options of RULES.md §7.3.
The engine (``hand.py``, ``game.py``) reads only the fields of ``Variant``; no code path is
specific to a variant's name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any

from .errors import OptionError
from .tiles import SETS, TileSet
from .vocab import (
    BlockedRule,
    BlockedWinner,
    Direction,
    EndBonus,
    FirstLead,
    Formula,
    InPlay,
    LaterLead,
    LayoutKind,
    NoDoubleLead,
    Scoring,
    TargetRule,
    TeamScoring,
    TurnRule,
)

VARIANT_NAMES = (
    "quinientos",
    "cinque",
    "draw",
    "block",
    "passing",
    "blind-hugie",
    "billitonnen",
    "all-fives",
    "muggins",
    "fives-and-threes",
    "dominican",
    "cuban",
)
#: every game the engine plays: VARIANT_NAMES (the games every layer offers) and the layout
#: games still being brought to every layer (records, engine, bots); a game moves into
#: VARIANT_NAMES once the web, RL and words follow it
ENGINE_VARIANTS = (*VARIANT_NAMES, "mexican-train", "chicken-foot")


@dataclass(frozen=True)
class Variant:
    """The rules of one game, fully resolved (player count included)."""

    name: str
    players: int
    teams: bool
    # --- deal -------------------------------------------------------------------------
    #: tiles dealt to each seat, in seat order; for ``deal_from_leader`` in turn order
    #: starting with the hand's leader.
    hand_sizes: tuple[int, ...]
    #: the set's highest pip: 6 (double-six, 28 tiles), 9 (double-nine, 55) or 12
    #: (double-twelve, 91); everything per set is read from ``tile_set``
    pips: int = 6
    deal_from_leader: bool = False
    #: the first boneyard tile is turned up to start the layout
    starter: bool = False
    # --- leaders ----------------------------------------------------------------------
    #: "highest_double" (holder of the highest double dealt) or "chance" (the leader is
    #: drawn by lot; a record must name it)
    first_lead: FirstLead = "highest_double"
    must_lead_double: bool = True
    #: when no double is dealt: "random", "heaviest_tile" or "redeal"
    no_double_lead: NoDoubleLead = "random"
    #: later hands: "rotate" (next after the previous leader), "winner" (the previous hand's
    #: winner; after a tie the first-hand rule), "dominoer" (the player who went out; after a
    #: block the first-hand rule), "first" (the first-hand rule every hand), "chance",
    #: "team_choice" (the winning side picks one of its members; after a tie "rotate")
    later_lead: LaterLead = "rotate"
    # --- turns ------------------------------------------------------------------------
    #: the way play goes round the table (RULES.md: each game's direction); seats are
    #: numbered in turn order, so only how a table is drawn depends on it
    direction: Direction = "clockwise"
    #: "must_play" (play if you can, else draw while drawable, else pass), "voluntary"
    #: (play, draw or pass at will), "blind" (turn up the front tile of your row)
    turn: TurnRule = "must_play"
    #: boneyard tiles that may never be drawn
    draw_reserve: int = 0
    draw_ends_turn: bool = True
    pass_cycle_ends_hand: bool = False
    #: blind games: keep turning tiles while they fit
    blind_continue: bool = False
    #: blind games: an unplayable double goes back to the row face up
    face_up_doubles: bool = False
    #: blind games: a tile that fits both ends lets its player look at the next tile
    peek: bool = False
    # --- layout -----------------------------------------------------------------------
    #: "line" (a line, or a spinner's four arms), "trains" (a hub double, a train per seat
    #: and the Mexican train: ``engine/trains.py``)
    layout: LayoutKind = "line"
    #: "chicken_foot": the arms round the centre double (6 or 4; ``engine/foot.py``)
    spokes: int = 6
    spinner: bool = False
    spinner_any_order: bool = False
    # --- scoring ----------------------------------------------------------------------
    #: points scored during play from the ends' count after each tile: None, "fives" (the
    #: count when a multiple of 5) or "fives_and_threes" (count/5 + count/3 for each that
    #: divides it); ``scoring.in_play_points`` is the one formula
    in_play: InPlay | None = None
    #: points to the side of a player after whose play every other player passes (the
    #: Dominican *pase redondo*), scored as the last of those passes is made
    pass_bonus: int = 0
    #: points to the side of the player who goes out (Fives and Threes' "go")
    domino_bonus: int = 0
    #: "lowest" (lowest pip count wins), "quinientos", "none", "result_only" (Billitonnen)
    scoring: Scoring = "lowest"
    #: a player who goes out wins even if someone else also shows 0 pips
    domino_wins: bool = True
    #: individual "lowest" scoring: "each" = sum(opp - own), "once" = sum(opp) - own
    formula: Formula = "once"
    #: partnerships: "side_value" (§0.7) or "lowest_individual"
    team_scoring: TeamScoring = "side_value"
    #: end-of-hand score of the fives games: None or "allfives" (the player who goes out
    #: scores the others' pips rounded to the nearest 5; blocked: the lowest scores the
    #: others' pips less its own, rounded)
    end_bonus: EndBonus | None = None
    count_partner_pips: bool = False
    bonus_by_round_index: bool = True
    round_bonuses: tuple[int, ...] = (100, 75, 50, 25)
    capicu: int = 0
    capicu_requires_distinct_ends: bool = False
    chuchazo: int = 0
    chuchazo_one_side_only: bool = False
    #: "quinientos" scoring: who wins a blocked hand (``vocab.BlockedRule``)
    blocked_rule: BlockedRule = "lowest_side"
    #: Billitonnen: who wins a blocked hand: "lowest_pips", "fewest_tiles" or "none"
    blocked_winner: BlockedWinner = "lowest_pips"
    #: "penalty" scoring: what the double blank left in a hand counts (0: its pips)
    double_blank: int = 0
    # --- game end ---------------------------------------------------------------------
    #: the game is this many hands (the lowest total wins), where set; else the target decides
    rounds: int | None = None
    target: int | None = 100
    #: "finish_hand" (checked after each hand; highest total wins, ties to who got there
    #: first), "immediate" (the first side to reach the target during play wins at once),
    #: "single_hand" (one hand decides)
    target_rule: TargetRule = "finish_hand"
    #: the options as given (normalized), for records
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @cached_property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        if self.teams:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(self.players))

    @cached_property
    def seat_sides(self) -> tuple[int, ...]:
        """The side of each seat."""
        return tuple(self.side_of(s) for s in range(self.players))

    @cached_property
    def tile_set(self) -> TileSet:
        """The set this game is played with."""
        return SETS[self.pips]

    @property
    def n_tiles(self) -> int:
        """How many tiles the set has."""
        return self.tile_set.n_tiles

    @property
    def all_tiles(self) -> int:
        """The mask of the set's tiles."""
        return self.tile_set.all_tiles

    @property
    def blind(self) -> bool:
        return self.turn == "blind"

    @property
    def set_aside(self) -> int:
        """Tiles taken out of the set before the deal: the centre double of the train layouts
        (the round's hub, RULES.md §15–16), which is on the table, not in the boneyard."""
        return 0 if self.layout == "line" else 1

    @property
    def stock(self) -> int:
        """The tiles that may be drawn once the deal is done: those no one is dealt, less the
        tiles set aside before it (``set_aside``), the starter the boneyard turns up and the
        reserve that is never drawn; 0 where every tile is dealt, and in the blind games (nobody
        draws).  ``Hand.drawable()`` right after any deal is this number."""
        if self.blind:
            return 0
        undealt = self.n_tiles - self.set_aside - sum(self.hand_sizes)
        return max(0, undealt - (1 if self.starter else 0) - self.draw_reserve)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def sizes_for(self, leader: int) -> tuple[int, ...]:
        """Tiles dealt to each seat (seat order) when ``leader`` leads."""
        if not self.deal_from_leader:
            return self.hand_sizes
        n = self.players
        return tuple(self.hand_sizes[(s - leader) % n] for s in range(n))


# --------------------------------------------------------------------------------------
# Option declarations
# --------------------------------------------------------------------------------------

BOOL = (False, True)


@dataclass(frozen=True)
class OptionSpec:
    default: Any
    values: tuple[Any, ...] | None = None  # allowed values, or None for a positive int
    minimum: int = 1

    def check(self, name: str, value: Any) -> Any:
        if self.values is None:
            if type(value) is not int or value < self.minimum:
                raise OptionError(f"option {name} must be an integer >= {self.minimum}, not {value!r}")
            return value
        for allowed in self.values:
            if type(allowed) is type(value) and allowed == value:
                return value
        shown = ", ".join(_show(v) for v in self.values)
        raise OptionError(f"option {name} must be one of {shown}, not {_show(value)}")


def _show(v: Any) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return repr(v)


#: Dominican ``tranque`` option's values -> the ``blocked_rule`` component
_TRANQUE = {
    "lowest_side": "lowest_side",
    "leader_ties": "lowest_side_leader_ties",
    "blocker": "blocker_vs_previous",
}

#: the ``set`` option's values -> the set's highest pip
SET_OPTION = {"double-six": 6, "double-nine": 9, "double-twelve": 12}

_LINE_OPTIONS = {
    "set": OptionSpec("double-six", tuple(SET_OPTION)),
    "blocked_formula": OptionSpec("each", ("each", "once")),
    "no_double_lead": OptionSpec("random", ("random", "heaviest_tile", "redeal")),
    "lead_highest_double": OptionSpec(True, BOOL),
    "boneyard_reserve": OptionSpec(0, None, minimum=0),
    "teams": OptionSpec(False, BOOL),
    "target": OptionSpec(100),
}

OPTION_SPECS: dict[str, dict[str, OptionSpec]] = {
    "quinientos": {
        "first_lead": OptionSpec("double_six", ("double_six", "any")),
        "lead_rotation": OptionSpec("right", ("right", "winning_team_chooses")),
        "count_partner_pips": OptionSpec(False, BOOL),
        "bonus_by_round_index": OptionSpec(True, BOOL),
        "capicu_requires_distinct_ends": OptionSpec(False, BOOL),
        "chuchazo_one_side_only": OptionSpec(False, BOOL),
        "target": OptionSpec(500),
    },
    "cinque": {
        "spinner_any_order": OptionSpec(False, BOOL),
        "hand_end_bonus": OptionSpec(None, (None, "allfives")),
        "target_rule": OptionSpec("finish_hand", ("finish_hand", "immediate")),
        "target": OptionSpec(100),
    },
    "draw": {
        "preset": OptionSpec("draw", ("draw",)),
        "lead_rule": OptionSpec("rotate", ("rotate", "winner", "double_six_always")),
        **_LINE_OPTIONS,
    },
    "block": {
        "preset": OptionSpec("block", ("block",)),
        "lead_rule": OptionSpec("winner", ("rotate", "winner", "double_six_always")),
        **_LINE_OPTIONS,
    },
    "passing": {
        "target_rule": OptionSpec("seed", ("seed", "pagat")),
        "lead_rule": OptionSpec("random", ("random", "rotate")),
        "draw_ends_turn": OptionSpec(True, BOOL),
        "end_on_full_pass_cycle": OptionSpec(True, BOOL),
        "teams": OptionSpec(False, BOOL),
        "team_scoring": OptionSpec("side_value", ("side_value", "lowest_individual")),
    },
    "blind-hugie": {
        "deal": OptionSpec("standard", ("standard", "full")),
        "full_deal_starter": OptionSpec(False, BOOL),
        "tiles_per_turn": OptionSpec("one", ("one", "while_playable")),
        "unplayable_doubles_face_up": OptionSpec(False, BOOL),
        "row_side": OptionSpec("right", ("right", "left")),
        "teams": OptionSpec(False, BOOL),
    },
    "billitonnen": {
        "blocked_winner": OptionSpec("lowest_pips", ("lowest_pips", "fewest_tiles", "none")),
    },
    "all-fives": {
        "teams": OptionSpec(False, BOOL),
        "target_rule": OptionSpec("finish_hand", ("finish_hand", "immediate")),
        "target": OptionSpec(250),
    },
    "muggins": {
        "teams": OptionSpec(False, BOOL),
        "target": OptionSpec(100),
    },
    "fives-and-threes": {
        "teams": OptionSpec(False, BOOL),
        "target": OptionSpec(61),
        "deal": OptionSpec("league", ("league", "pagat")),
    },
    "dominican": {
        "capicu_requires_distinct_ends": OptionSpec(False, BOOL),
        "target": OptionSpec(200),
        "tranque": OptionSpec("lowest_side", tuple(_TRANQUE)),
    },
    "cuban": {
        "target": OptionSpec(100, (100, 200)),
        "lead_rule": OptionSpec("winning_team_chooses", ("winning_team_chooses", "winner", "rotate")),
        "count_all_pips": OptionSpec(False, BOOL),
    },
    "mexican-train": {
        "rounds": OptionSpec(13, tuple(range(1, 14))),
    },
    "chicken-foot": {
        "rounds": OptionSpec(10, tuple(range(1, 11))),
        "spokes": OptionSpec(6, (6, 4)),
    },
}

PLAYER_COUNTS = {
    "quinientos": (4,),
    "cinque": (4,),
    "draw": (2, 3, 4),
    "block": (2, 3, 4),
    "passing": (2, 3, 4),
    "blind-hugie": (2, 3, 4),
    "billitonnen": (3, 4, 5),
    "all-fives": (2, 3, 4),
    "muggins": (2, 3, 4),
    "fives-and-threes": (2, 4),
    "dominican": (4,),
    "cuban": (4,),
    "mexican-train": (2, 3, 4, 5, 6, 7, 8),
    "chicken-foot": (2, 3, 4, 5, 6, 7, 8),
}
DEFAULT_PLAYERS = {name: counts[-1] if name != "billitonnen" else 4 for name, counts in PLAYER_COUNTS.items()}
DEFAULT_PLAYERS["mexican-train"] = 4
DEFAULT_PLAYERS["chicken-foot"] = 4


# --------------------------------------------------------------------------------------
# Presets: option values -> rule components
# --------------------------------------------------------------------------------------


def _quinientos(n: int, o: dict[str, Any]) -> dict[str, Any]:
    return dict(
        direction="counterclockwise",
        teams=True,
        hand_sizes=(7,) * 4,
        must_lead_double=o["first_lead"] == "double_six",
        later_lead="rotate" if o["lead_rotation"] == "right" else "team_choice",
        scoring="quinientos",
        count_partner_pips=o["count_partner_pips"],
        bonus_by_round_index=o["bonus_by_round_index"],
        capicu=100,
        capicu_requires_distinct_ends=o["capicu_requires_distinct_ends"],
        chuchazo=100,
        chuchazo_one_side_only=o["chuchazo_one_side_only"],
        target=o["target"],
    )


def _cinque(n: int, o: dict[str, Any]) -> dict[str, Any]:
    return dict(
        teams=True,
        hand_sizes=(7,) * 4,
        later_lead="dominoer",
        spinner=True,
        spinner_any_order=o["spinner_any_order"],
        in_play="fives",
        scoring="none",
        end_bonus=o["hand_end_bonus"],
        target=o["target"],
        target_rule=o["target_rule"],
    )


def _line(n: int, o: dict[str, Any], *, draw: bool) -> dict[str, Any]:
    if o["teams"] and n != 4:
        raise OptionError("option teams needs 4 players")
    sizes = (7 if n == 2 else 5) if draw else 7
    pips = SET_OPTION[o["set"]]
    reserve = o["boneyard_reserve"]
    if not draw and pips != 6:  # RULES.md §14.1: Block with a larger set leaves the rest unused
        reserve = max(reserve, SETS[pips].n_tiles - sizes * n)
    later = {"rotate": "rotate", "winner": "winner", "double_six_always": "first"}[o["lead_rule"]]
    return dict(
        direction="clockwise" if draw else "counterclockwise",
        teams=o["teams"],
        hand_sizes=(sizes,) * n,
        pips=pips,
        must_lead_double=o["lead_highest_double"],
        no_double_lead=o["no_double_lead"],
        later_lead=later,
        draw_reserve=reserve,
        formula=o["blocked_formula"],
        target=o["target"],
    )


def _passing(n: int, o: dict[str, Any]) -> dict[str, Any]:
    if o["teams"] and n != 4:
        raise OptionError("option teams needs 4 players")
    if o["target_rule"] == "seed":
        target = 101 if n in (2, 3) else 61
    else:
        target = 101 if n == 2 or o["teams"] else 61
    return dict(
        teams=o["teams"],
        hand_sizes=((7 if n < 4 else 6),) * n,
        first_lead="chance",
        later_lead="chance" if o["lead_rule"] == "random" else "rotate",
        turn="voluntary",
        draw_reserve=2,
        draw_ends_turn=o["draw_ends_turn"],
        pass_cycle_ends_hand=o["end_on_full_pass_cycle"],
        domino_wins=False,
        team_scoring=o["team_scoring"],
        target=target,
    )


def _blind_hugie(n: int, o: dict[str, Any]) -> dict[str, Any]:
    if o["teams"] and n != 4:
        raise OptionError("option teams needs 4 players")
    if o["deal"] == "standard":
        if o["full_deal_starter"]:
            raise OptionError('option full_deal_starter needs deal "full"')
        size = {2: 7, 3: 5, 4: 5}[n]
    else:
        size = {2: 14, 3: 9, 4: 7}[n]
        if o["full_deal_starter"] and n != 3:
            raise OptionError("option full_deal_starter applies only to 3 players (the 28th tile)")
    return dict(
        teams=o["teams"],
        hand_sizes=(size,) * n,
        starter=o["full_deal_starter"],
        first_lead="chance",
        later_lead="rotate",
        turn="blind",
        blind_continue=o["tiles_per_turn"] == "while_playable",
        face_up_doubles=o["unplayable_doubles_face_up"],
        domino_wins=False,
        target=100 if n == 2 or o["teams"] else 61,
    )


def _billitonnen(n: int, o: dict[str, Any]) -> dict[str, Any]:
    sizes = {3: (9, 9, 9), 4: (7, 7, 7, 7), 5: (6, 6, 6, 5, 5)}[n]
    return dict(
        teams=False,
        hand_sizes=sizes,
        deal_from_leader=(n == 5),
        starter=(n == 3),
        first_lead="chance",
        later_lead="chance",
        turn="blind",
        blind_continue=True,
        face_up_doubles=True,
        peek=True,
        scoring="result_only",
        blocked_winner=o["blocked_winner"],
        target=None,
        target_rule="single_hand",
    )


def _teams(n: int, o: dict[str, Any]) -> bool:
    if o["teams"] and n != 4:
        raise OptionError("option teams needs 4 players")
    return bool(o["teams"])


def _all_fives(n: int, o: dict[str, Any]) -> dict[str, Any]:
    # RULES.md §9 (pagat "All Fives"): 9/7/5 tiles, draw until playable, the first double a
    # spinner, the ends' count scores when a multiple of 5, the lead by lot, then the player
    # who went out; the hand's end rounded to 5
    return dict(
        teams=_teams(n, o),
        hand_sizes=({2: 9, 3: 7, 4: 5}[n],) * n,
        first_lead="chance",
        must_lead_double=False,
        later_lead="dominoer",
        spinner=True,
        in_play="fives",
        scoring="none",
        end_bonus="allfives",
        target=o["target"],
        target_rule=o["target_rule"],
    )


def _muggins(n: int, o: dict[str, Any]) -> dict[str, Any]:
    # RULES.md §10 (Foster's Hoyle "Muggins, or All Fives"; pagat): as All Fives but a line
    # with no spinner, 7 tiles each, the highest double leads every hand, the last two tiles
    # of the stock are never drawn, game 100
    return dict(
        teams=_teams(n, o),
        hand_sizes=(7,) * n,
        later_lead="first",
        draw_reserve=2,
        in_play="fives",
        scoring="none",
        end_bonus="allfives",
        target=o["target"],
    )


def _fives_and_threes(n: int, o: dict[str, Any]) -> dict[str, Any]:
    # RULES.md §11 (Teesdale league rules; pagat "Fives and Threes"): a line, no drawing,
    # count/5 + count/3 scored in play, 1 for going out, first to 61 wins at once; option
    # deal="pagat": pagat's 7 each for two, 5 each for four
    size = {2: 9, 4: 6}[n] if o["deal"] == "league" else {2: 7, 4: 5}[n]
    return dict(
        teams=_teams(n, o),
        hand_sizes=(size,) * n,
        first_lead="chance",
        must_lead_double=False,
        later_lead="rotate",
        draw_reserve=SETS[6].n_tiles - size * n,  # the tiles not dealt are out of play
        in_play="fives_and_threes",
        domino_bonus=1,
        scoring="none",
        target=o["target"],
        target_rule="immediate",
    )


def _dominican(n: int, o: dict[str, Any]) -> dict[str, Any]:
    # RULES.md §12 (fichaflow.com, dominoesonline.com "capicua" rules of the Dominican
    # Republic): partners, 7 each, 6-6 leads the first hand, the winners lead the next,
    # the winning pair scores every pip left, capicúa 25, pase redondo 25, game 200
    return dict(
        direction="counterclockwise",
        teams=True,
        hand_sizes=(7,) * 4,
        later_lead="winner",
        scoring="quinientos",
        count_partner_pips=True,
        round_bonuses=(),
        capicu=25,
        capicu_requires_distinct_ends=o["capicu_requires_distinct_ends"],
        pass_bonus=25,
        # option tranque: the sources' three rules for a blocked hand (RULES.md §12)
        blocked_rule=_TRANQUE[o["tranque"]],
        target=o["target"],
    )


def _cuban(n: int, o: dict[str, Any]) -> dict[str, Any]:
    # RULES.md §14: a double-nine set, two pairs, ten tiles each, the other fifteen set aside
    later = {"winning_team_chooses": "team_choice", "winner": "winner", "rotate": "rotate"}[o["lead_rule"]]
    return dict(
        pips=9,
        direction="counterclockwise",
        teams=True,
        hand_sizes=(10,) * 4,
        draw_reserve=15,
        later_lead=later,
        scoring="opponents",
        count_partner_pips=o["count_all_pips"],
        target=o["target"],
    )


def _mexican_train(n: int, o: dict[str, Any]) -> dict[str, Any]:
    # RULES.md §15 (pagat.com "Mexican Train"): a double-twelve set, the hub double of round r
    # is 12 - r, 15/12/10 tiles for 2-4/5-6/7-8 players, the first player by lot then the next
    # seat each round, pips left are penalties, the lowest total after the rounds wins
    size = 15 if n <= 4 else 12 if n <= 6 else 10
    return dict(
        pips=12,
        teams=False,
        layout="trains",
        hand_sizes=(size,) * n,
        first_lead="chance",
        must_lead_double=False,
        later_lead="rotate",
        scoring="penalty",
        domino_wins=True,
        rounds=o["rounds"],
        target=None,
    )


#: Chicken Foot's hand sizes by player count (RULES.md §16)
FOOT_HAND_SIZES = {2: 9, 3: 7, 4: 7, 5: 7, 6: 6, 7: 6, 8: 6}


def _chicken_foot(n: int, o: dict[str, Any]) -> dict[str, Any]:
    # RULES.md §16: a double-nine set, the centre double of round r is 9 - (r - 1), taken out
    # before the deal; six (or four) arms round it, a later double grows three toes; the first
    # player by lot then the next seat each round; pips left are penalties (the double blank
    # 50), the lowest total after the rounds wins
    return dict(
        pips=9,
        teams=False,
        layout="chicken_foot",
        spokes=o["spokes"],
        hand_sizes=(FOOT_HAND_SIZES[n],) * n,
        first_lead="chance",
        must_lead_double=False,
        later_lead="rotate",
        scoring="penalty",
        double_blank=50,
        domino_wins=True,
        rounds=o["rounds"],
        target=None,
    )


PRESETS: dict[str, Callable[[int, dict[str, Any]], dict[str, Any]]] = {
    "quinientos": _quinientos,
    "cinque": _cinque,
    "draw": lambda n, o: _line(n, o, draw=True),
    "block": lambda n, o: _line(n, o, draw=False),
    "passing": _passing,
    "blind-hugie": _blind_hugie,
    "billitonnen": _billitonnen,
    "all-fives": _all_fives,
    "muggins": _muggins,
    "fives-and-threes": _fives_and_threes,
    "dominican": _dominican,
    "cuban": _cuban,
    "mexican-train": _mexican_train,
    "chicken-foot": _chicken_foot,
}


def make_variant(name: str, options: Mapping[str, Any] | None = None) -> Variant:
    """Build the rules of ``name`` with ``options`` (names and values of RULES.md §7.3, plus
    ``players``).  Raises OptionError naming the bad variant, option or value."""
    if name not in PRESETS:
        raise OptionError(f"unknown variant {name!r} (known: {', '.join(ENGINE_VARIANTS)})")
    options = dict(options or {})
    counts = PLAYER_COUNTS[name]
    players = options.pop("players", DEFAULT_PLAYERS[name])
    if type(players) is not int or players not in counts:
        raise OptionError(
            f"option players must be one of {', '.join(map(str, counts))} for {name}, not {_show(players)}"
        )
    specs = OPTION_SPECS[name]
    resolved: dict[str, Any] = {}
    for key, value in options.items():
        if key not in specs:
            known = ", ".join(["players", *specs])
            raise OptionError(f"unknown option {key!r} for {name} (known: {known})")
        resolved[key] = specs[key].check(key, value)
    full = {k: resolved.get(k, spec.default) for k, spec in specs.items()}
    parts = PRESETS[name](players, full)
    given = dict(resolved)
    if len(counts) > 1:
        given = {"players": players, **given}
    return Variant(name=name, players=players, options=MappingProxyType(given), **parts)


def parse_option_value(text: str) -> Any:
    """An option value typed on a command line: JSON-like literals, ints, else a string."""
    low = text.strip()
    if low in ("true", "True"):
        return True
    if low in ("false", "False"):
        return False
    if low in ("null", "None"):
        return None
    try:
        return int(low)
    except ValueError:
        return low.strip('"')


__all__ = [
    "Variant",
    "make_variant",
    "VARIANT_NAMES",
    "ENGINE_VARIANTS",
    "OPTION_SPECS",
    "PLAYER_COUNTS",
    "parse_option_value",
    "replace",
]
