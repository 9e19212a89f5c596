"""The puzzle set shipped in the package (``puzzles/data/<variant>.json``) and files of puzzles.

A puzzle file is ``{"format": "bonepile-puzzles/1", "puzzles": [puzzle, ...]}`` (docs/PUZZLES.md);
``bonepile puzzles mine --out`` writes one.  The shipped set is read once per process.
"""

from __future__ import annotations

import datetime as _dt
import functools
import hashlib
import json
import pathlib
from collections.abc import Iterable
from typing import Any

from .model import Puzzle
from .moves import PuzzleError

__all__ = ["FORMAT", "DATA", "by_id", "daily", "dump", "load", "read_file", "shipped", "write_file"]

FORMAT = "bonepile-puzzles/1"
DATA = pathlib.Path(__file__).resolve().parent / "data"


def dump(puzzles: Iterable[Puzzle]) -> str:
    """A puzzle file's text: one puzzle per line inside the list, stable key order."""
    lines = [json.dumps(p.to_dict(), sort_keys=True, separators=(",", ":")) for p in puzzles]
    body = ",\n".join(lines)
    return f'{{"format": "{FORMAT}", "puzzles": [\n{body}\n]}}\n'


def parse(text: str | bytes, where: str) -> list[Puzzle]:
    """The puzzles of a puzzle file's text (PuzzleError ``puzzle.bad_file`` naming ``where``
    and the puzzle at fault)."""
    try:
        doc: Any = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise PuzzleError("puzzle.bad_file", f"{where}: not JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PuzzleError("puzzle.bad_file", f'{where}: not a puzzle file (its "format" must be "{FORMAT}")')
    items = doc.get("puzzles")
    if not isinstance(items, list):
        raise PuzzleError("puzzle.bad_file", f'{where}: "puzzles" must be a list')
    out = []
    for i, item in enumerate(items):
        try:
            out.append(Puzzle.from_dict(item))
        except (ValueError, TypeError) as e:
            raise PuzzleError("puzzle.bad_file", f"{where}: puzzle {i + 1}: {e}") from None
    return out


def read_file(path: str | pathlib.Path) -> list[Puzzle]:
    """The puzzles of a puzzle file (PuzzleError naming the file when it cannot be read)."""
    try:
        text = pathlib.Path(path).read_bytes()
    except OSError as e:
        raise PuzzleError("puzzle.bad_file", f"cannot read {path}: {e.strerror}") from None
    return parse(text, str(path))


def write_file(path: str | pathlib.Path, puzzles: Iterable[Puzzle]) -> None:
    pathlib.Path(path).write_text(dump(puzzles), encoding="utf-8")


@functools.lru_cache(maxsize=1)
def shipped() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, by variant file name then as stored."""
    out: list[Puzzle] = []
    for path in sorted(DATA.glob("*.json")):
        out.extend(read_file(path))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def _index() -> dict[str, Puzzle]:
    return {p.id: p for p in shipped()}


def load(variant: str | None = None, theme: str | None = None) -> list[Puzzle]:
    """The shipped puzzles of ``variant`` (None: every game) with ``theme`` (None: any)."""
    return [
        p
        for p in shipped()
        if (variant is None or p.variant == variant) and (theme is None or theme in p.themes)
    ]


def by_id(pid: str) -> Puzzle | None:
    """The shipped puzzle named ``pid``, or None."""
    return _index().get(pid)


def daily(date: _dt.date, variant: str | None = None) -> Puzzle:
    """The puzzle of the day ``date``: the same for everyone on that date, drawn from the
    shipped set (of ``variant``) by a hash of the date (PuzzleError when there is none)."""
    pool = sorted(load(variant), key=lambda p: p.id)
    if not pool:
        raise PuzzleError("puzzle.unknown", f"no shipped puzzle of {variant or 'any game'}")
    digest = hashlib.sha256(f"daily:{date.isoformat()}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]
