"""Each chat line notes the profile that wrote it (``smear admin chat delete --profile`` deletes by
it, wherever that profile sat), and each server process the last time it was seen running (so
``smear admin tables`` can tell a stopped process from a live one).

Revision ID: 0010_chat_writer_and_heartbeat
Revises: 0009_reports
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_chat_writer_and_heartbeat"
down_revision = "0009_reports"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Lines written before this revision do not know their writer: NULL.
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(sa.Column("profile_id", sa.String(40), nullable=True))
    with op.batch_alter_table("server_processes") as batch:
        batch.add_column(sa.Column("seen_at", sa.Double(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("server_processes") as batch:
        batch.drop_column("seen_at")
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_column("profile_id")
