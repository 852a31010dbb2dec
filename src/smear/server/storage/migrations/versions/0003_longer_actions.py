"""Actions of any length: a discard of many cards (a widow bidder's) is longer than 64 characters,
which PostgreSQL refused to store (SQLite never checked the length).

Revision ID: 0003_longer_actions
Revises: 0002_table_rest
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_longer_actions"
down_revision = "0002_table_rest"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # SQLite changes a column's type only by copying the table (batch mode); PostgreSQL in place.
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("action", type_=sa.Text(), existing_type=sa.String(64), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.alter_column("action", type_=sa.String(64), existing_type=sa.Text(), existing_nullable=False)
