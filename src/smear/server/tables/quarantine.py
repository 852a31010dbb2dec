"""Tables put aside, so that one broken table never stops the others.

A table whose stored match no longer replays (a rules fix, a row changed by hand) cannot be
restored, and one whose finished match's record cannot be stored however often it is tried cannot
be finished. Either is quarantined: stored as such (:mod:`smear.server.storage.quarantinestore`), logged
once with its code, what failed and the error's type (never its text, which may quote an action,
and a discard's cards are hidden), left out of every start by every process, and answered
``table_unavailable``. ``/health`` counts them; ``smear db quarantined`` lists them and
``smear db release CODE`` brings one back after a fix.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from smear.server.storage.database import StorageError
from smear.server.storage.quarantinestore import QuarantineStore

__all__ = ["FINISH", "RESTORE", "Quarantine", "kind_of"]

log = logging.getLogger("smear.server")

RESTORE: Final = "restore"  # the stored table could not be rebuilt (settings or a replay refused)
FINISH: Final = "finish"  # the record of its finished match could not be stored


def kind_of(error: BaseException) -> str:
    """The type of ``error`` for a log line: a storage failure by what caused it."""
    cause = error.__cause__
    if isinstance(error, StorageError) and cause is not None:
        return type(cause).__name__
    return type(error).__name__


class Quarantine:
    """Puts tables aside in storage, and keeps how many there are (every process's) for ``/health``.

    ``write`` and ``read`` run a storage call off the event loop (the server's storage thread and
    its reading threads); ``clock`` gives the wall-clock time noted with each table.
    """

    def __init__(
        self,
        stored: QuarantineStore,
        write: Callable[..., Awaitable[Any]],
        read: Callable[..., Awaitable[Any]],
        clock: Callable[[], float],
    ) -> None:
        self.stored = stored
        self._write = write
        self._read = read
        self._clock = clock
        self.count = 0  # tables put aside in the database, as of the last look

    async def put_aside(self, code: str, reason: str, error: BaseException) -> bool:
        """Quarantines table ``code`` because ``reason`` failed with ``error``; says whether that is
        stored (if not, the caller tries again later)."""
        kind = kind_of(error)
        try:
            await self._write(self.stored.put_aside, code, reason, kind, self._clock())
        except Exception as err:
            log.warning(
                "table %s could not be put aside (%s); tried again later",
                code,
                kind_of(err),
                extra={"event": "put_aside_not_stored", "table": code, "error": kind_of(err)},
            )
            return False
        self.count += 1
        log.warning(
            "table %s is put aside: its %s failed (%s); `smear db quarantined` lists it",
            code,
            reason,
            kind,
            extra={"event": "table_put_aside", "table": code, "reason": reason, "error": kind},
        )
        return True

    async def recount(self) -> None:
        """Reads how many tables are put aside (other processes and the operator change it too)."""
        try:
            self.count = await self._read(self.stored.quarantined_count)
        except Exception as err:  # the count shown stays as it was: it is only shown
            log.debug(
                "the quarantined tables could not be counted (%s)",
                kind_of(err),
                extra={"event": "put_aside_not_counted", "error": kind_of(err)},
            )
