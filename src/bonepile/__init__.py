"""bonepile: domino games as people play them."""

from .engine import (
    AmbiguousMoveError,
    BonepileError,
    Game,
    Hand,
    IllegalMoveError,
    InvalidMoveError,
    OptionError,
    RecordError,
    Variant,
    View,
    make_variant,
)
from .engine.record import dumps as dump_record
from .engine.record import loads as load_record
from .engine.record import replay

__version__ = "0.1.0"
__all__ = [
    "Game",
    "Hand",
    "Variant",
    "View",
    "make_variant",
    "replay",
    "load_record",
    "dump_record",
    "BonepileError",
    "OptionError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "RecordError",
]
