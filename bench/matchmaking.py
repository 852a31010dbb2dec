"""Find a game under a stream of arrivals: how long a person waits for a seat, and how full the
matchmade tables get.

It starts ``--servers`` real ``smear serve`` processes (one: a SQLite file in a temporary directory,
no Redis; several: one throwaway Redis and one throwaway PostgreSQL they share, from
``support.dbservers``), with the per-address limits lifted (every person comes from 127.0.0.1) and
the bots' and the hands' pauses short (``--bot-pause``, ``--hand-pause``), so a hand takes seconds.

Then ``--people`` people arrive evenly over ``--seconds`` seconds, each on a python-socketio
``AsyncClient`` of its own (WebSocket transport) connected to the servers in turn. Each asks
``find_game`` for the default game (house, four players in two teams), and the time from sending it
to its ack is its seated time. It then plays: whenever the latest state it holds gives it legal
actions it sends the first one, with that state's version (a refused act that was stale is not an
error: the newer state is read and play goes on). A person who took a bot's seat watches until the
next deal, when the seat becomes theirs. After a random 1 to 3 hands of its own it sends ``leave``
and disconnects; a match that ends first, it says it plays again (``rematch``) and plays on in the
next one.

Errors: any refused reply (but a stale act), any exception, a connection lost, a person whose state
stops moving for ``STALL_SECONDS``. It prints what it saw, then ends with::

    people: N
    seated_p50_ms: X
    seated_p99_ms: X
    people_per_table_mean: X      (over the matchmade tables seen: distinct people seated at each)
    bot_seats_taken_by_people: N  (find_game replies with matched True)
    errors: N

The servers are stopped and the temporary directories removed on the way out, Ctrl-C included.

Usage: python bench/matchmaking.py [--people 40] [--seconds 10] [--servers 1] [--seed 1]
                                   [--bot-pause 0.1] [--hand-pause 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # support: what it starts

from benchtools import percentile, raise_file_limit
from support.dbservers import Postgres, Redis  # type: ignore[import-not-found]
from support.serverproc import (  # type: ignore[import-not-found]
    ServerStartError,
    free_port,
    kill_group,
    launch,
    serve_command,
    serve_options,
    server_log,
    wait_healthy,
)

GAME: dict[str, Any] = {"preset": "house", "players": 4, "teams": True}  # the default game
REPLY_TIMEOUT = 15.0  # seconds a person waits for an answer to a request
STALL_SECONDS = 60.0  # a person whose state has not changed for this long gives up (an error)
START_TIMEOUT = 90.0  # seconds for a server to answer /health
HANDS = (1, 3)  # each person plays a random number of hands of its own in this range


# --- the servers ---------------------------------------------------------------------------------------


@dataclass
class Server:
    """One ``smear serve`` process, leading a process group of its own (so Ctrl-C at the terminal
    reaches this benchmark alone, which stops it)."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path


def start_servers(count: int, database: str, redis: str | None, workdir: Path, args: Any) -> list[Server]:
    """``count`` processes on ``database`` (and ``redis``), started one after the other: the first
    creates the database's tables."""
    wanted = {
        "--connections-per-address": "0",
        "--tables-per-hour": "0",
        "--max-tables": "0",
        "--bot-pause": f"{args.bot_pause:g}",
        "--hand-pause": f"{args.hand_pause:g}",
        "--log-level": "warning",
    }
    if redis is not None:
        wanted["--redis"] = redis
    options = serve_options(wanted)
    if redis is not None and "--redis" not in options:
        raise SystemExit("this version of smear serve has no --redis: it cannot run as several servers")
    options += serve_options({"--no-practice-starter": ""})[:1]  # a flag: its name alone
    servers: list[Server] = []
    for number in range(count):
        port = free_port()
        log_path = workdir / f"server{number}.log"
        process = launch(serve_command(port, database, options), log_path, new_group=True)
        servers.append(Server(f"http://127.0.0.1:{port}", process, log_path))
        try:
            wait_healthy(servers[-1].url, process, START_TIMEOUT)
        except ServerStartError as err:
            raise SystemExit(f"server {number}: {err}\n{server_log(log_path, 20)}") from None
    return servers


