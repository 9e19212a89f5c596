"""Exception classes.  Every one is a ValueError carrying a message that says what and where."""

from __future__ import annotations

import json
from typing import Any


class BonepileError(ValueError):
    """Base class of every error caused by bad input."""


class OptionError(BonepileError):
    """Unknown variant, unknown option or bad option value."""


class InvalidMoveError(BonepileError):
    """A move token that is not well formed."""


class IllegalMoveError(BonepileError):
    """A well-formed move that the rules do not allow in this position."""


class AmbiguousMoveError(IllegalMoveError):
    """A tile without ``@E`` that more than one arm can take."""


class RecordError(BonepileError):
    """A game record that is malformed or breaks the rules; names hand, move and token."""

    def __init__(
        self, message: str, hand: int | None = None, move: int | None = None, token: str | None = None
    ):
        self.message = message
        self.hand = hand
        self.move = move
        self.token = token
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.move is not None:
            where.append(f"move {self.move}")
        prefix = ", ".join(where)
        if self.token is not None:
            shown = json.dumps(self.token, ensure_ascii=False)  # quoted, on one line
            prefix += f" ({shown})" if prefix else shown
        message = self.message.replace("\n", "\\n").replace("\r", "\\r")
        return f"{prefix}: {message}" if prefix else message

    def as_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "move": self.move, "token": self.token, "message": self.message}
