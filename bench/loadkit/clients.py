"""The load benchmark's client side, run in each worker process: people playing many tables at once
over Socket.IO, each action's ack and views timed, and the collector's pauses counted."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import random
import resource
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

ACK_TIMEOUT = 10.0  # seconds an ack may take before it counts as a timeout
VIEW_TIMEOUT = 10.0  # seconds from an ack until every seat has the state it caused
SETUP_CONCURRENCY = 16  # tables being created and filled at once, per worker
DRAIN_SECONDS = 12.0  # after the window, how long to wait for the last actions' views


# --- the client side (runs in each worker process) ---------------------------------------------------


@dataclass
class Window:
    """The measured window, in ``time.monotonic()`` seconds (the same clock in every process)."""

    start: float = math.inf
    end: float = math.inf

    def holds(self, moment: float) -> bool:
        return self.start <= moment < self.end


@dataclass
class Stats:
    sent: int = 0  # acts sent inside the window
    acked: int = 0  # of those, acknowledged with ok
    samples: list[float] = field(default_factory=list)  # latencies (s) of acts sent inside the window
    sent_at: list[float] = field(default_factory=list)  # when each of those was sent (monotonic)
    fresh: list[float] = field(default_factory=list)  # samples since the last progress report
    errors: Counter[str] = field(default_factory=Counter)
    tables_started: int = 0
    matches_started: int = 0


class Player:
    """One person at one table: a Socket.IO connection and what it has seen."""

    def __init__(self, driver: Driver, table: TableRun, name: str, url: str) -> None:
        import socketio  # imported in the workers only

        self.driver = driver
        self.table = table
        self.name = name
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("state", self.on_state)
        self.sio.on("error", self.on_error)
        self.sio.on("disconnect", self.on_disconnect)
        self.token = ""
        self.seat = -1
        self.latest = -1
        self.seen: deque[tuple[int, float]] = deque(maxlen=32)  # (version, when received)
        self.acted_version = -1
        self.again_version = -1
        self.url = url

    async def connect(self) -> None:
        await self.sio.connect(self.url, transports=["websocket"], wait_timeout=ACK_TIMEOUT)

    async def call(self, event: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """The ack of one request, or None after counting the failure as an error."""
        import socketio

        try:
            reply: dict[str, Any] = await self.sio.call(event, data, timeout=ACK_TIMEOUT)
        except socketio.exceptions.TimeoutError:
            self.driver.error(f"{event}: ack timeout")
            return None
        except Exception as err:
            self.driver.error(f"{event}: {type(err).__name__}")
            return None
        if not reply.get("ok"):
            code = reply.get("error", {}).get("code", "?")
            self.driver.error(f"{event}: {code}")
            return None
        return reply

    def first_at_least(self, version: int) -> float | None:
        """When this player received its first state of at least ``version``."""
        for seen_version, when in self.seen:
            if seen_version >= version:
                return when
        return None

    async def on_state(self, data: dict[str, Any]) -> None:
        now = time.monotonic()
        version = data["version"]
        self.seen.append((version, now))
        self.latest = version
        if self.table.pending:
            self.table.check(now)
        driver = self.driver
        info = data["table"]
        if info["you"] is not None:  # with teams, the start reseats everyone at random
            self.seat = info["you"]
        if not driver.acting or not self.token:
            return
        if info["status"] == "finished":
            if info["host"] == self.seat and version > self.again_version:
                self.again_version = version
                driver.spawn(self.play_again())
            return
        game = data["game"]
        if game is None:
            return
        legal = [action["text"] for action in game["legal"]]
        if legal and game["public"]["to_act"] == self.seat and version > self.acted_version:
            self.acted_version = version
            driver.spawn(self.act(version, legal))

    async def act(self, version: int, legal: list[str]) -> None:
        driver = self.driver
        await asyncio.sleep(driver.think_time())
        if not driver.acting:
            return
        action = driver.rng.choice(legal)
        payload = {"table": self.table.code, "token": self.token, "version": version, "action": action}
        sent = time.monotonic()
        counted = driver.window.holds(sent)
        if counted:
            driver.stats.sent += 1
        driver.in_flight += 1
        try:
            reply = await self.call("act", payload)
        finally:
            driver.in_flight -= 1
        if reply is None:
            return
        if counted:
            driver.stats.acked += 1
        self.table.pending.append((reply["version"], sent, counted))
        self.table.check(time.monotonic())

    async def play_again(self) -> None:
        await asyncio.sleep(self.driver.think_time())
        if self.driver.acting and await self.call(
            "play_again", {"table": self.table.code, "token": self.token}
        ):
            self.driver.stats.matches_started += 1

    async def on_error(self, data: Any) -> None:
        code = data.get("code", "?") if isinstance(data, dict) else "?"
        self.driver.error(f"error event: {code}")

    async def on_disconnect(self, *args: Any) -> None:
        if not self.driver.closing:
            self.driver.error("disconnected")


class TableRun:
    """One table: its players and the acts whose views have not all arrived yet."""

    def __init__(self, driver: Driver, index: int, players: int) -> None:
        self.driver = driver
        self.index = index
        self.code = ""
        # With several servers the hosts (who create the tables, and so own them at first) take turns.
        urls = driver.urls
        self.players = [
            Player(driver, self, f"P{index}-{seat}", urls[(index + seat) % len(urls)])
            for seat in range(players)
        ]
        self.pending: list[tuple[int, float, bool]] = []  # (ack version, sent at, inside the window)

    def check(self, now: float) -> None:
        """Record every pending act whose view every player now has; time out the old ones."""
        still = []
        for version, sent, counted in self.pending:
            last = sent
            for player in self.players:
                when = player.first_at_least(version)
                if when is None:
                    break
                last = max(last, when)
            else:
                if counted:
                    self.driver.record(last - sent, sent)
                continue
            if now - sent > VIEW_TIMEOUT:
                self.driver.error("view timeout")
            else:
                still.append((version, sent, counted))
        self.pending = still

    def last_state_at(self) -> float:
        return max((p.seen[-1][1] for p in self.players if p.seen), default=0.0)

    async def open(self) -> bool:
        """Connect every seat, create the table and fill it."""
        driver = self.driver
        host, *guests = self.players
        try:
            await asyncio.gather(*(player.connect() for player in self.players))
        except Exception as err:
            driver.error(f"connect: {type(err).__name__}")
            return False
        count = len(self.players)
        settings = {
            "name": host.name,
            "preset": "house",
            "players": count,
            "teams": count % 2 == 0 and count >= 4,
        }
        reply = await host.call("create_table", settings)
        if reply is None:
            return False
        self.code, host.token, host.seat = reply["table"], reply["token"], reply["seat"]
        for guest in guests:
            reply = await guest.call("join_table", {"table": self.code, "name": guest.name})
            if reply is None:
                return False
            guest.token, guest.seat = reply["token"], reply["seat"]
        return True

    async def start(self) -> None:
        host = self.players[0]
        if await host.call("start", {"table": self.code, "token": host.token}) is not None:
            self.driver.stats.tables_started += 1


class Driver:
    """The tables of one worker process, and what it measured."""

    def __init__(self, urls: list[str], think: float, seed: int) -> None:
        self.urls = urls  # the server processes; a table's players are spread over them
        self.think = think
        self.rng = random.Random(seed)
        self.window = Window()
        self.stats = Stats()
        self.acting = True
        self.closing = False
        self.in_flight = 0  # acts sent and not yet acknowledged
        self.tasks: set[asyncio.Task[None]] = set()

    def think_time(self) -> float:
        return self.think * self.rng.uniform(0.5, 1.5)

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def error(self, kind: str) -> None:
        self.stats.errors[kind] += 1

    def record(self, latency: float, sent: float) -> None:
        self.stats.samples.append(latency)
        self.stats.sent_at.append(sent)
        self.stats.fresh.append(latency)


class GcPauses:
    """The pauses of this process's garbage collector (a long one delays every message it holds)."""

    def __init__(self) -> None:
        self.started = 0.0
        self.pauses: list[float] = []
        gc.callbacks.append(self.on_gc)

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self.started)


