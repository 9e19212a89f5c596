"""The words the server gives the client (English): the games' names and one-line
descriptions, their rule options with a label, plain words for each value and a one-line
explanation, the bot levels, and notes on public facts.  The client shows these and knows no
rule and no variant name.  The explanations follow RULES.md (the section of each game)."""

from __future__ import annotations

from typing import Any

VARIANT_LABELS: dict[str, str] = {
    "quinientos": "Quinientos",
    "cinque": "Domino del Cinque",
    "draw": "Draw",
    "block": "Block",
    "passing": "The Passing Game",
    "blind-hugie": "Blind Hugie",
    "billitonnen": "Billitonnen",
}

VARIANT_DESCRIPTIONS: dict[str, str] = {
    "quinientos": "Puerto Rican partnership game to 500: go out first and score the other team's "
    "pips, plus a bonus for the early rounds, +100 for a capicú and +100 for a chuchazo.",
    "cinque": "Italian partnership game with a four-way spinner: whenever the open ends add up to a "
    "multiple of five (the count), your team scores it. First to 100.",
    "draw": "The classic: no playable tile, you draw from the boneyard until you can play. Go out "
    "first and score everyone's pips.",
    "block": "Seven tiles each and no drawing: play if you can, pass if you cannot. Go out first, "
    "or hold the fewest pips when the game blocks.",
    "passing": "Danish game where you may play, draw or pass on any turn, even holding a tile that "
    "fits. The lowest pips at the end scores.",
    "blind-hugie": "Nobody sees their own tiles: turn up the next tile of your face-down row and "
    "play it if it fits. Pure luck and nerve.",
    "billitonnen": "Blind Hugie's Dutch cousin for 3 to 5: keep turning up tiles while they fit; when a "
    "tile fits both ends you may peek at your next one. First to empty the row wins.",
}

OPTION_LABELS: dict[str, str] = {
    "first_lead": "First tile of the game",
    "lead_rotation": "Who leads the next hands",
    "count_partner_pips": "Pips that score",
    "bonus_by_round_index": "Round bonus",
    "capicu_requires_distinct_ends": "Capicú",
    "chuchazo_one_side_only": "Chuchazo",
    "target": "Points to win",
    "spinner_any_order": "Spinner",
    "hand_end_bonus": "Points at the end of a hand",
    "target_rule": "When the game ends",
    "lead_rule": "Who leads the next hands",
    "blocked_formula": "Score of a blocked hand",
    "no_double_lead": "When nobody holds a double",
    "lead_highest_double": "The first lead",
    "boneyard_reserve": "Tiles kept back in the boneyard",
    "teams": "Partners",
    "team_scoring": "How partners score",
    "draw_ends_turn": "Drawing",
    "end_on_full_pass_cycle": "Everybody passes",
    "deal": "Tiles in each row",
    "full_deal_starter": "The tile left over (3 players, full deal)",
    "tiles_per_turn": "Tiles per turn",
    "unplayable_doubles_face_up": "Doubles that do not fit",
    "row_side": "Which end of the row you turn",
    "blocked_winner": "Who wins a blocked game",
}

#: an option that means something else in one game: (game, option) first
GAME_OPTION_LABELS: dict[tuple[str, str], str] = {("passing", "target_rule"): "Points to win"}
GAME_OPTION_HELP: dict[tuple[str, str], str] = {
    ("passing", "target_rule"): "The score that wins, by the number of players.",
    ("blind-hugie", "teams"): "Four players in two teams, partners sitting opposite; the lower "
    "pair of rows wins.",
}

#: one line on what an option changes
OPTION_HELP: dict[str, str] = {
    "first_lead": "Whether the holder of the double six must open the first hand with it.",
    "lead_rotation": "After the first hand the lead moves one seat on, or the winning team "
    "picks which of its two players leads.",
    "count_partner_pips": "The winners score the losing team's pips, or every pip left in every hand.",
    "bonus_by_round_index": "Going out in rounds 1 to 4 is worth 100, 75, 50, 25 extra; blocked "
    "or tied rounds use up a bonus, or not.",
    "capicu_requires_distinct_ends": "Capicú: +100 for going out with a tile that fits both ends. "
    "Choose whether the two ends must show different numbers.",
    "chuchazo_one_side_only": "Chuchazo: +100 for going out with the double blank. Choose "
    "whether it still counts when both open ends are blank.",
    "target": "The game ends at the end of the hand in which a side reaches this score.",
    "spinner_any_order": "The first double is the spinner, open on four sides: whether its top "
    "and bottom open only once both its sides hold a tile.",
    "hand_end_bonus": "Besides the count, whether going out also scores the other team's pips, "
    "rounded to fives.",
    "target_rule": "Whether the hand is played out once a side reaches the target (the higher "
    "total wins), or the game stops at once.",
    "lead_rule": "Who leads the hands after the first.",
    "blocked_formula": "When nobody can play, the lowest hand scores the difference to each "
    "opponent, or everyone's pips minus its own once.",
    "no_double_lead": "What happens when no hand holds a double to lead with.",
    "lead_highest_double": "Whether the holder of the highest double must lead that double.",
    "boneyard_reserve": "The last tiles of the boneyard that may never be drawn (0: draw them all).",
    "teams": "Four players in two teams, partners sitting opposite.",
    "team_scoring": "Partners compare both hands together, or the single lowest hand scores for its team.",
    "draw_ends_turn": "Whether drawing a tile is your whole turn, or you may play after it.",
    "end_on_full_pass_cycle": "Whether the hand ends when every player passes in a row.",
    "deal": "How many face-down tiles each player gets.",
    "full_deal_starter": "With three players and the full deal one tile is left: set aside, or "
    "turned up to start the line.",
    "tiles_per_turn": "Turn up one tile a turn, or keep going while your tiles fit.",
    "unplayable_doubles_face_up": "Whether a double that does not fit goes back face up, for "
    "everyone to see.",
    "row_side": "The right or left end of your row (it makes no difference to the game).",
    "blocked_winner": "When nobody can play, the lowest pips wins, or the fewest tiles, or nobody.",
}

