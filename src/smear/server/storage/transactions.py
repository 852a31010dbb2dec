"""The transactions every part of :class:`smear.server.storage.database.Storage` opens: one object, shared by
the storage and its parts (chat, listing, players, quarantine), each taking it in its constructor."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from smear.errors import SmearError


class StorageError(SmearError):
    """A write the stored data refuses (an unknown table, an action out of sequence...) or a failure
    of the database itself. Nothing was changed."""


class Transactions:
    """Opens the database's transactions: writes one at a time (under ``lock``), reads beside them
    where the database lets them (``shared``: reads use the writers' connection, and wait too)."""

    def __init__(
        self, sessions: sessionmaker[Session], read_sessions: sessionmaker[Session], shared: bool
    ) -> None:
        self.sessions = sessions
        self.read_sessions = read_sessions
        self.shared = shared
        self.lock = threading.Lock()
        self.closed = False

    @contextmanager
    def write(self, what: str) -> Iterator[Session]:
        """A session in a transaction that commits when the block ends (rolls back if it raises),
        with every database failure turned into a :class:`StorageError` that says what was tried."""
        with self.lock:
            self.check_open()
            try:
                with self.sessions.begin() as session:
                    yield session
            except SQLAlchemyError as err:
                raise StorageError(f"cannot {what}: {reason(err)}") from err

    @contextmanager
    def read(self, what: str) -> Iterator[Session]:
        """A read-only transaction; it takes the lock only where reads share the writers' connection."""
        with self.lock if self.shared else contextlib.nullcontext():
            self.check_open()
            try:
                with self.read_sessions.begin() as session:
                    yield session
            except SQLAlchemyError as err:
                raise StorageError(f"cannot {what}: {reason(err)}") from err

    def check_open(self) -> None:
        if self.closed:
            raise StorageError("the storage is closed")


def reason(err: SQLAlchemyError) -> str:
    """The driver's own message, without SQLAlchemy's SQL text and parameters (which may be long)."""
    original = getattr(err, "orig", None)
    return str(original) if original is not None else str(err)
