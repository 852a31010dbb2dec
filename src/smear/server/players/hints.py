"""Hints on a budget of their own: one worker thread, a bounded queue and one answer per turn.

A hint is a search by the expert bot (tens of milliseconds or more). Worked out beside the tables'
bots, a flood of hint requests would slow every table; here each seat's hint for a version is
worked out once and shared by every request for it, at most ``queue`` hints are under way at
once (more are refused with ``hints_busy``), and they run on their own thread. The bid advice
(:func:`smear.bots.advisor.bid_advice`, every auction choice with its chances) is a hint of
another kind, kept and queued the same way.

The reviews of a seat's decisions (:mod:`smear.review`) are kept longer: a hand's once it is over,
and the whole match's once it is over, per table and match (a record that is over no longer
changes). They are queued like hints, and the match's review is worked out hand by hand, so that
the hints of other tables are not kept waiting behind it. The review of a match in the players'
history (:func:`played_review`, for the replay viewer) is asked by anyone, not by a seat: it runs
in a worker process of its own (:mod:`smear.server.players.background`), never here.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import random
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from smear.actionjson import record_action_json
from smear.bots.advisor import BidAdvice, bid_advice
from smear.bots.expert import Advice, ExpertBot
from smear.bots.heuristic import HeuristicBot
from smear.dealing import new_match
from smear.record import Record, parse_record, record_of
from smear.review import (
    Decision,
    PlayerTotal,
    Position,
    Review,
    positions,
    review_hand,
    review_position,
    reviewer,
)
from smear.rules import find_rules
from smear.server.metrics import Metrics
from smear.server.players.recordjobs import json_bytes, record_within, refusing
from smear.server.tables.table import TableError
from smear.state import Phase, State
from smear.transitions import apply
from smear.views import PlayerView, player_view

# Sampled deals per decision in a hand's review, judged as the expert decides (the cards solved): a
# 6-card hand of 4 players is judged in about 0.5 s of one core.
HAND_REVIEW_SAMPLES = 48
# In a match's review, every decision of every seat: a few sampled deals each, fewer in a long match
# (the decisions of all seats times the samples stay within MATCH_REVIEW_BUDGET, but never fewer
# than 4): 4 players to 11 (about 360 decisions, 5 samples) in about 5 s of one core. Few deals
# mean wide margins of error: such a review calls most choices equal and names only clear losses.
MATCH_REVIEW_SAMPLES = 8
MATCH_REVIEW_MIN_SAMPLES = 4
MATCH_REVIEW_BUDGET = 2_000
REVIEW_SHOWN = 10  # the costliest decisions of a finished match's review the replay viewer marks

_Key = TypeVar("_Key")


def review_seed(match_seed: int) -> int:
    """The review's random seed, fixed for a match but telling nothing of the match's own seed."""
    return int.from_bytes(hashlib.sha256(f"smear-review:{match_seed}".encode()).digest()[:8], "big")


def played_review_seed(match_id: str) -> int:
    """The review's random seed for a match in the players' history: from its public id only, so that
    it tells nothing, and depends on nothing, that is secret (the match's own seed is not used)."""
    return int.from_bytes(hashlib.sha256(f"smear-review:match:{match_id}".encode()).digest()[:8], "big")


def match_review_samples(decisions: int) -> int:
    """The sampled deals per decision in the review of a match of ``decisions`` decisions."""
    fit = MATCH_REVIEW_BUDGET // max(1, decisions)
    return max(MATCH_REVIEW_MIN_SAMPLES, min(MATCH_REVIEW_SAMPLES, fit))


@functools.cache  # once a process: what it loads stays loaded
def warm_search() -> None:
    """A hint at a first lead of a seeded match, on two deals. Numba and the search's compiled code
    are loaded on their first use, which takes about 0.3 s on an idle core (seconds on a busy one).
    Once loaded they stay loaded for the process: a second server in it (a test's) searches nothing."""
    state = new_match(find_rules("house"), 4, True, seed=0)
    policy, rng = HeuristicBot(), random.Random(0)
    while state.public.phase is not Phase.PLAY:
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, policy.choose(player_view(state, seat), rng), seat)
    seat = state.public.to_act
    assert seat is not None
    ExpertBot(play_samples=2).advise(player_view(state, seat), rng)


