"""A profile's own practice positions in the database: its costliest decisions of a finished match
it played, solved once and kept for it alone (docs/practice.md, "From your own matches"). A part of
:class:`smear.server.storage.database.Storage` (its ``own_practice``). They live apart from
``practice_positions``, so the next, daily and themes reads never see them, and an attempt at one
moves no rating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from smear.server.storage.schema import OwnPracticePositionModel
from smear.server.storage.transactions import Transactions

__all__ = ["OwnPosition", "OwnPracticeStore"]


@dataclass(frozen=True)
class OwnPosition:
    """One owned position: its question (without its answer) and its answer (with ``played``)."""

    question: dict[str, Any]
    answer: dict[str, Any]


class OwnPracticeStore:
    """The owned positions' reads and writes; each method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    def of_match(self, owner: str, match: str) -> list[OwnPosition]:
        """``owner``'s positions from ``match``, costliest first (none: not made yet, or none costly)."""
        with self._transactions.read("read own practice positions") as session:
            rows = session.scalars(
                select(OwnPracticePositionModel)
                .where(OwnPracticePositionModel.owner_id == owner, OwnPracticePositionModel.match_id == match)
                .order_by(OwnPracticePositionModel.rank)
            )
            return [OwnPosition(row.question, row.answer) for row in rows]

    def position(self, owner: str, position: str) -> OwnPosition | None:
        """``owner``'s position ``position`` (None: no such position of its own)."""
        with self._transactions.read("read an own practice position") as session:
            row = session.get(OwnPracticePositionModel, (owner, position))
            return None if row is None else OwnPosition(row.question, row.answer)

    def keep(self, owner: str, match: str, positions: Sequence[OwnPosition], now: float) -> list[OwnPosition]:
        """Keeps ``positions`` (costliest first) as ``owner``'s from ``match``, unless some are kept
        already (another request made them first): the kept ones are returned either way."""
        with self._transactions.write("store own practice positions") as session:
            kept = list(
                session.scalars(
                    select(OwnPracticePositionModel)
                    .where(
                        OwnPracticePositionModel.owner_id == owner, OwnPracticePositionModel.match_id == match
                    )
                    .order_by(OwnPracticePositionModel.rank)
                )
            )
            if kept:
                return [OwnPosition(row.question, row.answer) for row in kept]
            ids: set[str] = set()
            for rank, position in enumerate(positions):
                ident = str(position.question["id"])
                if ident in ids or session.get(OwnPracticePositionModel, (owner, ident)) is not None:
                    continue  # one decision twice (or in two matches' records): kept once
                ids.add(ident)
                session.add(
                    OwnPracticePositionModel(
                        owner_id=owner,
                        id=ident,
                        match_id=match,
                        rank=rank,
                        question=position.question,
                        answer=position.answer,
                        created=now,
                    )
                )
            return [position for position in positions if str(position.question["id"]) in ids]
