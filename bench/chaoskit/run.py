"""Chaos benchmark of the game server: ``smear serve`` killed with SIGKILL again and again under live
tables, and nothing it acknowledged may be lost.

How: it starts ``python -m smear serve`` on a free port of 127.0.0.1 with a fresh SQLite database
(or ``--database``), its limits off and its pauses short, and opens ``--tables`` tables of people (real
python-socketio clients over WebSocket) and bots, every preset in turn with its player counts, teams
and options drawn at random, playing matches to 11. A person whose turn it is waits a few
milliseconds and sends a random legal action with the version of the state it saw. Meanwhile the
server is killed ``--kills`` times, at random moments, and started again on the same database; every
person then connects again and sends ``resume`` with its token and the last version it saw. Hosts
start another match while kills remain; once the last kill is over, every table plays until its match
is finished.

With ``--servers N`` (N >= 2) it starts N processes sharing the tables through Redis (``--redis``, else
a throwaway ``redis-server``) and one database (``--database``, else a throwaway PostgreSQL), with a
short ``--lease`` (``chaoskit.fleet``). Each person connects to a process chosen at random. Each kill
SIGKILLs one process, chosen at random, while the others serve on: its clients connect again to a
random surviving process and ``resume``; the tables it owned are taken over by a process with a socket
following them, whose clients get a full state (``resync``) that is checked as a view after a resume
is. The killed process is started again on its port after a short random pause, before the next
kill. With one server or several, a request answered ``not_stored`` (nothing changed) is sent again
while no newer state comes, and a state seen again on a new connection is acted on again.

Beside the kills it injects faults into the server processes (``--faults``, all by default; see
``chaoskit.faultplan``): the first record of a finished match fails once; at the first kill a table
still playing is made to refuse to be restored; the database is slow for a few seconds after the
first kill; and, with several servers, Redis is gone for a few seconds after the second. The
processes run through ``bench/chaosserver.py``, which installs the faults (``chaoskit.faults``)
from a file the run rewrites; a normal server has no such hook.

What it checks, reading the database once the server has stopped:

- acknowledged_lost: an action acknowledged with ``ok`` that is not in storage. Each action is
  identified by the view it was chosen from: the match is rebuilt from the stored actions, prefix by
  prefix, and the stored action right after the prefix showing that view must be the one sent, by
  that seat. A ``play_again`` acknowledged whose match is not stored counts too.
- stuck_tables: a table not finished (as the clients see it, and in storage) once the last kill is
  over: after going ``QUIET_LIMIT`` seconds without a new version, or ``FINAL_LIMIT`` in all.
- desyncs: a version going backwards for a client (across reconnections and owners too); a state
  after ``resume`` (or a full state after a takeover) whose view is not the view of a stored prefix
  at or after the last action that client saw acknowledged (and the last view it saw before); any
  other view a client received that no stored prefix shows.
- replay_failures: a finished match's record that ``python -m smear replay`` refuses (or that does
  not agree with the stored actions).
- quarantined: the tables put aside in the database. It must be exactly the table made to refuse
  being restored (none without that fault); its people are told ``table_unavailable``, and it is not
  counted stuck.

It prints a line per kill (with several servers: which process died, and how many tables it owned)
and per fault, then details and these lines (with several servers, ``servers: N`` first), and exits
with 1 if any of the four after ``kills`` is not 0 or the quarantined tables are not those expected::

    kills: K
    acknowledged_lost: N
    stuck_tables: N
    desyncs: N
    replay_failures: N
    quarantined: N

Its parts are the modules of ``chaoskit`` (its docstring lists them); this one drives the run.

Usage: python bench/chaos.py [--kills 100] [--tables 12] [--seed 1] [--database URL]
                             [--servers 1] [--redis URL] [--lease 1.0] [--workdir DIR]
                             [--faults finish,restore,slow,redis]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from support.serverproc import serve_options

from chaoskit.checks import Checker
from chaoskit.clients import TableRun
from chaoskit.faultplan import FAULTS, FaultPlan
from chaoskit.faults import ENV
from chaoskit.fleet import LEASE, Fleet, cluster_options, shared_services
from chaoskit.plan import PROBLEMS_SHOWN, TablePlan, plan_tables
from chaoskit.report import Report
from chaoskit.state import RunState

KILL_GAP = (0.1, 2.0)  # seconds from a server being up to its kill (uniform)
SETUP_TIMEOUT = 120.0  # to create, fill and start every table
QUIET_LIMIT = 90.0  # after the last kill, a table with no new version for this long is stuck
FINAL_LIMIT = 900.0  # and one that has not finished this long after the last kill
RECORD_LIMIT = 60.0  # once every table is done, how long their last records may take to be stored
SERVER = Path(__file__).resolve().parents[1] / "chaosserver.py"  # smear, with the faults installed

# The server's settings for the run, passed only if this version of ``smear serve`` has them.
SERVE_SETTINGS = {
    "--tables-per-hour": "0",
    "--connections-per-address": "0",
    "--spectators-per-table": "0",
    "--max-tables": "0",
    "--bot-pause": "0.02",
    "--hand-pause": "0.05",
    "--grace": "1",
    "--sweep-every": "0.5",  # a record that failed is stored again soon
}


def serve_settings() -> list[str]:
    return serve_options(SERVE_SETTINGS)


# --- the run ---------------------------------------------------------------------------------------


class ChaosRun:
    """The tables, the server processes' lives and kills, and the faults; what the clients share is
    its :class:`RunState`."""

    def __init__(
        self,
        kills: int,
        plans: list[TablePlan],
        seed: int,
        log: Callable[[str], None],
        fleet: Fleet,
        faults: FaultPlan,
    ) -> None:
        self.kills = kills
        self.fleet = fleet
        self.faults = faults
        self.state = RunState(kills, seed, log, fleet)
        faults.say = self.state.say  # its lines among the run's, timed alike
        self.tables = [TableRun(self.state, index, plan) for index, plan in enumerate(plans)]
        self.kills_done = 0

    def counts(self) -> str:
        tally = self.state.tally
        finished = sum(len(t.matches_finished) for t in self.tables)
        takeovers = f", {tally.takeovers} states after a takeover" if self.fleet.several else ""
        return (
            f"{len(tally.acked)} actions acknowledged, {tally.reconnects} resumes{takeovers}, "
            f"{finished} matches seen finished"
        )

    async def play(self) -> None:
        fleet = self.fleet
        await fleet.start_all()
        self.state.generation = 1
        self.state.say(fleet.describe())
        gate = asyncio.Semaphore(4)

        async def open_table(table: TableRun) -> None:
            async with gate:
                await table.open()

        await asyncio.wait_for(asyncio.gather(*(open_table(t) for t in self.tables)), SETUP_TIMEOUT)
        self.state.say(f"{len(self.tables)} tables started")
        for table in self.tables:
            for person in table.people:
                self.state.spawn(person.live())
        for number in range(1, self.kills + 1):
            gap = self.state.rng.uniform(*KILL_GAP)
            await asyncio.sleep(gap)
            chosen = await asyncio.to_thread(self.faults.before_kill, self.tables, fleet)
            victim = chosen or fleet.victim()
            dead = victim.name
            owned = await fleet.kill(victim)
            self.kills_done = number
            pause = fleet.pause()
            if pause:
                await asyncio.sleep(pause)
            took = await fleet.start(victim)
            self.state.generation += 1
            self.faults.after_restart(number, self.kills)
            if fleet.several:
                tables = "" if owned is None else f" owning {owned} tables"
                self.state.say(
                    f"kill {number}/{self.kills}: {dead}{tables} after {gap:.2f} s, up again as "
                    f"{victim.cluster_name} after {pause:.2f} + {took:.2f} s; {self.counts()}"
                )
            else:
                self.state.say(
                    f"kill {number}/{self.kills} after {gap:.2f} s, up again in {took:.2f} s; {self.counts()}"
                )
        await self.finish()

    async def finish(self) -> None:
        """Wait until every table has finished a match after the last kill, or is stuck."""
        began = time.monotonic()
        last_word = began
        while True:
            waiting = [t for t in self.tables if not t.done]
            now = time.monotonic()
            if not waiting:
                stuck = sum(t.stuck for t in self.tables)
                self.state.say(f"every table done ({stuck} stuck); {self.counts()}")
                await self.records_stored()
                return
            for table in waiting:
                if now - table.last_progress > QUIET_LIMIT or now - began > FINAL_LIMIT:
                    table.stuck = table.done = True
                    seen = "" if table.final_match is None else f", match {table.final_match} seen finished"
                    self.state.say(
                        f"table {table.index} ({table.code}, {table.plan.describe()}) is stuck{seen}"
                    )
                    for person in table.people:
                        self.state.say(f"  {person.where()}")
            if now - last_word > 10.0:
                last_word = now
                names = ", ".join(str(table.index) for table in waiting)
                self.state.say(f"waiting for table(s) {names} to finish their match")
            await asyncio.sleep(0.2)

    async def records_stored(self) -> None:
        """Wait until the server has the record of each table's last match seen finished (one that
        failed is stored again at a sweep), for at most ``RECORD_LIMIT``: the checks find any missing."""
        deadline = time.monotonic() + RECORD_LIMIT
        for table in self.tables:
            if table.stuck or table.aside or table.final_match is None:
                continue
            while not await self.state.match_recorded(table.code, table.final_match):
                if time.monotonic() > deadline:
                    self.state.say(f"table {table.index} ({table.code}): its last record is not stored")
                    return
                await asyncio.sleep(0.2)

    async def close(self) -> None:
        self.state.stopping.set()
        for task in list(self.state.tasks):
            task.cancel()
        await asyncio.gather(*self.state.tasks, return_exceptions=True)
        links = [p.link for t in self.tables for p in t.people if p.link is not None]
        await asyncio.gather(*(link.close() for link in links), return_exceptions=True)


async def run_async(make_run: Callable[[], ChaosRun]) -> ChaosRun:
    """Plays the run ``make_run`` builds (inside the event loop, where its asyncio parts belong)."""
    run = make_run()
    try:
        await run.play()
    finally:
        await run.close()
        await asyncio.to_thread(run.fleet.stop)
    return run


def run_chaos(
    kills: int = 100,
    tables: int = 12,
    seed: int = 1,
    database: str | None = None,
    workdir: Path | None = None,
    log: Callable[[str], None] = print,
    plans: list[TablePlan] | None = None,
    servers: int = 1,
    redis: str | None = None,
    lease: float = LEASE,
    faults: tuple[str, ...] = FAULTS,
) -> Report:
    """Play ``tables`` tables (or those of ``plans``) while a server process is killed ``kills`` times
    and ``faults`` are injected, then check the storage. With ``servers`` above 1 they share
    ``database`` (default: a throwaway PostgreSQL) and ``redis`` (default: a throwaway Redis), with
    tables taken over after ``lease``."""
    plans = plans or plan_tables(tables, random.Random(seed))
    for index, plan in enumerate(plans):
        log(f"table {index}: {plan.describe()}")
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="smear-chaos-")))
        workdir.mkdir(parents=True, exist_ok=True)
        database, redis = shared_services(stack, servers, database, redis, workdir)
        options = serve_settings() + ([] if redis is None else cluster_options(redis, lease))
        injected = FaultPlan(set(faults), workdir, servers, log)
        program = [sys.executable, str(SERVER)]
        fleet = Fleet(servers, database, workdir, options, seed, redis, program, {ENV: str(injected.path)})
        try:
            run = asyncio.run(run_async(lambda: ChaosRun(kills, plans, seed, log, fleet, injected)))
        except BaseException:
            troubles = fleet.troubles()
            if troubles:
                log("server log:\n  " + "\n  ".join(troubles[-20:]))
            raise
        report = Report(servers=servers, kills=run.kills_done)
        report.details.append(injected.describe())
        refused = injected.refused
        Checker(run.tables, run.state.tally, fleet.several, refused, database, workdir, report).check()
        troubles = fleet.troubles()
        report.details.append(f"server log lines with errors or tracebacks: {len(troubles)}")
        report.details += [f"  {line}" for line in troubles[:PROBLEMS_SHOWN]]
        return report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100, help="times the server is killed (100)")
    parser.add_argument("--tables", type=int, default=12, help="tables played at once (12)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the tables, the players and the kills")
    parser.add_argument(
        "--workdir",
        type=Path,
        help="keep the server logs, the database file and records there (default: removed)",
    )
    parser.add_argument(
        "--database",
        help="SQLAlchemy URL for the servers (default: a new SQLite file, or with several servers a "
        "throwaway PostgreSQL)",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes sharing the tables, one killed at a time (1)"
    )
    parser.add_argument("--redis", help="Redis URL for the servers (default with several: a throwaway Redis)")
    parser.add_argument(
        "--lease",
        type=float,
        default=LEASE,
        help=f"seconds before a killed process's tables are taken over ({LEASE:g})",
    )
    parser.add_argument(
        "--faults",
        default=",".join(FAULTS),
        help=f"faults injected beside the kills, among {','.join(FAULTS)} (all), or none",
    )
    args = parser.parse_args(argv)
    if args.kills < 0 or args.tables < 1 or args.servers < 1:
        parser.error("--kills must be at least 0, --tables and --servers at least 1")
    args.faults = tuple(kind for kind in args.faults.split(",") if kind and kind != "none")
    if set(args.faults) - set(FAULTS):
        parser.error(f"--faults takes {','.join(FAULTS)} or none")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = run_chaos(
        args.kills,
        args.tables,
        args.seed,
        args.database,
        args.workdir,
        log=lambda line: print(line, flush=True),
        servers=args.servers,
        redis=args.redis,
        lease=args.lease,
        faults=args.faults,
    )
    print()
    print(report.text())
    return 1 if report.failed else 0
