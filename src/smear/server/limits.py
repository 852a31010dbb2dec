"""What one server lets each client address, each table and the whole server have, and its pace.

Every limit is a setting of ``smear serve``. The defaults hold for every address, loopback
included; the benchmarks raise them. Behind a reverse proxy the client's address comes from the
``X-Forwarded-For`` header, but only when the proxy's own address is listed in ``trusted_proxies``.

>>> book = AddressBook(Limits(tables_per_hour=2))
>>> for now in (0.0, 10.0, 20.0, 3_600.5):
...     allowed = book.may_create_table("203.0.113.9", now)
...     if allowed:
...         book.table_created("203.0.113.9", now)
...     print(now, allowed)
0.0 True
10.0 True
20.0 False
3600.5 True
"""

from __future__ import annotations

import ipaddress
import math
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from smear.server.tables.table import TableError

HOUR = 3_600.0


@dataclass(frozen=True)
class Timing:
    """How long the server waits before it acts for someone (seconds)."""

    bot_pause: float = 0.8  # a bot "thinks" this long, so people can follow the play
    hand_pause: float = 4.0  # the end-of-hand summary stays up this long before the next deal
    grace: float = 20.0  # a disconnected player's seat waits this long before a bot plays for it
    # After a match at a matchmade table: the next starts this long after, with those still there.
    match_pause: float = 20.0
    # The turn limit of matchmade tables (whole seconds): a bot plays a turn not taken in time.
    matchmade_turn: int = 15
    # With several processes: an owner that stops loses its tables to the others after this long.
    lease: float = 5.0


@dataclass(frozen=True)
class Limits:
    """The server's limits; 0 turns a count limit off."""

    tables_per_hour: int = 60  # tables one address may create in any hour
    connections_per_address: int = 20  # sockets open at once from one address
    stop_grace: int = 5  # seconds requests still under way may take once the server is told to stop
    spectators_per_table: int = 50  # watchers of one table (seated players are not counted)
    max_tables: int = 2_000  # tables in memory at once; creating more answers ``server_full``
    lobby_idle: float = HOUR  # seconds a lobby may have no person connected before it closes
    match_idle: float = 24 * HOUR  # seconds a match may have nobody connected before it is put to rest
    sweep_every: float = 60.0  # seconds between two looks for idle and finished tables, and failed records
    finish_attempts: int = 10  # tries at storing a match's record (one a sweep) before its table is put aside
    hint_queue: int = 4  # hints being worked out or waiting at once; more answer ``hints_busy``
    # Work nobody at a table waits for, each kind in a worker of its own (smear.server.players.background):
    # jobs under way or waiting (more answer ``server_busy``), and the pace per client address (jobs a
    # second, and at once: more answer ``rate_limited``; a pace of 0 is none).
    review_queue: int = 4  # reviews of finished matches (a review already kept is free)
    review_pace: float = 0.1
    review_burst: int = 5
    replay_queue: int = 4  # replays of finished matches
    replay_pace: float = 1.0
    replay_burst: int = 10
    upload_queue: int = 2  # records sent to be replayed
    upload_pace: float = 0.5
    upload_burst: int = 10
    record_bytes: int = 1 << 20  # the largest record sent to be replayed
    # The most hands of a record replayed or reviewed: the longest preset match (8 players to 52) runs
    # to about 75 hands between the heuristic bots, and near 250 between random ones.
    record_hands: int = 1_000
    # Added to the priority of those workers' processes (Unix niceness): at 10 the server's live play,
    # and anything else on the machine, comes first (with a flood of them beside an honest table its p99
    # was 33 ms, against 145 ms at 0); at 0 they share the CPU evenly, and keep going on a busy machine.
    background_niceness: int = 10
    # New profiles per client address: this many at once (a class behind one address), then
    # profiles_per_hour come back (0: no pace). Wrong transfer codes have allowances of their own.
    profile_burst: int = 40
    profiles_per_hour: int = 20
    transfer_burst: int = 10  # transfer codes one address may try at once (a right one is free)
    transfer_tries_per_hour: int = 20  # then this many an hour (0: no pace)
    transfer_code_tries: int = 5  # tries at one code, from any address, at once
    transfer_code_tries_per_hour: int = 5  # then this many an hour (0: no pace)
    # Reports of other players, per reporting profile and per address: this many at once, then
    # reports_per_hour come back (0: no pace); a report's own line is at most report_text characters.
    report_burst: int = 5
    reports_per_hour: int = 10
    report_text: int = 200
    # Practice requests (positions asked for, answers sent), per profile and per address: this many at
    # once, then practice_per_hour come back (0: no pace). A quick player asks about 6 a minute.
    practice_burst: int = 60
    practice_per_hour: int = 1_200
    # Friends' and blocks' requests (asked, accepted, ended, blocked, invited), per profile and per
    # address: this many at once, then relations_per_hour come back (0: no pace).
    relations_burst: int = 30
    relations_per_hour: int = 300
    # Origins, besides the server's own, whose pages may open a socket ("https://example.org").
    allowed_origins: tuple[str, ...] = ()
    # Addresses of reverse proxies whose X-Forwarded-For header names the real client.
    trusted_proxies: tuple[str, ...] = ()

    def counted(self, limit: int, count: int) -> bool:
        """Whether ``count`` things are still within ``limit`` (0 means no limit)."""
        return limit == 0 or count < limit


