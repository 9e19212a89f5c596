"""Ratings: OpenSkill ratings per participant and game key, and the tables already rated.

Revision ID: 0003_ratings
Revises: 0002_profiles
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_ratings"
down_revision = "0002_profiles"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("participant", sa.String(80), primary_key=True),  # "profile:<id>" or "bot:<level>"
        sa.Column("game", sa.String(40), primary_key=True),  # "<variant>-<players>"
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ratings_by_game", "ratings", ["game", "games"])
    op.create_table(
        "rated_games",
        sa.Column("table_id", sa.String(32), primary_key=True),  # a table is rated once
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("rated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_index("ratings_by_game", table_name="ratings")
    op.drop_table("ratings")