#: words for an option's values, per option (the value as the engine names it)
VALUE_WORDS: dict[str, dict[Any, str]] = {
    "first_lead": {"double_six": "the double six", "any": "any tile"},
    "lead_rotation": {"right": "the next player", "winning_team_chooses": "the winners choose"},
    "count_partner_pips": {False: "the losing team's", True: "everyone's"},
    "bonus_by_round_index": {True: "rounds 1 to 4 as dealt", False: "the first four rounds won"},
    "capicu_requires_distinct_ends": {False: "any two ends", True: "two different ends"},
    "chuchazo_one_side_only": {False: "on any blank end", True: "only when one end is blank"},
    "spinner_any_order": {False: "sides first, then top and bottom", True: "any side, any time"},
    "hand_end_bonus": {None: "none (only the count)", "allfives": "the other team's pips"},
    "target_rule": {
        "finish_hand": "at the end of the hand",
        "immediate": "at once",
        "seed": "2 or 3 players to 101, 4 to 61",
        "pagat": "2 players or teams to 101, 3 or 4 to 61",
    },
    "lead_rule": {
        "rotate": "the next player in turn",
        "winner": "the winner of the hand",
        "double_six_always": "the holder of the double six",
        "random": "a random player",
    },
    "blocked_formula": {"each": "the difference to each opponent", "once": "all pips minus its own"},
    "no_double_lead": {
        "random": "a random player leads",
        "heaviest_tile": "the heaviest tile leads",
        "redeal": "deal again",
    },
    "lead_highest_double": {True: "the highest double", False: "any tile"},
    "teams": {False: "everyone for themselves", True: "two teams"},
    "team_scoring": {"side_value": "both hands together", "lowest_individual": "the lowest hand"},
    "draw_ends_turn": {True: "ends your turn", False: "then you may play"},
    "end_on_full_pass_cycle": {True: "ends the hand", False: "play goes on"},
    "deal": {"standard": "7, 5 or 5 (2, 3, 4 players)", "full": "14, 9 or 7 (all the tiles)"},
    "full_deal_starter": {False: "set aside", True: "starts the line"},
    "tiles_per_turn": {"one": "one", "while_playable": "while they fit"},
    "unplayable_doubles_face_up": {False: "face down", True: "face up"},
    "row_side": {"right": "right", "left": "left"},
    "blocked_winner": {
        "lowest_pips": "the lowest pips",
        "fewest_tiles": "the fewest tiles",
        "none": "nobody",
    },
}

VALUE_LABELS: dict[Any, str] = {None: "none", True: "yes", False: "no"}

BOT_LABELS: dict[str, str] = {
    "beginner": "Bot: beginner",
    "casual": "Bot: casual",
    "strong": "Bot: strong",
    "expert": "Bot: expert",
    "random": "Bot: random moves",
    "greedy": "Bot: casual",
}

#: the note on a count of the ends that scores (Cinque)
COUNT_SCORES = "a multiple of five"


def variant_label(name: str) -> str:
    return VARIANT_LABELS.get(name, name.replace("-", " ").capitalize())


def variant_description(name: str) -> str:
    return VARIANT_DESCRIPTIONS.get(name, "")


def option_label(key: str, game: str = "") -> str:
    return GAME_OPTION_LABELS.get((game, key)) or OPTION_LABELS.get(key) or key.replace("_", " ").capitalize()


def option_help(key: str, game: str = "") -> str:
    return GAME_OPTION_HELP.get((game, key)) or OPTION_HELP.get(key, "")


def bot_label(level: str) -> str:
    return BOT_LABELS.get(level, f"Bot: {level}")


def value_label(value: Any, key: str | None = None) -> str:
    words = VALUE_WORDS.get(key or "", {})
    for known, text in words.items():
        if type(known) is type(value) and known == value:
            return text
    if isinstance(value, (bool, type(None))):
        return VALUE_LABELS[value]
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)
