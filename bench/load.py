"""Load benchmark of the game server: many 4-player tables played at once over real WebSockets.

What it measures: the time from a player sending ``act`` to the moment the last player of that table
has received the ``state`` the action caused (version >= the version in the ack), for every action
sent during a measured window, under N tables of people (no bots: every action comes from a client).

How: unless ``--url`` is given it starts ``python -m smear serve`` as a separate process on a free
port of 127.0.0.1 with a fresh SQLite database (``--database postgres``: a database on a throwaway
PostgreSQL server it starts, with PostgreSQL's durable defaults; see ``bench/dbservers.py``), and
waits for ``GET /health``. With ``--servers N`` it starts N such processes sharing the tables
through Redis (a throwaway ``redis-server`` it starts, or ``--redis URL``), and spreads each
table's players over them, so most requests are forwarded to the table's owner; the server CPU is
then the sum over the processes, and the report adds each one's share and how many tables each
owns. Worker processes
(``--workers``, each with its own event loop) then open one python-socketio ``AsyncClient`` per seat
(WebSocket transport only), create, fill and start the tables, and play: a client whose turn it is
waits its think time (``--think`` seconds, +/- 50% jitter) and sends a random legal action with the
version of the state it saw. The host of a finished match asks for ``play_again``. The measured
window (``--seconds``) starts once every table has started.

The clients' garbage collector is off during the window (``--client-gc`` leaves it on): one process
stands for hundreds of browsers, and its pauses would stop them all at once and pass for server
latency. The report gives the client's CPU share and peak memory, so a saturated client shows.

It prints progress lines while running, then the actions sent and per second, latency percentiles,
errors (any refused ack, stale_version included; disconnects; ack or view timeouts), the CPU used
by the server process, by the client workers and by everything else on the machine (another load
skews the figures), and on a virtual machine the time its host took from its cores (steal), and ends
with four lines::

    tables: N
    p99_ms: X
    errors: E
    server_cpu_ms_per_action: C

``server_cpu_ms_per_action`` is the server process's CPU time in the window (every thread: the event
loop, the storage thread, bots) divided by the actions acknowledged in it; ``nan`` when the server
is not this machine's child and no ``--server-pid`` is given.

Usage: python bench/load.py [--tables 200] [--players 4] [--seconds 60] [--think 1.0] [--workers 1]
                            [--database URL|postgres | --url http://127.0.0.1:8000 [--server-pid PID]]
                            [--servers 1 [--redis URL]] [--seed 1] [--client-gc]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import multiprocessing as mp
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import serverproc
from dbservers import Postgres, Redis
from serverproc import free_port, serve_command, server_log, stop_server

ACK_TIMEOUT = 10.0  # seconds an ack may take before it counts as a timeout
VIEW_TIMEOUT = 10.0  # seconds from an ack until every seat has the state it caused
SETUP_CONCURRENCY = 16  # tables being created and filled at once, per worker
DRAIN_SECONDS = 12.0  # after the window, how long to wait for the last actions' views
PROGRESS_EVERY = 5.0  # seconds between progress lines
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


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
        legal = game["legal"]
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
                    self.driver.record(last - sent)
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

    def record(self, latency: float) -> None:
        self.stats.samples.append(latency)
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


async def run_worker(
    worker: int,
    urls: list[str],
    indices: list[int],
    players: int,
    think: float,
    seed: int,
    keep_gc: bool,
    ramp: float,
    pipe: Any,
    queue: Any,
) -> None:
    driver = Driver(urls, think, seed)
    gc_pauses = GcPauses()
    tables = [TableRun(driver, index, players) for index in indices]
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    def report(kind: str, **extra: Any) -> None:
        stats = driver.stats
        queue.put(
            {
                "kind": kind,
                "worker": worker,
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
            await asyncio.sleep(driver.rng.uniform(0.0, ramp))
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
    if not keep_gc:
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
    quiet_for = 3 * think + 10.0  # a hand pause (4 s) plus a few turns
    stalled = sum(
        1 for table in tables if table.code and driver.window.end - table.last_state_at() > quiet_for
    )
    progress.cancel()
    gc_window = list(gc_pauses.pauses)  # the views of the last acts count too: collect after them
    report(
        "done",
        samples=driver.stats.samples,
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


def worker_main(
    worker: int,
    urls: list[str],
    indices: list[int],
    players: int,
    think: float,
    seed: int,
    keep_gc: bool,
    ramp: float,
    pipe: Any,
    queue: Any,
) -> None:
    coroutine = run_worker(worker, urls, indices, players, think, seed, keep_gc, ramp, pipe, queue)
    try:
        import uvloop

        uvloop.run(coroutine)
    except ImportError:
        asyncio.run(coroutine)


# --- the server process and the measurements of CPU --------------------------------------------------


def wait_healthy(url: str, process: subprocess.Popen[bytes] | None, timeout: float = 60.0) -> None:
    try:
        serverproc.wait_healthy(url, process, timeout)
    except serverproc.ServerStartError as err:
        raise SystemExit(str(err)) from None


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far, or None if it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_cpu() -> tuple[float, float, float]:
    """(busy, total, stolen) CPU seconds of the whole machine so far, from /proc/stat. ``stolen`` is
    the time a virtual machine's cores waited for the host; it counts in neither busy nor total."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0, 0.0, 0.0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    stolen = values[7] if len(values) > 7 else 0
    total = sum(values[:8]) - stolen
    return (total - idle) / CLOCK_TICKS, total / CLOCK_TICKS, stolen / CLOCK_TICKS


