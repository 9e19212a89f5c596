"""Mutes: a profile's choice not to see another profile's table chat, at every table.

Revision ID: 0005_mutes
Revises: 0004_results
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_mutes"
down_revision = "0004_results"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mutes",
        sa.Column("muter", sa.String(32), sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("muted", sa.String(32), sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mutes")
