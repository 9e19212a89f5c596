"""An analysis as JSON (docs/ANALYSIS.md is the schema outside tools rely on)."""

from __future__ import annotations

from typing import Any

from .analyze import Decision, GameAnalysis, Judgement, MoveValue

FORMAT = "bonepile-analysis-1"


def _judgement(j: Judgement | None) -> dict[str, Any] | None:
    if j is None:
        return None
    return {
        "best": j.best,
        "loss": j.loss,
        "mark": j.mark,
        "kind": j.kind,
        "reason": j.reason,
        "reasons": [dict(r) for r in j.reasons],
    }


def _move(m: MoveValue) -> dict[str, Any]:
    out: dict[str, Any] = {"move": m.move}
    if m.knew_score is not None:
        out["knew"] = {
            "points": m.knew_points,
            "win": m.knew_win,
            "game": m.knew_game,
            "score": m.knew_score,
            "reasons": [dict(r) for r in m.knew_reasons],
        }
    if m.shown is not None:
        s = m.shown
        out["shown"] = {
            "points": round(s.points, 3),
            "win": round(s.won, 3),
            "game": round(s.game, 3),
            "score": round(s.score, 3),
            "kind": s.kind,
        }
    return out


def _decision(d: Decision) -> dict[str, Any]:
    out = {
        "move": d.move,
        "seat": d.seat,
        "side": d.side,
        "played": d.played,
        "moves": [_move(m) for m in d.moves],
        "knew": _judgement(d.knew),
        "shown": _judgement(d.shown),
    }
    if d.knew is not None:
        out["beliefs"] = [dict(b) for b in d.beliefs]
    return out


def to_json(a: GameAnalysis) -> dict[str, Any]:
    """The analysis as a JSON-ready dict (``format`` "bonepile-analysis-1")."""
    th = a.thresholds
    return {
        "format": FORMAT,
        "variant": a.variant.name,
        "players": a.names,
        "sides": [list(s) for s in a.variant.sides],
        "budget": {"time": a.budget.time, "simulations": a.budget.simulations, "nodes": a.nodes},
        "ways": list(a.ways),
        "thresholds": {
            "unit": th.unit,
            "inaccuracy": th.inaccuracy,
            "mistake": th.mistake,
            "blunder": th.blunder,
        },
        "hands": [
            {
                "hand": h.hand,
                "points": list(h.points),
                "winner": h.winner,
                "turning_points": list(h.turning_points),
                "decisions": [_decision(d) for d in h.decisions],
            }
            for h in a.hands
        ],
        "summary": {
            way: [
                {
                    "seat": s.seat,
                    "decisions": s.decisions,
                    "marks": s.marks,
                    "average_loss": s.average_loss,
                    "accuracy": s.accuracy,
                }
                for s in ss
            ]
            for way, ss in a.summary.items()
        },
    }
