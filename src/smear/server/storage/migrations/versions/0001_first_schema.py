"""The schema before migrations: tables, their seats, matches and every action.

A database written before the schema had migrations has these tables but no ``alembic_version``:
:func:`smear.server.storage.migrate.upgrade` marks it as being at this revision instead of running it.

Revision ID: 0001_first_schema
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_first_schema"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_tables",
        sa.Column("code", sa.String(64), primary_key=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("host_seat", sa.Integer()),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.CheckConstraint("status IN ('lobby', 'playing', 'finished')", name="known_status"),
    )
    op.create_index("ix_card_tables_status", "card_tables", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "table_code",
            sa.String(64),
            sa.ForeignKey("card_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("name", sa.String()),
        sa.Column("token_hash", sa.String()),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column(
            "table_code",
            sa.String(64),
            sa.ForeignKey("card_tables.code", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("record", sa.JSON()),
        sa.CheckConstraint("number >= 1", name="number_from_one"),
    )
    op.create_table(
        "actions",
        sa.Column("table_code", sa.String(64), primary_key=True),
        sa.Column("match_number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("prev_seq", sa.Integer()),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_code", "match_number"], ["matches.table_code", "matches.number"], ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["table_code", "match_number", "prev_seq"],
            ["actions.table_code", "actions.match_number", "actions.seq"],
            ondelete="CASCADE",
        ),
        sa.CheckConstraint(
            "(seq = 1 AND prev_seq IS NULL) OR (seq > 1 AND prev_seq IS NOT NULL AND prev_seq = seq - 1)",
            name="seq_follows_prev",
        ),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("matches")
    op.drop_table("seats")
    op.drop_index("ix_card_tables_status", table_name="card_tables")
    op.drop_table("card_tables")
