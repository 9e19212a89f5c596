"""Rating history: each rated table's effect on each participant's rating (before and after),
for the change shown at the game's end and a profile's graph over time.

Revision ID: 0009_rating_history
Revises: 0008_link_keys
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_rating_history"
down_revision = "0008_link_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rating_history",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("participant", sa.String(80), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_index("rating_history_by_participant", "rating_history", ["participant", "game", "at"])


def downgrade() -> None:
    op.drop_index("rating_history_by_participant", table_name="rating_history")
    op.drop_table("rating_history")
