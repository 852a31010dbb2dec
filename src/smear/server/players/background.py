"""Work nobody at a table waits for, kept apart from the work of the people at tables.

The reviews of finished matches (``GET /api/matches/{match}/review``), their replays
(``GET /api/matches/{match}/replay``) and the records sent to be replayed (``POST /api/replay``)
may be asked by anyone, of any public match id. Each kind runs in a :class:`Lane` of its own: a
thread that reads its stored records (apart from the database's reading threads) and a worker
process that replays or reviews them (the event loop and the hints' thread never share the
interpreter's lock with that work); at most ``queue`` jobs under way or waiting, more refused with
``server_busy``; and a pace per client address, more refused with ``rate_limited``. A flood of them
waits behind itself, never in front of a hint, a bid's advice or a table's read or act.

A record is bounded in bytes (the request's body) and in hands (checked before it is replayed: see
:mod:`smear.server.players.recordjobs`). A match's review is kept per match id, the latest
:data:`PLAYED_REVIEWS_KEPT` asked for: asked again, it costs nothing and is not paced.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, Final, TypeVar

from smear.errors import RecordError
from smear.server.limits import Bucket, Limits
from smear.server.metrics import Metrics
from smear.server.players.hints import played_review, played_review_seed
from smear.server.players.recordjobs import behind_live_play, stored_replay, uploaded_replay
from smear.server.storage.database import Storage, StorageError
from smear.server.storage.playerstore import PlayedMatch
from smear.server.tables.table import TableError

T = TypeVar("T")

PLAYED_REVIEWS_KEPT: Final = 64  # the reviews of finished matches kept at once (the latest asked for)
_PACES_KEPT: Final = 1_024  # addresses whose pace is kept before the full buckets are dropped


class UnreadableRecord(RecordError):
    """A stored record that does not even read back as JSON data."""


def worker_pool(name: str, niceness: int) -> Executor:
    """A lane's worker: one process of its own, started afresh (not forked from a server that holds
    threads, sockets and a database), ``niceness`` behind the server's live play for the CPU."""
    spawn = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        max_workers=1, mp_context=spawn, initializer=behind_live_play, initargs=(niceness,)
    )


def read_played(storage: Storage, match: str) -> tuple[PlayedMatch, dict[str, Any]] | None:
    """A finished match and its stored record, or None; a record that does not read back raises
    :class:`UnreadableRecord`."""
    try:
        return storage.players.played_match(match)
    except StorageError:
        raise
    except (ValueError, TypeError, KeyError):  # the stored JSON, or its shape, is broken
        raise UnreadableRecord("the stored record cannot be read") from None


