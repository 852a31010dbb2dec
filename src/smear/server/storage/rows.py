"""The rows :class:`smear.server.storage.database.Storage` takes and gives back: frozen copies of a table, its
seats, its latest match and the actions of a match, so that nothing outside the storage holds a
database model (:mod:`smear.server.storage.schema`). They are plain data, built and read by the server's
core, its writer thread and the tests, so they live apart from the storage's transactions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SeatRow:
    """One seat of a table. ``name`` is ``None`` for an open seat; ``token_hash`` is the hash of the
    secret that lets a player take the seat back after reconnecting."""

    seat: int
    name: str | None
    token_hash: str | None
    is_bot: bool
    profile: str | None = None  # the profile of the person or bot level in the seat


@dataclass(frozen=True)
class ActionRow:
    """Action number ``seq`` (from 1) of match ``match_number`` of table ``code``, in record notation."""

    code: str
    match_number: int
    seq: int
    seat: int
    action: str

    def params(self) -> dict[str, Any]:
        # prev_seq's foreign key makes a gap in the numbering impossible to store.
        return {
            "table_code": self.code,
            "match_number": self.match_number,
            "seq": self.seq,
            "prev_seq": self.seq - 1 if self.seq > 1 else None,
            "seat": self.seat,
            "action": self.action,
        }


@dataclass(frozen=True)
class MatchRow:
    """A match of a table: how it was set up, and its actions so far in the order they were taken
    (``(seat, action in record notation)``)."""

    number: int
    seed: int
    sides: list[list[int]]
    names: list[str]
    actions: list[tuple[int, str]]
    finished: bool


@dataclass(frozen=True)
class StoredTable:
    """A table as stored: its settings, seats and latest match (``None`` before the first one)."""

    code: str
    settings: dict[str, Any]
    host_seat: int | None
    status: str
    created_at: float
    seats: list[SeatRow]
    current_match: MatchRow | None
    # Since when (seconds since the epoch) no person has been connected, if that is known.
    idle_since: float | None = None
    # Put to rest: kept here but not brought back by a restart until a seat's token returns.
    resting: bool = False
    # Put aside (it could not be restored or finished): not brought back until the operator releases it.
    quarantined: bool = False
