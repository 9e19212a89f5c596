"""A puzzle: positions of one seat where one move is clearly best, and its JSON form.

A ``Puzzle`` is a line of one or more ``Step``s.  Each step is the solver's seat's ``View``
at a decision (the censored view: nothing the seat could not see), the move that solves it
(``solution``, a RECORD.md token), the other tokens that are the same decision
(``alternatives``: the same tile on an end that plays alike) and the other seats' moves that
follow it (``replies``, public once played) before the next step; what is told of them is read
from the next step's view (``judge.replies_seen``), never from this stored line.  The puzzle's ``id`` is a
short hash of its content, so the same puzzle has the same id wherever it was mined.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ..engine import View
from ..engine.viewcodec import view_from_dict, view_to_dict

__all__ = ["THEMES", "THEME_WORDS", "Puzzle", "Step", "puzzle_id"]

#: the themes a puzzle may have, as codes (docs/PUZZLES.md says what each means)
THEMES = (
    "block_next",
    "lock",
    "capicu",
    "chuchazo",
    "count",
    "keep_suit",
    "feed_partner",
    "pass",
    "domino",
)

#: each theme in English words (the terminal's; the web client has its own in six languages)
THEME_WORDS = {
    "block_next": "block the next player",
    "lock": "the lock (tranque)",
    "capicu": "capicú",
    "chuchazo": "chuchazo",
    "count": "the count",
    "keep_suit": "keep a suit",
    "feed_partner": "feed your partner",
    "pass": "the pass",
    "domino": "go out",
}


@dataclass(frozen=True)
class Step:
    view: View
    solution: str
    alternatives: tuple[str, ...] = ()
    replies: tuple[str, ...] = ()
    #: each decision's expected score from the seat's view when the puzzle was mined, best
    #: first: (token, score) in the game's points (the chance to win, 0..1, where a hand has
    #: no points): what the judge tells a wrong answer it lost
    values: tuple[tuple[str, float], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "view": view_to_dict(self.view),
            "solution": self.solution,
            "alternatives": list(self.alternatives),
            "replies": list(self.replies),
            "values": [[t, v] for t, v in self.values],
        }

    @classmethod
    def from_dict(cls, d: Any) -> Step:
        if not isinstance(d, dict):
            raise ValueError("a puzzle step must be a JSON object")
        for key in ("view", "solution"):
            if key not in d:
                raise ValueError(f"puzzle step: missing key {key!r}")
        sol = d["solution"]
        if not isinstance(sol, str):
            raise ValueError(f"puzzle step: solution must be a move token, not {sol!r}")
        return cls(
            view=view_from_dict(d["view"]),
            solution=sol,
            alternatives=_strings(d.get("alternatives", []), "alternatives"),
            replies=_strings(d.get("replies", []), "replies"),
            values=tuple((str(t), float(v)) for t, v in d.get("values", [])),
        )


def _strings(x: Any, where: str) -> tuple[str, ...]:
    if not isinstance(x, list) or not all(isinstance(s, str) for s in x):
        raise ValueError(f"puzzle step: {where} must be a list of move tokens")
    return tuple(x)


@dataclass(frozen=True)
class Puzzle:
    id: str
    variant: str
    options: dict[str, Any]
    seat: int
    themes: tuple[str, ...]
    rating: float
    steps: tuple[Step, ...]
    source: str
    #: how the puzzle was judged when mined: the margin's lower 95% bound, the share of
    #: sampled deals the exact solver agreed on, which bots missed it (docs/PUZZLES.md)
    facts: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "variant": self.variant,
            "options": dict(self.options),
            "seat": self.seat,
            "themes": list(self.themes),
            "rating": self.rating,
            "source": self.source,
            "facts": dict(self.facts),
            "steps": [s.to_dict() for s in self.steps],
        }

    @classmethod
    def from_dict(cls, d: Any) -> Puzzle:
        if not isinstance(d, dict):
            raise ValueError("a puzzle must be a JSON object")
        for key in ("id", "variant", "seat", "steps"):
            if key not in d:
                raise ValueError(f"puzzle: missing key {key!r}")
        steps = d["steps"]
        if not isinstance(steps, list) or not steps:
            raise ValueError(f"puzzle {d['id']}: steps must be a non-empty list")
        themes = d.get("themes", [])
        if not isinstance(themes, list) or not all(isinstance(t, str) for t in themes):
            raise ValueError(f"puzzle {d['id']}: themes must be a list of codes")
        opts = d.get("options", {})
        if not isinstance(opts, dict):
            raise ValueError(f"puzzle {d['id']}: options must be an object")
        return cls(
            id=str(d["id"]),
            variant=str(d["variant"]),
            options=dict(opts),
            seat=int(d["seat"]),
            themes=tuple(themes),
            rating=float(d.get("rating", 1500.0)),
            steps=tuple(Step.from_dict(s) for s in steps),
            source=str(d.get("source", "")),
            facts=dict(d.get("facts", {})),
        )


def puzzle_id(variant: str, options: dict[str, Any], seat: int, steps: tuple[Step, ...]) -> str:
    """The short content hash that names a puzzle: its game, seat, positions and line."""
    content = {
        "variant": variant,
        "options": options,
        "seat": seat,
        "steps": [[view_to_dict(s.view), s.solution, list(s.replies)] for s in steps],
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:10]
