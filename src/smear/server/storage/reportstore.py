"""Players' reports of other players in the database, for the operator to read and resolve
(``smear admin reports``). A part of :class:`smear.server.storage.database.Storage` (its
``reports``), as the chat is.

A report keeps the table's last chat lines at the time it was made; they are emptied once the
report is older than :data:`REPORT_CHAT_KEPT_SECONDS` (the report itself stays, for the record).
Resolving a report is written with its row of the operator's audit in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import select, update

from smear.server.storage.moderationstore import Audit
from smear.server.storage.schema import (
    AuditModel,
    ChatLineModel,
    PlayedMatchModel,
    PlayerModel,
    ReportModel,
)
from smear.server.storage.transactions import Transactions

__all__ = [
    "REPORT_CHAT_KEPT_SECONDS",
    "REPORT_CHAT_LINES",
    "NewReport",
    "PlayedSeat",
    "Report",
    "ReportStore",
]

REPORT_CHAT_KEPT_SECONDS: Final = 30 * 24 * 3_600.0  # a report's chat lines are kept 30 days
REPORT_CHAT_LINES: Final = 20  # the table's last lines kept with a report
OPEN: Final = "open"
RESOLVED: Final = "resolved"


@dataclass(frozen=True)
class NewReport:
    """What a player reported: who (profile, if any, and address), whom, where and why."""

    at: float
    reporter_profile: str | None
    reporter_address: str
    reported_profile: str | None
    reported_name: str
    reported_seat: int
    table_code: str
    match_number: int | None
    match_id: str | None
    reason: str
    text: str
    chat: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Report:
    """A stored report, with its id, status and the operator's note."""

    id: int
    status: str
    resolution: str
    resolved_at: float | None
    made: NewReport


@dataclass(frozen=True)
class PlayedSeat:
    """A seat of a finished match, as a report from history names it."""

    table_code: str
    match_number: int
    finished_at: float
    profile: str | None
    name: str
    is_bot: bool


class ReportStore:
    """The reports' reads and writes; each method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    def add_report(self, report: NewReport) -> int:
        """Stores ``report`` as open; returns its id."""
        with self._transactions.write("store a report") as session:
            made = {name: getattr(report, name) for name in NewReport.__dataclass_fields__}
            row = ReportModel(**made, status=OPEN, resolution="", resolved_at=None)
            session.add(row)
            session.flush()
            return row.id

    def reports(self, only_open: bool) -> list[Report]:
        """Every report (or only the open ones), the oldest first."""
        with self._transactions.read("read the reports") as session:
            query = select(ReportModel).order_by(ReportModel.id)
            if only_open:
                query = query.where(ReportModel.status == OPEN)
            return [_report(row) for row in session.scalars(query)]

    def report(self, report_id: int) -> Report | None:
        """Report ``report_id``, or None if there is none."""
        with self._transactions.read("read a report") as session:
            row = session.get(ReportModel, report_id)
            return None if row is None else _report(row)

    def resolve(self, report_id: int, audit: Audit) -> bool:
        """Marks report ``report_id`` resolved with the audit's note, noted in the audit; says
        whether there is such a report still open."""
        with self._transactions.write("resolve a report") as session:
            done = session.execute(
                update(ReportModel)
                .where(ReportModel.id == report_id, ReportModel.status == OPEN)
                .values(status=RESOLVED, resolution=audit.note, resolved_at=audit.at)
            )
            if not getattr(done, "rowcount", 0):
                return False
            session.add(
                AuditModel(
                    at=audit.at, command=audit.command, target=audit.target, note=audit.note, by=audit.by
                )
            )
        return True

    def forget_chat_before(self, cutoff: float) -> int:
        """Empties the chat lines kept with the reports made before ``cutoff``; returns how many."""
        with self._transactions.write("forget the old reports' chat lines") as session:
            done = session.execute(
                update(ReportModel).where(ReportModel.at < cutoff, ReportModel.chat != []).values(chat=[])
            )
            return int(getattr(done, "rowcount", 0) or 0)

    # --- what a report from history names -----------------------------------------------------------------

    def played_seats(self, match_id: str) -> list[PlayedSeat]:
        """The seats of finished match ``match_id`` in order (empty: no such match)."""
        with self._transactions.read("read a finished match's seats") as session:
            rows = session.execute(
                select(PlayedMatchModel, PlayerModel)
                .join(PlayerModel, PlayerModel.match_id == PlayedMatchModel.id)
                .where(PlayedMatchModel.id == match_id)
                .order_by(PlayerModel.seat)
            ).all()
            return [
                PlayedSeat(
                    match.table_code,
                    match.match_number,
                    match.finished_at,
                    None if player.deleted else player.profile_id,
                    "" if player.deleted else player.name,
                    player.is_bot,
                )
                for match, player in rows
            ]

    def chat_until(self, code: str, until: float, since: float) -> list[dict[str, Any]]:
        """Table ``code``'s last chat lines written in ``[since, until]`` (still kept), oldest first."""
        with self._transactions.read(f"read the chat of table {code!r}") as session:
            rows = session.scalars(
                select(ChatLineModel)
                .where(ChatLineModel.table_code == code, ChatLineModel.at >= since, ChatLineModel.at <= until)
                .order_by(ChatLineModel.id.desc())
                .limit(REPORT_CHAT_LINES)
            ).all()
            return [
                {"id": r.id, "at": r.at, "seat": r.seat, "name": r.name, "text": r.text}
                for r in reversed(rows)
            ]


def _report(row: ReportModel) -> Report:
    made = NewReport(**{name: getattr(row, name) for name in NewReport.__dataclass_fields__})
    return Report(row.id, row.status, row.resolution, row.resolved_at, made)
