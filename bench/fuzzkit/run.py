"""Fuzz benchmark of the game server: malformed, wrong and hostile traffic beside an honest table.

How: it starts ``python -m smear serve`` on a free port of 127.0.0.1 with a fresh SQLite database,
its limits raised (tables, sockets per address, spectators) but the per-connection rate limit in
place, its pauses short, and its output in a log file. It speaks Engine.IO v4 / Socket.IO v5 frame
by frame over raw WebSockets (``0{...}`` open, ``40`` namespace, ``42<id>[...]`` events, ``43<id>``
acks, ``2``/``3`` ping and pong), so it can send anything at all, and spreads its messages over
``--workers`` connections, each paced under the server's rate limit.

First it sets up real tables of people, each seat held by its own connection: started matches of
several presets, a full lobby, a table with hints. Each is watched by a few spectator connections
that track its version from the ``state`` and ``event`` pushes. Then the workers send ``--messages``
messages, their kinds drawn by a seeded random generator (see ``KINDS``): requests that fit the
schema but are wrong for those tables (other tables' codes and seats' tokens, stale and future
versions, cards not held, actions out of phase, seats out of range), mutations of them (types
flipped, fields dropped or added, huge strings, unicode oddities, odd numbers, duplicate keys),
unknown and reserved event names (``connect``, ``disconnect``, ``*``), malformed Socket.IO packets
(``[]``, non-arrays, two data arguments), oversized and deeply nested messages, garbage, non-UTF-8
and binary frames (binary events with attachments), requests without an ack id, bursts, hint floods,
a crowd of spectators, odd HTTP requests, and now and then a legal move so the tables go through
every phase. An honest table (one person and bots, hints on) plays beside it all the while, asking
for a hint before half of its moves. Beside them, from the same address, runs a flood of the work
nobody at a table waits for (``fuzzkit.flood``), each a quarter faster than its documented pace:
reviews and replays of finished matches stored before the server starts, and records of the most
hands and bytes a server replays, sent to be replayed.

What it checks:

- state_changes_from_refused: the fuzzer's own tables of people move only when a request it sent
  was accepted. Requests that name one of them go one at a time; after each, a spectator reads the
  table's version (a ``watch_table`` ack) and every version since the last check must be explained:
  by an accepted request of the matching kind, a deal (the server deals after a hand's summary) or a
  bot's move. Any other change counts, one per version.
- server_errors: tracebacks and ERROR lines in the server's log, HTTP answers of 500 and more (but
  the flood's 503 ``server_busy``), and ``internal_error`` acks.
- honest_p99_ms: the 99th percentile of the honest person's ``act`` acks, in milliseconds.
- honest_hints_busy: the honest person's hints refused with ``hints_busy`` (a hint must never wait
  behind the flood).

It prints a breakdown per kind of message (sent, acked ok, refused by code, error pushes for
requests sent without an ack, no answer, connection closed), the details of any failure, and ends
with these lines, exiting with 1 if server_errors, state_changes_from_refused or honest_hints_busy
is not 0 (2 if the run could not finish). Ctrl-C or SIGTERM stops the sending early; the tables are
still checked and the figures so far printed::

    messages: M
    server_errors: N
    state_changes_from_refused: N
    honest_p99_ms: X
    honest_hints_busy: N

Its parts are the modules of ``fuzzkit`` (its docstring lists them); this one holds the
:class:`Fuzzer` and drives the run.

Usage: python bench/fuzz.py [--messages 100000] [--seed 1] [--workers 32] [--spectators 60]
                            [--kinds wrong,garbage,...] [--log FILE] [--max-seconds S] [--no-flood]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import signal
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
from benchtools import percentile, raise_file_limit
from support import serverproc

from fuzzkit.checks import CHANGE_KIND, Checker
from fuzzkit.flood import LIMITS, Flood, long_record, store_matches
from fuzzkit.kinds import SENDERS
from fuzzkit.probes import ProbeMaker
from fuzzkit.report import report, scan_log
from fuzzkit.tables import TABLE_SPECS, Holder, Honest, TargetTable
from fuzzkit.wire import CLOSED, NO_ANSWER, PUSH_WAIT, Probe, Socket, outcome_of

try:
    import uvloop
except ImportError:  # optional: the standard event loop does too
    uvloop = None  # type: ignore[assignment]

DEAF_WAIT = 5.0  # a plain request after an unanswered message: a connection that stays silent is deaf
PROGRESS_EVERY = 10.0
DEFAULT_GRACE = 20.0  # the server's grace period when `smear serve` has no --grace option
GRACE = 3.0  # the grace period asked for: a seat wrongly taken for absent is played soon after


# The limits the fuzzer raises (only those `smear serve --help` lists are passed). The per-connection
# rate limit stays: the traffic is spread over enough connections instead.
SERVER_SETTINGS = {
    "--tables-per-hour": "0",
    "--connections-per-address": "0",
    "--max-tables": "0",
    "--bot-pause": "0.05",
    "--hand-pause": "0.3",
    "--grace": str(GRACE),
}

# Message kinds and their weights. A kind of TABLE_KINDS is one message about one of the fuzzer's
# tables, made by ``ProbeMaker.probe_<kind>`` (fuzzkit.probes); any other sends itself (``SENDERS`` in
# fuzzkit.kinds).
KINDS: dict[str, float] = {
    "valid": 10,  # a legal move at one of the fuzzer's tables, so they go through every phase
    "wrong": 30,
    "mutated": 15,
    "no_ack": 6,
    "unknown_event": 5,
    "reserved": 4,
    "shape": 5,
    "oversized": 3,
    "nested": 2,
    "garbage": 4,
    "binary": 4,
    "burst": 1.2,
    "hint_flood": 1,
    "crowd": 2,
    "http": 2,
}

TABLE_KINDS = frozenset(
    {"wrong", "mutated", "no_ack", "unknown_event", "shape", "oversized", "nested", "binary"}
)

# --- the fuzzer -----------------------------------------------------------------------------------------


class Fuzzer:
    def __init__(self, args: argparse.Namespace, url: str, grace: float) -> None:
        self.args = args
        self.url = url
        self.ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.grace = grace
        self.http: aiohttp.ClientSession = None  # type: ignore[assignment]  # set in run()
        self.kinds = [kind for kind in KINDS if kind in args.kinds]
        self.weights = [KINDS[kind] for kind in self.kinds]
        self.budget: int = args.messages
        self.sent: Counter[str] = Counter()
        self.outcomes: dict[str, Counter[str]] = defaultdict(Counter)
        self.examples: dict[tuple[str, str], list[str]] = defaultdict(list)  # a few notes per outcome
        self.tables: list[TargetTable] = []
        self.honest = Honest(self)
        self.probes = ProbeMaker(self.tables, self.honest)  # the same list: it sees tables set up later
        self.crowd: list[Socket] = []
        self.sockets: list[Socket] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        self.stopping = False
        self.started_at = time.monotonic()
        self.pushes = 0
        self.checker = Checker(self)  # state_changes_from_refused
        self.internal_errors: Counter[str] = Counter()
        self.http_errors: Counter[str] = Counter()
        self.connect_failures: Counter[str] = Counter()
        self.client_faults: Counter[str] = Counter()
        self.findings: Counter[str] = Counter()
        self.reconnects: Counter[str] = Counter()
        self.incomplete: list[str] = []
        self.flood: Flood | None = None  # set before the run unless --no-flood

    # --- bookkeeping ------------------------------------------------------------------------------------

    def spawn(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def reserve(self, count: int) -> int:
        """Up to ``count`` messages of the budget; 0 once it is spent (and the run stops)."""
        granted = min(count, self.budget)
        self.budget -= granted
        if self.budget <= 0:
            self.stopping = True
        return granted

    def record(self, kind: str, label: str, count: int = 1, note: str = "") -> None:
        self.sent[kind] += count
        self.outcomes[kind][label] += count
        examples = self.examples[(kind, label)]
        if note and len(examples) < 3 and note not in examples:
            examples.append(note)

    def note_internal(self, probe: Probe, label: str) -> None:
        if label.endswith("internal_error"):
            self.internal_errors[f"{probe.kind}: {probe.note}"] += 1

    async def open_socket(
        self, role: str, on_push: Callable[[str, Any], None] | None = None
    ) -> Socket | None:
        socket = Socket(self, role, on_push)
        if not await socket.open():
            return None
        self.sockets.append(socket)
        if len(self.sockets) > 4096:  # keep the list of sockets to close at the end short
            self.sockets = [s for s in self.sockets if not s.is_closed]
        return socket

    # --- set-up -----------------------------------------------------------------------------------------

    async def setup(self) -> None:
        await self.setup_honest()
        for spec in TABLE_SPECS:
            table = TargetTable(spec)
            try:
                await self.setup_table(table)
            except SetupError as error:
                self.incomplete.append(f"table {spec.label}: {error}")
                continue
            self.tables.append(table)

    async def setup_honest(self) -> None:
        honest = self.honest
        socket = await self.open_socket("honest", honest.on_push)
        if socket is None:
            raise SetupError("the honest player could not connect")
        honest.socket = socket
        settings = {"name": "Honest", "preset": "house", "players": 4, "teams": False, "hints": True}
        reply = await self.must(socket, "create_table", settings)
        honest.code, honest.token = reply["table"], reply["token"]
        for seat in (1, 2, 3):
            await self.must(
                socket, "set_bot", {"table": honest.code, "token": honest.token, "seat": seat, "bot": True}
            )
        await self.must(socket, "start", {"table": honest.code, "token": honest.token})

    async def setup_table(self, table: TargetTable) -> None:
        spec = table.spec
        players = int(spec.settings["players"])
        table.holders = [Holder(table, f"{spec.label[:12]}-{seat}") for seat in range(players)]
        for holder in table.holders:
            holder.socket = await self.open_socket(f"seat at {spec.label}", holder.on_push)
            if holder.socket is None:
                raise SetupError("a seat could not connect")
        host, *guests = table.holders
        assert host.socket is not None
        reply = await self.must(host.socket, "create_table", {"name": host.name, **spec.settings})
        table.code, host.token, host.seat = reply["table"], reply["token"], reply["seat"]
        for guest in guests:
            assert guest.socket is not None
            reply = await self.must(guest.socket, "join_table", {"table": table.code, "name": guest.name})
            guest.token, guest.seat = reply["token"], reply["seat"]
        for _ in range(3 if not spec.frozen else 2):
            reader = await self.open_socket(f"spectator of {spec.label}", table.on_push)
            if reader is None:
                raise SetupError("a spectator could not connect")
            await self.must(reader, "watch_table", {"table": table.code})
            table.readers.append(reader)
        if spec.started:
            await self.must(host.socket, "start", {"table": table.code, "token": host.token})
        # Every version so far came from the set-up; the checks start from the table as it is now.
        version = await self.checker.read_version(table)
        table.checked = max(table.version, version if version is not None else -1)

    async def must(self, socket: Socket, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        label, reply = await socket.call(event, payload)
        if label != "ok" or reply is None:
            raise SetupError(f"{event} answered {label}")
        return reply

    # --- sending ----------------------------------------------------------------------------------------

    async def deliver(self, socket: Socket, build: Callable[[], Probe], table: TargetTable | None) -> str:
        """Send one probe and record its outcome. A probe about one of the fuzzer's tables is made
        and sent with that table's lock held (what is wrong for it depends on its state), alone
        there, and the table is checked after it."""
        if not self.reserve(1):
            return NO_ANSWER
        await socket.pace()
        async with table.lock if table is not None else contextlib.nullcontext():
            probe = build()
            label, reply = await self.exchange(socket, probe)
            self.record(probe.kind, label, note=probe.note)
            self.note_internal(probe, label)
            if table is not None:
                if label == "ok" and reply is not None and probe.event in CHANGE_KIND:
                    version = reply.get("version")
                    if isinstance(version, int):
                        table.accepted[version] = probe.event
                table.recent.append(f"{probe.kind} {probe.note} -> {label}")
                await self.checker.check(table, lost_ack=probe.ack and label in (NO_ANSWER, CLOSED))
        socket.recent.append(probe.note)
        if probe.poison:
            await socket.close()
        elif label == NO_ANSWER:
            await self.still_answers(socket)
        return label

    async def still_answers(self, socket: Socket) -> bool:
        """After a message nobody answered: does the connection still answer a plain request? One
        that does not is a finding (a connection a client can make deaf), and is dropped."""
        label, _ = await socket.call("watch_table", {"table": "no-such-table-0"}, wait=DEAF_WAIT)
        if label != NO_ANSWER:
            return True
        self.findings[f"a connection stopped answering right after: {socket.recent[-1]}"] += 1
        await socket.close()
        return False

    async def exchange(self, socket: Socket, probe: Probe) -> tuple[str, dict[str, Any] | None]:
        if probe.frames is not None:
            socket.errors.clear()
            if not await socket.send_frames(probe.frames):
                return CLOSED, None
            return await socket.quiet(probe.wait), None
        if probe.ack:
            return outcome_of(await socket.ask(probe.head, probe.body, probe.attachments, probe.wait))
        socket.errors.clear()
        if not await socket.send_frames([("text", probe.head + probe.body), *probe.attachments]):
            return CLOSED, None
        return await socket.quiet(min(probe.wait, PUSH_WAIT)), None

    # --- the workers ------------------------------------------------------------------------------------

    async def worker(self, index: int) -> None:
        rng = random.Random(self.args.seed * 7919 + index)
        socket: Socket | None = None
        while not self.stopping:
            if socket is None or socket.is_closed:
                if socket is not None:
                    self.reconnects["fuzz"] += 1
                socket = await self.open_socket("fuzz")
                if socket is None:
                    await asyncio.sleep(0.5)
                    continue
            kind = rng.choices(self.kinds, self.weights)[0]
            budget = self.budget
            try:
                if kind in TABLE_KINDS:
                    table = rng.choice(self.tables)
                    await self.deliver(
                        socket, partial(getattr(self.probes, f"probe_{kind}"), rng, table), table
                    )
                else:
                    await SENDERS[kind](self, socket, rng)
            except Exception as error:  # a fault of this benchmark: counted, shown, and the run goes on
                where = traceback.extract_tb(error.__traceback__)[-1]
                name = f"{kind}: {type(error).__name__}: {error} at line {where.lineno}"
                if not self.client_faults[name]:
                    traceback.print_exc()
                self.client_faults[name] += 1
            if self.budget == budget:  # nothing to send of that kind just now
                await asyncio.sleep(0.05)

    def movable(self) -> list[TargetTable]:
        return [t for t in self.tables if not t.spec.frozen]

    async def repair_holder(self, holder: Holder, delay: float) -> None:
        await asyncio.sleep(delay)
        table = holder.table
        async with table.lock:
            holder.impaired = True
            socket = holder.socket
            if socket is None or socket.is_closed:
                self.reconnects["seat"] += 1
                socket = await self.open_socket(f"seat at {table.label}", holder.on_push)
                if socket is None:
                    return
                holder.socket = socket
            payload = {"table": table.code, "token": holder.token, "version": max(0, holder.version)}
            label, _ = await socket.call("resume", payload)
            if label == "ok":
                holder.impaired = False
            await self.checker.check(table)

    # --- the run ----------------------------------------------------------------------------------------

    async def progress(self, log_path: Path, server: Any) -> None:
        while not self.stopping:
            await asyncio.sleep(PROGRESS_EVERY)
            sent = self.args.messages - self.budget
            elapsed = time.monotonic() - self.started_at
            tracebacks = log_path.read_text(errors="replace").count("Traceback") if log_path.exists() else 0
            latencies = sorted(self.honest.latencies)
            p99 = percentile(latencies, 0.99) * 1000 if latencies else math.nan
            print(
                f"[{elapsed:6.1f}s] sent {sent}/{self.args.messages} ({sent / elapsed:.0f}/s), "
                f"tracebacks in the log {tracebacks}, state changes {self.checker.changes}, "
                f"honest p99 {p99:.1f} ms over {len(latencies)} acts",
                flush=True,
            )
            if server.poll() is not None:
                self.incomplete.append(f"the server exited with status {server.returncode}")
                self.stopping = True

    async def wait_for_workers(self, workers: Sequence[asyncio.Future[None]]) -> None:
        """Until every message is sent, the time is up, or a signal (Ctrl-C, SIGTERM, SIGHUP) asks
        to stop: then the run ends as usual, its tables checked and its figures printed."""
        loop = asyncio.get_running_loop()
        interrupted = asyncio.Event()
        stops = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        for signum in stops:
            loop.add_signal_handler(signum, interrupted.set)
        sending = asyncio.ensure_future(asyncio.wait(workers))
        signalled = asyncio.ensure_future(interrupted.wait())
        try:
            await asyncio.wait(
                [sending, signalled], timeout=self.args.max_seconds, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            sending.cancel()
            signalled.cancel()
            for signum in stops:
                loop.remove_signal_handler(signum)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for signum in (signal.SIGTERM, signal.SIGHUP):
                signal.signal(signum, stop_on_signal)
        if interrupted.is_set():
            self.incomplete.append("stopped by a signal before every message was sent")
        elif not all(worker.done() for worker in workers):
            self.incomplete.append(f"the messages were not all sent within {self.args.max_seconds:.0f} s")

    async def run(self, log_path: Path, server: Any) -> None:
        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=60)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
            self.http = http
            try:
                await self.setup()
            except SetupError as error:
                self.incomplete.append(f"set-up: {error}")
                return
            if not self.tables:
                self.incomplete.append("set-up: no table of the fuzzer's own")
                return
            print(
                f"fuzz: {len(self.tables)} tables of people ({', '.join(t.label for t in self.tables)}), "
                f"an honest table, {self.args.workers} connections sending {self.args.messages} messages",
                flush=True,
            )
            self.started_at = time.monotonic()
            watchers = [
                asyncio.ensure_future(self.checker.monitor()),
                asyncio.ensure_future(self.progress(log_path, server)),
            ]
            if self.flood is not None:
                watchers.append(asyncio.ensure_future(self.flood.run()))
            workers = [asyncio.ensure_future(self.worker(i)) for i in range(self.args.workers)]
            await self.wait_for_workers(workers)
            self.stopping = True
            for task in [*workers, *watchers]:
                task.cancel()
            await asyncio.gather(*workers, *watchers, return_exceptions=True)
            # Whatever a last request set going has happened by now; look at every table once more.
            await asyncio.sleep(1.0)
            for table in self.tables:
                async with table.lock:
                    await self.checker.check(table)
            for task in list(self.tasks):
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            await asyncio.gather(*(s.close() for s in self.sockets), return_exceptions=True)


class SetupError(RuntimeError):
    pass


# --- main -----------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000, help="messages to send (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="seeds every choice (default 1)")
    parser.add_argument("--workers", type=int, default=32, help="connections sending at once (default 32)")
    parser.add_argument("--spectators", type=int, default=60, help="the crowd of spectators (default 60)")
    parser.add_argument(
        "--kinds",
        default=",".join(KINDS),
        help=f"the kinds of message to send, comma-separated: {', '.join(KINDS)}",
    )
    parser.add_argument("--log", type=Path, help="keep the server's output in this file")
    parser.add_argument(
        "--no-flood", action="store_true", help="no flood of reviews, replays and records beside the rest"
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        help="give up sending after this long (default: 120 + 1 s per 40 messages)",
    )
    args = parser.parse_args(argv)
    kinds = {kind.strip() for kind in args.kinds.split(",") if kind.strip()}
    if unknown := kinds - set(KINDS):
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    if args.messages < 1 or args.workers < 1 or args.spectators < 0:
        parser.error("--messages and --workers must be at least 1, --spectators at least 0")
    if not kinds:
        parser.error("--kinds names no kind")
    args.kinds = kinds
    if args.max_seconds is None:
        args.max_seconds = 120.0 + args.messages / 40
    return args


def stop_on_signal(signum: int, frame: Any) -> None:
    """SIGTERM and SIGHUP end the run like Ctrl-C does, through the clean-up that stops the server."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop_on_signal)
    raise_file_limit(args.workers + args.spectators + 512)
    with tempfile.TemporaryDirectory(prefix="smear-fuzz-") as workdir:
        log_path = args.log or Path(workdir) / "server.log"
        wanted = {**SERVER_SETTINGS, "--spectators-per-table": str(max(10, 2 * args.spectators // 3))}
        options = serverproc.serve_options(wanted)
        grace = GRACE if "--grace" in options else DEFAULT_GRACE
        port = serverproc.free_port()
        database = f"sqlite:///{workdir}/fuzz.db"
        flooded = None
        if not args.no_flood:  # the matches stored before the server starts; a record as long as any
            flooded = store_matches(database), long_record(LIMITS.record_hands, LIMITS.record_bytes - 64)
        command = serverproc.serve_command(port, database, options)
        server = serverproc.launch(command, log_path)
        print(f"server: {' '.join(command[1:])} (pid {server.pid}), log {log_path}", flush=True)
        try:
            url = f"http://127.0.0.1:{port}"
            serverproc.wait_healthy(url, server)
            fuzzer = Fuzzer(args, url, grace)
            if flooded is not None:
                fuzzer.flood = Flood(fuzzer, *flooded)
            if uvloop is not None:
                uvloop.run(fuzzer.run(log_path, server))
            else:
                asyncio.run(fuzzer.run(log_path, server))
            server_died = server.poll() is not None
        except serverproc.ServerStartError as error:
            print(f"the server did not start: {error}")
            print(serverproc.server_log(log_path, 20))
            return 2
        finally:
            serverproc.stop_server(server)
        findings = scan_log(log_path.read_text(errors="replace"))
        server_errors, changes, hints_busy = report(fuzzer, findings, server_died)
        if server_errors or changes or hints_busy:
            return 1
        return 2 if fuzzer.incomplete else 0
