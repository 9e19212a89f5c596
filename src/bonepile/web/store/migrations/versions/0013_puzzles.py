"""Puzzles: each profile's puzzle rating, each puzzle's own, the first attempt of each profile
at each puzzle (the one that is rated), and the puzzles mined from the server's own finished
tables with the tables already mined (web/store/puzzles.py, web/jobs/puzzles.py).

Revision ID: 0013_puzzles
Revises: 0009_rating_history
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_puzzles"
down_revision = "0012_luck_skill"
branch_labels = None
depends_on = None


def _rating(name: str, key: str, size: int) -> None:
    op.create_table(
        name,
        sa.Column(key, sa.String(size), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("vol", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def upgrade() -> None:
    _rating("puzzle_players", "profile", 32)
    _rating("puzzle_ratings", "puzzle", 40)
    op.create_table(
        "puzzle_attempts",
        sa.Column("profile", sa.String(32), primary_key=True),
        sa.Column("puzzle", sa.String(40), primary_key=True),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("rating_before", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
    )
    op.create_index("puzzle_attempts_by_profile", "puzzle_attempts", ["profile", "at"])
    op.create_table(
        "mined_puzzles",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("mined_puzzles_by_variant", "mined_puzzles", ["variant"])
    op.create_table(
        "puzzle_mined_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("mined", sa.Float, nullable=False),
        sa.Column("found", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_mined_tables")
    op.drop_index("mined_puzzles_by_variant", table_name="mined_puzzles")
    op.drop_table("mined_puzzles")
    op.drop_index("puzzle_attempts_by_profile", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_players")
