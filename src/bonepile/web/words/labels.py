"""The words the server gives the client: the games' names and one-line descriptions, their
rule options with a label, plain words for each value and a one-line explanation, the bot
levels, and notes on public facts.  Each is a key of the client's catalogue
(``static/i18n/<lang>/*.json``, see ``i18n.py``), which the client shows in the reader's
language; the English words of the same catalogue go along for the CLI and any client that
reads no catalogue.  The client shows these and knows no rule and no variant name.  The
explanations follow RULES.md (the section of each game)."""

from __future__ import annotations

from functools import cache
from typing import Any

from .i18n import catalogue

#: options whose words differ in one game: (game, option) -> the key's middle part
GAME_OPTION_LABELS: frozenset[tuple[str, str]] = frozenset(
    {
        ("passing", "target_rule"),
        ("fives-and-threes", "deal"),
        ("dominican", "capicu_requires_distinct_ends"),
    }
)
GAME_OPTION_HELP: frozenset[tuple[str, str]] = frozenset(
    {
        ("passing", "target_rule"),
        ("blind-hugie", "teams"),
        ("fives-and-threes", "deal"),
        ("dominican", "capicu_requires_distinct_ends"),
        ("chicken-foot", "rounds"),
    }
)

#: the key of the note on a count of the ends that scores (Cinque)
COUNT_SCORES_KEY = "count.multiple_of_five"
#: the notes of Fives and Threes, where five or three (or both) may go into the count
COUNT_NOTE_KEYS = {
    (True, False): COUNT_SCORES_KEY,
    (False, True): "count.multiple_of_three",
    (True, True): "count.multiple_of_five_and_three",
}


def count_note_key(in_play: str | None, count: int) -> str | None:
    """The key of the note on the ends' ``count`` under the in-play rule ``in_play`` (the
    variant's ``in_play``): why it scores ("a multiple of five", "... of three", "... of
    five and of three"), None when it scores nothing.  Which counts score is the engine's
    (``Hand.count_points``); this only words them."""
    if not count or in_play is None:
        return None
    five, three = count % 5 == 0, in_play == "fives_and_threes" and count % 3 == 0
    return COUNT_NOTE_KEYS.get((five, three))


@cache
def _english() -> dict[str, str]:
    return catalogue("en")


def english(key: str | None, fallback: str = "") -> str:
    """The English words for key (fallback when the catalogue has none)."""
    return _english().get(key or "", fallback)


def has(key: str | None) -> bool:
    return bool(key) and key in _english()


def variant_key(name: str, part: str = "name") -> str:
    """``variant.<name>.name`` or ``variant.<name>.description``."""
    return f"variant.{name}.{part}"


def option_key(key: str, part: str, game: str = "") -> str:
    """``option.<id>.label`` / ``.help``, or ``option.<game>.<id>.<part>`` where the option
    means something else in that game."""
    special = GAME_OPTION_LABELS if part == "label" else GAME_OPTION_HELP
    return f"option.{game}.{key}.{part}" if (game, key) in special else f"option.{key}.{part}"


def _word(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def value_key(value: Any, key: str | None = None, game: str = "") -> str | None:
    """The key for an option's value: ``option.<game>.<id>.value.<value>`` where that game
    words it its own way (Chicken Foot's "10 hands: the whole game"), else
    ``option.<id>.value.<value>`` where the option has words for it (a number too: Cuban's
    "100 points"), else ``value.yes`` / ``value.no`` / ``value.none``; None for a number
    without words."""
    if key and game and has(f"option.{game}.{key}.value.{_word(value)}"):
        return f"option.{game}.{key}.value.{_word(value)}"
    own = f"option.{key}.value.{_word(value)}"
    if key and has(own) and isinstance(value, (bool, str, int, type(None))):
        return own
    if isinstance(value, (bool, type(None))):
        return {True: "value.yes", False: "value.no", None: "value.none"}[value]
    return None


def bot_key(level: str) -> str:
    return f"bot.level.{level}"


def variant_label(name: str) -> str:
    return english(variant_key(name), name.replace("-", " ").capitalize())


def variant_description(name: str) -> str:
    return english(variant_key(name, "description"))


def option_label(key: str, game: str = "") -> str:
    return english(option_key(key, "label", game), key.replace("_", " ").capitalize())


def option_help(key: str, game: str = "") -> str:
    return english(option_key(key, "help", game))


def bot_label(level: str) -> str:
    return english(bot_key(level), f"Bot: {level}")


def value_label(value: Any, key: str | None = None, game: str = "") -> str:
    k = value_key(value, key, game)
    if k is not None:
        return english(k)
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)
