"""Sealed deals: each table's secret salt of the commitment to its seed (engine/commit.py), in a
table of its own (the first release's tables stay as they were).  Tables made before it have
none: their deals are not sealed, and their pages say so.

Revision ID: 0010_deal_salt
Revises: 0009_rating_history
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_deal_salt"
down_revision = "0009_rating_history"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deal_salts",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("salt", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deal_salts")
