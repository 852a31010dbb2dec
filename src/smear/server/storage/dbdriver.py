"""Where the storage works below SQLAlchemy's statements: SQLite's connection settings and its
``BEGIN``, and the action INSERT run by the driver itself. Both are on the path of every
acknowledged action, where SQLAlchemy's own execution of a statement costs as much as the statement;
the driver's errors are still raised as SQLAlchemy's, as :mod:`smear.server.storage.database` expects.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, event, insert
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError

from smear.server.storage.schema import ActionModel

__all__ = ["BUSY_TIMEOUT_SECONDS", "ActionInsert", "checkpoint", "sqlite_connect_args", "tune_sqlite"]

# How long a write waits for another process holding the SQLite write lock before failing.
BUSY_TIMEOUT_SECONDS = 5.0


def sqlite_connect_args() -> dict[str, Any]:
    """The sqlite3 module's arguments. The storage's lock keeps calls apart, so a connection may move
    between threads."""
    return {"check_same_thread": False, "timeout": BUSY_TIMEOUT_SECONDS}


def tune_sqlite(engine: Engine, writes: bool) -> None:
    """SQLite's settings on each new connection of ``engine`` (WAL, NORMAL sync, foreign keys, the
    busy timeout; where the engine ``writes``, no automatic checkpoint) and its ``BEGIN``
    (``IMMEDIATE`` where it writes)."""
    event.listen(engine, "connect", _sqlite_on_connect_writing if writes else _sqlite_on_connect)
    event.listen(engine, "begin", _sqlite_on_begin if writes else _sqlite_on_begin_read)


def _sqlite_on_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy emit BEGIN itself (see _sqlite_on_begin): the sqlite3 module's legacy mode
    # would begin only at the first write, so the reads of one method could see different states.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_SECONDS * 1000)}")
    finally:
        cursor.close()


def _sqlite_on_connect_writing(dbapi_connection: Any, record: Any) -> None:
    _sqlite_on_connect(dbapi_connection, record)
    # No checkpoint inside a commit: the one that crossed SQLite's 1000 pages copied the log into the
    # database, with its fsyncs, while every action waiting behind it waited (a quarter of a second
    # at 800 tables). The storage thread checkpoints between writes instead (Storage.checkpoint).
    dbapi_connection.execute("PRAGMA wal_autocheckpoint=0")


def checkpoint(dbapi_connection: Any) -> None:
    """Copies what SQLite's write-ahead log holds into the database, as far as no reader needs it
    (``PASSIVE``: it waits for nobody). Outside a transaction: the driver's own connection."""
    with _as_sqlalchemy_error("PRAGMA wal_checkpoint", sqlite3.Error):
        dbapi_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")


def _switch_to_wal(cursor: Any) -> None:
    # Connections opening a new file together race to switch it to WAL, and SQLite refuses the
    # losers at once ("database is locked") without its busy handler: wait for the winner here.
    deadline = time.monotonic() + BUSY_TIMEOUT_SECONDS
    pause = 0.001
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _sqlite_on_begin_read(connection: Connection) -> None:
    _begin_sqlite(connection, "BEGIN")


def _sqlite_on_begin(connection: Connection) -> None:
    # IMMEDIATE takes the write lock at the start, waiting for it under busy_timeout: a deferred
    # transaction that reads first and then writes is refused at once, without waiting, when
    # another connection holds the lock.
    _begin_sqlite(connection, "BEGIN IMMEDIATE")


def _begin_sqlite(connection: Connection, statement: str) -> None:
    # Straight to the driver: SQLAlchemy's own statement execution costs more than the BEGIN itself,
    # and one comes before every transaction.
    driver = connection.connection.driver_connection
    assert driver is not None, "a connection beginning a transaction is open"
    with _as_sqlalchemy_error(statement, sqlite3.Error):
        driver.execute(statement)


@contextmanager
def _as_sqlalchemy_error(statement: str, driver_error: type[Exception]) -> Iterator[None]:
    """For a statement run by the driver itself: its errors raised as SQLAlchemy's, as callers expect.
    Without the parameters, so that a discard's cards stay out of any log."""
    try:
        yield
    except driver_error as err:
        raise DBAPIError.instance(statement, None, err, driver_error) from err


class ActionInsert:
    """The INSERT of action rows, compiled once by SQLAlchemy for the database's dialect and run by
    the driver itself: SQLAlchemy's execution of each statement costs about as much as the INSERT.
    The driver's errors are still raised as SQLAlchemy's."""

    def __init__(self, dialect: Dialect) -> None:
        columns = [column.key for column in ActionModel.__table__.columns]
        statement = insert(ActionModel).values({key: bindparam(key) for key in columns})
        compiled = statement.compile(dialect=dialect)
        self._sql = compiled.string
        # Positional drivers (SQLite's ?) take each row as a tuple in the statement's order.
        self._order = compiled.positiontup if compiled.positional else None
        self._driver_error: type[Exception] = dialect.loaded_dbapi.Error

    def __call__(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        driver = connection.connection.driver_connection
        assert driver is not None, "the connection is open"
        order = self._order
        params = rows if order is None else [tuple(row[key] for key in order) for row in rows]
        cursor = driver.cursor()
        try:
            with _as_sqlalchemy_error(self._sql, self._driver_error):
                cursor.executemany(self._sql, params)
        finally:
            cursor.close()
