"""Quarantined tables in the database: tables put aside because they could not be restored or
finished, kept out of every start until the operator releases them. A part of
:class:`smear.server.storage.database.Storage`, as the chat is.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select

from smear.server.storage.schema import QuarantineModel
from smear.server.storage.transactions import Transactions


@dataclass(frozen=True)
class QuarantinedTable:
    """A table put aside: why (``reason``: ``restore`` or ``finish``), the type of the error, and
    since when (seconds since the epoch)."""

    code: str
    reason: str
    error: str
    since: float


class QuarantineStore:
    """The quarantine's reads and writes; each method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    def put_aside(self, code: str, reason: str, error: str, at: float) -> None:
        """Quarantines table ``code`` (again, if it was: the newest reason is kept)."""
        with self._transactions.write(f"put table {code!r} aside") as session:
            session.merge(QuarantineModel(table_code=code, reason=reason, error=error, since=at))

    def release(self, code: str) -> bool:
        """Takes table ``code`` out of quarantine; says whether it was in it."""
        with self._transactions.write(f"release table {code!r}") as session:
            found = session.get(QuarantineModel, code) is not None
            session.execute(delete(QuarantineModel).where(QuarantineModel.table_code == code))
        return found

    def quarantined(self) -> list[QuarantinedTable]:
        """Every table put aside, the oldest first."""
        with self._transactions.read("read the quarantined tables") as session:
            rows = session.scalars(
                select(QuarantineModel).order_by(QuarantineModel.since, QuarantineModel.table_code)
            )
            return [QuarantinedTable(r.table_code, r.reason, r.error, r.since) for r in rows]

    def quarantined_count(self) -> int:
        with self._transactions.read("count the quarantined tables") as session:
            return session.scalar(select(func.count()).select_from(QuarantineModel)) or 0
