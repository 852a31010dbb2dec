"""Leaving counts and name marks: the matches a profile left while they were played, and the mark a
chat line's name was shown with.

Revision ID: 0014_matches_left
Revises: 0013_friends_and_blocks
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_matches_left"
down_revision = "0013_friends_and_blocks"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches_left",
        sa.Column(
            "profile_id",
            sa.String(40),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("table_code", sa.String(64), primary_key=True),
        sa.Column("match_number", sa.Integer(), primary_key=True, autoincrement=False),
    )
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(sa.Column("mark", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_column("mark")
    op.drop_table("matches_left")
