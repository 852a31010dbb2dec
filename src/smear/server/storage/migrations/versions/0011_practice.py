"""Practice: positions from real play with their answers, profiles' attempts at them, and the
profiles' practice ratings (kept apart from the game ratings).

Revision ID: 0011_practice
Revises: 0010_chat_writer_and_heartbeat
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_practice"
down_revision = "0010_chat_writer_and_heartbeat"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "practice_positions",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("themes", sa.JSON(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("question", sa.JSON(), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(80), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
    )
    op.create_index("ix_practice_positions_mu", "practice_positions", ["mu"])
    op.create_table(
        "practice_attempts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "profile_id", sa.String(40), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "position_id",
            sa.String(16),
            sa.ForeignKey("practice_positions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("choice", sa.String(120), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
    )
    op.create_index(
        "ix_practice_attempts_profile_position", "practice_attempts", ["profile_id", "position_id"]
    )
    # At most one rated (first) attempt per profile and position, whichever server stores it.
    op.create_index(
        "ux_practice_attempts_rated",
        "practice_attempts",
        ["profile_id", "position_id"],
        unique=True,
        sqlite_where=sa.text("rated"),
        postgresql_where=sa.text("rated"),
    )
    op.create_table(
        "practice_ratings",
        sa.Column(
            "profile_id",
            sa.String(40),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("practice_ratings")
    op.drop_table("practice_attempts")
    op.drop_table("practice_positions")
