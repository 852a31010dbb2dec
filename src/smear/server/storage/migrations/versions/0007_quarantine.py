"""Quarantined tables: a table that cannot be restored or finished is put aside, with the kind of
failure, until the operator releases it.

Revision ID: 0007_quarantine
Revises: 0006_players
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_quarantine"
down_revision = "0006_players"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quarantined_tables",
        sa.Column(
            "table_code",
            sa.String(64),
            sa.ForeignKey("card_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("error", sa.String(64), nullable=False),
        sa.Column("since", sa.Double(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("quarantined_tables")