def _record(state: State, hands: int | None = None) -> Record:
    """The record of the match of ``state`` (its first ``hands`` hands), the seats named by number."""
    data = record_of(state, [f"Seat {seat + 1}" for seat in range(state.public.players)])
    if hands is not None:
        data["hands"] = data["hands"][:hands]
    return parse_record(data)


@dataclass(frozen=True)
class MatchReview:
    """A whole match's review, and the sampled deals each decision was judged over."""

    review: Review
    samples: int

    @classmethod
    def of(cls, decisions: list[Decision], players: int, samples: int) -> MatchReview:
        """The review of every seat's ``decisions``, with each seat's count and total loss."""
        totals = tuple(
            PlayerTotal(
                seat,
                sum(1 for decision in decisions if decision.seat == seat),
                round(sum(decision.loss for decision in decisions if decision.seat == seat), 2),
            )
            for seat in range(players)
        )
        return cls(Review(tuple(decisions), totals), samples)


def judge_record(record: Record, seed: int) -> MatchReview:
    """Every seat's decisions in ``record``, each judged from its own seat's view as
    :func:`smear.review.review_record` judges them, in one go (on the caller's thread)."""
    found = positions(record)
    samples = match_review_samples(len(found))
    expert = reviewer(samples)
    decisions = [review_position(position, seed, expert) for position in found]
    return MatchReview.of(decisions, len(record.players), samples)


def played_decision_json(decision: Decision) -> dict[str, Any]:
    """A decision as the replay viewer gets it: ``smear review --json``'s, its ``action`` and ``best``
    structured (:func:`smear.actionjson.action_json`)."""
    return decision.to_json() | {
        "action": record_action_json(decision.action),
        "best": record_action_json(decision.best),
    }


def played_review(record: dict[str, Any], most_hands: int, seed: int) -> bytes:
    """The review of a finished match of the players' history (its stored ``record``) as the replay
    viewer gets it, in JSON: the costliest :data:`REVIEW_SHOWN` decisions, each seat's totals and
    the samples. Run in the reviews' worker process (:mod:`smear.server.players.background`)."""

    def job() -> bytes:
        reviewed = judge_record(record_within(record, most_hands), seed)
        review = reviewed.review
        return json_bytes(
            {
                "decisions": [played_decision_json(d) for d in review.costliest()[:REVIEW_SHOWN]],
                "players": [player.to_json() for player in review.players],
                "samples": reviewed.samples,
            }
        )

    return refusing(job)


