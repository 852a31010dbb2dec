"""The server's one storage thread: every write in the order it was asked for, and the actions
waiting together, from any number of tables, stored in one transaction (a group commit).

Each caller still waits for the commit that holds its own write, so an acknowledged action is
stored; what is shared is the transaction's cost, which is most of the cost of storing an action.
If the group is refused, its actions are stored one by one, so a refused action fails its own
caller only. What follows a stored action (the record of the match it ends) cannot unstore it: its
failure is handed to the caller as a result, not raised.

Between writes the thread copies SQLite's write-ahead log into the database
(:meth:`Storage.checkpoint`), a little at a time: a quarter of a second after the last copy when no
write is waiting, a second after it when one always is. A checkpoint inside a commit (SQLite's own,
every 1000 pages) held every action behind it for as long as its fsyncs took, up to a quarter of a
second at 800 tables; ten seconds' worth at once did the same.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from smear.server.metrics import Metrics
from smear.server.storage.database import Storage
from smear.server.storage.rows import ActionRow

__all__ = ["GROUP_LIMIT", "StorageWriter"]

T = TypeVar("T")
log = logging.getLogger("smear.server")

# The most actions stored in one transaction.
GROUP_LIMIT = 256
# Seconds of writes between two checkpoints when no write is waiting, and when one always is.
CHECKPOINT_PAUSE = 0.25
CHECKPOINT_AT_MOST = 1.0


class _Job:
    """A write waiting for the thread: an action to append (and a call after it), or any call."""

    __slots__ = ("after", "call", "future", "loop", "row")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        call: Callable[[], Any] | None = None,
        row: ActionRow | None = None,
        after: Callable[[], None] | None = None,
    ) -> None:
        self.loop = loop
        self.future: asyncio.Future[Any] = loop.create_future()
        self.call = call
        self.row = row
        self.after = after


# What became of a job: (job, result, error).
_Outcome = tuple[_Job, Any, BaseException | None]


class StorageWriter:
    """Runs writes on one thread of its own, in order; see the module's docstring."""

    def __init__(
        self, storage: Storage, checkpoint_pause: float = CHECKPOINT_PAUSE, metrics: Metrics | None = None
    ) -> None:
        self.storage = storage
        self.metrics = metrics or Metrics()
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="smear-storage", daemon=True)
        self._checkpoint_pause = checkpoint_pause
        self._checkpointed = time.monotonic()  # on the thread: when the log was last copied

    def _put(self, job: _Job) -> None:
        if self._thread.ident is None:  # started by the first write, so an unused writer costs nothing
            self._thread.start()
        self._jobs.put(job)

    async def call(self, call: Callable[[], T]) -> T:
        """The result of ``call()`` (a storage write of any kind), run after every earlier write."""
        job = _Job(asyncio.get_running_loop(), call=call)
        self._put(job)
        result: T = await job.future
        return result

    async def append(self, row: ActionRow, after: Callable[[], None] | None = None) -> Exception | None:
        """Stores an action, possibly in one transaction with others; then ``after()`` (say, the
        record of the match it ends) in a transaction of its own. Raises if the action was not
        stored; once it is, returns what ``after()`` raised (None: nothing), the action stored all
        the same."""
        job = _Job(asyncio.get_running_loop(), row=row, after=after)
        self._put(job)
        failed: Exception | None = await job.future
        return failed

    async def close(self) -> None:
        """Finishes the writes asked for, closes the storage, and ends the thread."""
        await self.call(self.storage.close)
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)

    # -- on the thread --

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            jobs = [job]
            while len(jobs) < GROUP_LIMIT:  # whatever else is waiting already
                try:
                    waiting = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if waiting is None:
                    self._settle(self._run(jobs))
                    return
                jobs.append(waiting)
            self._settle(self._run(jobs))
            self._checkpoint_when_due()

    def _checkpoint_when_due(self) -> None:
        since = time.monotonic() - self._checkpointed
        if since < self._checkpoint_pause or (since < CHECKPOINT_AT_MOST and not self._jobs.empty()):
            return
        try:
            self.storage.checkpoint()
        except Exception as err:  # the log stays as it is, and is copied at the next try
            log.warning(
                "a checkpoint of the database failed (%s)",
                type(err).__name__,
                extra={"event": "checkpoint_failed", "error": type(err).__name__},
            )
        self._checkpointed = time.monotonic()

    def _run(self, jobs: list[_Job]) -> list[_Outcome]:
        outcomes: list[_Outcome] = []
        group: list[_Job] = []
        for job in jobs:
            if job.row is not None:
                group.append(job)
                continue
            outcomes += self._append(group)
            group = []
            assert job.call is not None
            outcomes.append(_attempt(job, job.call))
        return outcomes + self._append(group)

    def _append(self, group: list[_Job]) -> list[_Outcome]:
        """Stores the actions of ``group`` (in order), together if they can be, else one by one."""
        if not group:
            return []
        rows = [job.row for job in group if job.row is not None]
        started = time.perf_counter()
        try:
            if len(rows) > 1:
                self.storage.append_actions(rows)
                stored = True
            else:
                stored = False
        except Exception:  # one of them is refused: each one alone says which, to its own caller
            stored = False
        if stored:
            self.metrics.committed(len(rows), time.perf_counter() - started)
        outcomes: list[_Outcome] = []
        for job, row in zip(group, rows, strict=True):
            if not stored:
                started = time.perf_counter()
                outcome = _attempt(job, partial(self.storage.append_action, *_fields(row)))
                self.metrics.committed(1, time.perf_counter() - started)
                if outcome[2] is not None:  # the database's failure, or a refused action
                    self.metrics.database_call("write", failed=True)
                    outcomes.append(outcome)
                    continue
            outcomes.append((job, _failure_of(job.after), None))
        return outcomes

    @staticmethod
    def _settle(outcomes: list[_Outcome]) -> None:
        """Hands each outcome to its caller's event loop (one wake-up per loop)."""
        by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
        for outcome in outcomes:
            by_loop.setdefault(outcome[0].loop, []).append(outcome)
        for loop, settled in by_loop.items():
            try:
                loop.call_soon_threadsafe(_resolve, settled)
            except RuntimeError:  # that loop is closed: nobody waits any more
                log.debug("a storage result found its event loop closed", extra={"event": "result_lost"})


def _fields(row: ActionRow) -> tuple[str, int, int, int, str]:
    return row.code, row.match_number, row.seq, row.seat, row.action


def _failure_of(call: Callable[[], None] | None) -> Exception | None:
    """Runs ``call`` (if any); what it raised, or None."""
    if call is None:
        return None
    try:
        call()
    except Exception as err:
        return err
    return None


def _attempt(job: _Job, call: Callable[[], Any]) -> _Outcome:
    try:
        return job, call(), None
    except Exception as err:
        return job, None, err


def _resolve(outcomes: list[_Outcome]) -> None:
    for job, result, error in outcomes:
        if job.future.done():  # its caller was cancelled
            continue
        if error is not None:
            job.future.set_exception(error)
        else:
            job.future.set_result(result)
