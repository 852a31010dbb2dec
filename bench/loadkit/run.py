"""Load benchmark of the game server: many 4-player tables played at once over real WebSockets.

What it measures: the time from a player sending ``act`` to the moment the last player of that table
has received the ``state`` the action caused (version >= the version in the ack), for every action
sent during a measured window, under N tables of people (no bots: every action comes from a client).

How: unless ``--url`` is given it starts ``python -m smear serve`` as a separate process on a free
port of 127.0.0.1 with a fresh SQLite database (``--database postgres``: a database on a throwaway
PostgreSQL server it starts, with PostgreSQL's durable defaults; see ``tests/support/dbservers.py``), and
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

With ``--scrape-metrics`` the servers it starts serve their metrics (``smear serve --metrics``) and
something scrapes them every second in every other 5-second period of the window
(``loadkit.scrape``); before the closing lines it prints the p99 of the acts sent while they were not
scraped and while they were, from the same run::

    p99_ms_unscraped: X
    p99_ms_scraped: Y
    scrape_p99_change_pct: Z
    scrapes: S

Its parts: ``loadkit.clients`` (the client side, in each worker process), ``benchtools`` (CPU and
percentile arithmetic, shared with the other server benchmarks) and ``support.serverproc`` and
``support.dbservers`` (the server processes and database servers it starts, shared with the tests).

Usage: python bench/load.py [--tables 200] [--players 4] [--seconds 60] [--think 1.0] [--workers 1]
                            [--database URL|postgres | --url http://127.0.0.1:8000 [--server-pid PID]]
                            [--servers 1 [--redis URL]] [--seed 1] [--client-gc] [--scrape-metrics]
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchtools import cpu_shares, machine_cpu, machine_since, percentile, process_cpu, raise_file_limit
from support import serverproc
from support.dbservers import Postgres, Redis
from support.serverproc import free_port, serve_command, server_log, stop_server

from loadkit.clients import DRAIN_SECONDS, WorkerJob, worker_main
from loadkit.scrape import Scraper, split_p99

PROGRESS_EVERY = 5.0  # seconds between progress lines


# --- the server process and the measurements of CPU --------------------------------------------------


def wait_healthy(url: str, process: subprocess.Popen[bytes] | None, timeout: float = 60.0) -> None:
    try:
        serverproc.wait_healthy(url, process, timeout)
    except serverproc.ServerStartError as err:
        raise SystemExit(str(err)) from None


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
    parser.add_argument(
        "--scrape-metrics",
        action="store_true",
        help="the servers serve their metrics, scraped every second in every other 5 s of the window;"
        " the p99 with and without scraping are printed",
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
    if args.scrape_metrics and args.url:
        parser.error("--scrape-metrics is for the servers this benchmark starts; not with --url")
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
    metrics_url: str | None = None  # with --scrape-metrics


def start_servers(
    database: str | None, workdir: str, count: int, redis: str | None, metrics: bool = False
) -> list[Server]:
    """``count`` server processes on one database (and, for several, on one Redis); with ``metrics``,
    each serving its metrics on a port of its own."""
    database = database or f"sqlite:///{workdir}/load.db"
    # Every client of the benchmark comes from one address: the per-address limits are lifted.
    unlimited = {"--tables-per-hour": "0", "--connections-per-address": "0", "--max-tables": "0"}
    if redis is not None:
        unlimited["--redis"] = redis
    servers = []
    for number in range(count):
        port = free_port()
        log_path = Path(workdir) / f"server{number}.log"
        metrics_at = f"127.0.0.1:{free_port()}" if metrics else None
        options = unlimited if metrics_at is None else {**unlimited, "--metrics": metrics_at}
        command = serve_command(port, database, serverproc.serve_options(options))
        if metrics_at is not None and "--metrics" not in command:
            raise SystemExit("this version of smear serve has no --metrics: it cannot be scraped")
        if redis is not None and "--redis" not in command:
            raise SystemExit("this version of smear serve has no --redis: it cannot run as several servers")
        process = serverproc.launch(command, log_path)
        print(f"server: {' '.join(command[1:])} (pid {process.pid})", flush=True)
        metrics_url = None if metrics_at is None else f"http://{metrics_at}/metrics"
        servers.append(Server(process, f"http://127.0.0.1:{port}", log_path, metrics_url=metrics_url))
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

    from smear.server.cluster.coordination import PREFIX

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
        args.scraper = None
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
                servers = start_servers(database, workdir, args.servers, redis, args.scrape_metrics)
                for server in servers:
                    wait_healthy(server.url, server.process)
                    server.log_start = server.log_path.stat().st_size
                if args.scrape_metrics:
                    args.scraper = Scraper([server.metrics_url for server in servers if server.metrics_url])
                    args.scraper.start()
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
                        WorkerJob(
                            worker,
                            urls,
                            indices,
                            args.players,
                            args.think,
                            args.seed + worker,
                            args.client_gc,
                            args.ramp,
                        ),
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
            if args.scraper is not None:
                args.scraper.stop()
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
            if args.scraper is not None:
                args.scraper.window = window
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
    if args.scraper is not None and window is not None:
        print_scraped(args.scraper, window, done)
    p99 = ms[2]
    # All the server processes' threads (event loops, storage, bots) over the acknowledged actions.
    per_action = 1000 * server_used / acked if server_used is not None and acked else math.nan
    print(f"tables: {args.tables}")
    print(f"p99_ms: {p99:.1f}")
    print(f"errors: {sum(errors.values())}")
    print(f"server_cpu_ms_per_action: {per_action:.2f}")
    return 0 if not incomplete else 1


def print_scraped(scraper: Scraper, window: tuple[float, float], done: dict[int, dict[str, Any]]) -> None:
    """The p99 of the acts sent while the metrics were not scraped, and while they were."""
    pairs = [pair for r in done.values() for pair in zip(r["sent_at"], r["samples"], strict=True)]
    quiet, scraped = split_p99(pairs, window[0])
    unscraped_ms, scraped_ms = (1000 * percentile(half, 0.99) for half in (quiet, scraped))
    change = 100 * (scraped_ms - unscraped_ms) / unscraped_ms if unscraped_ms else math.nan
    print(f"acts timed while the metrics were not scraped: {len(quiet)}, while they were: {len(scraped)}")
    print(f"p99_ms_unscraped: {unscraped_ms:.1f}")
    print(f"p99_ms_scraped: {scraped_ms:.1f}")
    print(f"scrape_p99_change_pct: {change:.1f}")
    print(f"scrapes: {scraper.scrapes} (failed {scraper.failed}, {scraper.bytes_read} bytes)")


def main(argv: list[str] | None = None) -> int:
    return run(parse_args(argv))