class HintService:
    """The expert's advice for a table's seat at a version, and the reviews of a match's decisions,
    each worked out once."""

    def __init__(self, queue: int, metrics: Metrics | None = None) -> None:
        self.queue = queue
        self.metrics = metrics or Metrics()
        self.working = 0
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="smear-hint")
        self._rng = random.Random()
        # Per table: the version whose hints are kept, and each (seat, kind)'s answer for it.
        self._kept: dict[str, tuple[int, dict[tuple[int, str], asyncio.Future[Any]]]] = {}
        # Per table: the match whose reviews are kept, and each review of it (by hand and seat).
        self._reviews: dict[str, tuple[int, dict[tuple[int, int], asyncio.Future[Any]]]] = {}
        self.warmed: Future[None] | None = None  # the search loaded ahead of the first hint

    async def advise(self, code: str, version: int, seat: int, view: PlayerView) -> Advice:
        """The expert's choice for the seat of ``view``."""
        answer: Advice = await self._answer(
            code, version, seat, "hint", lambda: ExpertBot().advise(view, self._rng)
        )
        return answer

    async def bid_advice(self, code: str, version: int, seat: int, view: PlayerView) -> BidAdvice:
        """Every auction choice of the seat of ``view``, with its chances."""
        answer: BidAdvice = await self._answer(
            code, version, seat, "bids", lambda: bid_advice(view, self._rng)
        )
        return answer

    async def _answer(self, code: str, version: int, seat: int, kind: str, work: Callable[[], Any]) -> Any:
        """The answer of ``kind`` for ``seat`` at ``version``, worked out once on the hints' thread."""
        kept = self._kept.get(code)
        if kept is None or kept[0] != version:
            kept = self._kept[code] = (version, {})
        loop = asyncio.get_running_loop()
        return await self._queued(kept[1], (seat, kind), lambda: loop.run_in_executor(self._pool, work))

    async def review_hand(
        self, code: str, match: int, seed: int, state: State, hand: int, seat: int
    ) -> list[Decision]:
        """The decisions of ``seat`` in hand ``hand`` (0-based, over) of the match of ``state``, each
        judged from the seat's own view (:func:`smear.review.review_hand`)."""

        def work() -> list[Decision]:
            record = _record(state, hand + 1)  # nothing of a later hand goes in
            return review_hand(record, hand, {seat}, review_seed(seed), HAND_REVIEW_SAMPLES)

        loop = asyncio.get_running_loop()
        answer: list[Decision] = await self._review(
            code, match, (hand, seat), lambda: loop.run_in_executor(self._pool, work)
        )
        return answer

    async def review_match(self, code: str, match: int, seed: int, state: State) -> Review:
        """Every seat's decisions in the match of ``state`` (over), each judged from its own seat's
        view, as :func:`smear.review.review_record` judges them."""
        answer: MatchReview = await self._review(
            code, match, (-1, -1), lambda: self._whole_review(review_seed(seed), lambda: _record(state))
        )
        return answer.review

    async def _whole_review(self, seed: int, make_record: Callable[[], Record]) -> MatchReview:
        """Every seat's decisions in a record, judged one hand at a time on the hints' thread."""
        loop = asyncio.get_running_loop()

        def find() -> tuple[list[Position], int]:
            record = make_record()
            return positions(record), len(record.players)

        found, players = await loop.run_in_executor(self._pool, find)
        samples = match_review_samples(len(found))
        expert = reviewer(samples)

        def judge(chosen: list[Position]) -> list[Decision]:
            return [review_position(position, seed, expert) for position in chosen]

        decisions: list[Decision] = []
        for hand in sorted({position.hand for position in found}):
            # One hand at a time: a hint asked meanwhile is worked out between two hands.
            chosen = [position for position in found if position.hand == hand]
            decisions += await loop.run_in_executor(self._pool, judge, chosen)
        return MatchReview.of(decisions, players, samples)

    async def _review(
        self, code: str, match: int, key: tuple[int, int], work: Callable[[], Awaitable[Any]]
    ) -> Any:
        kept = self._reviews.get(code)
        if kept is None or kept[0] != match:
            kept = self._reviews[code] = (match, {})
        return await self._queued(kept[1], key, work)

    async def _queued(
        self,
        entries: MutableMapping[_Key, asyncio.Future[Any]],
        key: _Key,
        work: Callable[[], Awaitable[Any]],
    ) -> Any:
        """The answer kept in ``entries`` under ``key``, or ``work`` started (``hints_busy`` when the
        queue is full) and kept there; a failed one is dropped, to be worked out again."""
        future = entries.get(key)
        if future is None:
            if self.queue and self.working >= self.queue:
                raise TableError("hints_busy")
            self.working += 1
            future = asyncio.ensure_future(work())
            entries[key] = future
            queued = time.perf_counter()

            def done(finished: asyncio.Future[Any]) -> None:
                self.working -= 1
                self.metrics.waited("hint", time.perf_counter() - queued)
                failed = finished.cancelled() or finished.exception() is not None
                if failed and entries.get(key) is finished:
                    del entries[key]  # asked again, it is worked out again

            future.add_done_callback(done)
        return await asyncio.shield(future)

    def warm(self) -> Future[None]:
        """Load the search on the hints' thread now: the first hint after a start is then searched on
        its whole budget, where it would spend it loading (and answer from a handful of deals)."""
        self.warmed = self._pool.submit(warm_search)
        return self.warmed

    def forget(self, code: str) -> None:
        """Drop a table's kept advice and reviews (the table left memory)."""
        self._kept.pop(code, None)
        self._reviews.pop(code, None)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