class Lane:
    """One kind of background work: its reads on a thread, its work in a process, at most ``queue``
    jobs under way or waiting (0: no limit), and a pace per client address of ``pace`` jobs a
    second, ``burst`` at once (0: none); its process runs ``niceness`` behind the server."""

    def __init__(
        self,
        name: str,
        queue: int,
        pace: float,
        burst: int,
        clock: Callable[[], float],
        niceness: int,
        metrics: Metrics | None = None,
    ) -> None:
        self.name = name
        self.metrics = metrics or Metrics()
        self.niceness = niceness
        self.queue = queue
        self.working = 0
        self.started = 0  # jobs ever started
        self._pace, self._burst, self._clock = pace, burst, clock
        self._buckets: dict[str, Bucket] = {}
        self._prune_at = _PACES_KEPT
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"smear-{name}")
        self._worker: Executor | None = None  # started with the first job that needs it

    def pace(self, address: str) -> None:
        """Take one job from ``address``'s allowance, or refuse with ``rate_limited``."""
        if self._pace <= 0:
            return
        now = self._clock()
        if len(self._buckets) >= self._prune_at:
            for full in [key for key, bucket in self._buckets.items() if bucket.full(now)]:
                del self._buckets[full]
            self._prune_at = max(_PACES_KEPT, 2 * len(self._buckets))
        bucket = self._buckets.setdefault(address, Bucket(self._pace, self._burst, now))
        if not bucket.take(now):
            self.metrics.rate_limited(self.name)
            raise TableError("rate_limited")

    async def run(self, job: Callable[[], Awaitable[T]]) -> T:
        """``job()``, counted in the queue (refused with ``server_busy`` when it is full) until it is
        done, even if nobody waits for it any more."""
        if self.queue and self.working >= self.queue:
            raise TableError("server_busy")
        self.working += 1
        self.started += 1
        task = asyncio.ensure_future(job())
        queued = time.perf_counter()
        task.add_done_callback(lambda done: self._done(done, queued))
        return await asyncio.shield(task)

    def _done(self, task: asyncio.Future[Any], queued: float) -> None:
        self.working -= 1
        self.metrics.waited(self.name, time.perf_counter() - queued)
        if not task.cancelled():
            task.exception()  # retrieved: a failure nobody waited for is not logged as lost

    async def read(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on this lane's thread: a read of the database that waits behind no other."""
        return await asyncio.get_running_loop().run_in_executor(self._reader, partial(call, *args))

    async def work(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in this lane's process (a plain function of plain data). A process that
        died is replaced, and its job answered ``server_busy``, to be asked again."""
        if self._worker is None:
            self._worker = worker_pool(self.name, self.niceness)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._worker, call, *args)
        except BrokenProcessPool:
            self._worker = None
            raise TableError("server_busy") from None

    def close(self) -> None:
        self._reader.shutdown(wait=False, cancel_futures=True)
        if self._worker is not None:
            # The job under way is of no use now: its process is stopped rather than waited for.
            # (Before Python 3.14's terminate_workers, the pool keeps its processes here only.)
            processes = list((getattr(self._worker, "_processes", None) or {}).values())
            self._worker.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()


class KeptAnswers:
    """Answers under way or done, by key, at most ``size`` of them (the latest asked for last); one
    that fails is dropped, to be worked out again."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._answers: OrderedDict[str, asyncio.Future[Any]] = OrderedDict()

    def get(self, key: str) -> asyncio.Future[Any] | None:
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
        return answer

    def start(self, key: str, work: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        """The answer kept under ``key``, or ``work()`` started and kept there."""
        answer = self.get(key)
        if answer is not None:
            return answer
        while len(self._answers) >= self.size:
            self._answers.popitem(last=False)  # an answer under way still reaches those who wait
        answer = asyncio.ensure_future(work())
        self._answers[key] = answer

        def done(finished: asyncio.Future[Any]) -> None:
            failed = finished.cancelled() or finished.exception() is not None
            if failed and self._answers.get(key) is finished:
                del self._answers[key]

        answer.add_done_callback(done)
        return answer

    def clear(self) -> None:
        self._answers.clear()


class BackgroundWork:
    """The lanes of the reviews, replays and uploads of one server, and the reviews kept."""

    def __init__(
        self, limits: Limits, storage: Storage, clock: Callable[[], float], metrics: Metrics | None = None
    ) -> None:
        self.storage = storage
        self.hands = limits.record_hands
        nice, metrics = limits.background_niceness, metrics or Metrics()
        self.reviews = Lane(
            "review", limits.review_queue, limits.review_pace, limits.review_burst, clock, nice, metrics
        )
        self.replays = Lane(
            "replay", limits.replay_queue, limits.replay_pace, limits.replay_burst, clock, nice, metrics
        )
        self.uploads = Lane(
            "upload", limits.upload_queue, limits.upload_pace, limits.upload_burst, clock, nice, metrics
        )
        self.reviewed = KeptAnswers(PLAYED_REVIEWS_KEPT)

    async def replay_stored(
        self, match: str, address: str, describe: Callable[[PlayedMatch], dict[str, Any]]
    ) -> bytes | None:
        """``{"match", "record", "view"}`` of finished match ``match`` as JSON, or None when there
        is none; ``describe`` gives the match as a history lists it."""
        self.replays.pace(address)

        async def job() -> bytes | None:
            found = await self.replays.read(read_played, self.storage, match)
            if found is None:
                return None
            played, record = found
            return await self.replays.work(stored_replay, record, self.hands, describe(played))

        return await self.replays.run(job)

    async def replay_upload(self, raw: bytes) -> bytes:
        """``{"record", "view"}`` of a record's text as JSON; paced beforehand with ``uploads.pace``,
        before its body is read."""
        return await self.uploads.run(lambda: self.uploads.work(uploaded_replay, raw, self.hands))

    async def review_stored(self, match: str, address: str) -> bytes | None:
        """The review of finished match ``match`` as JSON (see
        :func:`smear.server.players.hints.played_review`), or None when there is none. A review kept
        is not paced; an unknown match is not either."""
        kept = self.reviewed.get(match)
        if kept is not None:
            answer: bytes = await asyncio.shield(kept)
            return answer
        # One place in the queue from the look-up to the judgement: taken twice, it was free for a
        # moment between them, and a request then was let in past a full queue.
        return await self.reviews.run(lambda: self._review(match, address))

    async def _review(self, match: str, address: str) -> bytes | None:
        found = await self.reviews.read(read_played, self.storage, match)
        if found is None:
            return None
        self.reviews.pace(address)
        work = partial(self.reviews.work, played_review, found[1], self.hands, played_review_seed(match))
        # The judgement is shared by whoever asks for this match meanwhile.
        answer: bytes = await asyncio.shield(self.reviewed.start(match, work))
        return answer

    def depths(self) -> dict[str, int]:
        """The jobs under way or waiting in each lane, by its name."""
        return {lane.name: lane.working for lane in (self.reviews, self.replays, self.uploads)}

    def close(self) -> None:
        for lane in (self.reviews, self.replays, self.uploads):
            lane.close()
