"""Players' reports of other players, read and resolved by the operator (``smear admin reports``).

Revision ID: 0009_reports
Revises: 0008_moderation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_reports"
down_revision = "0008_moderation"
branch_labels = None
depends_on = None

_REASONS = ("abusive_chat", "cheating_or_collusion", "offensive_name", "leaving_or_stalling", "other")


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("reporter_profile", sa.String(40), nullable=True),
        sa.Column("reporter_address", sa.String(64), nullable=False),
        sa.Column("reported_profile", sa.String(40), nullable=True),
        sa.Column("reported_name", sa.String(64), nullable=False),
        sa.Column("reported_seat", sa.Integer(), nullable=False),
        sa.Column("table_code", sa.String(64), nullable=False),
        sa.Column("match_number", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.String(40), nullable=True),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("resolution", sa.Text(), nullable=False),
        sa.Column("resolved_at", sa.Double(), nullable=True),
        sa.Column("chat", sa.JSON(), nullable=False),
        sa.CheckConstraint(f"reason IN {_REASONS!r}", name="known_report_reason"),
        sa.CheckConstraint("status IN ('open', 'resolved')", name="known_report_status"),
    )
    op.create_index("ix_reports_at", "reports", ["at"])
    op.create_index("ix_reports_reported_profile", "reports", ["reported_profile"])
    op.create_index("ix_reports_status", "reports", ["status"])


def downgrade() -> None:
    op.drop_table("reports")
