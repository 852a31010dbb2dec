"""Leak audit at scale: thousands of bot matches over real Socket.IO, every message checked.

What it checks: that no message from the game server shows its recipient a card it may not see
(RULES.md section 5, docs/protocol.md "Hidden information"), and that the server's log names no
hidden card. The checks are those of the leak test (``tests/server/test_leaks.py``), shared in
``bench/leakkit/audit.py``: every ``state`` and ``event`` each seat and spectator received, every
acknowledgement, every HTTP response (the record route and ``/health``) and every log line.

How: ``--workers`` processes each run an in-process ``SmearServer`` (a SQLite file in a temporary
directory, very short pauses, the per-address limits raised) and play many matches on it at once.
Matches walk every preset at every table size it allows, with and without teams, and cycle through
the options each preset offers (shoot the moon, elimination, the kitty); most play to 11, a few to
21, 31 or 52. Bots fill the empty seats: mostly the ``heuristic`` bot (as quick as the ``random``
one, and its bids end a match in fewer hands), the ``random`` bot at about a sixth of the tables
(always to 11: its bids, like the people's, are set as often as made, so at a higher target the
scores may wander for hundreds of hands) and the ``expert`` at one in a hundred. One to three
people per table act at once with random legal actions (mostly passing in the auction, and
bidding the least they may when they bid), and now and then try what the server must refuse (a card
the rules forbid, a card they do not hold, a stale version), ask for a hint, or drop their
connection and come back with ``resume``. A spectator watches every match from the start, and
sometimes a second one joins midway. While a match is played its record is asked for (it must not
exist yet) and ``/health`` too; once it is over, the record is replayed with the engine and every
message is checked against what its recipient could know when it arrived. The server's log is
captured at DEBUG. The first worker also stores ``--practice`` positions made from random moments of
matches and asks for each as a profile would (``leakkit.practice``): a position must be exactly its
seat's view, and nothing of its answer may come before the attempt; and it checks who learns where a
profile is through the friends' and blocks' routes (``leakkit.friends``). The WebSocket frame trace (a
DEBUG line per frame, a cut-short copy of a message that is checked anyway as its recipient received
it) would cost a sixth of the run: it is on for one match in ``--trace-every`` (10), whose sockets'
frames are all checked but the few written while another match opens a socket; the leak test traces
every frame.

The clients speak Socket.IO themselves over bare WebSockets and keep each message as the JSON text
it came in, which the checks search for cards (see ``Socket``).

It prints a progress line every ``--progress`` seconds (matches done, messages checked, rate, ETA),
the first leaks in detail (recipient, message, cards) and a coverage summary, and ends with::

    matches: N
    messages: N
    leaks: N

``matches`` counts the matches played to the end and checked; ``messages`` every message checked
(pushed to a client, acknowledgements, HTTP responses and log lines). The exit status is 1 when
there is a leak, 2 when a match could not be played to the end (the errors are printed), else 0.

Its parts, beside this module in ``leakkit``: ``plan`` (which match is played with which settings),
``worker`` (one process's server, session, log audit and counts), ``client`` (the client
connection), ``players`` (the people and one match played through), ``audit`` and ``log`` (the
checks, shared with the tests).

Usage: python bench/leaks.py [--matches 200] [--workers 2] [--seed 1] [--in-flight 24] [--trace-every 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import multiprocessing as mp
import os
import queue as queues
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from support.inprocess import served

from leakkit.audit import Leak
from leakkit.client import HarnessError
from leakkit.friends import audit_friends
from leakkit.log import LogAudit, capture_logs
from leakkit.plan import MatchSpec, configurations, plan
from leakkit.players import MatchRun
from leakkit.practice import audit_practice
from leakkit.worker import OwnedLock, Worker

MATCH_TIMEOUT = 900.0  # seconds a whole match may take
SHOWN = 5  # leaks printed in detail
COLLECT_EVERY = 200  # matches a worker plays between two full passes of the garbage collector


# --- one worker: a server and many matches at once -------------------------------------------------


def kind_of(leak: Leak) -> str:
    """A leak's kind, to count alike leaks together: the log line's kind, or the check that failed."""
    if leak.where.startswith("server log"):
        return leak.where
    return re.sub(r"\d+", "N", leak.detail)


def examples(leaks: list[Leak]) -> list[Leak]:
    """The first leaks, and the first of every other kind."""
    picked: list[Leak] = []
    kinds: set[str] = set()
    for leak in leaks:
        kind = kind_of(leak)
        if len(picked) < SHOWN or kind not in kinds:
            picked.append(leak)
            kinds.add(kind)
    return picked


def describe(leak: Leak, spec: MatchSpec, code: str) -> str:
    cards = " ".join(leak.cards) or "-"
    lines = [f"{spec.label()} at table {code}", f"  recipient: {leak.where}", f"  leak: {leak.detail}"]
    lines += [f"  cards: {cards}", f"  message: {leak.excerpt()}"]
    return "\n".join(lines)


async def play_one(worker: Worker, spec: MatchSpec) -> dict[str, Any]:
    run = MatchRun(worker, spec, random.Random(spec.seed))
    result: dict[str, Any] = {"index": spec.index, "settings": spec.settings, "people": spec.people}
    try:
        try:
            await asyncio.wait_for(run.play(), MATCH_TIMEOUT)
        finally:
            await run.close()
        started = time.process_time()
        messages, leaks = run.check()
        result.update(
            check_cpu=time.process_time() - started,
            messages=messages,
            leaks=len(leaks),
            shown=[(kind_of(x), describe(x, spec, run.code)) for x in examples(leaks)],
            kinds=dict(Counter(kind_of(leak) for leak in leaks)),
        )
        result["hands"] = len(run.record["hands"]) if run.record else 0
    except Exception as err:
        detail = "".join(traceback.format_exception_only(type(err), err)).strip()
        if not isinstance(err, HarnessError | TimeoutError):
            detail += "\n" + "".join(traceback.format_tb(err.__traceback__)[-3:])
        result["error"] = f"{spec.label()} at table {run.code or '-'}: {detail}; {run.latest_versions()}"
        worker.audit.check_table(run.code)  # drop what was kept for it
    worker.audit.forget(run.code)
    run.release()
    return result


@contextlib.asynccontextmanager
async def running_server(database: Path) -> AsyncIterator[tuple[Any, str]]:
    from smear.server.app import build_server
    from smear.server.limits import Limits, Timing

    # Bots move at once; a finished hand stays up a moment. One address opens every socket and
    # table here, so the per-address limits are off (0), and so is the cap on tables in memory.
    timing = Timing(bot_pause=0.0, hand_pause=0.02, grace=0.1)
    limits = Limits(
        tables_per_hour=0,
        connections_per_address=0,
        max_tables=0,
        spectators_per_table=0,
        practice_per_hour=0,
        relations_per_hour=0,
    )
    server = build_server(f"sqlite:///{database}", timing, limits)
    async with served(server.asgi_app()) as base:
        yield server, base


async def run_worker(number: int, args: argparse.Namespace, workdir: str, counter: Any, results: Any) -> None:
    """Play matches on this worker's own server until the run has all it asked for."""
    import aiohttp

    def next_index() -> int | None:
        with counter.get_lock():
            index = int(counter.value)
            if index >= args.matches:
                return None
            counter.value = index + 1
            return index

    database = Path(workdir) / f"worker-{number}.db"
    async with running_server(database) as (server, url), contextlib.AsyncExitStack() as stack:
        audit = stack.enter_context(capture_logs(LogAudit(server)))
        http = await stack.enter_async_context(aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)))
        worker = Worker(url, http, audit, server)
        server.live.lock = lambda table: server.live.locks.setdefault(table.code, OwnedLock())
        lines_reported = 0
        # The collector's full passes would scan every message each match in flight keeps (millions
        # of objects, again and again): they run only between matches, every COLLECT_EVERY matches,
        # and what is loaded by now is left out of them for good.
        gc.collect()
        gc.freeze()
        gc.set_threshold(700, 10, 1_000_000_000)
        played = 0

        def report(result: dict[str, Any]) -> None:
            """Send a match's result, with what the log audit found meanwhile at no table."""
            nonlocal lines_reported
            result["log_lines"] = audit.lines - lines_reported  # every line, from every table
            lines_reported = audit.lines
            live = audit.leaks[:]
            audit.leaks.clear()
            result["leaks"] = result.get("leaks", 0) + len(live)
            result["kinds"] = dict(Counter(result.get("kinds", {})) + Counter(kind_of(x) for x in live))
            result.setdefault("shown", []).extend(
                (kind_of(x), f"{x}\n  message: {x.excerpt()}") for x in examples(live)
            )
            if audit.failures:
                result["error"] = f"the log audit failed: {audit.failures[:3]}"
                audit.failures.clear()
            result["counts"] = dict(worker.counts)
            worker.counts.clear()
            result["worker"], result["cpu"] = number, time.process_time()
            results.put(result)

        if number == 0 and args.practice:
            checked, leaks = await audit_practice(http, url, server.storage, args.practice, args.seed)
            shown = [(kind_of(x), f"{x}\n  message: {x.excerpt()}") for x in examples(leaks)]
            results.put({"practice": checked, "leaks": len(leaks), "shown": shown})
        if number == 0:
            checked, leaks = await audit_friends(http, url)
            shown = [(kind_of(x), f"{x}\n  message: {x.excerpt()}") for x in examples(leaks)]
            results.put({"friends": checked, "leaks": len(leaks), "shown": shown})

        async def slot() -> None:
            nonlocal played
            while (index := next_index()) is not None:
                report(await play_one(worker, plan(index, args.seed, args.trace_every)))
                played += 1
                if played % COLLECT_EVERY == 0:
                    gc.collect()

        await asyncio.gather(*(slot() for _ in range(args.in_flight)))
    results.put({"done": number})