@dataclass
class AddressBook:
    """Per client address: the sockets open now (each Engine.IO session and WebSocket, counted by
    :class:`~smear.server.wire.transport.TransportCount`) and when it last created tables."""

    limits: Limits
    connections: dict[str, int] = field(default_factory=dict)
    created: dict[str, deque[float]] = field(default_factory=dict)

    def may_connect(self, address: str) -> bool:
        return self.limits.counted(self.limits.connections_per_address, self.connections.get(address, 0))

    def may_open(self, address: str) -> bool:
        """Whether ``address`` may open one more socket: up to its cap, and one more, let in only
        to be told (``too_many_connections``) that it is refused."""
        limit = self.limits.connections_per_address
        return self.limits.counted(limit + 1 if limit else 0, self.connections.get(address, 0))

    def over_cap(self, address: str) -> bool:
        """Whether ``address`` holds more sockets than its cap."""
        limit = self.limits.connections_per_address
        return limit != 0 and self.connections.get(address, 0) > limit

    def connected(self, address: str) -> None:
        self.connections[address] = self.connections.get(address, 0) + 1

    def disconnected(self, address: str) -> None:
        left = self.connections.get(address, 0) - 1
        if left > 0:
            self.connections[address] = left
        else:
            self.connections.pop(address, None)

    def may_create_table(self, address: str, now: float) -> bool:
        """Whether ``address`` may create a table now under the hourly limit."""
        times = self.created.get(address)
        while times and times[0] <= now - HOUR:
            times.popleft()
        return self.limits.counted(self.limits.tables_per_hour, len(times or ()))

    def table_created(self, address: str, now: float) -> None:
        if self.limits.tables_per_hour:
            self.created.setdefault(address, deque()).append(now)

    def table_not_created(self, address: str, at: float) -> None:
        """Give back a table counted at ``at`` by :meth:`table_created` whose creation failed."""
        times = self.created.get(address)
        if times is not None and at in times:
            times.remove(at)

    def forget_old(self, now: float) -> None:
        """Drop addresses that created nothing in the last hour, so the book does not grow."""
        for address in [a for a, times in self.created.items() if not times or times[-1] <= now - HOUR]:
            del self.created[address]


