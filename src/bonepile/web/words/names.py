"""The names the server gives what nobody named: a seat ("Seat 2", "casual bot 3") and a table
("draw table").  They are stored as names, so that a record and the API read well in English,
and the table info says ``named: false`` for them: a client then words the seat or the table in
its reader's language (by number, level and game) instead of recognising the English."""

from __future__ import annotations

# names an older release gave a person's seat nobody named (kept so that its tables read right)
_OLD_PERSON = ("You", "Player {seat}")


def seat_default(kind: str, level: str | None, seat: int) -> str:
    """The name of seat ``seat`` when nobody named it."""
    return f"{level} bot {seat}" if kind == "bot" else f"Seat {seat}"


def seat_named(name: str, kind: str, level: str | None, seat: int) -> bool:
    """Whether someone gave seat ``seat`` its name ``name`` (False: the server's own)."""
    if not name or name == seat_default(kind, level, seat):
        return False
    return kind == "bot" or name not in {old.format(seat=seat) for old in _OLD_PERSON}


def table_default(variant: str) -> str:
    """The name of a table of ``variant`` when its creator gave none."""
    return f"{variant} table"


def table_named(name: str, variant: str) -> bool:
    return bool(name) and name != table_default(variant)
