"""Matches over whose record is not stored yet.

The action that ends a match is stored first and stands, whatever becomes of the match's record
and its place in the players' history, which are stored after it in a transaction of their own
(:meth:`smear.server.storage.writer.StorageWriter.append`). If that transaction fails, the table shows the
match over all the same, and the record is tried again: at each sweep, first thing when the table's
next match is to start (which waits for it), and at a restart (the match replays to its end). A
table whose record still fails after ``attempts`` tries is put aside (:mod:`smear.server.tables.quarantine`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from smear.server.tables.quarantine import kind_of

__all__ = ["PendingFinishes"]

log = logging.getLogger("smear.server")


class _Pending:
    """One match's finish still to store, and how often it failed."""

    __slots__ = ("call", "failures", "landed")

    def __init__(self, call: Callable[[], None]) -> None:
        self.call = call
        self.failures = 1
        self.landed = False  # set on the storage thread once the call went through

    def attempt(self) -> None:
        """The finish, unless it went through already (run on the storage thread, as every write)."""
        if not self.landed:
            self.call()
            self.landed = True


class PendingFinishes:
    """The finishes to try again, by table code; after ``attempts`` failures, the table is to be put
    aside."""

    def __init__(self, attempts: int) -> None:
        self.attempts = attempts
        self._pending: dict[str, _Pending] = {}

    def failed(self, code: str, call: Callable[[], None], error: BaseException) -> None:
        """The finish ``call`` of table ``code`` failed with ``error``: kept to try again. Logged
        once, by the error's type (its text may quote the match)."""
        self._pending[code] = _Pending(call)
        log.warning(
            "table %s: the match is over but its record was not stored (%s); it is tried again",
            code,
            kind_of(error),
            extra={"event": "record_not_stored", "table": code, "error": kind_of(error)},
        )

    def waiting(self, code: str) -> bool:
        """Whether table ``code`` has a finish still to store."""
        pending = self._pending.get(code)
        return pending is not None and not pending.landed

    def codes(self) -> list[str]:
        return list(self._pending)

    def attempt(self, code: str) -> Callable[[], None]:
        """The storage call that tries table ``code``'s finish again."""
        return self._pending[code].attempt

    def failed_again(self, code: str) -> bool:
        """Counts another failure; says whether the table has had its ``attempts``."""
        pending = self._pending[code]
        pending.failures += 1
        return pending.failures >= self.attempts

    def drop(self, code: str) -> None:
        self._pending.pop(code, None)

    def before(self, code: str, call: Callable[[], None]) -> Callable[[], None]:
        """``call`` (the start of table ``code``'s next match), after its last match's finish if that
        is still to store: a start never leaves a finished match without its record."""
        pending = self._pending.get(code)
        if pending is None or pending.landed:
            return call

        def finish_then_start() -> None:
            pending.attempt()
            call()

        return finish_then_start
