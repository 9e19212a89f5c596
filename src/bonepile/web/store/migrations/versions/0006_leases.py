"""Leases: which worker of a cluster (``serve --workers``) plays each table, and the workers
alive with the address where the others reach them.

Revision ID: 0006_leases
Revises: 0005_mutes
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_leases"
down_revision = "0005_mutes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "workers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(255), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Index("leases_by_worker", "worker"),
    )


def downgrade() -> None:
    op.drop_table("leases")
    op.drop_table("workers")
