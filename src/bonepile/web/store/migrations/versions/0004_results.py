"""Results: each finished table's result (``results``), its seats' facts
(``result_seats``) and each profile's sums of them (``profile_stats``), stored when a table's last move is; and the same for every table that
finished before this revision, worked out here once from its stored actions.

The backfill replays each finished table with the engine alone (its variant, seed and
actions as revisions 0001-0003 store them: a ``move`` is a record token, a ``leader`` the
chosen leader of a newly dealt hand, a ``deal`` the next hand dealt by the rules); it
imports nothing of the web server.  A table that cannot be replayed (damaged), or whose game
did not end (a table closed while it waited for players), gets no result.

Revision ID: 0004_results
Revises: 0003_ratings
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004_results"
down_revision = "0003_ratings"
branch_labels = None
depends_on = None


def _create() -> tuple[sa.Table, sa.Table]:
    results = op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("sides", sa.Text, nullable=False),
        sa.Column("totals", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
    )
    seats = op.create_table(
        "result_seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("profile", sa.String(32), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("points", sa.Integer, nullable=True),
        sa.Column("dominoes", sa.Integer, nullable=False),
        sa.Column("blocked_won", sa.Integer, nullable=False),
        sa.Column("capicus", sa.Integer, nullable=True),
        sa.Column("chuchazos", sa.Integer, nullable=True),
    )
    op.create_index("result_seats_by_profile", "result_seats", ["profile", "created"])
    op.create_table(
        "profile_stats",
        sa.Column("profile", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("private", sa.Boolean, primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("ties", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=True),
        sa.Column("point_hands", sa.Integer, nullable=False),
        sa.Column("dominoes", sa.Integer, nullable=False),
        sa.Column("blocked_won", sa.Integer, nullable=False),
        sa.Column("capicus", sa.Integer, nullable=True),
        sa.Column("chuchazos", sa.Integer, nullable=True),
    )
    assert results is not None and seats is not None
    return results, seats


def _sums() -> None:
    """Each profile's sums over the results just stored, per game and private or not."""
    op.execute(
        "INSERT INTO profile_stats (profile, variant, private, games, wins, ties, hands, points,"
        " point_hands, dominoes, blocked_won, capicus, chuchazos)"
        " SELECT profile, variant, private, COUNT(*),"
        " SUM(CASE WHEN outcome = 'won' THEN 1 ELSE 0 END), SUM(CASE WHEN outcome = 'tie' THEN 1 ELSE 0 END),"
        " SUM(hands), SUM(points), SUM(CASE WHEN points IS NULL THEN 0 ELSE hands END),"
        " SUM(dominoes), SUM(blocked_won), SUM(capicus), SUM(chuchazos)"
        " FROM result_seats WHERE profile IS NOT NULL GROUP BY profile, variant, private"
    )


def _replayed(variant: str, options: dict[str, Any], seed: int, actions: list[tuple[str, str]]) -> Any:
    """The table's game rebuilt from its stored actions (as a server of 0001-0003 did)."""
    from bonepile.engine import Game, make_variant

    g = Game(make_variant(variant, options), seed=seed, auto_deal=False, snapshots=False)

    def begin(leader: int | None = None) -> None:
        h = g.deal_next()
        g.next_hand(dealt=h, leader=leader if g.leader_choosers() is not None else None)

    for kind, value in actions:
        if kind == "leader":
            begin(int(value))
        elif kind == "deal":
            begin()
        elif kind == "move":
            if not g.hands or g.hand.over:
                begin()
            g.play(value)
        else:
            raise ValueError(f"unknown action kind {kind!r}")
    return g


def _backfill(results: sa.Table, seats_t: sa.Table) -> None:
    from bonepile.engine.tally import bonus_kinds, seat_tallies, side_outcomes

    c = op.get_bind()
    tables = sa.table(
        "tables",
        *(
            sa.column(n)
            for n in ("id", "created", "variant", "options", "seed", "seats", "settings", "status")
        ),
    )
    actions = sa.table("actions", *(sa.column(n) for n in ("table_id", "seq", "kind", "value", "at")))
    rows = c.execute(sa.select(tables).where(tables.c.status == "over").order_by(tables.c.created)).all()
    for r in rows:
        acts = c.execute(
            sa.select(actions.c.kind, actions.c.value, actions.c.at)
            .where(actions.c.table_id == r.id)
            .order_by(actions.c.seq)
        ).all()
        try:
            seats, settings = json.loads(r.seats), json.loads(r.settings)
            g = _replayed(r.variant, json.loads(r.options), int(r.seed), [(a.kind, a.value) for a in acts])
        except Exception:  # damaged: no result (the history leaves it out, as it did)
            continue
        if not g.over or not isinstance(settings, dict) or not isinstance(seats, list):
            continue
        kinds = bonus_kinds(g.variant)
        outcomes = side_outcomes(g)
        hands = sum(1 for h in g.hands if h.over)
        private = settings.get("invite_hash") is not None
        c.execute(
            sa.insert(results).values(
                table_id=r.id,
                variant=r.variant,
                players=g.variant.players,
                created=r.created,
                finished=max((float(a.at) for a in acts), default=float(r.created)),
                sides=json.dumps([list(s) for s in g.variant.sides]),
                totals=json.dumps(list(g.totals)),
                winner=g.winner,
                hands=hands,
                rated=settings.get("rated") is True,
                private=private,
            )
        )
        c.execute(
            sa.insert(seats_t),
            [
                {
                    "table_id": r.id,
                    "seat": t.seat,
                    "profile": (seats[t.seat].get("profile") if isinstance(seats[t.seat], dict) else None)
                    if t.seat < len(seats)
                    else None,
                    "created": r.created,
                    "variant": r.variant,
                    "private": private,
                    "hands": hands,
                    "side": t.side,
                    "outcome": outcomes[t.side],
                    "points": t.points,
                    "dominoes": t.dominoes,
                    "blocked_won": t.blocked_won,
                    "capicus": t.bonuses["capicu"] if "capicu" in kinds else None,
                    "chuchazos": t.bonuses["chuchazo"] if "chuchazo" in kinds else None,
                }
                for t in seat_tallies(g)
            ],
        )


def upgrade() -> None:
    results, seats = _create()
    _backfill(results, seats)
    _sums()


def downgrade() -> None:
    op.drop_table("profile_stats")
    op.drop_index("result_seats_by_profile", table_name="result_seats")
    op.drop_table("result_seats")
    op.drop_table("results")
