"""The tables' chat: the host's controls, and the lines kept for a limited time.

Revision ID: 0004_chat
Revises: 0003_longer_actions
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_chat"
down_revision = "0003_longer_actions"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_controls",
        sa.Column(
            "table_code",
            sa.String(64),
            sa.ForeignKey("card_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("chat_on", sa.Boolean(), nullable=False),
        sa.Column("spectators", sa.Boolean(), nullable=False),
        sa.Column("muted", sa.JSON(), nullable=False),
    )
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_code",
            sa.String(64),
            sa.ForeignKey("card_tables.code", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("seat", sa.Integer()),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
    )
    op.create_index("ix_chat_lines_table_code", "chat_lines", ["table_code"])
    op.create_index("ix_chat_lines_at", "chat_lines", ["at"])


def downgrade() -> None:
    op.drop_index("ix_chat_lines_at", table_name="chat_lines")
    op.drop_index("ix_chat_lines_table_code", table_name="chat_lines")
    op.drop_table("chat_lines")
    op.drop_table("chat_controls")
