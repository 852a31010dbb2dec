"""Idle and resting tables: since when nobody has been connected, and whether the table was put to rest.

Servers from before the schema had migrations made this table themselves once it existed, so it
is made here only where it is missing.

Revision ID: 0002_table_rest
Revises: 0001_first_schema
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_table_rest"
down_revision = "0001_first_schema"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("table_rest"):
        return
    op.create_table(
        "table_rest",
        sa.Column(
            "table_code",
            sa.String(64),
            sa.ForeignKey("card_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idle_since", sa.Double()),
        sa.Column("resting", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_table_rest_resting", "table_rest", ["resting"])


def downgrade() -> None:
    op.drop_index("ix_table_rest_resting", table_name="table_rest")
    op.drop_table("table_rest")