def server_troubles(servers: list[Server]) -> list[str]:
    """The lines of the servers' logs that tell of an error or a traceback, each naming its server."""
    found = []
    for number, server in enumerate(servers):
        with contextlib.suppress(OSError):
            for line in server.log_path.read_text(errors="replace").splitlines():
                if "Traceback" in line or "ERROR" in line:
                    found.append(f"server {number}: {line[:200]}")
    return found


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        process = server.process
        if process.poll() is None:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
        kill_group(process)


# --- the people ------------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What every person saw."""

    seated: list[float] = field(default_factory=list)  # seconds from find_game to its ack
    people_at: dict[str, set[int]] = field(default_factory=dict)  # table code -> people seated there
    matched: int = 0  # replies with matched True: a bot's seat taken
    opened: int = 0  # replies with matched False: a new table
    hands: int = 0  # hands played by people in seats of their own
    acts: int = 0
    stale: int = 0  # acts refused as stale (not errors)
    finished: int = 0  # matches that ended before a person's hands were played (it played on)
    unplayed: int = 0  # of those, matches a person only watched (it arrived in the last hand)
    rematches: int = 0  # "play again" said by people who had hands left to play
    servers_at: dict[str, set[str]] = field(default_factory=dict)  # table code -> servers asked there
    done: int = 0
    errors: Counter[str] = field(default_factory=Counter)


def public_of(game: dict[str, Any]) -> dict[str, Any]:
    """The public part of a seat's view of the game, or a spectator's view (which is that alone)."""
    public: dict[str, Any] = game.get("public", game)
    return public


