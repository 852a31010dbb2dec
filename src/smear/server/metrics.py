"""The server's numbers for Prometheus (``smear serve --metrics HOST:PORT``), with prometheus-client.

:class:`Metrics` owns a registry and every metric; the parts take it in their constructor and
record through its methods, each at the one place where what it counts is decided. Off (the
default), every method returns at once and nothing listens. Labels are bounded: event names,
error codes, presets, queue and limit names; never a table code, an address or a name.

With ``--workers N`` the processes write their numbers to files in one directory
(prometheus-client's multiprocess mode, :func:`share_between_processes`, set up by the parent
before it starts them) and the parent serves their sum (:func:`aggregated_registry`). The gauges
are ``livesum``: the sum over the workers alive, a dead worker's files removed by
:func:`worker_gone`.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess, values
from prometheus_client.exposition import start_http_server

__all__ = [
    "Metrics",
    "aggregated_registry",
    "parse_address",
    "serve_metrics",
    "share_between_processes",
    "worker_gone",
]

MULTIPROCESS_DIRECTORY: Final = "PROMETHEUS_MULTIPROC_DIR"  # read by prometheus-client
# Seconds: from a millisecond (an act on an idle server) to ten (a stalled database).
LATENCY_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Actions stored in one commit, up to the writer's GROUP_LIMIT (256).
GROUP_BUCKETS: Final = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# The error codes that are the server's failure, not a refusal of what the client asked.
FAILURES: Final = frozenset({"internal_error", "not_stored"})


class Metrics:
    """Every metric of one server process; each method records one thing (nothing when off)."""

    def __init__(self, enabled: bool = False) -> None:
        self.on = enabled
        self.registry = CollectorRegistry()
        at = self.registry
        self.live_tables = Gauge(
            "smear_live_tables", "Tables in memory.", registry=at, multiprocess_mode="livesum"
        )
        self.sockets = Gauge("smear_sockets", "Sockets connected.", registry=at, multiprocess_mode="livesum")
        self.leases_held = Gauge(
            "smear_leases_held", "Table leases held (with --redis).", registry=at, multiprocess_mode="livesum"
        )
        self.queue_depth = Gauge(
            "smear_queue_depth",
            "Jobs under way or waiting, by queue.",
            ["queue"],
            registry=at,
            multiprocess_mode="livesum",
        )
        self.requests = Counter(
            "smear_requests",
            "Socket requests answered, by event and outcome (ok, refused, failed) and error code.",
            ["event", "outcome", "code"],
            registry=at,
        )
        self.act_ack = Histogram(
            "smear_act_ack_seconds",
            "From an act received to its answer.",
            registry=at,
            buckets=LATENCY_BUCKETS,
        )
        self.act_view = Histogram(
            "smear_act_last_view_seconds",
            "From an act reaching its table to the last follower's view handed to the transport.",
            registry=at,
            buckets=LATENCY_BUCKETS,
        )
        self.commit_size = Histogram(
            "smear_commit_actions", "Actions stored in one commit.", registry=at, buckets=GROUP_BUCKETS
        )
        self.commit_latency = Histogram(
            "smear_commit_seconds", "Time of one group commit.", registry=at, buckets=LATENCY_BUCKETS
        )
        self.database = Counter(
            "smear_database_calls",
            "Database round trips, by kind and result.",
            ["kind", "result"],
            registry=at,
        )
        self.redis = Counter(
            "smear_redis_calls", "Redis round trips, by operation and result.", ["op", "result"], registry=at
        )
        self.leases = Counter(
            "smear_lease_changes", "Table leases taken over or lost.", ["change"], registry=at
        )
        self.queue_wait = Histogram(
            "smear_queue_wait_seconds",
            "From a job queued to its answer, by queue.",
            ["queue"],
            registry=at,
            buckets=LATENCY_BUCKETS,
        )
        self.limited = Counter(
            "smear_rate_limited", "Requests refused by a limit, by limit.", ["limit"], registry=at
        )
        self.finished = Counter(
            "smear_matches_finished", "Matches played to their end, by preset.", ["preset"], registry=at
        )

    def request(self, event: str, code: str | None) -> None:
        """A socket request answered: ``code`` None if it was accepted."""
        if not self.on:
            return
        outcome = "ok" if code is None else "failed" if code in FAILURES else "refused"
        self.requests.labels(event, outcome, code or "").inc()

    def act_acked(self, seconds: float) -> None:
        if self.on:
            self.act_ack.observe(seconds)

    def act_viewed(self, seconds: float) -> None:
        if self.on:
            self.act_view.observe(seconds)

    def committed(self, actions: int, seconds: float) -> None:
        """One group commit of ``actions`` actions (refused or not) took ``seconds``."""
        if self.on:
            self.commit_size.observe(actions)
            self.commit_latency.observe(seconds)

    def database_call(self, kind: str, failed: bool) -> None:
        if self.on:
            self.database.labels(kind, "failed" if failed else "ok").inc()

    def redis_call(self, op: str, failed: bool) -> None:
        if self.on:
            self.redis.labels(op, "failed" if failed else "ok").inc()

    def lease_change(self, change: str, count: int = 1) -> None:
        """``taken_over`` or ``lost``."""
        if self.on and count:
            self.leases.labels(change).inc(count)

    def waited(self, queue: str, seconds: float) -> None:
        if self.on:
            self.queue_wait.labels(queue).observe(seconds)

    def rate_limited(self, limit: str) -> None:
        if self.on:
            self.limited.labels(limit).inc()

    def match_finished(self, preset: str) -> None:
        if self.on:
            self.finished.labels(preset).inc()

    def sample(self, tables: int, sockets: int, leases: int, queues: Mapping[str, int]) -> None:
        """The gauges, as this process sees them now."""
        if not self.on:
            return
        self.live_tables.set(tables)
        self.sockets.set(sockets)
        self.leases_held.set(leases)
        for queue, depth in queues.items():
            self.queue_depth.labels(queue).set(depth)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9100`` for IPv6) as (host, port); ValueError if it is not one."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{text!r} is not HOST:PORT")
    return host, int(port)


def serve_metrics(address: tuple[str, int], registry: CollectorRegistry) -> None:
    """Serve ``registry`` at ``http://HOST:PORT/metrics`` on a thread of its own."""
    host, port = address
    start_http_server(port, host, registry=registry)


@contextmanager
def share_between_processes() -> Iterator[str]:
    """A directory for the numbers of processes started inside the block (by fork), removed after
    it; the processes made after the block starts write there."""
    directory = tempfile.mkdtemp(prefix="smear-metrics-")
    os.environ[MULTIPROCESS_DIRECTORY] = directory
    # prometheus-client picks its way of storing values when imported: picked again, with files.
    values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]
    try:
        yield directory
    finally:
        os.environ.pop(MULTIPROCESS_DIRECTORY, None)
        values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]
        shutil.rmtree(directory, ignore_errors=True)


def aggregated_registry(directory: str) -> CollectorRegistry:
    """A registry that reads the numbers every process wrote in ``directory``, summed."""
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return registry


def worker_gone(directory: str, pid: int) -> None:
    """A worker stopped: its gauges leave the sums (its counters stay, as counters must)."""
    multiprocess.mark_process_dead(pid, path=directory)  # type: ignore[no-untyped-call]
