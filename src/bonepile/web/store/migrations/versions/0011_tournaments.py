"""Tournaments: their settings and secrets, their entrants, and each round's tables.

Revision ID: 0011_tournaments
Revises: 0009_rating_history
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_tournaments"
down_revision = "0010_deal_salt"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rounds_open", sa.Integer, nullable=False),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("profile", sa.String(32), nullable=True),
        sa.Column("partner", sa.String(32), nullable=True),
        sa.Column("partner_name", sa.String(80), nullable=True),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("entrants", sa.Text, nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
