"""The tables' chat in the database: the host's controls and the lines, kept for a limited time.

A part of :class:`smear.server.storage.database.Storage` (its ``chat``), apart because the chat is
not part of any match.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select

from smear.server.social.chat import CHAT_REMEMBERED, ChatLine
from smear.server.storage.schema import ChatControlsModel, ChatLineModel
from smear.server.storage.transactions import Transactions


@dataclass(frozen=True)
class StoredChat:
    """A table's chat as stored: its controls (None: the defaults) and its latest lines, oldest first."""

    controls: tuple[bool, bool, frozenset[int]] | None
    lines: list[ChatLine]


class ChatStore:
    """The chat's reads and writes; each method is one transaction, as every storage method is."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    def add_chat_line(
        self,
        code: str,
        at: float,
        seat: int | None,
        name: str,
        text: str,
        profile: str | None = None,
        mark: str | None = None,
    ) -> int:
        """Stores a line of table ``code``'s chat, written by ``profile`` (if the writer has one) under
        a name shown with ``mark``, and returns its id (each is larger than the last)."""
        with self._transactions.write(f"add a chat line to table {code!r}") as session:
            row = ChatLineModel(
                table_code=code, at=at, seat=seat, name=name, text=text, profile_id=profile, mark=mark
            )
            session.add(row)
            session.flush()
            return row.id

    def save_chat_controls(self, code: str, on: bool, spectators: bool, muted: frozenset[int]) -> None:
        """Stores what the host chose for table ``code``'s chat."""
        with self._transactions.write(f"save the chat controls of table {code!r}") as session:
            session.merge(
                ChatControlsModel(table_code=code, chat_on=on, spectators=spectators, muted=sorted(muted))
            )

    def chat(self, code: str, since: float) -> StoredChat:
        """Table ``code``'s chat controls and its latest lines written at ``since`` or later."""
        with self._transactions.read(f"read the chat of table {code!r}") as session:
            row = session.get(ChatControlsModel, code)
            controls = None if row is None else (row.chat_on, row.spectators, frozenset(row.muted))
            latest = session.scalars(
                select(ChatLineModel)
                .where(ChatLineModel.table_code == code, ChatLineModel.at >= since)
                .order_by(ChatLineModel.id.desc())
                .limit(CHAT_REMEMBERED)
            ).all()
            lines = [ChatLine(r.id, r.at, r.seat, r.name, r.text, r.mark) for r in reversed(latest)]
        return StoredChat(controls, lines)

    def forget_chat_before(self, cutoff: float) -> int:
        """Deletes every chat line written before ``cutoff``; returns how many there were."""
        with self._transactions.write("delete the old chat lines") as session:
            result = session.execute(delete(ChatLineModel).where(ChatLineModel.at < cutoff))
            return int(getattr(result, "rowcount", 0) or 0)
