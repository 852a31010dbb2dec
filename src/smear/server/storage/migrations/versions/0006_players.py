"""Players: profiles and their secrets, the history of finished matches, and ratings; seats and
matches name the profile that held each seat.

Revision ID: 0006_players
Revises: 0005_open_tables
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_players"
down_revision = "0005_open_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("profile_id", sa.String(40), nullable=True))
    with op.batch_alter_table("matches") as matches:
        matches.add_column(sa.Column("profiles", sa.JSON(none_as_null=True), nullable=True))
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_table(
        "profile_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column(
            "profile_id", sa.String(40), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("expires_at", sa.Double(), nullable=True),
    )
    op.create_index("ix_profile_keys_profile_id", "profile_keys", ["profile_id"])
    op.create_table(
        "played_matches",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("table_code", sa.String(64), nullable=False),
        sa.Column("match_number", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("finished_at", sa.Double(), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.UniqueConstraint("table_code", "match_number", name="one_history_per_match"),
    )
    op.create_index("ix_played_matches_finished_at", "played_matches", ["finished_at"])
    op.create_table(
        "match_players",
        sa.Column(
            "match_id",
            sa.String(40),
            sa.ForeignKey("played_matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("profile_id", sa.String(40), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("stats", sa.JSON(), nullable=False),
    )
    op.create_index("ix_match_players_profile_id", "match_players", ["profile_id"])
    op.create_table(
        "ratings",
        sa.Column(
            "profile_id",
            sa.String(40),
            sa.ForeignKey("profiles.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("preset", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["preset", "ordinal"])


def downgrade() -> None:
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_match_players_profile_id", table_name="match_players")
    op.drop_table("match_players")
    op.drop_index("ix_played_matches_finished_at", table_name="played_matches")
    op.drop_table("played_matches")
    op.drop_index("ix_profile_keys_profile_id", table_name="profile_keys")
    op.drop_table("profile_keys")
    op.drop_table("profiles")
    with op.batch_alter_table("matches") as matches:
        matches.drop_column("profiles")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("profile_id")
