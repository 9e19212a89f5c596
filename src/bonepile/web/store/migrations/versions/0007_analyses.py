"""Analyses: the post-game analyses the replay page asked for, kept so that a game is
analysed once (web/jobs/analyses.py).

Revision ID: 0007_analyses
Revises: 0006_leases
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_analyses"
down_revision = "0006_leases"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
