"""The operator's tools (``smear admin``): the audit of every action, the bans, the orders the
running servers carry out, and the server processes with their host and pid.

Revision ID: 0008_moderation
Revises: 0007_quarantine
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_moderation"
down_revision = "0007_quarantine"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "admin_audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("command", sa.String(32), nullable=False),
        sa.Column("target", sa.String(128), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("by", sa.String(64), nullable=False),
    )
    op.create_index("ix_admin_audit_at", "admin_audit", ["at"])
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("since", sa.Double(), nullable=False),
        sa.Column("until", sa.Double(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.CheckConstraint("kind IN ('profile', 'address')", name="known_ban_kind"),
        sa.UniqueConstraint("kind", "target", name="one_ban_per_target"),
    )
    op.create_table(
        "admin_orders",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_code", sa.String(64), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
    )
    op.create_table(
        "server_processes",
        sa.Column("process", sa.String(128), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.Double(), nullable=False),
    )
    op.create_index("ix_server_processes_started_at", "server_processes", ["started_at"])


def downgrade() -> None:
    op.drop_table("server_processes")
    op.drop_table("admin_orders")
    op.drop_table("bans")
    op.drop_table("admin_audit")