class Person:
    """One person: connects, finds a game, plays some hands, leaves."""

    def __init__(self, number: int, url: str, hands: int, tally: Tally) -> None:
        import socketio  # type: ignore[import-untyped]

        self.number, self.url, self.hands, self.tally = number, url, hands, tally
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("state", self._on_state)
        self.sio.on("disconnect", self._on_disconnect)
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.leaving = False
        self.lost = False
        self.table: str | None = None
        self.token: str | None = None

    async def _on_state(self, data: dict[str, Any]) -> None:
        if self.state is None or data["version"] >= self.state["version"]:
            self.state = data
            self.changed.set()

    async def _on_disconnect(self, *_reason: Any) -> None:
        if not self.leaving:
            self.lost = True
            self.changed.set()

    def error(self, kind: str) -> None:
        self.tally.errors[kind] += 1

    async def call(self, event: str, data: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = await self.sio.call(event, data, timeout=REPLY_TIMEOUT)
        return reply

    async def run(self) -> None:
        try:
            await self.sio.connect(self.url, transports=["websocket"], wait_timeout=REPLY_TIMEOUT)
            if await self.find():
                await self.play()
                if not self.lost:
                    await self.leave()
        except Exception as err:  # counted, never raised: the others go on
            self.error(f"exception {type(err).__name__}: {str(err)[:80]}")
        finally:
            self.leaving = True
            with contextlib.suppress(Exception):
                await self.sio.disconnect()
            self.tally.done += 1

    async def find(self) -> bool:
        message = {"name": f"P{self.number}", **GAME}
        began = time.monotonic()
        reply = await self.call("find_game", message)
        took = time.monotonic() - began
        if not reply.get("ok"):
            self.error(f"find_game {reply.get('error', {}).get('code')}")
            return False
        self.tally.seated.append(took)
        self.table, self.token = reply["table"], reply["token"]
        self.tally.people_at.setdefault(reply["table"], set()).add(self.number)
        self.tally.servers_at.setdefault(reply["table"], set()).add(self.url)
        if reply.get("matched"):
            self.tally.matched += 1
        else:
            self.tally.opened += 1
        return True

    async def play(self) -> None:
        """Act on the latest state whenever it gives legal actions, until this person's hands are
        played (it leaves as the last one ends). A match that ends first: it says it plays again,
        as a person who came for a game does, and goes on in the next one."""
        before = 0  # hands played in the matches before this one
        match, first = 0, None  # this match's number, and the first hand this person holds in it
        ended = 0  # the last match seen over (counted once)
        acted = -1  # the version of the state last acted on
        while True:
            self.changed.clear()
            if self.lost:
                self.error("disconnected")
                return
            state = self.state
            if state is not None:
                table, game = state["table"], state["game"]
                if table["match_number"] != match:
                    match, first = table["match_number"], None
                public: dict[str, Any] = public_of(game) if game else {}
                mine = bool(public) and table["you"] is not None and game.get("hand") is not None
                if mine and first is None:
                    first = int(public["hand_number"])
                if table["status"] == "finished" and match != ended:
                    ended = match
                    if first is None:
                        self.tally.unplayed += 1
                    elif public:
                        before += int(public["hand_number"]) - first + 1
                    self.tally.finished += 1
                    if before >= self.hands:
                        self.tally.hands += before
                        return
                    await self.play_again()
                elif mine and first is not None and table["status"] == "playing":
                    number = int(public["hand_number"])
                    played = before + number - first + (1 if public["phase"] == "hand_over" else 0)
                    if played >= self.hands:
                        self.tally.hands += played
                        return
                    legal = game.get("legal") or []
                    if legal and state["version"] > acted:
                        acted = state["version"]
                        await self.act(state["version"], str(legal[0]["text"]))
                        continue  # the state may have moved meanwhile
            try:
                await asyncio.wait_for(self.changed.wait(), STALL_SECONDS)
            except TimeoutError:
                self.error("stalled: no new state")
                return

    async def play_again(self) -> None:
        """Says it plays the next match (paced: a refusal for the pace is tried again)."""
        while True:
            reply = await self.call(
                "rematch", {"table": self.table, "token": self.token, "ready": True, "new_partners": False}
            )
            code = reply.get("error", {}).get("code")
            if reply.get("ok") or code == "match_not_over":  # the next match began meanwhile
                self.tally.rematches += 1
                return
            if code != "rate_limited":
                self.error(f"rematch {code}")
                return
            await asyncio.sleep(0.1)

    async def act(self, version: int, action: str) -> None:
        reply = await self.call(
            "act", {"table": self.table, "token": self.token, "version": version, "action": action}
        )
        if reply.get("ok"):
            self.tally.acts += 1
            return
        code = reply.get("error", {}).get("code")
        if code == "stale_version":
            self.tally.stale += 1  # the newer state is on its way, or here: read it and go on
        else:
            self.error(f"act {code}")

    async def leave(self) -> None:
        reply = await self.call("leave", {"table": self.table, "token": self.token})
        if not reply.get("ok"):
            self.error(f"leave {reply.get('error', {}).get('code')}")


async def arrive(urls: list[str], people: int, seconds: float, seed: int) -> Tally:
    """``people`` people arriving evenly over ``seconds``, on the servers in turn."""
    # SIGTERM cancels the run as Ctrl-C does: every person's task ends and its socket is closed.
    main = asyncio.current_task()
    assert main is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
    rng = random.Random(seed)
    tally = Tally()
    tasks: list[asyncio.Task[None]] = []
    began = time.monotonic()
    last_print = began
    try:
        for number in range(people):
            at = began + number * seconds / people
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            person = Person(number, urls[number % len(urls)], rng.randint(*HANDS), tally)
            tasks.append(asyncio.create_task(person.run()))
            if time.monotonic() - last_print >= 5.0:
                last_print = time.monotonic()
                progress(tally, number + 1, began)
        while not all(task.done() for task in tasks):
            await asyncio.wait(tasks, timeout=5.0)
            progress(tally, people, began)
    finally:
        for task in tasks:
            task.cancel()  # each disconnects on its way out
        await asyncio.gather(*tasks, return_exceptions=True)
    return tally


def progress(tally: Tally, arrived: int, began: float) -> None:
    errors = sum(tally.errors.values())
    print(
        f"[{time.monotonic() - began:6.1f}s] arrived {arrived}, seated {len(tally.seated)}, "
        f"left {tally.done}, tables {len(tally.people_at)}, acts {tally.acts}, errors {errors}",
        flush=True,
    )


# --- the run ---------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=40, help="people who arrive (40)")
    parser.add_argument("--seconds", type=float, default=10.0, help="they arrive evenly over this (10)")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="smear serve processes (1); several share a throwaway Redis and PostgreSQL",
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds the hands each person plays (1)")
    parser.add_argument("--bot-pause", type=float, default=0.1, help="the servers' --bot-pause (0.1)")
    parser.add_argument("--hand-pause", type=float, default=0.5, help="the servers' --hand-pause (0.5)")
    args = parser.parse_args(argv)
    if args.people < 1 or args.servers < 1 or args.seconds < 0:
        parser.error("--people and --servers must be at least 1, --seconds at least 0")
    if args.bot_pause < 0 or args.hand_pause < 0:
        parser.error("--bot-pause and --hand-pause must be at least 0")
    return args


def stop_on_sigterm() -> None:
    """SIGTERM ends the run as Ctrl-C does: through the clean-up."""

    def interrupt(_signum: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def run(args: argparse.Namespace) -> int:
    raise_file_limit(2 * args.people + 256)
    stop_on_sigterm()
    servers: list[Server] = []
    with tempfile.TemporaryDirectory(prefix="smear-matchmaking-") as workdir, contextlib.ExitStack() as stack:
        try:
            redis: str | None = None
            if args.servers > 1:
                redis = stack.enter_context(Redis()).unix_url()
                database = stack.enter_context(Postgres()).new_database()
                print("shared: a throwaway Redis and PostgreSQL", flush=True)
            else:
                database = f"sqlite:///{workdir}/matchmaking.db"
            servers = start_servers(args.servers, database, redis, Path(workdir), args)
            print(
                f"{len(servers)} server(s) up (bot pause {args.bot_pause:g} s, hand pause "
                f"{args.hand_pause:g} s); {args.people} people arriving over {args.seconds:g} s",
                flush=True,
            )
            try:
                tally = asyncio.run(arrive([s.url for s in servers], args.people, args.seconds, args.seed))
            except asyncio.CancelledError:  # by SIGTERM
                raise KeyboardInterrupt from None
            finally:
                stop_on_sigterm()  # the event loop's handler is gone with it
            for number, server in enumerate(servers):
                if server.process.poll() is not None:
                    tally.errors[f"server {number} exited with {server.process.returncode}"] += 1
            troubles = server_troubles(servers)
        except Exception:
            for server in servers:
                print(server_log(server.log_path, 15), file=sys.stderr)
            raise
        finally:
            stop_servers(servers)
    report(args, tally, troubles)
    return 0


def report(args: argparse.Namespace, tally: Tally, troubles: list[str]) -> None:
    seated = sorted(tally.seated)
    tables = tally.people_at
    per_table = sum(len(people) for people in tables.values()) / len(tables) if tables else float("nan")
    errors = sum(tally.errors.values())
    detail = ", ".join(f"{kind}: {count}" for kind, count in sorted(tally.errors.items())) or "none"
    print()
    print(f"seated: {len(seated)} of {args.people} (new tables {tally.opened}, bots' seats {tally.matched})")
    print(
        f"hands played in seats of their own: {tally.hands}; matches that ended before a person's "
        f"hands were played: {tally.finished} ({tally.unplayed} of them only watched), who then "
        f"said play again: {tally.rematches}"
    )
    if args.servers > 1:
        shared = sum(1 for asked in tally.servers_at.values() if len(asked) > 1)
        print(f"tables whose people came through more than one server: {shared} of {len(tables)}")
    print(f"acts acknowledged: {tally.acts} (stale, read again: {tally.stale})")
    print(f"errors by kind: {detail}")
    # Not counted as errors (the people saw none), but told: the first few, then how many.
    print(f"errors and tracebacks in the servers' logs: {len(troubles)}")
    for line in troubles[:10]:
        print(f"  {line}")
    print(f"people: {args.people}")
    print(f"seated_p50_ms: {1000 * percentile(seated, 0.50):.1f}")
    print(f"seated_p99_ms: {1000 * percentile(seated, 0.99):.1f}")
    print(f"people_per_table_mean: {per_table:.2f}")
    print(f"bot_seats_taken_by_people: {tally.matched}")
    print(f"errors: {errors}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:  # the servers are stopped and the directories gone by now
        print("interrupted: servers stopped, temporary directories removed", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