@dataclass
class Bucket:
    """A token bucket: ``rate`` tokens a second come back, at most ``burst`` saved up.

    >>> bucket = Bucket(rate=0.5, burst=2, checked=0.0)
    >>> [bucket.take(now) for now in (0.0, 0.1, 0.2, 2.2)]
    [True, True, False, True]
    """

    rate: float
    burst: float
    checked: float
    tokens: float = -1.0  # below 0: full (set on the first take)

    def take(self, now: float) -> bool:
        """Take a token at ``now`` (monotonic seconds) if there is one."""
        if self.tokens < 0:
            self.tokens = self.burst
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.rate)
        self.checked = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def give_back(self) -> None:
        """Return a token taken for something that did not happen after all."""
        self.tokens = min(self.burst, self.tokens + 1)

    def wait(self) -> float:
        """Seconds from the last :meth:`take` until a token is there."""
        return max(0.0, (1 - self.tokens) / self.rate) if self.rate else math.inf

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled by ``now`` (then it need not be kept)."""
        return self.tokens < 0 or self.tokens + (now - self.checked) * self.rate >= self.burst


class TableQuota:
    """The tables a server may still create, per address in any hour and in memory at once.

    A creation is counted before its first await (it reads and writes storage) and given back if it
    fails: every request that comes while it awaits sees it counted, so concurrent requests cannot
    all pass the check.

    >>> limits = Limits(max_tables=2)
    >>> quota = TableQuota(limits, AddressBook(limits), live=lambda: 1)
    >>> with quota.creating("203.0.113.9", 0.0):  # still awaiting storage: counted already
    ...     with quota.creating("198.51.100.7", 0.0):
    ...         pass
    Traceback (most recent call last):
    smear.server.tables.settings.TableError: server_full
    """

    def __init__(self, limits: Limits, addresses: AddressBook, live: Callable[[], int]) -> None:
        self.limits = limits
        self.addresses = addresses
        self.live = live  # how many tables are in memory now
        self.pending = 0  # creations under way, not in memory yet

    @contextmanager
    def creating(self, address: str, now: float) -> Iterator[None]:
        """Count one table of ``address`` while the block creates it (``too_many_tables`` or
        ``server_full`` when none may be); a block that raises gives it back."""
        if not self.addresses.may_create_table(address, now):
            raise TableError("too_many_tables", limit=self.limits.tables_per_hour)
        if not self.limits.counted(self.limits.max_tables, self.live() + self.pending):
            raise TableError("server_full")
        self.addresses.table_created(address, now)
        self.pending += 1
        try:
            yield
        except BaseException:
            self.addresses.table_not_created(address, now)
            raise
        finally:
            self.pending -= 1


def scope_address(scope: Mapping[str, Any], trusted_proxies: tuple[str, ...]) -> str:
    """:func:`client_address` of an ASGI request (its ``X-Forwarded-For`` headers joined, as
    python-engineio joins them for a socket)."""
    forwarded = b",".join(
        value for name, value in scope.get("headers", []) if name.lower() == b"x-forwarded-for"
    )
    return client_address(
        {"asgi.scope": scope, "HTTP_X_FORWARDED_FOR": forwarded.decode("latin-1")}, trusted_proxies
    )


def client_address(environ: dict[str, Any], trusted_proxies: tuple[str, ...]) -> str:
    """The address of the client behind a socket's request.

    The peer's own address, unless the peer is a trusted proxy: then the rightmost address of
    ``X-Forwarded-For`` that is not itself a trusted proxy (each proxy appends the address it saw,
    so everything left of that could have been written by the client).
    """
    scope = environ.get("asgi.scope") or {}
    peer = scope.get("client")
    address = str(peer[0]) if peer else str(environ.get("REMOTE_ADDR") or "unknown")
    if not trusted_proxies or not _is_trusted(address, trusted_proxies):
        return address
    forwarded = str(environ.get("HTTP_X_FORWARDED_FOR") or "")
    for hop in reversed([part.strip() for part in forwarded.split(",") if part.strip()]):
        if not _is_trusted(hop, trusted_proxies):
            return hop
        address = hop
    return address


def _is_trusted(address: str, trusted: tuple[str, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for entry in trusted:
        try:
            if ip in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False
