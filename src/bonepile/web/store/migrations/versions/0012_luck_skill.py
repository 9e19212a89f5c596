"""Luck and skill: each seat's luck (what its deals were worth) and skill (the points its
decisions lost against the others') in a finished table whose analysis was stored, for the
profile's page.

Revision ID: 0012_luck_skill
Revises: 0009_rating_history
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_luck_skill"
down_revision = "0011_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "luck_skill",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("profile", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("result", sa.Float, nullable=False),
        sa.Column("luck", sa.Float, nullable=False),
        sa.Column("skill", sa.Float),
    )
    op.create_index("luck_skill_by_profile", "luck_skill", ["profile", "created"])


def downgrade() -> None:
    op.drop_index("luck_skill_by_profile", table_name="luck_skill")
    op.drop_table("luck_skill")
