"""An analysis as JSON (docs/ANALYSIS.md is the schema outside tools rely on)."""

from __future__ import annotations

from typing import Any

from .analyze import Decision, GameAnalysis, HandAnalysis, Judgement, MoveValue
from .luck import HandLuck

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


def _luck(lk: HandLuck) -> dict[str, Any]:
    return {
        "deal_value": list(lk.luck),
        "result": list(lk.result),
        "lost": None if lk.lost is None else list(lk.lost),
        "skill": None if lk.skill is None else list(lk.skill),
        "noise": list(lk.noise),
    }


def _hand(h: HandAnalysis) -> dict[str, Any]:
    out: dict[str, Any] = {
        "hand": h.hand,
        "points": list(h.points),
        "winner": h.winner,
        "turning_points": list(h.turning_points),
        "decisions": [_decision(d) for d in h.decisions],
    }
    if h.luck is not None:
        out["luck"] = _luck(h.luck)
    return out


def luck_totals(a: GameAnalysis) -> list[dict[str, Any]] | None:
    """Per side, the sums over the analysed hands of the result, the luck and (where every
    hand has it) the skill: None when the deals were not valued."""
    hands = [h.luck for h in a.hands if h.luck is not None]
    if not hands:
        return None
    out = []
    for side in range(len(a.variant.sides)):
        skills = [lk.skill[side] for lk in hands if lk.skill is not None]
        skill = sum(skills) if len(skills) == len(hands) else None
        out.append(
            {
                "side": side,
                "hands": len(hands),
                "result": round(sum(lk.result[side] for lk in hands), 3),
                "luck": round(sum(lk.luck[side] for lk in hands), 3),
                "skill": None if skill is None else round(skill, 3),
            }
        )
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
        "hands": [_hand(h) for h in a.hands],
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
        "luck": luck_totals(a),
    }
