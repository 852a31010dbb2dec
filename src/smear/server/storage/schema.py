"""The schema of the game server's database, as SQLAlchemy models.

Only :mod:`smear.server.storage.database` reads and writes these; everyone else sees its frozen rows. A
database gets this schema through the migrations in ``migrations/`` (Alembic), never from the models
directly: a change here goes with a new migration, and ``tests/server/test_migrations.py`` checks
that the migrations, run from an empty database, give exactly these models.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Double,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "BAN_KINDS",
    "REPORT_REASONS",
    "REPORT_STATUSES",
    "STATUSES",
    "ActionModel",
    "AdminOrderModel",
    "AuditModel",
    "BanModel",
    "Base",
    "BlockModel",
    "ChatControlsModel",
    "ChatLineModel",
    "FriendshipModel",
    "ListingModel",
    "MatchModel",
    "OwnPracticePositionModel",
    "PlayedMatchModel",
    "PlayerModel",
    "PracticeAttemptModel",
    "PracticePositionModel",
    "PracticeRatingModel",
    "ProfileKeyModel",
    "ProfileModel",
    "QuarantineModel",
    "RatingModel",
    "ReportModel",
    "RestModel",
    "SeatModel",
    "ServerProcessModel",
    "TableModel",
]

STATUSES: Final = ("lobby", "playing", "finished")
"""The states of a table: seats being filled, a match under way, the last match over."""

BAN_KINDS: Final = ("profile", "address")
"""What a ban keeps out: a profile (by its id) or a client address (an IP or a network)."""

# Why a player reports another (the client words each), and where a report stands.
REPORT_REASONS: Final = (
    "abusive_chat",
    "cheating_or_collusion",
    "offensive_name",
    "leaving_or_stalling",
    "other",
)
REPORT_STATUSES: Final = ("open", "resolved")


class Base(DeclarativeBase):
    """The tables of the game server's database."""


class TableModel(Base):
    __tablename__ = "card_tables"
    __table_args__ = (CheckConstraint(f"status IN {STATUSES!r}", name="known_status"),)

    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    host_seat: Mapped[int | None]
    status: Mapped[str] = mapped_column(String(16), index=True)  # unfinished_tables() filters on it
    created_at: Mapped[float] = mapped_column(Double)


