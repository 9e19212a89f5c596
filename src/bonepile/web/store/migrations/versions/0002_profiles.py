"""Profiles without passwords: a display name; its secret keys, one per device (only their
hashes); link codes that move a profile to another device (their hash, an expiry, used once)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_profiles"
down_revision = "0001_baseline"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "profile_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "profile_links",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("profile_id", sa.String(32), sa.ForeignKey("profiles.id"), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("profile_links")
    op.drop_table("profile_keys")
    op.drop_table("profiles")
