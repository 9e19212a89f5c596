"""Each seat's luck and skill in a finished table (``luck_skill``, migration 0012_luck_skill),
stored when the table's analysis is (``web/jobs/analyses.py``) and read for the profile's page
(``web/routes/history.py``).

The figures are the analysis's (``analysis/luck.py``; docs/ANALYSIS.md): per side, summed over
the hands, the result, the luck (the deals' value) and the skill (the points the other sides'
decisions lost less the side's own), in the game's points; a seat gets its side's.  Only seats
with a profile are stored.  Synchronous: called in a storage thread."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.engine import Engine

from .database import luck_skill_t, result_seats_t


@dataclass(frozen=True)
class Figures:
    """A seat's (or, summed, a profile's) luck and skill over ``hands`` hands."""

    hands: int
    result: float
    luck: float
    skill: float | None  # None: some hand's decisions were not all judged

    def per_hand(self) -> dict[str, Any]:
        """As the profile's page shows them: points per hand, rounded to a tenth."""
        n = max(1, self.hands)
        return {
            "hands": self.hands,
            "luck": round(self.luck / n, 1),
            "skill": None if self.skill is None else round(self.skill / n, 1),
        }


def store_figures(engine: Engine, table_id: str, analysis: dict[str, Any]) -> int:
    """Store the luck and skill of each seat with a profile of finished table ``table_id``
    from its analysis (``analysis.report.to_json``); the rows stored (0: no profile, no
    figures, or stored already)."""
    totals = analysis.get("luck")
    if not totals:
        return 0
    with engine.begin() as c:
        seats = c.execute(
            select(
                result_seats_t.c.seat,
                result_seats_t.c.profile,
                result_seats_t.c.side,
                result_seats_t.c.variant,
                result_seats_t.c.created,
            ).where(and_(result_seats_t.c.table_id == table_id, result_seats_t.c.profile.is_not(None)))
        ).all()
        have = {
            r[0] for r in c.execute(select(luck_skill_t.c.seat).where(luck_skill_t.c.table_id == table_id))
        }
        rows = []
        for s in seats:
            if s.seat in have or not 0 <= s.side < len(totals):
                continue
            t = totals[s.side]
            rows.append(
                {
                    "table_id": table_id,
                    "seat": s.seat,
                    "profile": s.profile,
                    "variant": s.variant,
                    "created": s.created,
                    "hands": int(t["hands"]),
                    "result": float(t["result"]),
                    "luck": float(t["luck"]),
                    "skill": None if t["skill"] is None else float(t["skill"]),
                }
            )
        if rows:
            c.execute(luck_skill_t.insert(), rows)
    return len(rows)


def game_figures(engine: Engine, profile_id: str, table_ids: Sequence[str]) -> dict[str, Figures]:
    """The profile's figures in each of these tables that has them."""
    if not table_ids:
        return {}
    t = luck_skill_t.c
    with engine.connect() as c:
        rows = c.execute(
            select(t.table_id, t.hands, t.result, t.luck, t.skill).where(
                and_(t.profile == profile_id, t.table_id.in_(list(table_ids)))
            )
        ).all()
    return {r.table_id: Figures(r.hands, r.result, r.luck, r.skill) for r in rows}


def profile_figures(engine: Engine, profile_id: str, variant: str | None, own: bool) -> Figures | None:
    """The profile's figures summed over its analysed tables (of one game; with its private
    tables or not): None with none, or when they are of several games (points of different
    games do not add up).  The skill sums only the tables that have one, and their hands."""
    t = luck_skill_t.c
    cond: list[Any] = [t.profile == profile_id]
    if variant is not None:
        cond.append(t.variant == variant)
    q = select(
        func.count(),
        func.count(func.distinct(t.variant)),
        func.sum(t.hands),
        func.sum(t.result),
        func.sum(t.luck),
        func.sum(t.skill),
        func.sum(t.hands).filter(t.skill.is_not(None)),
    ).select_from(luck_skill_t)
    if not own:
        rs = result_seats_t.c
        q = q.join(result_seats_t, and_(rs.table_id == t.table_id, rs.seat == t.seat)).where(
            rs.private.is_(False)
        )
    with engine.connect() as c:
        n, kinds, hands, result, luck, skill, skill_hands = c.execute(q.where(and_(*cond))).one()
    if not n or kinds != 1 or not hands:
        return None
    if skill is None or skill_hands != hands:
        skill = None
    return Figures(int(hands), float(result), float(luck), None if skill is None else float(skill))