class SeatModel(Base):
    __tablename__ = "seats"

    table_code: Mapped[str] = mapped_column(
        ForeignKey("card_tables.code", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    name: Mapped[str | None]
    token_hash: Mapped[str | None]
    is_bot: Mapped[bool]
    # The profile of the person (or bot level) in the seat, if any. (Added by the sixth migration.)
    profile_id: Mapped[str | None] = mapped_column(String(40), default=None)


class MatchModel(Base):
    __tablename__ = "matches"
    __table_args__ = (CheckConstraint("number >= 1", name="number_from_one"),)

    table_code: Mapped[str] = mapped_column(
        ForeignKey("card_tables.code", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    seed: Mapped[int] = mapped_column(BigInteger)
    sides: Mapped[list[list[int]]] = mapped_column(JSON)
    names: Mapped[list[str]] = mapped_column(JSON)
    finished: Mapped[bool] = mapped_column(default=False)
    # SQL NULL (not the JSON text "null") until the match is finished.
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), default=None)
    # The profile in each seat when the match started (None: no profile), who its history is of.
    # NULL for a match stored before the sixth migration.
    profiles: Mapped[list[str | None] | None] = mapped_column(JSON(none_as_null=True), default=None)


class RestModel(Base):
    """How long a table has had nobody connected, and whether it was put to rest. A table without
    a row here has never been idle. (Added by the second migration, beside the others.)"""

    __tablename__ = "table_rest"

    table_code: Mapped[str] = mapped_column(
        ForeignKey("card_tables.code", ondelete="CASCADE"), primary_key=True
    )
    idle_since: Mapped[float | None] = mapped_column(Double)
    resting: Mapped[bool] = mapped_column(default=False, index=True)


class QuarantineModel(Base):
    """A table put aside: its stored match no longer replays, or the record of its finished match
    could not be stored. No start brings it back until the operator releases it (``smear db
    release``). (Added by the seventh migration.)"""

    __tablename__ = "quarantined_tables"

    table_code: Mapped[str] = mapped_column(
        ForeignKey("card_tables.code", ondelete="CASCADE"), primary_key=True
    )
    reason: Mapped[str] = mapped_column(String(16))  # what failed: "restore" or "finish"
    error: Mapped[str] = mapped_column(String(64))  # the error's type, never its text (it may quote cards)
    since: Mapped[float] = mapped_column(Double)


class ActionModel(Base):
    """One action. ``prev_seq`` points at the action before it in the same match, so the database
    itself refuses a gap (no such previous action) as the primary key refuses a duplicate, with a
    single INSERT and no read by the caller."""

    __tablename__ = "actions"
    __table_args__ = (
        ForeignKeyConstraint(
            ["table_code", "match_number"],
            ["matches.table_code", "matches.number"],
            ondelete="CASCADE",
        ),
        ForeignKeyConstraint(
            ["table_code", "match_number", "prev_seq"],
            ["actions.table_code", "actions.match_number", "actions.seq"],
            ondelete="CASCADE",
        ),
        # Spelled out so that a NULL prev_seq cannot make the check pass for a later action.
        CheckConstraint(
            "(seq = 1 AND prev_seq IS NULL) OR (seq > 1 AND prev_seq IS NOT NULL AND prev_seq = seq - 1)",
            name="seq_follows_prev",
        ),
    )

    table_code: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_number: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    prev_seq: Mapped[int | None]
    seat: Mapped[int]
    action: Mapped[str] = mapped_column(Text)  # a discard of many cards is long


class ChatControlsModel(Base):
    """What the host chose for a table's chat. A table without a row here has the defaults (chat on,
    spectators reading only, nobody muted). (Added by the fourth migration, with the chat lines.)"""

    __tablename__ = "chat_controls"

    table_code: Mapped[str] = mapped_column(
        ForeignKey("card_tables.code", ondelete="CASCADE"), primary_key=True
    )
    chat_on: Mapped[bool]
    spectators: Mapped[bool]
    muted: Mapped[list[int]] = mapped_column(JSON)


class ChatLineModel(Base):
    """A line of a table's chat, kept for a limited time (not part of any match record)."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_code: Mapped[str] = mapped_column(ForeignKey("card_tables.code", ondelete="CASCADE"), index=True)
    at: Mapped[float] = mapped_column(Double, index=True)  # the retention sweep filters on it
    seat: Mapped[int | None]
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    # The profile that wrote it, if any (None too for lines older than the tenth migration).
    profile_id: Mapped[str | None] = mapped_column(String(40), default=None)
    # The mark its name was shown with (smear.server.players.names), if any. (Fourteenth migration.)
    mark: Mapped[str | None] = mapped_column(String(8), default=None)


class ListingModel(Base):
    """A table its host lists as open: anyone may find it on the landing page while it waits for
    players. A table without a row here is reached by its link only. (Added by the fifth migration.)"""

    __tablename__ = "open_tables"

    table_code: Mapped[str] = mapped_column(
        ForeignKey("card_tables.code", ondelete="CASCADE"), primary_key=True
    )
    listed_at: Mapped[float] = mapped_column(Double, index=True)  # the newest are shown first


class ProfileModel(Base):
    """A player the server knows (or a bot level), without e-mail or password: a public id, a name,
    and the hashes of the secrets that prove it (:class:`ProfileKeyModel`). (The sixth migration
    adds it and the tables below.)"""

    __tablename__ = "profiles"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    is_bot: Mapped[bool]
    created_at: Mapped[float] = mapped_column(Double)


class ProfileKeyModel(Base):
    """The hash of one secret of a profile, or of a one-time code to carry it to another device
    (``expires_at`` set, and the row deleted once used)."""

    __tablename__ = "profile_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    profile_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[float | None] = mapped_column(Double)  # None: a secret, kept until deleted


class PlayedMatchModel(Base):
    """A finished match in the players' history, apart from its table (a table may be deleted)."""

    __tablename__ = "played_matches"
    __table_args__ = (UniqueConstraint("table_code", "match_number", name="one_history_per_match"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    table_code: Mapped[str] = mapped_column(String(64))
    match_number: Mapped[int]
    preset: Mapped[str] = mapped_column(String(32))
    finished_at: Mapped[float] = mapped_column(Double, index=True)
    sides: Mapped[list[list[int]]] = mapped_column(JSON)
    scores: Mapped[list[int]] = mapped_column(JSON)
    winner: Mapped[int | None]
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


class PlayerModel(Base):
    """One seat of a played match: who held it and how it went for them."""

    __tablename__ = "match_players"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("played_matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    # None for a guest without a profile, or a player whose profile was deleted (``deleted``).
    profile_id: Mapped[str | None] = mapped_column(String(40), index=True)
    name: Mapped[str] = mapped_column(String(64))
    is_bot: Mapped[bool]
    deleted: Mapped[bool] = mapped_column(default=False)
    side: Mapped[int]
    won: Mapped[bool]
    stats: Mapped[dict[str, Any]] = mapped_column(JSON)


class RatingModel(Base):
    """A profile's rating in one preset (openskill: ``mu`` and ``sigma``; ``ordinal`` = mu - 3 sigma,
    stored to sort the leaderboard)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "preset", "ordinal"),)

    profile_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    ordinal: Mapped[float] = mapped_column(Double)
    matches: Mapped[int]


class AuditModel(Base):
    """One operator's action (``smear admin``): when, the command, its target, the note given and
    who ran it. Never deleted by the server. (Added by the eighth migration, with the tables below.)"""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Double, index=True)
    command: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(128))
    note: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(64))


class BanModel(Base):
    """A profile or an address kept out, from ``since`` until ``until`` (None: until unbanned)."""

    __tablename__ = "bans"
    __table_args__ = (
        CheckConstraint(f"kind IN {BAN_KINDS!r}", name="known_ban_kind"),
        UniqueConstraint("kind", "target", name="one_ban_per_target"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(String(64))  # a profile id, or a network such as 10.0.0.0/8
    since: Mapped[float] = mapped_column(Double)
    until: Mapped[float | None] = mapped_column(Double)
    reason: Mapped[str] = mapped_column(Text)


class AdminOrderModel(Base):
    """An order the running servers carry out (a table closed, chat lines deleted, the bans
    changed): each server reads the orders after the last it saw, every second."""

    __tablename__ = "admin_orders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Double)
    kind: Mapped[str] = mapped_column(String(16))
    table_code: Mapped[str | None] = mapped_column(String(64))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class ServerProcessModel(Base):
    """A server process: its host and pid, so that the operator can tell which process owns a
    table (its lease with Redis names ``process``; without Redis the one process owns them all)."""

    __tablename__ = "server_processes"

    process: Mapped[str] = mapped_column(String(128), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int]
    started_at: Mapped[float] = mapped_column(Double, index=True)
    # When it last said it runs (:data:`~smear.server.storage.moderationstore.HEARTBEAT_EVERY`).
    seen_at: Mapped[float | None] = mapped_column(Double, default=None)


class ReportModel(Base):
    """A player's report of another, for the operator: who reported (their profile, if any, and
    address), whom (the profile, if any, and the name shown), where (the table, the match), why,
    and the table's last chat lines at the time (emptied once older than the retention). (Added by
    the ninth migration.)"""

    __tablename__ = "reports"
    __table_args__ = (
        CheckConstraint(f"reason IN {REPORT_REASONS!r}", name="known_report_reason"),
        CheckConstraint(f"status IN {REPORT_STATUSES!r}", name="known_report_status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Double, index=True)
    reporter_profile: Mapped[str | None] = mapped_column(String(40))
    reporter_address: Mapped[str] = mapped_column(String(64))
    reported_profile: Mapped[str | None] = mapped_column(String(40), index=True)
    reported_name: Mapped[str] = mapped_column(String(64))
    reported_seat: Mapped[int]
    table_code: Mapped[str] = mapped_column(String(64))
    match_number: Mapped[int | None]
    match_id: Mapped[str | None] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)
    resolution: Mapped[str] = mapped_column(Text)
    resolved_at: Mapped[float | None] = mapped_column(Double)
    chat: Mapped[list[dict[str, Any]]] = mapped_column(JSON)


class PracticePositionModel(Base):
    """A practice position (docs/practice.md): its question (what the page shows before an attempt)
    and its answer (sent only with an attempt's result) as JSON, its themes, and its practice rating
    (openskill ``mu`` and ``sigma``, moved by every first attempt at it). (Added by the eleventh
    migration, with the two tables below.)"""

    __tablename__ = "practice_positions"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    preset: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))
    themes: Mapped[list[str]] = mapped_column(JSON)
    mu: Mapped[float] = mapped_column(Double, index=True)
    sigma: Mapped[float] = mapped_column(Double)
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    answer: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(80))
    created: Mapped[float] = mapped_column(Double)


class PracticeAttemptModel(Base):
    """One attempt of a profile at a practice position: the choice, whether it was the best, when,
    and whether it was the one that moved the ratings (the first: at most one per profile and
    position, which the database itself holds to, so that two servers cannot both count one)."""

    __tablename__ = "practice_attempts"
    __table_args__ = (
        Index("ix_practice_attempts_profile_position", "profile_id", "position_id"),
        Index(
            "ux_practice_attempts_rated",
            "profile_id",
            "position_id",
            unique=True,
            sqlite_where=text("rated"),
            postgresql_where=text("rated"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    position_id: Mapped[str] = mapped_column(ForeignKey("practice_positions.id", ondelete="CASCADE"))
    choice: Mapped[str] = mapped_column(String(120))
    correct: Mapped[bool]
    rated: Mapped[bool]
    at: Mapped[float] = mapped_column(Double)


class PracticeRatingModel(Base):
    """A profile's practice rating (openskill ``mu`` and ``sigma``, apart from the game ratings), its
    rated attempts and its streak of best choices."""

    __tablename__ = "practice_ratings"

    profile_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    attempts: Mapped[int]
    streak: Mapped[int]


class OwnPracticePositionModel(Base):
    """A practice position of a profile's own: one of its costliest decisions in a finished match it
    played, solved (``rank`` 0 the costliest), served to that profile alone and never rated. (Added
    by the twelfth migration.)"""

    __tablename__ = "own_practice_positions"
    __table_args__ = (Index("ix_own_practice_positions_owner_match", "owner_id", "match_id"),)

    owner_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(40))
    rank: Mapped[int]
    question: Mapped[dict[str, Any]] = mapped_column(JSON)
    answer: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Double)


class FriendshipModel(Base):
    """A friendship between two profiles: asked by ``requester_id`` (``accepted`` false), then
    accepted by ``addressee_id``; one row per pair, either side's deletion ends it. (Added by the
    thirteenth migration.)"""

    __tablename__ = "friendships"
    __table_args__ = (Index("ix_friendships_addressee", "addressee_id"),)

    requester_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    addressee_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    accepted: Mapped[bool]
    created: Mapped[float] = mapped_column(Double)


class BlockModel(Base):
    """``blocker_id`` blocks ``blocked_id``: known to the blocker alone. (Added by the thirteenth
    migration.)"""

    __tablename__ = "blocks"
    __table_args__ = (Index("ix_blocks_blocked", "blocked_id"),)

    blocker_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    created: Mapped[float] = mapped_column(Double)


class MatchLeftModel(Base):
    """``profile_id`` left match ``match_number`` of table ``table_code`` while it was played: the
    match counts as left, not finished, for that profile. (Added by the fourteenth migration.)"""

    __tablename__ = "matches_left"

    profile_id: Mapped[str] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)
    table_code: Mapped[str] = mapped_column(String(64), primary_key=True)
    match_number: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