def worker_main(number: int, args: argparse.Namespace, workdir: str, counter: Any, results: Any) -> None:
    # The audit reads every log line but never which thread or process wrote it: not collected.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    try:
        import uvloop

        runner = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:
        runner = asyncio.Runner()
    try:
        with runner:
            runner.run(run_worker(number, args, workdir, counter, results))
    except BaseException as err:
        results.put({"done": number, "error": "".join(traceback.format_exception(err))})


# --- the conductor ---------------------------------------------------------------------------------


@dataclass
class Totals:
    matches: int = 0
    messages: int = 0
    leaks: int = 0
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    shown: list[tuple[str, str]] = field(default_factory=list)  # (kind, details): the first of each kind
    counts: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    check_cpu: float = 0.0  # spent checking finished matches
    cpu: dict[int, float] = field(default_factory=dict)  # each worker's CPU time so far
    presets: Counter[str] = field(default_factory=Counter)
    options: Counter[str] = field(default_factory=Counter)
    practice: int = 0  # practice answers checked
    friends: int = 0  # friends' and blocks' answers checked

    def add(self, result: dict[str, Any]) -> None:
        self.messages += int(result.get("log_lines", 0))
        self.leaks += int(result.get("leaks", 0))
        for kind, text in result.get("shown", []):
            if len(self.shown) < SHOWN or all(kind != seen for seen, _ in self.shown):
                self.shown.append((kind, text))
        if "practice" in result:  # the practice routes' audit, not a match
            self.practice += int(result["practice"])
            return
        if "friends" in result:  # the friends' routes' audit, not a match
            self.friends += int(result["friends"])
            return
        self.counts.update(result.get("counts", {}))
        self.kinds.update(result.get("kinds", {}))
        if "cpu" in result:
            self.cpu[result["worker"]] = float(result["cpu"])
        if "error" in result:
            self.errors.append(result["error"])
            return
        self.matches += 1
        self.messages += int(result["messages"])
        self.hands += int(result["hands"])
        self.check_cpu += float(result["check_cpu"])
        s = result["settings"]
        self.presets[f"{s['preset']}"] += 1
        self.options[f"to {s['target']}"] += 1
        self.options[f"{s['bot_level']} bots"] += 1
        self.options[f"{result['people']} people"] += 1
        self.options["teams" if s["teams"] else "no teams"] += 1
        for name in ("shoot_the_moon", "elimination", "kitty"):
            if s.get(name):
                self.options[name] += 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200, help="matches to play and check (200)")
    parser.add_argument("--workers", type=int, default=2, help="processes, each with its own server (2)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the settings and the people's choices (1)")
    parser.add_argument("--in-flight", type=int, default=24, help="matches played at once per worker (24)")
    parser.add_argument(
        "--trace-every",
        type=int,
        default=10,
        help="one match in this many has the server trace its WebSocket frames in the log (10)",
    )
    parser.add_argument(
        "--practice", type=int, default=50, help="practice positions stored, asked for and checked (50)"
    )
    parser.add_argument("--progress", type=float, default=10.0, help="seconds between progress lines (10)")
    args = parser.parse_args(argv)
    if min(args.matches, args.workers, args.in_flight, args.trace_every) < 1 or args.progress <= 0:
        parser.error(
            "--matches, --workers, --in-flight and --trace-every must be at least 1, --progress positive"
        )
    return args


