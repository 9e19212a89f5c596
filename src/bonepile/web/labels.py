"""The words the server gives the client (English): names of the games, their rule options
and option values, and notes on public facts.  The client shows these and knows no rule and
no variant name.  Missing entries fall back to the identifier with spaces for underscores."""
from __future__ import annotations

from typing import Any

VARIANT_LABELS: dict[str, str] = {}  # none yet: the lobby shows each game by its name


OPTION_LABELS: dict[str, str] = {}  # none yet: an option is shown as its name in words

VALUE_LABELS: dict[Any, str] = {None: "none", True: "true", False: "false"}

#: the note on a count of the ends that scores (Cinque)
COUNT_SCORES = "a multiple of five"


def variant_label(name: str) -> str:
    return VARIANT_LABELS.get(name, name)


def option_label(key: str) -> str:
    return OPTION_LABELS.get(key) or key.replace("_", " ")


def value_label(value: Any) -> str:
    if isinstance(value, (bool, type(None))):
        return VALUE_LABELS[value]
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)
