"""Friends and blocks: a friendship asked by one profile and accepted by the other, and a profile's
blocks of others (private to the blocker).

Revision ID: 0013_friends_and_blocks
Revises: 0012_own_practice
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_friends_and_blocks"
down_revision = "0012_own_practice"
branch_labels = None
depends_on = None


def _profile(column: str) -> sa.Column[str]:
    return sa.Column(
        column, sa.String(40), sa.ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )


def upgrade() -> None:
    op.create_table(
        "friendships",
        _profile("requester_id"),
        _profile("addressee_id"),
        sa.Column("accepted", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
    )
    op.create_index("ix_friendships_addressee", "friendships", ["addressee_id"])
    op.create_table(
        "blocks",
        _profile("blocker_id"),
        _profile("blocked_id"),
        sa.Column("created", sa.Double(), nullable=False),
    )
    op.create_index("ix_blocks_blocked", "blocks", ["blocked_id"])


def downgrade() -> None:
    op.drop_table("blocks")
    op.drop_table("friendships")
