"""A puzzle step's moves as tokens, read from the step's ``View`` alone (no hand behind it).

The canonical token of a legal move is the one a record writes (``notation.move_token``):
``@E`` only where the tile fits two or more ends, ``E`` named as the layout names its arms
(a line's ``L R U D``, the trains ``1``..``8`` and ``M``, a chicken foot's ``A``, ``B``...).  A person may also write a later tile with
its arm where none is needed, or in a looser spelling (``notation.normalize``).
"""

from __future__ import annotations

from ..engine import Variant, View
from ..engine.knowledge import PublicKnowledge
from ..engine.notation import move_token, normalize
from ..engine.tiles import PASS, tile_of
from ..engine.view import arm_names

__all__ = ["PuzzleError", "accepted", "choices", "decision_of", "move_of", "token_of"]


class PuzzleError(ValueError):
    """A puzzle, a step or an answer that cannot be used; ``code`` names the kind
    (``puzzle.unknown``, ``puzzle.bad_step``, ``puzzle.bad_move``, ``puzzle.not_legal``,
    ``puzzle.bad_file``) for interfaces to put into words, the message says what and where."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _first(view: View) -> bool:
    return view.layout.first is None


def token_of(view: View, m: int) -> str:
    """The canonical token of legal move ``m`` of ``view``."""
    if m >= PASS:
        return move_token(m, first=False)
    if _first(view):
        return move_token(m, first=True)
    arms = sum(1 for x in view.legal if x < PASS and tile_of(x) == tile_of(m))
    return move_token(m, first=False, arm=arms > 1, names=arm_names(view))


def accepted(view: View) -> dict[str, int]:
    """Every token that names a legal move of ``view`` (canonical ones and, for a later tile,
    the one with its arm written), to the move."""
    out: dict[str, int] = {}
    for m in view.legal:
        out[token_of(view, m)] = m
        if m < PASS and not _first(view):
            out[move_token(m, first=False, arm=True, names=arm_names(view))] = m
        elif m < PASS:  # the first tile, written either way round, is one move
            out.setdefault(move_token(m ^ 1, first=True), m)
    return out


def move_of(view: View, text: str) -> int:
    """The legal move of ``view`` that ``text`` names (a token or a person's looser spelling);
    PuzzleError ``puzzle.bad_move`` for text that names no legal move, saying which are."""
    if not isinstance(text, str):
        raise PuzzleError("puzzle.bad_move", f"a move must be a token such as 6-4 or pass, not {text!r}")
    tok = normalize(text)
    moves = accepted(view)
    if tok in moves:
        return moves[tok]
    legal = ", ".join(token_of(view, m) for m in view.legal)
    raise PuzzleError("puzzle.not_legal", f"{text.strip()!r} is not a legal move here (legal: {legal})")


def decision_of(variant: Variant, view: View) -> dict[int, int]:
    """Each legal move to the first legal move that is the same decision (a tile laid at
    either of two ends that play alike is one decision)."""
    legal = list(view.legal)
    firsts = PublicKnowledge.from_view(variant, view).decisions(legal)
    return {m: legal[i] for m, i in zip(legal, firsts)}


def choices(variant: Variant, view: View) -> list[str]:
    """The tokens a solver chooses from: one per decision, in the order of ``view.legal``."""
    same = decision_of(variant, view)
    return [token_of(view, m) for m in view.legal if same[m] == m]
