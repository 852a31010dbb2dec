"""Work nobody at a table waits for, kept apart from the work of the people at tables.

The reviews of finished matches (``GET /api/matches/{match}/review``), their replays
(``GET /api/matches/{match}/replay``) and the records sent to be replayed (``POST /api/replay``)
may be asked by anyone, of any public match id. Each kind runs in a :class:`Lane` of its own: one
thread, apart from the hints' thread and the database's reading threads (a lane reads the stored
record on its own thread too); at most ``queue`` jobs under way or waiting, more refused with
``server_busy``; and a pace per client address, more refused with ``rate_limited``. A flood of
them waits behind itself, never in front of a hint, a bid's advice or a table's read.

A record is bounded in bytes (the request's body) and in hands (:func:`record_within`, checked
before it is replayed). A match's review is kept per match id, the latest
:data:`PLAYED_REVIEWS_KEPT` asked for: asked again, it costs nothing and is not paced.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, Final, TypeVar

import orjson

from smear.errors import RecordError
from smear.record import Record, parse_record, record_json
from smear.replayview import replay_view
from smear.server.hints import MatchReview, judge_record, played_review_seed
from smear.server.limits import Bucket, Limits
from smear.server.playerstore import PlayedMatch
from smear.server.storage import Storage, StorageError
from smear.server.tables import TableError

T = TypeVar("T")

PLAYED_REVIEWS_KEPT: Final = 64  # the reviews of finished matches kept at once (the latest asked for)
_PACES_KEPT: Final = 1_024  # addresses whose pace is kept before the full buckets are dropped


class TooManyHands(RecordError):
    """A record of more hands than a server replays."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the record has more than {limit} hands")
        self.limit = limit


class UnreadableRecord(RecordError):
    """A stored record that does not even read back as JSON data."""


def json_bytes(value: Any) -> bytes:
    """``value`` as compact JSON. orjson is fast but takes no integer past 64 bits, which a record
    may hold (a score to start from); the standard library writes those."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def record_within(doc: Any, most_hands: int) -> Record:
    """``doc`` (JSON data) checked as a record, refused with :class:`TooManyHands` before anything
    else when it has more than ``most_hands`` hands (0: no limit)."""
    hands = doc.get("hands") if isinstance(doc, Mapping) else None
    if most_hands and isinstance(hands, list | tuple) and len(hands) > most_hands:
        raise TooManyHands(most_hands)
    return parse_record(doc)


def read_played(storage: Storage, match: str) -> tuple[PlayedMatch, dict[str, Any]] | None:
    """A finished match and its stored record, or None; a record that does not read back raises
    :class:`UnreadableRecord`."""
    try:
        return storage.played_match(match)
    except StorageError:
        raise
    except (ValueError, TypeError, KeyError):  # the stored JSON, or its shape, is broken
        raise UnreadableRecord("the stored record cannot be read") from None


def stored_replay(
    storage: Storage, match: str, most_hands: int, describe: Callable[[PlayedMatch], Any]
) -> bytes | None:
    """``{"match", "record", "view"}`` of a finished match as JSON, or None when there is none."""
    found = read_played(storage, match)
    if found is None:
        return None
    played, record = found
    view = replay_view(record_within(record, most_hands))
    return json_bytes({"match": describe(played), "record": record, "view": view})


def uploaded_replay(raw: bytes, most_hands: int) -> bytes:
    """``{"record", "view"}`` of a record's text as JSON: the record in canonical notation."""
    record = record_within(record_json(raw), most_hands)
    return json_bytes({"record": record.to_dict(), "view": replay_view(record)})


def stored_record(storage: Storage, match: str, most_hands: int) -> Record | None:
    """The stored record of a finished match, checked, or None when there is none."""
    found = read_played(storage, match)
    return None if found is None else record_within(found[1], most_hands)


class Lane:
    """One kind of background work: one thread, at most ``queue`` jobs under way or waiting (0: no
    limit), and a pace per client address of ``pace`` jobs a second, ``burst`` at once (0: none)."""

    def __init__(self, name: str, queue: int, pace: float, burst: int, clock: Callable[[], float]) -> None:
        self.queue = queue
        self.working = 0
        self._pace, self._burst, self._clock = pace, burst, clock
        self._buckets: dict[str, Bucket] = {}
        self._prune_at = _PACES_KEPT
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"smear-{name}")

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
            raise TableError("rate_limited")

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` on this lane's thread; refused with ``server_busy`` when the queue is full. A
        job is counted until its thread is done with it, even if nobody waits for it any more."""
        if self.queue and self.working >= self.queue:
            raise TableError("server_busy")
        self.working += 1
        future = asyncio.get_running_loop().run_in_executor(self._pool, work)
        future.add_done_callback(self._done)
        return await asyncio.shield(future)

    def _done(self, future: asyncio.Future[Any]) -> None:
        self.working -= 1
        if not future.cancelled():
            future.exception()  # retrieved: a failure nobody waited for is not logged as lost

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


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

    def __init__(self, limits: Limits, storage: Storage, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.storage = storage
        self.reviews = Lane("review", limits.review_queue, limits.review_pace, limits.review_burst, clock)
        self.replays = Lane("replay", limits.replay_queue, limits.replay_pace, limits.replay_burst, clock)
        self.uploads = Lane("upload", limits.upload_queue, limits.upload_pace, limits.upload_burst, clock)
        self.reviewed = KeptAnswers(PLAYED_REVIEWS_KEPT)

    async def replay_stored(
        self, match: str, address: str, describe: Callable[[PlayedMatch], Any]
    ) -> bytes | None:
        """The replay of finished match ``match`` as JSON (see :func:`stored_replay`), or None."""
        self.replays.pace(address)
        job = partial(stored_replay, self.storage, match, self.limits.record_hands, describe)
        return await self.replays.run(job)

    async def replay_upload(self, raw: bytes) -> bytes:
        """The replay of a record's text as JSON (see :func:`uploaded_replay`); paced beforehand
        with ``uploads.pace``, before its body is read."""
        return await self.uploads.run(partial(uploaded_replay, raw, self.limits.record_hands))

    async def review_stored(self, match: str, address: str) -> MatchReview | None:
        """The review of finished match ``match`` (see :func:`smear.server.hints.judge_record`), or
        None when there is none. A review kept is not paced; an unknown match is not either."""
        kept = self.reviewed.get(match)
        if kept is None:
            job = partial(stored_record, self.storage, match, self.limits.record_hands)
            record = await self.reviews.run(job)
            if record is None:
                return None
            self.reviews.pace(address)
            seed = played_review_seed(match)
            kept = self.reviewed.start(match, lambda: self.reviews.run(partial(judge_record, record, seed)))
        answer: MatchReview = await asyncio.shield(kept)
        return answer

    def close(self) -> None:
        for lane in (self.reviews, self.replays, self.uploads):
            lane.close()
