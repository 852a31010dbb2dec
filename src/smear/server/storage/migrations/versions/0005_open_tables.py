"""Open tables: the tables their hosts list for anyone to join from the landing page.

Revision ID: 0005_open_tables
Revises: 0004_chat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_open_tables"
down_revision = "0004_chat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_tables",
        sa.Column(
            "table_code",
            sa.String(64),
            sa.ForeignKey("card_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("listed_at", sa.Double(), nullable=False),
    )
    op.create_index("ix_open_tables_listed_at", "open_tables", ["listed_at"])


def downgrade() -> None:
    op.drop_index("ix_open_tables_listed_at", table_name="open_tables")
    op.drop_table("open_tables")
