"""How often profiles may be made and transfer codes tried (documented in docs/security.md).

Making a profile is paced per client address by what abuse costs, not by who shares an address:
a large allowance that comes back slowly (:attr:`~smear.server.limits.Limits.profile_burst` at
once, then :attr:`~smear.server.limits.Limits.profiles_per_hour`), so a class or a family behind
one address each get a profile and a script making thousands does not.

Trying a transfer code has allowances of its own, so that wrong codes never spend the one for new
profiles: per address, and per code tried (a code's hash). A code that claims a profile gives
back what it took: only wrong guesses count.

Practice (positions asked for, answers sent) has an allowance per profile and one per address,
apart from the others, large enough for a quick player and small enough to stop a script.

An allowance is taken before anything is awaited, so requests sent at once cannot all spend one,
and given back when what it paid for could not be stored. A refusal says when to ask again
(:class:`TooSoon`, answered 429 with ``Retry-After``).

>>> from smear.server.limits import Limits
>>> now = [0.0]
>>> pace = ProfilePace(Limits(profile_burst=2, profiles_per_hour=60), lambda: now[0])
>>> for _ in range(2):
...     with pace.making("203.0.113.9"):
...         pass
>>> with pace.making("203.0.113.9"):
...     pass
Traceback (most recent call last):
smear.server.players.profilepace.TooSoon: rate_limited
>>> with pace.making("198.51.100.7"):  # another address has its own allowance
...     pass
>>> now[0] = 60.0  # a minute later, one more for the first address
>>> with pace.making("203.0.113.9"):
...     pass
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final

from smear.server.limits import HOUR, Bucket, Limits
from smear.server.metrics import Metrics
from smear.server.storage.database import StorageError
from smear.server.tables.live import NotStored
from smear.server.tables.table import TableError

# Seconds between two looks for allowances that are whole again (and need not be kept).
FORGET_EVERY: Final = 60.0
# The limit a refusal is counted under in the metrics, by allowance: the setting that bounds it.
LIMIT_NAMES: Final = {
    "profile": "profiles_per_hour",
    "transfer": "transfer_tries_per_hour",
    "transfer code": "transfer_code_tries_per_hour",
    "report address": "reports_per_hour",
    "report profile": "reports_per_hour",
    "practice address": "practice_per_hour",
    "practice profile": "practice_per_hour",
    "relations address": "relations_per_hour",
    "relations profile": "relations_per_hour",
}


class TooSoon(TableError):
    """``rate_limited``, with the whole seconds until the allowance has room again."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("rate_limited")
        self.retry_after = retry_after


class ProfilePace:
    """The allowances of new profiles and transfer codes tried, by (kind, address or code)."""

    def __init__(self, limits: Limits, clock: Callable[[], float], metrics: Metrics | None = None) -> None:
        self.limits = limits
        self.clock = clock  # monotonic seconds
        self.metrics = metrics or Metrics()
        self.buckets: dict[tuple[str, str], Bucket] = {}
        self.forgotten_at = -math.inf

    @contextmanager
    def making(self, address: str) -> Iterator[None]:
        """Pace a profile made from ``address`` while the block stores it (``TooSoon`` past the
        allowance; given back if it could not be stored)."""
        limits = self.limits
        taken = self._take([("profile", address, limits.profiles_per_hour, limits.profile_burst)])
        with _given_back_unless_stored(taken):
            yield

    @contextmanager
    def claiming(self, address: str, code_hash: str) -> Iterator[Callable[[], None]]:
        """Pace a transfer code tried from ``address`` (per address and per code) while the block
        claims it; the block calls what it is given once the code was right, which gives both back."""
        limits = self.limits
        taken = self._take(
            [
                ("transfer", address, limits.transfer_tries_per_hour, limits.transfer_burst),
                ("transfer code", code_hash, limits.transfer_code_tries_per_hour, limits.transfer_code_tries),
            ]
        )
        with _given_back_unless_stored(taken):
            yield lambda: _give_back(taken)

    @contextmanager
    def reporting(self, profile: str | None, address: str) -> Iterator[None]:
        """Pace a report from ``profile`` (None: a guest) at ``address`` while the block stores it
        (``TooSoon`` past either allowance; given back if it could not be stored)."""
        limits = self.limits
        paces = [("report address", address, limits.reports_per_hour, limits.report_burst)]
        if profile is not None:
            paces.append(("report profile", profile, limits.reports_per_hour, limits.report_burst))
        with _given_back_unless_stored(self._take(paces)):
            yield

    def practicing(self, profile: str | None, address: str) -> None:
        """Pace a practice request from ``profile`` (None: no profile) at ``address`` (``TooSoon``
        past either allowance): it only reads, or stores an attempt that costs a row."""
        limits = self.limits
        paces = [("practice address", address, limits.practice_per_hour, limits.practice_burst)]
        if profile is not None:
            paces.append(("practice profile", profile, limits.practice_per_hour, limits.practice_burst))
        self._take(paces)

    def relating(self, profile: str, address: str) -> None:
        """Pace a friends' or blocks' request from ``profile`` at ``address`` (``TooSoon`` past either
        allowance): each is one small row, or one message to a friend."""
        limits = self.limits
        self._take(
            [
                ("relations address", address, limits.relations_per_hour, limits.relations_burst),
                ("relations profile", profile, limits.relations_per_hour, limits.relations_burst),
            ]
        )

    def _take(self, paces: list[tuple[str, str, int, int]]) -> list[Bucket]:
        """One from each allowance (kind, key, per hour, at once); none is taken unless all have
        room. An allowance of 0 an hour is none."""
        now = self.clock()
        self._forget_whole(now)
        buckets = [
            (kind, self.buckets.setdefault((kind, key), Bucket(per_hour / HOUR, float(burst), now)))
            for kind, key, per_hour, burst in paces
            if per_hour
        ]
        taken: list[Bucket] = []
        for kind, bucket in buckets:
            if not bucket.take(now):
                _give_back(taken)
                self.metrics.rate_limited(LIMIT_NAMES[kind])
                raise TooSoon(max(1, math.ceil(bucket.wait())))
            taken.append(bucket)
        return taken

    def _forget_whole(self, now: float) -> None:
        """Forget, now and then, the allowances that came back whole (so the book does not grow)."""
        if now - self.forgotten_at < FORGET_EVERY:
            return
        self.forgotten_at = now
        for key in [key for key, bucket in self.buckets.items() if bucket.full(now)]:
            del self.buckets[key]


def _give_back(buckets: list[Bucket]) -> None:
    for bucket in buckets:
        bucket.give_back()


@contextmanager
def _given_back_unless_stored(buckets: list[Bucket]) -> Iterator[None]:
    try:
        yield
    except (NotStored, StorageError):
        _give_back(buckets)
        raise
