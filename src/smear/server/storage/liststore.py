"""The open tables in the database: which tables their hosts listed, and what the landing page shows
of those still in their lobby. A part of :class:`smear.server.storage.database.Storage`, as the chat is.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, exists, select

from smear.server.storage.schema import ListingModel, SeatModel, TableModel
from smear.server.storage.transactions import Transactions


@dataclass(frozen=True)
class ListedTable:
    """A listed table in its lobby: its settings, its host's seat, and per seat a name (None: open),
    whether a bot holds it, and its profile (None: none)."""

    code: str
    settings: dict[str, Any]
    host_seat: int | None
    seats: list[tuple[str | None, bool, str | None]]


class ListingStore:
    """Reads and writes of the open tables; each method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    def set_listed(self, code: str, listed: bool, at: float) -> None:
        """Lists table ``code`` as open (since ``at``), or takes it off the list."""
        with self._transactions.write(f"list table {code!r}") as session:
            if listed:
                session.merge(ListingModel(table_code=code, listed_at=at))
            else:
                session.execute(delete(ListingModel).where(ListingModel.table_code == code))

    def is_listed(self, code: str) -> bool:
        with self._transactions.read(f"read whether table {code!r} is listed") as session:
            return session.get(ListingModel, code) is not None

    def listed_lobbies(self, limit: int) -> list[ListedTable]:
        """The listed tables still in their lobby with a seat free, the most recently listed first,
        at most ``limit``. Full lobbies are left out before the limit, so they hide no open one."""
        free_seat = exists().where(SeatModel.table_code == TableModel.code, SeatModel.name.is_(None))
        with self._transactions.read("read the open tables") as session:
            rows = session.execute(
                select(TableModel.code, TableModel.settings, TableModel.host_seat)
                .join(ListingModel, ListingModel.table_code == TableModel.code)
                .where(TableModel.status == "lobby", free_seat)
                .order_by(ListingModel.listed_at.desc(), TableModel.code)
                .limit(limit)
            ).all()
            codes = [row.code for row in rows]
            seats: defaultdict[str, list[tuple[str | None, bool, str | None]]] = defaultdict(list)
            if codes:
                for seat in session.scalars(
                    select(SeatModel)
                    .where(SeatModel.table_code.in_(codes))
                    .order_by(SeatModel.table_code, SeatModel.seat)
                ):
                    seats[seat.table_code].append((seat.name, seat.is_bot, seat.profile_id))
        return [ListedTable(row.code, row.settings, row.host_seat, seats[row.code]) for row in rows]