def machine_since(now: tuple[float, float, float], then: tuple[float, float, float]) -> tuple[float, ...]:
    return tuple(a - b for a, b in zip(now, then, strict=True))


def cpu_shares(
    server: float | None, clients: float, machine: tuple[float, ...], span: float, cores: int
) -> str:
    """CPU used over ``span`` seconds, as % of one core: the server, the clients, everything else.

    ``machine`` is the (busy, total, stolen) CPU seconds of the whole machine over the same span;
    what the server and the clients did not use of it is other processes (another load skews the
    figures). Time the host took from this virtual machine's cores is given apart: it slows
    everything without showing as anyone's use.
    """
    parts = [f"server {100 * server / span:.0f}%" if server is not None else "server n/a"]
    parts.append(f"clients {100 * clients / span:.0f}%")
    if machine[1] > 0:
        elapsed = machine[1] + machine[2]  # every core's time, the host's share included
        busy = 100 * cores * machine[0] / elapsed
        others = busy - 100 * clients / span - (100 * server / span if server is not None else 0.0)
        parts.append(f"other processes {max(0.0, others):.0f}%")
        parts.append(f"machine {busy:.0f}% of {100 * cores}%")
        if machine[2] > 0:
            parts.append(f"stolen by the host {100 * cores * machine[2] / elapsed:.0f}%")
    return ", ".join(parts)


def raise_file_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        if target < needed:
            print(f"warning: open files limited to {target}, {needed} wanted", file=sys.stderr)


def percentile(ordered: list[float], share: float) -> float:
    """Nearest-rank percentile of a sorted list."""
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


