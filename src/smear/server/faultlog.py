"""Faults that repeat (Redis unreachable, the database failing under a restart) in a few log lines
rather than one line, or one traceback, each time (:class:`FaultLog`).

A fault's first failure is logged at once with its own event and fields and the error's type
(``fault`` names which: ``redis`` or ``database``); the failures after it are counted, and said in a
``fault_continues`` line every ``every`` seconds while it lasts; the first success after it writes
one ``fault_ended`` line with how long it lasted and how many failures of each event it had.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

SUMMARY_EVERY: Final = 60.0  # seconds between two lines of a fault that goes on


@dataclass
class _Ongoing:
    began: float
    said: float  # when its last line was written
    error: str  # the first failure's type
    failures: Counter[str] = field(default_factory=Counter)  # by event, since it began
    unsaid: int = 0  # failures since its last line


class FaultLog:
    """The faults going on now, by name, each logged when it begins, now and then while it lasts,
    and when it ends."""

    def __init__(
        self,
        logger: logging.Logger,
        clock: Callable[[], float] = time.monotonic,
        every: float = SUMMARY_EVERY,
    ) -> None:
        self.logger = logger
        self.clock = clock
        self.every = every
        self._ongoing: dict[str, _Ongoing] = {}

    def failed(
        self, fault: str, event: str, error: BaseException, message: str, *args: object, **fields: object
    ) -> None:
        """One failure of ``fault``: logged (``message`` % ``args``, with ``event`` and ``fields``)
        if it begins the fault, else counted. ``error`` gives only its type: its text may quote
        what was written."""
        now = self.clock()
        kind = type(error).__name__
        ongoing = self._ongoing.get(fault)
        if ongoing is None:
            self._ongoing[fault] = ongoing = _Ongoing(began=now, said=now, error=kind)
            ongoing.failures[event] += 1
            extra = {"event": event, "fault": fault, "error": kind, **fields}
            self.logger.warning(f"{message} ({kind})", *args, extra=extra)
            return
        ongoing.failures[event] += 1
        ongoing.unsaid += 1
        if now - ongoing.said >= self.every:
            ongoing.said, unsaid = now, ongoing.unsaid
            ongoing.unsaid = 0
            self.logger.warning(
                "%s still fails: %d failures in %.0f s, %d since the last line (the last %s)",
                fault,
                ongoing.failures.total(),
                now - ongoing.began,
                unsaid,
                kind,
                extra={
                    "event": "fault_continues",
                    "fault": fault,
                    "error": kind,
                    "failures": ongoing.failures.total(),
                    "seconds": round(now - ongoing.began, 1),
                },
            )

    def worked(self, fault: str) -> None:
        """``fault``'s service answered: if it was failing, one line says the fault is over."""
        ongoing = self._ongoing.pop(fault, None)
        if ongoing is None:
            return
        seconds = self.clock() - ongoing.began
        total = ongoing.failures.total()
        self.logger.warning(
            "%s works again after %.1f s and %d failures (%s first)",
            fault,
            seconds,
            total,
            ongoing.error,
            extra={
                "event": "fault_ended",
                "fault": fault,
                "error": ongoing.error,
                "failures": total,
                "seconds": round(seconds, 1),
                "by_event": dict(ongoing.failures),
            },
        )

    def failing(self, fault: str) -> bool:
        return fault in self._ongoing