def run(args: argparse.Namespace) -> int:
    # Stopped from outside, still stop the workers and remove their databases (``finally`` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="smear-leaks-") as workdir:
        return conduct(args, workdir)


def conduct(args: argparse.Namespace, workdir: str) -> int:
    context = mp.get_context("spawn")
    counter = context.Value("q", 0)
    results = context.Queue()
    workers = [
        context.Process(target=worker_main, args=(number, args, workdir, counter, results), daemon=True)
        for number in range(args.workers)
    ]
    configs = len(configurations())
    print(
        f"leak audit: {args.matches} matches over {configs} table configurations, {args.workers} worker(s) "
        f"x {args.in_flight} matches at once, seed {args.seed}, {os.cpu_count()} cores",
        flush=True,
    )
    began = time.monotonic()
    for process in workers:
        process.start()
    totals = Totals()
    finished: set[int] = set()
    last = began
    interrupted = True
    try:
        while len(finished) < len(workers):
            try:
                result = results.get(timeout=1.0)
            except queues.Empty:
                result = None
            if result is not None and "done" in result:
                finished.add(result["done"])
                if "error" in result:
                    totals.errors.append(f"worker {result['done']}: {result['error']}")
            elif result is not None:
                totals.add(result)
            elif any(not p.is_alive() for p in workers) and len(finished) < len(workers):
                dead = [n for n, p in enumerate(workers) if not p.is_alive() and n not in finished]
                if dead and results.empty():
                    totals.errors.append(f"worker(s) {dead} ended without reporting")
                    finished.update(dead)
            now = time.monotonic()
            if now - last >= args.progress:
                last = now
                print(progress(totals, args.matches, now - began), flush=True)
        interrupted = False
    finally:
        for process in workers:
            if interrupted:
                process.terminate()
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join()
    elapsed = time.monotonic() - began
    return summarise(totals, args, elapsed)