# --- the conductor ---------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    parser.add_argument("--players", type=int, default=4, help="people per table (default 4)")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="measured play once every table has started (60)"
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a player waits before acting, +/- 50%% (1.0)"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=30.0,
        help="each table starts at a random moment within this many seconds of being filled (30)",
    )
    parser.add_argument("--workers", type=int, default=1, help="client processes (default 1)")
    parser.add_argument("--url", help="use this running server instead of starting one")
    parser.add_argument(
        "--server-pid", type=int, help="with --url: the server's process id, to report its CPU use"
    )
    parser.add_argument(
        "--database",
        help="SQLAlchemy URL for the started server, or 'postgres' for a throwaway PostgreSQL server"
        " this benchmark starts and removes (default: a new SQLite file)",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="server processes sharing the tables through Redis; each table's players are spread"
        " over them (default 1)",
    )
    parser.add_argument(
        "--redis",
        help="with --servers: this Redis URL instead of a throwaway redis-server the benchmark starts",
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds the players' choices")
    parser.add_argument(
        "--client-gc",
        action="store_true",
        help="leave the clients' garbage collector on during the window (its pauses then count)",
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.workers < 1 or args.seconds <= 0 or args.think < 0 or args.ramp < 0:
        parser.error("--tables and --workers must be at least 1, --seconds positive, --think, --ramp >= 0")
    if not 3 <= args.players <= 8:
        parser.error("--players must be 3 to 8 (house rules)")
    if args.url and args.database:
        parser.error("--database is for the server this benchmark starts; not with --url")
    if args.server_pid and not args.url:
        parser.error("--server-pid is for a server given by --url")
    if args.servers < 1 or (args.url and args.servers > 1):
        parser.error("--servers must be at least 1, and is for the servers this benchmark starts")
    if args.redis and args.servers == 1:
        parser.error("--redis is for several servers (--servers 2 or more)")
    return args


@dataclass
class Server:
    """One ``smear serve`` process this benchmark started."""

    process: subprocess.Popen[bytes]
    url: str
    log_path: Path
    log_start: int = 0


def start_servers(database: str | None, workdir: str, count: int, redis: str | None) -> list[Server]:
    """``count`` server processes on one database (and, for several, on one Redis)."""
    database = database or f"sqlite:///{workdir}/load.db"
    # Every client of the benchmark comes from one address: the per-address limits are lifted.
    unlimited = {"--tables-per-hour": "0", "--connections-per-address": "0", "--max-tables": "0"}
    if redis is not None:
        unlimited["--redis"] = redis
    servers = []
    for number in range(count):
        port = free_port()
        log_path = Path(workdir) / f"server{number}.log"
        command = serve_command(port, database, serverproc.serve_options(unlimited))
        if redis is not None and "--redis" not in command:
            raise SystemExit("this version of smear serve has no --redis: it cannot run as several servers")
        process = serverproc.launch(command, log_path)
        print(f"server: {' '.join(command[1:])} (pid {process.pid})", flush=True)
        servers.append(Server(process, f"http://127.0.0.1:{port}", log_path))
    return servers


def shared_counts(redis: str | None, database: str | None) -> dict[str, int]:
    """Commands Redis has run and transactions the PostgreSQL database has committed so far
    (what is not there is left out)."""
    counts: dict[str, int] = {}
    if redis is not None:
        import redis as redis_client

        client = redis_client.Redis.from_url(redis)
        try:
            counts["redis_commands"] = int(client.info("stats")["total_commands_processed"])
        finally:
            client.close()
    if database is not None and database.startswith("postgresql"):
        from sqlalchemy import create_engine, text

        engine = create_engine(database)
        try:
            with engine.connect() as connection:
                query = "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                counts["database_commits"] = int(connection.execute(text(query)).scalar_one())
        finally:
            engine.dispose()
    return counts


def tables_per_owner(redis: str | None, servers: list[Server]) -> str:
    """How many tables each server process owns now (from the leases in Redis)."""
    if redis is None:
        return ""
    import redis as redis_client

    from smear.server.cluster import PREFIX

    client = redis_client.Redis.from_url(redis)
    try:
        leases = list(client.scan_iter(f"{PREFIX}lease:*", count=1000))
        owners = Counter(value.decode() for value in client.mget(leases) if value) if leases else Counter()
    finally:
        client.close()
    counts = sorted(owners.values(), reverse=True)
    return f"tables per owner process: {', '.join(map(str, counts)) or 'none'} ({len(servers)} processes)"


def run(args: argparse.Namespace) -> int:
    raise_file_limit(args.tables * args.players + 256)
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="smear-load-") as workdir, contextlib.ExitStack() as stack:
        servers: list[Server] = []
        workers: list[Any] = []
        redis: str | None = None
        try:
            args.database_url = None
            if args.url:
                urls = [args.url.rstrip("/")]
                wait_healthy(urls[0], None)
            else:
                database = args.database
                if database == "postgres":
                    postgres = stack.enter_context(Postgres(durable=True))
                    database = postgres.new_database()
                    print(f"database: a throwaway PostgreSQL server in {postgres.directory}", flush=True)
                if args.servers > 1:
                    redis = args.redis
                    if redis is None:
                        redis = stack.enter_context(Redis()).unix_url()  # same machine: no TCP stack
                        print("redis: a throwaway redis-server", flush=True)
                args.database_url = database
                servers = start_servers(database, workdir, args.servers, redis)
                for server in servers:
                    wait_healthy(server.url, server.process)
                    server.log_start = server.log_path.stat().st_size
                urls = [server.url for server in servers]
            context = mp.get_context("spawn")
            queue = context.Queue()
            pipes = []
            for worker in range(args.workers):
                indices = list(range(worker, args.tables, args.workers))
                ours, theirs = context.Pipe()
                process = context.Process(
                    target=worker_main,
                    args=(
                        worker,
                        urls,
                        indices,
                        args.players,
                        args.think,
                        args.seed + worker,
                        args.client_gc,
                        args.ramp,
                        theirs,
                        queue,
                    ),
                    daemon=True,
                )
                process.start()
                workers.append(process)
                pipes.append(ours)
            sockets = args.tables * args.players
            print(
                f"load: {args.tables} tables x {args.players} players = {sockets} sockets, "
                f"{args.workers} client process(es), {len(urls)} server process(es), "
                f"think {args.think} s +/- 50%, {cores} cores",
                flush=True,
            )
            return conduct(args, servers, redis, workers, pipes, queue, cores)
        except BaseException:
            for server in servers:
                print(server_log(server.log_path, 15), file=sys.stderr)
            raise
        finally:
            for process in workers:
                process.join(15)
                if process.is_alive():
                    process.terminate()
                    process.join(5)
            for server in servers:
                stop_server(server.process)


def conduct(
    args: argparse.Namespace,
    servers: list[Server],
    redis: str | None,
    workers: list[Any],
    pipes: list[Any],
    queue: Any,
    cores: int,
) -> int:
    import queue as queues

    latest: dict[int, dict[str, Any]] = {}
    done: dict[int, dict[str, Any]] = {}
    fresh: list[float] = []
    began = time.monotonic()
    setup_deadline = began + 30.0 + args.ramp + args.tables * 0.5
    window: tuple[float, float] | None = None
    marks: dict[str, Any] = {}
    last_print = began
    server_pids = [server.process.pid for server in servers] or ([args.server_pid] if args.server_pid else [])

    def each_server_cpu() -> list[float | None]:
        return [process_cpu(pid) for pid in server_pids]

    def server_cpu() -> float | None:
        used = each_server_cpu()
        return None if not used or None in used else sum(u for u in used if u is not None)

    last_mark = (began, server_cpu(), 0.0, 0, machine_cpu())

    def total(key: str) -> int:
        return sum(int(report[key]) for report in latest.values())

    def errors_of(reports: Any) -> Counter[str]:
        counts: Counter[str] = Counter()
        for report in reports:
            counts.update(report["errors"])
        return counts

    while len(done) < len(workers):
        try:
            report = queue.get(timeout=0.5)
        except queues.Empty:
            report = None
        now = time.monotonic()
        if report is not None:
            latest[report["worker"]] = report
            fresh.extend(report["fresh"])
            if report["kind"] == "done":
                done[report["worker"]] = report
            elif report["kind"] == "ready":
                marks.setdefault("ready", set()).add(report["worker"])
        if window is None and len(marks.get("ready", ())) == len(workers):
            start = time.monotonic() + 0.2
            window = (start, start + args.seconds)
            for pipe in pipes:
                pipe.send(window)
            print(
                f"[{now - began:6.1f}s] all {total('started')} tables started; measuring {args.seconds:g} s"
            )
            time.sleep(max(0.0, start - time.monotonic()))
            marks["server_cpu"] = (time.monotonic(), server_cpu())
            marks["shared"] = shared_counts(redis, args.database_url)
            marks["each_server"] = each_server_cpu()
            marks["machine"] = machine_cpu()
            continue
        if window is not None and "server_cpu_end" not in marks and now >= window[1]:
            marks["server_cpu_end"] = (time.monotonic(), server_cpu())
            marks["each_server_end"] = each_server_cpu()
            marks["owners"] = tables_per_owner(redis, servers)
            marks["shared_end"] = shared_counts(redis, args.database_url)
            marks["machine_end"] = machine_cpu()
        if window is None and now > setup_deadline:
            print(f"setup did not finish in {setup_deadline - began:.0f} s; giving up")
            break
        if window is not None and now > window[1] + DRAIN_SECONDS + 30.0:
            print("the workers did not report in time; giving up")
            break
        exited = [server for server in servers if server.process.poll() is not None]
        if exited:
            print(f"a server exited with status {exited[0].process.returncode}")
            break
        if any(not process.is_alive() for process in workers) and len(done) < len(workers):
            dead = [w for w, process in enumerate(workers) if not process.is_alive() and w not in done]
            if dead:
                print(f"worker(s) {dead} exited before reporting")
                break
        if now - last_print >= PROGRESS_EVERY and latest:
            then, server_then, client_then, sent_then, machine_then = last_mark
            span = now - then
            client_now = sum(float(r["cpu"]) for r in latest.values())
            server_now = server_cpu()
            machine_now = machine_cpu()
            sent_now = total("sent")
            server_used = (
                server_now - server_then if server_now is not None and server_then is not None else None
            )
            machine_used = machine_since(machine_now, machine_then)
            shares = cpu_shares(server_used, client_now - client_then, machine_used, span, cores)
            errors = sum(errors_of(latest.values()).values())
            if window is None or now < window[0]:
                phase = f"setup: {total('started')}/{args.tables} tables started"
            else:
                measured = min(now, window[1]) - window[0]
                rate = (sent_now - sent_then) / span
                p99 = percentile(sorted(fresh), 0.99) * 1000
                phase = (
                    f"measure {measured:5.1f}/{args.seconds:g} s: sent {sent_now} ({rate:.0f}/s), "
                    f"p99 {p99:.1f} ms over {len(fresh)}"
                )
            print(f"[{now - began:6.1f}s] {phase}, errors {errors}; CPU {shares}", flush=True)
            fresh = []
            last_print = now
            last_mark = (now, server_now, client_now, sent_now, machine_now)

    for server in servers:
        if log := server_log(server.log_path, 15, server.log_start):
            print(log)
    return summarise(args, window, latest, done, marks, cores)


def summarise(
    args: argparse.Namespace,
    window: tuple[float, float] | None,
    latest: dict[int, dict[str, Any]],
    done: dict[int, dict[str, Any]],
    marks: dict[str, Any],
    cores: int,
) -> int:
    reports = list(latest.values())
    errors: Counter[str] = Counter()
    for report in reports:
        errors.update(report["errors"])
    started = sum(int(r["started"]) for r in reports)
    missing = args.tables - started
    if missing:
        errors["tables not started"] += missing
    incomplete = len(done) < args.workers or window is None
    if incomplete:
        errors["run incomplete"] += 1
    samples = sorted(s for r in done.values() for s in r["samples"])
    sent = sum(int(r["sent"]) for r in done.values())
    acked = sum(int(r["acked"]) for r in done.values())
    stalled = sum(int(r["stalled"]) for r in done.values())
    matches = sum(int(r["matches"]) for r in done.values())
    seconds = args.seconds
    print()
    print(f"tables started: {started} of {args.tables}, {args.players} players each, no bots")
    print(f"measured window: {seconds:g} s, think {args.think} s +/- 50%")
    print(f"actions sent: {sent} (acknowledged {acked}, views timed: {len(samples)})")
    print(f"actions per second: {sent / seconds:.1f}")
    print(f"matches started again (play_again, whole run): {matches}")
    print(f"tables without a state in the last part of the window: {stalled}")
    ms = [percentile(samples, p) * 1000 for p in (0.50, 0.90, 0.99, 1.0)]
    print(
        "latency (act sent -> last seat has the state): "
        + ", ".join(
            f"{name} {value:.1f} ms" for name, value in zip(("p50", "p90", "p99", "max"), ms, strict=True)
        )
    )
    detail = ", ".join(f"{kind}: {count}" for kind, count in sorted(errors.items())) or "none"
    print(f"errors: {sum(errors.values())} ({detail})")
    cpu = [float(r.get("cpu_window", math.nan)) for r in done.values()]
    per_worker = ", ".join(f"{100 * c / seconds:.0f}%" for c in cpu)
    print(f"client CPU in the window: {100 * sum(cpu) / seconds:.0f}% of one core ({per_worker} per worker)")
    pauses = [p for r in done.values() for p in r.get("gc_pauses", [])]
    longest = f", the longest {1000 * max(pauses):.1f} ms" if pauses else ""
    rss = ", ".join(f"{float(r['rss_mb']):.0f} MB" for r in done.values())
    print(
        f"client garbage collections in the window: {len(pauses)} ({1000 * sum(pauses):.0f} ms{longest}; "
        f"collector {'on' if args.client_gc else 'off'}), client peak RSS {rss}"
    )
    (since, server_start), (until, server_end) = (
        marks.get("server_cpu", (0.0, None)),
        marks.get("server_cpu_end", (0.0, None)),
    )
    span = until - since
    server_used = server_end - server_start if server_start is not None and server_end is not None else None
    machine_used: tuple[float, ...] = (0.0, 0.0, 0.0)
    if "machine" in marks and "machine_end" in marks:
        machine_used = machine_since(marks["machine_end"], marks["machine"])
    if span > 0:
        shares = cpu_shares(server_used, sum(cpu), machine_used, span, cores)
        print(f"CPU in the window (% of one core): {shares}")
        each = zip(marks.get("each_server", []), marks.get("each_server_end", []), strict=False)
        used = [f"{100 * (end - begin) / span:.0f}%" for begin, end in each if None not in (begin, end)]
        if len(used) > 1:
            print(f"CPU of each server process in the window (% of one core): {', '.join(used)}")
    if marks.get("owners"):
        print(marks["owners"])
    for name, count in marks.get("shared_end", {}).items():
        # Over every action acknowledged in the window (PostgreSQL counts every transaction: reads too).
        used = count - marks.get("shared", {}).get(name, count)
        print(f"{name} per action: {used / acked:.2f}" if acked else f"{name}: {used}")
    p99 = ms[2]
    # All the server processes' threads (event loops, storage, bots) over the acknowledged actions.
    per_action = 1000 * server_used / acked if server_used is not None and acked else math.nan
    print(f"tables: {args.tables}")
    print(f"p99_ms: {p99:.1f}")
    print(f"errors: {sum(errors.values())}")
    print(f"server_cpu_ms_per_action: {per_action:.2f}")
    return 0 if not incomplete else 1


def main(argv: list[str] | None = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
