"""Link codes bound to the key that made them: a code stops working when that device is
signed out (web/store/profiles.py).  Codes made before this revision name no key: they are
dropped (they last ten minutes; a device makes a new one in a click).

Revision ID: 0008_link_keys
Revises: 0007_analyses
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_link_keys"
down_revision = "0007_analyses"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM profile_links"))
    with op.batch_alter_table("profile_links") as batch:
        batch.add_column(sa.Column("key_hash", sa.String(64), nullable=True))
        batch.create_index("profile_links_by_key", ["key_hash"])


def downgrade() -> None:
    with op.batch_alter_table("profile_links") as batch:
        batch.drop_index("profile_links_by_key")
        batch.drop_column("key_hash")