def progress(totals: Totals, wanted: int, elapsed: float) -> str:
    done = totals.matches + len(totals.errors)
    rate = done / elapsed if elapsed > 0 else 0.0
    eta = (wanted - done) / rate if rate > 0 else float("inf")
    eta_text = f"{eta / 60:.1f} min" if eta != float("inf") else "?"
    return (
        f"[{elapsed:7.1f}s] {done}/{wanted} matches, {totals.messages:,} messages checked, "
        f"{totals.leaks} leaks, {len(totals.errors)} errors; {rate:.2f} matches/s, "
        f"{totals.messages / max(elapsed, 1e-9):,.0f} messages/s, ETA {eta_text}"
    )


def summarise(totals: Totals, args: argparse.Namespace, elapsed: float) -> int:
    print(progress(totals, args.matches, elapsed))
    print()
    for _, detail in totals.shown:
        print(f"LEAK {detail}")
    if totals.leaks > len(totals.shown):
        print(f"... and {totals.leaks - len(totals.shown)} more")
    for kind, count in totals.kinds.most_common():
        print(f"leaks of this kind: {count}: {kind}")
    for error in totals.errors[:SHOWN]:
        print(f"ERROR {error}")
    if len(totals.errors) > SHOWN:
        print(f"... and {len(totals.errors) - SHOWN} more errors")
    rate = totals.matches / elapsed if elapsed > 0 else 0.0
    print(f"time: {elapsed:.0f} s, {rate:.2f} matches/s, {totals.hands} hands, {len(totals.errors)} errors")
    cpu = sum(totals.cpu.values())
    if totals.matches and cpu:
        print(
            f"workers' CPU: {cpu:.0f} s ({cpu / totals.matches:.2f} s a match, "
            f"{100 * totals.check_cpu / cpu:.0f}% of it checking finished matches; "
            f"{100 * cpu / elapsed / (os.cpu_count() or 1):.0f}% of the machine)"
        )
    print("presets: " + ", ".join(f"{name} {count}" for name, count in sorted(totals.presets.items())))
    print("options: " + ", ".join(f"{name} {count}" for name, count in sorted(totals.options.items())))
    print(
        "requests: " + (", ".join(f"{name} {count}" for name, count in sorted(totals.counts.items())) or "-")
    )
    print(f"matches: {totals.matches}")
    print(f"messages: {totals.messages}")
    print(f"practice_answers: {totals.practice}")
    print(f"friends_answers: {totals.friends}")
    print(f"leaks: {totals.leaks}")
    if totals.leaks:
        return 1
    return 2 if totals.errors or totals.matches < args.matches else 0


def main(argv: list[str] | None = None) -> int:
    return run(parse_args(argv))
