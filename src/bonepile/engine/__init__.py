"""The rules engine: pure Python, no I/O, no dependencies."""

from .errors import (
    AmbiguousMoveError,
    BonepileError,
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    RecordError,
)
from .foot import FootHand  # registers the chicken foot layout with Hand
from .game import Game
from .hand import Hand, perft
from .scoring import HandResult
from .tiles import DRAW, N_ACTIONS, NAME, PASS
from .trains import TrainHand  # registers the train layout with Hand
from .variant import VARIANT_NAMES, Variant, make_variant
from .view import Event, Layout, PublicView, View

__all__ = [
    "Game",
    "Hand",
    "TrainHand",
    "FootHand",
    "HandResult",
    "perft",
    "Variant",
    "make_variant",
    "VARIANT_NAMES",
    "View",
    "PublicView",
    "Event",
    "Layout",
    "PASS",
    "DRAW",
    "N_ACTIONS",
    "NAME",
    "BonepileError",
    "OptionError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "RecordError",
]
