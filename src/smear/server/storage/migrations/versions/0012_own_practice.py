"""Practice positions of a profile's own: its costliest decisions of a finished match it played,
solved and kept for it alone (never served to anyone else, never rated).

Revision ID: 0012_own_practice
Revises: 0011_practice
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_own_practice"
down_revision = "0011_practice"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "own_practice_positions",
        sa.Column(
            "owner_id",
            sa.String(40),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("match_id", sa.String(40), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("question", sa.JSON(), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
    )
    op.create_index(
        "ix_own_practice_positions_owner_match", "own_practice_positions", ["owner_id", "match_id"]
    )


def downgrade() -> None:
    op.drop_table("own_practice_positions")