class WorkerJob(NamedTuple):
    """What one client process plays: its tables of the run and how its people behave."""

    worker: int
    urls: list[str]  # the servers, tables spread over them
    indices: list[int]  # the run's tables this process opens
    players: int
    think: float  # seconds a person takes to act
    seed: int
    keep_gc: bool  # leave the collector on during the measured window
    ramp: float  # seconds over which the tables start


async def run_worker(job: WorkerJob, pipe: Any, queue: Any) -> None:
    driver = Driver(job.urls, job.think, job.seed)
    gc_pauses = GcPauses()
    tables = [TableRun(driver, index, job.players) for index in job.indices]
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    def report(kind: str, **extra: Any) -> None:
        stats = driver.stats
        queue.put(
            {
                "kind": kind,
                "worker": job.worker,
                "started": stats.tables_started,
                "sent": stats.sent,
                "acked": stats.acked,
                "fresh": stats.fresh,
                "errors": dict(stats.errors),
                "cpu": time.process_time(),
                **extra,
            }
        )
        stats.fresh = []

    async def open_one(table: TableRun) -> None:
        async with gate:
            opened = await table.open()
        if opened:
            # Tables spread over the ramp, as people arrive, rather than all dealt at once.
            await asyncio.sleep(driver.rng.uniform(0.0, job.ramp))
            await table.start()

    async def reporter() -> None:
        while True:
            await asyncio.sleep(1.0)
            report("progress")
            now = time.monotonic()
            for table in tables:
                if table.pending:
                    table.check(now)

    progress = asyncio.get_running_loop().create_task(reporter())
    await asyncio.gather(*(open_one(table) for table in tables))
    # The connections live to the end: keep them out of the collector's full passes, so that a
    # pause of this process does not pass for a slow server.
    gc.collect()
    gc.freeze()
    report("ready")
    while not pipe.poll():
        await asyncio.sleep(0.02)
    driver.window.start, driver.window.end = pipe.recv()
    await asyncio.sleep(max(0.0, driver.window.start - time.monotonic()))
    cpu_start = time.process_time()
    gc_pauses.pauses.clear()
    if not job.keep_gc:
        # One process stands for hundreds of browsers: its collector's pauses would stop them all
        # at once and pass for server latency. The JSON it receives holds no cycles (reference
        # counting frees it), so the collector can rest for the window; see the RSS printed.
        gc.disable()
    await asyncio.sleep(max(0.0, driver.window.end - time.monotonic()))
    cpu_window = time.process_time() - cpu_start
    driver.acting = False
    deadline = time.monotonic() + DRAIN_SECONDS
    while (driver.in_flight or any(table.pending for table in tables)) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        now = time.monotonic()
        for table in tables:
            if table.pending:
                table.check(now)
    for table in tables:  # whatever is still missing now has timed out
        if table.pending:
            table.check(math.inf)
    if driver.in_flight:
        driver.stats.errors["act: no ack by the end"] += driver.in_flight
    quiet_for = 3 * job.think + 10.0  # a hand pause (4 s) plus a few turns
    stalled = sum(
        1 for table in tables if table.code and driver.window.end - table.last_state_at() > quiet_for
    )
    progress.cancel()
    gc_window = list(gc_pauses.pauses)  # the views of the last acts count too: collect after them
    report(
        "done",
        samples=driver.stats.samples,
        sent_at=driver.stats.sent_at,
        cpu_window=cpu_window,
        gc_pauses=gc_window,
        rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        stalled=stalled,
        matches=driver.stats.matches_started,
    )
    gc.enable()
    driver.closing = True
    gate = asyncio.Semaphore(64)

    async def close(player: Player) -> None:
        async with gate:
            with contextlib.suppress(Exception):  # the run is over: a failed goodbye changes no figure
                await asyncio.wait_for(player.sio.disconnect(), 5.0)

    await asyncio.gather(*(close(p) for table in tables for p in table.players))


def worker_main(job: WorkerJob, pipe: Any, queue: Any) -> None:
    coroutine = run_worker(job, pipe, queue)
    try:
        import uvloop

        uvloop.run(coroutine)
    except ImportError:
        asyncio.run(coroutine)
