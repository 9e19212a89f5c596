"""Is an answer to a puzzle's step right, and if not, why the solution is better.

The why is the analysis's: the reasons (``bots.reasons``, read off the step's ``View``) that
the solution has and the move played has not, and the drawbacks of the move played, as codes
with their numbers and in English words (``analysis.words.knew_reason``), with what the
move lost by the values found when the puzzle was mined.  Everything is read from the
step's view, so nothing said can name a tile the seat could not see; the other seats' replies
told after a right answer are read from the next step's view (``replies_seen``), never from
what a puzzle file stores: another seat's draw is ``draw``, a tile it played is public.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..analysis.marks import thresholds
from ..analysis.words import knew_reason
from ..bots.base import Evaluation
from ..bots.reasons import Explainer, english
from ..bots.sampler import Sampler
from ..engine import Variant, View, make_variant
from ..engine.notation import token
from .model import Puzzle
from .moves import PuzzleError, decision_of, move_of, token_of

__all__ = ["Verdict", "judge", "replies_seen"]


@dataclass(frozen=True)
class Verdict:
    """``correct``: the answer is the solution (or one of its alternatives); ``done``: the
    line is over (solved to the end, or a wrong answer); ``better``: the solution's token when
    the answer is wrong ("" when right); ``reasons``: why, as reason codes with numbers (for a
    wrong answer what the solution has that the answer lacks, and the answer's drawbacks; for
    a right one the solution's own reasons); ``words``: the same in English; ``loss``: what the
    answer lost against the solution by the mined values (None: right, or not known);
    ``replies``: the other seats' moves shown after a right answer, before ``next_step``
    (None when the line is over)."""

    correct: bool
    done: bool
    better: str
    reasons: tuple[dict[str, Any], ...]
    words: str
    loss: float | None = None
    replies: tuple[str, ...] = ()
    next_step: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "done": self.done,
            "better": self.better,
            "reasons": [dict(r) for r in self.reasons],
            "words": self.words,
            "loss": self.loss,
            "replies": list(self.replies),
            "next_step": self.next_step,
        }


def judge(puzzle: Puzzle, step: int, token: str) -> Verdict:
    """The verdict on ``token`` played at step ``step`` (0-based) of ``puzzle``.  A step that
    does not exist or a token that names no legal move is a PuzzleError (``code``
    ``puzzle.bad_step``, ``puzzle.bad_move`` or ``puzzle.not_legal``) and judges nothing."""
    if type(step) is not int or not 0 <= step < len(puzzle.steps):
        raise PuzzleError(
            "puzzle.bad_step", f"puzzle {puzzle.id} has steps 0 to {len(puzzle.steps) - 1}, not {step!r}"
        )
    st = puzzle.steps[step]
    view = st.view
    variant = make_variant(puzzle.variant, puzzle.options)
    played = move_of(view, token)
    solution = move_of(view, st.solution)
    same = decision_of(variant, view)
    right = {same[solution]} | {same[move_of(view, t)] for t in st.alternatives}
    why = Explainer(variant, view, seed=0)
    sol_reasons = tuple(r for r in why.explain(solution) if r["code"] != "only_move")
    if same[played] in right:
        last = step == len(puzzle.steps) - 1
        return Verdict(
            correct=True,
            done=last,
            better="",
            reasons=sol_reasons,
            words="; ".join(english(r) for r in sol_reasons),
            replies=() if last else replies_seen(variant, view, puzzle.steps[step + 1].view),
            next_step=None if last else step + 1,
        )
    values = dict(st.values)
    sol_token = token_of(view, solution)
    played_token = token_of(view, same[played])
    th = thresholds(variant)
    best_v = values.get(token_of(view, same[solution]))
    mine_v = values.get(played_token)
    loss = None if best_v is None or mine_v is None else round(max(0.0, best_v - mine_v), 3)
    best_e = Evaluation(solution, best_v or 0.0, reasons=sol_reasons)
    mine_e = Evaluation(played, mine_v or 0.0, reasons=tuple(why.explain(played)))
    words, extra = knew_reason(best_e, mine_e, sol_token, th.mark(loss or th.blunder), loss or 0.0, th)
    drawbacks = tuple(r for r in mine_e.reasons if r not in sol_reasons and r["code"] in _DRAWBACKS)
    return Verdict(
        correct=False,
        done=True,
        better=sol_token,
        reasons=extra + drawbacks,
        words=words,
        loss=loss,
    )


def replies_seen(variant: Variant, before: View, after: View) -> tuple[str, ...]:
    """The other seats' moves between two steps of a line (after the seat's own move at
    ``before``, up to ``after``), as tokens read from ``after`` alone: the seat's view at the
    next step.  A draw by another seat is ``draw`` (its tile is hidden), a tile played is
    public once played.  The tokens are the canonical ones (``@E`` where two arms take the
    tile), read off a world that agrees with ``after`` (``bots.sampler``): every such world
    lays the public moves alike, and nothing else of it is told."""
    world = Sampler(variant, after).sample(random.Random(0))
    h = world.fresh()
    moves = [m for _, m, _ in world.log]
    start = len(before.history) + 1
    for m in moves[:start]:
        h.apply(m)
    out = []
    for m in moves[start : len(after.history)]:
        out.append(token(h, m))
        h.apply(m)
    return tuple(out)


#: the reasons that speak against a move (as the analysis's words read them)
_DRAWBACKS = {"next_can_score", "partner_lacks"}
