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
short ``--lease`` (``bench/fleet.py``). Each person connects to a process chosen at random. Each kill
SIGKILLs one process, chosen at random, while the others serve on: its clients connect again to a
random surviving process and ``resume``; the tables it owned are taken over by a process with a socket
following them, whose clients get a full state (``resync``) that is checked as a view after a resume
is. The killed process is started again on its port after a short random pause, before the next
kill. With one server or several, a request answered ``not_stored`` (nothing changed) is sent again
while no newer state comes, and a state seen again on a new connection is acted on again.

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

It prints a line per kill (with several servers: which process died, and how many tables it owned),
then details and these lines (with several servers, ``servers: N`` first), and exits with 1 if any of
the last four is not 0::

    kills: K
    acknowledged_lost: N
    stuck_tables: N
    desyncs: N
    replay_failures: N

Usage: python bench/chaos.py [--kills 100] [--tables 12] [--seed 1] [--database URL]
                             [--servers 1] [--redis URL] [--lease 1.0] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import socketio
from fleet import LEASE, Fleet, Server, cluster_options, shared_services
from serverproc import serve_options

from smear.actions import parse_action
from smear.bots import random_action
from smear.dealing import new_match, next_hand, team_sides
from smear.record import parse_record
from smear.rules import PRESETS
from smear.server.protocol import view_json
from smear.server.storage import Storage
from smear.server.tables import TableSettings
from smear.state import Deal, Phase, State
from smear.transitions import apply
from smear.views import player_view

TARGET = 11  # short matches, so that they finish
THINK = (0.005, 0.06)  # seconds a person waits before acting (uniform)
KILL_GAP = (0.1, 2.0)  # seconds from a server being up to its kill (uniform)
CONNECT_TIMEOUT = 10.0
ACK_TIMEOUT = 30.0  # a safety net only: a lost connection ends the wait for an ack at once
RETRY_PAUSE = (0.02, 0.5)  # first and longest pause between two attempts to reconnect (or to send)
STORE_ATTEMPTS = 8  # times a request answered not_stored is sent, while no newer state comes
SETUP_TIMEOUT = 120.0  # to create, fill and start every table
QUIET_LIMIT = 90.0  # after the last kill, a table with no new version for this long is stuck
FINAL_LIMIT = 900.0  # and one that has not finished this long after the last kill
PROBLEMS_SHOWN = 12  # problems printed, of each kind

# The server's settings for the run, passed only if this version of ``smear serve`` has them.
SERVE_SETTINGS = {
    "--tables-per-hour": "0",
    "--connections-per-address": "0",
    "--spectators-per-table": "0",
    "--max-tables": "0",
    "--bot-pause": "0.02",
    "--hand-pause": "0.05",
    "--grace": "1",
}


def serve_settings() -> list[str]:
    return serve_options(SERVE_SETTINGS)


# --- what the tables are -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TablePlan:
    """One table's settings and how many of its seats are people (the others are bots)."""

    preset: str
    players: int
    teams: bool
    people: int
    bot_level: str
    shoot_the_moon: bool
    elimination: bool
    kitty: bool

    def create_payload(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "preset": self.preset,
            "players": self.players,
            "teams": self.teams,
            "target": TARGET,
            "bot_level": self.bot_level,
            "hints": False,
            "shoot_the_moon": self.shoot_the_moon,
            "elimination": self.elimination,
            "kitty": self.kitty,
        }

    def describe(self) -> str:
        options = [o for o in ("shoot_the_moon", "elimination", "kitty") if getattr(self, o)]
        teams = "teams" if self.teams else "singles"
        extra = f", {'+'.join(options)}" if options else ""
        return f"{self.preset} {self.players} {teams}, {self.people} people, {self.bot_level} bots{extra}"


def plan_tables(count: int, rng: random.Random) -> list[TablePlan]:
    """Every preset in turn, with a table size, teams and options it allows, drawn at random."""
    plans = []
    presets = list(PRESETS)
    for index in range(count):
        preset = presets[index % len(presets)]
        rules = PRESETS[preset]
        sizes = [(n, False) for n in rules.player_counts] + [(n, True) for n in rules.team_player_counts]
        players, teams = rng.choice(sizes)
        plans.append(
            TablePlan(
                preset=preset,
                players=players,
                teams=teams,
                people=rng.randint(1, min(players, 4)),
                bot_level=rng.choice(("heuristic", "random")),
                shoot_the_moon=rng.random() < 0.4,
                elimination=rng.random() < 0.6,  # matches of random play end sooner with it
                kitty=bool(rules.kitty_option) and rng.random() < 0.5,
            )
        )
    return plans


def view_key(game: Any) -> bytes:
    """A digest of a view as JSON, the same for the view sent and the one rebuilt from storage."""
    text = json.dumps(game, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def choose_action(game: dict[str, Any], rng: random.Random) -> str:
    """A random legal action; for a discard with too many choices to list, one built from ``discard``.

    Drawn as the project's random bot draws (mostly passing in the auction): uniform bids would set
    the bidder nearly every hand, and where only the bidder can win (nine_card) no match would end.
    """
    legal: list[str] = game.get("legal") or []
    if legal:
        actions = [parse_action(text) for text in legal]
        return legal[actions.index(random_action(actions, rng))]  # the text as the server wrote it
    discard = game["discard"]
    required = list(discard["required"])
    pool = [card for card in discard["choosable"] if card not in required]
    cards = required + rng.sample(pool, discard["count"] - len(required))
    return " ".join(["discard", *cards])


# --- what the clients saw ------------------------------------------------------------------------


@dataclass(frozen=True)
class Acked:
    """An action acknowledged with ok, and the view it was chosen from."""

    table: str
    match: int
    seat: int
    action: str
    view: bytes


@dataclass(frozen=True)
class Resumed:
    """The first view after a ``resume``, and the views it may not be behind."""

    table: str
    match: int
    seat: int
    view: bytes
    last_acked: bytes | None  # the view of the last action this seat had acknowledged in this match
    last_seen: bytes | None  # the last view this client saw of this match before


@dataclass
class Tally:
    """Everything the clients saw that the checks need."""

    acked: list[Acked] = field(default_factory=list)
    matches_started: list[tuple[str, int]] = field(default_factory=list)  # play_again acknowledged
    resumed: list[Resumed] = field(default_factory=list)
    # Every view received, per (table, match, seat).
    seen: defaultdict[tuple[str, int, int], set[bytes]] = field(default_factory=lambda: defaultdict(set))
    backwards: list[str] = field(default_factory=list)
    refusals: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    takeovers: int = 0  # full states (resync) received outside a resume: a new owner took the table over
    built_discards: int = 0  # discards with too many choices to list, built from ``discard``


# --- the clients -----------------------------------------------------------------------------------


class Link:
    """One Socket.IO connection of a person; a lost one is never used again."""

    def __init__(self, person: Person, server: Server, generation: int, resuming: bool) -> None:
        self.person = person
        self.server = server
        self.life = server.life  # the life of that process it was opened to
        self.generation = generation  # the run's server lives when it was opened (see ChaosRun)
        self.resuming = resuming  # its first state answers a resume
        self.closed = asyncio.Event()
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("state", self.on_state)
        self.sio.on("event", self.on_event)
        self.sio.on("disconnect", self.on_disconnect)

    async def open(self) -> None:
        await self.sio.connect(self.server.url, transports=["websocket"], wait_timeout=CONNECT_TIMEOUT)

    def current(self) -> bool:
        """Whether the process life it was opened to still runs (as far as the run knows)."""
        return self.server.up and self.server.life == self.life

    async def on_state(self, data: dict[str, Any]) -> None:
        self.person.on_state(self, data)

    async def on_event(self, data: dict[str, Any]) -> None:
        self.person.on_event(data)

    async def on_disconnect(self, *reason: Any) -> None:
        self.closed.set()

    def is_lost(self) -> bool:
        if not self.closed.is_set() and not self.sio.connected:
            self.closed.set()
        return self.closed.is_set()

    async def request(self, event: str, data: dict[str, Any]) -> dict[str, Any] | None:
        """The ack, or None when the connection is lost first (nothing is then known of the request)."""
        if self.is_lost():
            return None
        call = asyncio.ensure_future(self.sio.call(event, data, timeout=ACK_TIMEOUT))
        lost = asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait({call, lost}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not call.done():
                call.cancel()
        if not call.done() or call.cancelled():  # lost first: the ack will never come
            return None
        error = call.exception()
        if error is not None:  # an ack timeout, or the connection gone before the request left
            self.person.run.tally.refusals[f"{event}: {type(error).__name__}"] += 1
            return None
        reply: dict[str, Any] = call.result()
        return reply

    async def close(self) -> None:
        self.closed.set()
        with contextlib.suppress(Exception):  # a connection being lost anyway
            await asyncio.wait_for(self.sio.disconnect(), 5.0)


class Person:
    """One person at a table: its seat's token, its current connection and what it has seen."""

    def __init__(self, run: ChaosRun, table: TableRun, name: str) -> None:
        self.run = run
        self.table = table
        self.name = name
        self.rng = random.Random(run.rng.random())
        self.token = ""
        self.seat: int | None = None
        self.link: Link | None = None
        self.highest = -1  # the highest version seen, on any connection
        self.status = "lobby"
        self.match = 0
        # The version (and connection) of the state it last acted on, or asked to play again on: a
        # state of that version again on another connection is acted on again (the request may never
        # have left; if it went through, the owner refuses the second).
        self.acted_version = -1
        self.acted_link: Link | None = None
        self.again_version = -1
        self.again_link: Link | None = None
        self.last_seen: tuple[int, bytes] | None = None  # (match, view) of the latest view
        self.latest: dict[str, Any] | None = None  # the latest state, to say where a stuck table is
        self.last_acked: dict[int, bytes] = {}  # per match: the view of its latest acknowledged action
        self.retired = False  # its table finished and the restarted server no longer has it
        self.last_request = "none"  # how its latest act or play_again was answered

    # --- receiving -----------------------------------------------------------------------------------

    def on_event(self, data: dict[str, Any]) -> None:
        version = data["version"]
        if version <= self.highest:  # every version has one event, sent with or before its state
            self.run.tally.backwards.append(
                f"{self.table.code} {self.name}: event of version {version} after version {self.highest}"
            )
        self.highest = max(self.highest, version)
        self.table.saw(version)

    def on_state(self, link: Link, data: dict[str, Any]) -> None:
        tally = self.run.tally
        version = data["version"]
        if data.get("event") is not None:  # the change that made this version, sent with its state
            self.on_event({"version": version, "event": data["event"]})
        if version < self.highest:
            tally.backwards.append(
                f"{self.table.code} {self.name}: state of version {version} after version {self.highest}"
                + (" (first after resume)" if link.resuming else "")
            )
        self.highest = max(self.highest, version)
        self.table.saw(version)
        self.latest = data
        info, game = data["table"], data["game"]
        if info["you"] is not None:  # with teams, every start reseats everyone
            self.seat = info["you"]
        self.status, self.match = info["status"], info["match_number"]
        key = None
        if game is not None:
            key = view_key(game)
            tally.seen[(self.table.code, self.match, game["seat"])].add(key)
        # A full state outside a resume: the table's owner died and another process took it over.
        takeover = bool(data.get("resync")) and not link.resuming
        tally.takeovers += takeover
        if link.resuming or takeover:  # the view must not be behind what this client saw or had acked
            link.resuming = False
            if key is not None:
                before = self.last_seen[1] if self.last_seen and self.last_seen[0] == self.match else None
                acked = self.last_acked.get(self.match)
                tally.resumed.append(Resumed(self.table.code, self.match, game["seat"], key, acked, before))
        if key is not None:
            self.last_seen = (self.match, key)
        if self.status == "finished":
            self.table.finished(self.match, self.run.generation_of(link))
        self.decide(link, data, key)

    def decide(self, link: Link, data: dict[str, Any], key: bytes | None) -> None:
        if self.run.stopping.is_set():
            return
        version, info, game = data["version"], data["table"], data["game"]
        if info["status"] == "finished":
            again = version > self.again_version or (
                version == self.again_version and link is not self.again_link
            )
            if info["host"] == self.seat and again and self.run.more_matches(link):
                self.again_version, self.again_link = version, link
                self.run.spawn(self.play_again(link, version, info["match_number"]))
            return
        if game is None or key is None or game["public"]["to_act"] != game["seat"]:
            return
        if version < self.acted_version or (version == self.acted_version and link is self.acted_link):
            return
        if not (game["legal"] or game["discard"]):
            return
        self.acted_version, self.acted_link = version, link
        self.run.spawn(self.act(link, version, info["match_number"], game, key))

    def where(self) -> str:
        """Where this person is, as the latest state it received shows it."""
        link = "none" if self.link is None else "lost" if self.link.is_lost() else "open"
        if self.link is not None and self.run.fleet.several:
            link += f" to server {self.link.server.index} (life {self.link.life})"
        text = f"{self.name} seat {self.seat}, connection {link}, acted at version {self.acted_version}"
        text += f" (last request: {self.last_request})"
        if self.latest is None:
            return f"{text}, no state"
        info, game = self.latest["table"], self.latest["game"]
        text += f"; latest state: version {self.latest['version']}, {info['status']}"
        text += ", connected " + "".join("y" if s["connected"] else "n" for s in info["seats"])
        if game is not None:
            public = game["public"]
            text += f", hand {public['hand_number']} {public['phase']}, to act {public['to_act']}"
            text += f", legal {game['legal'][:6]}, discard {game['discard']}"
        return text

    # --- acting --------------------------------------------------------------------------------------

    async def act(self, link: Link, version: int, match: int, game: dict[str, Any], key: bytes) -> None:
        await asyncio.sleep(self.rng.uniform(*THINK))
        if link.is_lost() or self.run.stopping.is_set():
            return
        action = choose_action(game, self.rng)
        if not game["legal"]:
            self.run.tally.built_discards += 1
        payload = {"table": self.table.code, "token": self.token, "version": version, "action": action}
        reply = await self.request(link, "act", payload, version)
        if reply is not None and reply.get("ok"):
            self.run.tally.acked.append(Acked(self.table.code, match, game["seat"], action, key))
            self.last_acked[match] = key

    async def play_again(self, link: Link, version: int, match: int) -> None:
        # At once: the server does not bring back a finished table after a restart.
        payload = {"table": self.table.code, "token": self.token}
        reply = await self.request(link, "play_again", payload, version)
        if reply is not None and reply.get("ok"):
            self.run.tally.matches_started.append((self.table.code, match + 1))

    async def request(
        self, link: Link, event: str, payload: dict[str, Any], version: int
    ) -> dict[str, Any] | None:
        """Send a request decided on the state of ``version``; one answered ``not_stored`` (nothing
        changed: storage failed, or the table's owner died before answering) is sent again, while no
        newer state has come and the connection lasts. Refusals are counted."""
        pause = RETRY_PAUSE[0]
        for attempt in range(1, STORE_ATTEMPTS + 1):
            reply = await link.request(event, payload)
            answer = "no answer" if reply is None else "ok" if reply.get("ok") else "?"
            self.last_request = f"{event} at version {version}, attempt {attempt}: {answer}"
            if reply is None or reply.get("ok"):
                return reply
            code = self.run.refused(event, reply)
            self.last_request = self.last_request.removesuffix("?") + code
            if code != "not_stored":
                return reply
            await asyncio.sleep(pause)
            pause = min(2 * pause, RETRY_PAUSE[1])
            if link.is_lost() or self.run.stopping.is_set() or self.highest > version:
                return reply  # a newer state decides what to send next
        return reply

    # --- staying connected ---------------------------------------------------------------------------

    async def connect(self, resuming: bool) -> Link:
        """A new connection to a server process that is up, chosen at random, made the current one
        (raises if none is up or it does not take the connection)."""
        if self.link is not None:
            await self.link.close()
        server = self.run.fleet.pick()
        if server is None:
            raise ConnectionError("no server is up")
        link = self.link = Link(self, server, self.run.generation, resuming)
        try:
            await link.open()
        except BaseException:
            await link.close()
            raise
        return link

    async def live(self) -> None:
        """Keep a connection to the table until the run stops, resuming after every loss."""
        run = self.run
        while not run.stopping.is_set() and not self.retired:
            link = self.link
            if link is None or link.is_lost():
                await self.resume()
                continue
            with contextlib.suppress(TimeoutError):  # also look at the socket now and then
                await asyncio.wait_for(first_of(link.closed.wait(), run.stopping.wait()), 1.0)

    async def resume(self) -> None:
        run = self.run
        pause = RETRY_PAUSE[0]
        while not run.stopping.is_set():
            await run.fleet.up.wait()
            try:
                link = await self.connect(resuming=True)
            except Exception:
                await asyncio.sleep(pause)
                pause = min(2 * pause, RETRY_PAUSE[1])
                continue
            payload = {"table": self.table.code, "token": self.token, "version": max(self.highest, 0)}
            reply = await link.request("resume", payload)
            if reply is not None and reply.get("ok"):
                run.tally.reconnects += 1
                return
            if reply is not None:
                code = run.refused("resume", reply)
                if code == "no_such_table" and await run.match_recorded(self.table.code, self.match):
                    # Finished before the kill: a restarted server keeps only unfinished tables.
                    self.retired = True
                    self.table.retire()
                    await link.close()
                    return
            await link.close()
            await asyncio.sleep(pause)
            pause = min(2 * pause, RETRY_PAUSE[1])


class TableRun:
    """One table: its plan, its people, and how far the clients have seen it go."""

    def __init__(self, run: ChaosRun, index: int, plan: TablePlan) -> None:
        self.run = run
        self.index = index
        self.plan = plan
        self.code = ""
        self.people = [Person(run, self, f"P{index}-{n}") for n in range(plan.people)]
        self.highest = -1
        self.last_progress = time.monotonic()
        self.done = False  # every person sees the match finished after the last kill, or retired
        self.retired = False
        self.stuck = False
        self.matches_finished: set[int] = set()
        self.final_match: int | None = None  # the match a client saw finish after the last kill

    def saw(self, version: int) -> None:
        if version > self.highest:
            self.highest = version
            self.last_progress = time.monotonic()

    def finished(self, match: int, generation: int) -> None:
        """A person saw ``match`` finished. The table is done once a client saw a match finish after
        the last kill and every person's latest state shows it finished: a socket that stopped
        getting the table's states (on a process that took the table over, say) leaves it stuck."""
        self.matches_finished.add(match)
        if generation > self.run.kills and self.final_match is None:
            self.final_match = match
            self.run.say(
                f"table {self.index} ({self.plan.preset}) finished match {match} after the last kill"
            )
        if self.final_match is not None and not self.done:
            self.done = all(
                person.status == "finished" and person.match == self.final_match for person in self.people
            )

    def retire(self) -> None:
        self.retired = self.done = True

    async def open(self) -> None:
        """Connect every person, create the table, fill it with people and bots, and start."""
        host, *guests = self.people
        await host.connect(resuming=False)
        reply = await self.ask(host, "create_table", self.plan.create_payload(host.name))
        self.code, host.token, host.seat = reply["table"], reply["token"], reply["seat"]
        for guest in guests:
            await guest.connect(resuming=False)
            reply = await self.ask(guest, "join_table", {"table": self.code, "name": guest.name})
            guest.token, guest.seat = reply["token"], reply["seat"]
        for seat in range(len(self.people), self.plan.players):
            await self.ask(
                host, "set_bot", {"table": self.code, "token": host.token, "seat": seat, "bot": True}
            )
        await self.ask(host, "start", {"table": self.code, "token": host.token})

    async def ask(self, person: Person, event: str, data: dict[str, Any]) -> dict[str, Any]:
        assert person.link is not None
        reply = await person.link.request(event, data)
        if reply is None or not reply.get("ok"):
            raise RuntimeError(f"table {self.index} ({self.plan.describe()}): {event} refused: {reply}")
        return reply


async def first_of(*waits: Coroutine[Any, Any, Any]) -> None:
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


# --- the run ---------------------------------------------------------------------------------------


@dataclass
class Report:
    """The five figures (kills, then the four that must be 0), with the details and problems behind them;
    with several server processes, their number before them."""

    servers: int = 1
    kills: int = 0
    acknowledged_lost: int = 0
    stuck_tables: int = 0
    desyncs: int = 0
    replay_failures: int = 0
    details: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def figures(self) -> str:
        names: tuple[str, ...] = ("kills", "acknowledged_lost", "stuck_tables", "desyncs", "replay_failures")
        if self.servers > 1:
            names = ("servers", *names)
        return "\n".join(f"{name}: {getattr(self, name)}" for name in names)

    @property
    def failed(self) -> bool:
        return bool(self.acknowledged_lost or self.stuck_tables or self.desyncs or self.replay_failures)

    def text(self) -> str:
        return "\n".join([*self.details, *self.problems, self.figures()])


class ChaosRun:
    """The tables, the server processes' lives and kills, and what the clients saw.

    ``generation`` counts the fleet's lives: 1 once every process is up, one more each time a killed
    process is up again. A client's state belongs to the generation when it arrived if its connection's
    process life still runs, else to the one its connection was opened in; a table is done once a
    client sees it finish in the generation after the last kill.
    """

    def __init__(
        self, kills: int, plans: list[TablePlan], seed: int, log: Callable[[str], None], fleet: Fleet
    ) -> None:
        self.kills = kills
        self.fleet = fleet
        self.rng = random.Random(seed)
        self.log = log
        self.began = time.monotonic()
        self.tally = Tally()
        self.tables = [TableRun(self, index, plan) for index, plan in enumerate(plans)]
        self.generation = 0
        self.kills_done = 0
        self.stopping = asyncio.Event()
        self.tasks: set[asyncio.Task[Any]] = set()

    def say(self, text: str) -> None:
        self.log(f"[{time.monotonic() - self.began:7.1f}s] {text}")

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def refused(self, event: str, reply: dict[str, Any]) -> str:
        code = str(reply.get("error", {}).get("code", "?"))
        self.tally.refusals[f"{event}: {code}"] += 1
        return code

    def generation_of(self, link: Link) -> int:
        """The generation a state arriving now on ``link`` belongs to."""
        return self.generation if link.current() else link.generation

    def more_matches(self, link: Link) -> bool:
        """Whether a finished match is followed by another: yes until the last generation."""
        return self.generation_of(link) <= self.kills

    async def match_recorded(self, code: str, match: int) -> bool:
        """Whether the server has the record of that match, i.e. it finished."""
        server = self.fleet.pick()
        if server is None:
            return False
        url = f"{server.url}/tables/{code}/matches/{match}/record.json"

        def fetch() -> bool:
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    return bool(response.status == 200)
            except (urllib.error.URLError, OSError):
                return False

        return match > 0 and await asyncio.to_thread(fetch)

    def counts(self) -> str:
        tally = self.tally
        finished = sum(len(t.matches_finished) for t in self.tables)
        takeovers = f", {tally.takeovers} states after a takeover" if self.fleet.several else ""
        return (
            f"{len(tally.acked)} actions acknowledged, {tally.reconnects} resumes{takeovers}, "
            f"{finished} matches seen finished"
        )

    async def play(self) -> None:
        fleet = self.fleet
        await fleet.start_all()
        self.generation = 1
        self.say(fleet.describe())
        gate = asyncio.Semaphore(4)

        async def open_table(table: TableRun) -> None:
            async with gate:
                await table.open()

        await asyncio.wait_for(asyncio.gather(*(open_table(t) for t in self.tables)), SETUP_TIMEOUT)
        self.say(f"{len(self.tables)} tables started")
        for table in self.tables:
            for person in table.people:
                self.spawn(person.live())
        for number in range(1, self.kills + 1):
            gap = self.rng.uniform(*KILL_GAP)
            await asyncio.sleep(gap)
            victim = fleet.victim()
            dead = victim.name
            owned = await fleet.kill(victim)
            self.kills_done = number
            pause = fleet.pause()
            if pause:
                await asyncio.sleep(pause)
            took = await fleet.start(victim)
            self.generation += 1
            if fleet.several:
                tables = "" if owned is None else f" owning {owned} tables"
                self.say(
                    f"kill {number}/{self.kills}: {dead}{tables} after {gap:.2f} s, up again as "
                    f"{victim.cluster_name} after {pause:.2f} + {took:.2f} s; {self.counts()}"
                )
            else:
                self.say(
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
                self.say(f"every table done ({stuck} stuck); {self.counts()}")
                return
            for table in waiting:
                if now - table.last_progress > QUIET_LIMIT or now - began > FINAL_LIMIT:
                    table.stuck = table.done = True
                    seen = "" if table.final_match is None else f", match {table.final_match} seen finished"
                    self.say(f"table {table.index} ({table.code}, {table.plan.describe()}) is stuck{seen}")
                    for person in table.people:
                        self.say(f"  {person.where()}")
            if now - last_word > 10.0:
                last_word = now
                names = ", ".join(str(table.index) for table in waiting)
                self.say(f"waiting for table(s) {names} to finish their match")
            await asyncio.sleep(0.2)

    async def close(self) -> None:
        self.stopping.set()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        links = [p.link for t in self.tables for p in t.people if p.link is not None]
        await asyncio.gather(*(link.close() for link in links), return_exceptions=True)


# --- the checks --------------------------------------------------------------------------------------


@dataclass
class RebuiltMatch:
    """A stored match replayed through the engine: its actions and, per seat, each view's position
    (the number of actions that lead to it)."""

    actions: list[tuple[int, str]]
    positions: dict[int, dict[bytes, int]]


def positions_of(states: Iterator[tuple[int, State]], seats: set[int]) -> dict[int, dict[bytes, int]]:
    positions: dict[int, dict[bytes, int]] = {seat: {} for seat in seats}
    for count, state in states:
        for seat in seats:
            positions[seat].setdefault(view_key(view_json(player_view(state, seat))), count)
    return positions


def from_record(data: dict[str, Any], seats: set[int]) -> RebuiltMatch:
    """The match of a record, dealt as it says (as ``smear replay`` does)."""
    record = parse_record(data)
    actions: list[tuple[int, str]] = []

    def states() -> Iterator[tuple[int, State]]:
        state: State | None = None
        for hand in record.hands:
            deal = Deal(hand.deal, hand.out)
            if state is None:
                state = new_match(
                    record.rules,
                    len(record.players),
                    record.teams,
                    dealer=hand.dealer,
                    deal=deal,
                    scores=record.start_scores,
                )
            else:
                state = next_hand(state, deal)
            yield len(actions), state
            for text in hand.actions:
                seat = state.public.to_act
                assert seat is not None, f"an action with nobody to act: {text}"
                action = parse_action(text)
                state = apply(state, action)
                actions.append((seat, str(action)))
                yield len(actions), state

    positions = positions_of(states(), seats)
    return RebuiltMatch(actions, positions)


def from_seed(
    settings: dict[str, Any], seed: int, stored: list[tuple[int, str]], seats: set[int]
) -> RebuiltMatch:
    """A match in progress, dealt from its seed as the server deals it."""
    table_settings = TableSettings(**settings)
    rules = table_settings.rules()
    players = table_settings.players
    teams = team_sides(players, rules.alternate_teams) if table_settings.teams else None
    actions: list[tuple[int, str]] = []

    def states() -> Iterator[tuple[int, State]]:
        state = new_match(rules, players, teams, seed=seed)
        yield 0, state
        for seat, text in stored:
            if state.public.phase is Phase.HAND_OVER:
                state = next_hand(state)
                yield len(actions), state
            action = parse_action(text)
            state = apply(state, action, seat)
            actions.append((seat, str(action)))
            yield len(actions), state

    positions = positions_of(states(), seats)
    return RebuiltMatch(actions, positions)


def canonical(text: str) -> str:
    return str(parse_action(text))


def replay_with_cli(path: Path) -> str | None:
    """None when ``python -m smear replay`` accepts the record, else why not."""
    command = [sys.executable, "-m", "smear", "replay", str(path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "smear replay timed out"
    if done.returncode == 0:
        return None
    return f"smear replay exited with {done.returncode}: {done.stderr.strip()[-300:]}"


class Checker:
    """Compares what the clients saw with what the server stored."""

    def __init__(self, run: ChaosRun, database: str, workdir: Path, report: Report) -> None:
        self.run = run
        self.database = database
        self.records_dir = workdir / "records"
        self.records_dir.mkdir(exist_ok=True)
        self.report = report
        self.problems: defaultdict[str, list[str]] = defaultdict(list)
        tally = run.tally
        self.acked: defaultdict[tuple[str, int], list[Acked]] = defaultdict(list)
        for acked in tally.acked:
            self.acked[(acked.table, acked.match)].append(acked)
        self.resumed: defaultdict[tuple[str, int], list[Resumed]] = defaultdict(list)
        for resumed in tally.resumed:
            self.resumed[(resumed.table, resumed.match)].append(resumed)
        self.seen: defaultdict[tuple[str, int], dict[int, set[bytes]]] = defaultdict(dict)
        for (code, match, seat), keys in tally.seen.items():
            self.seen[(code, match)][seat] = keys

    def problem(self, kind: str, text: str) -> None:
        self.problems[kind].append(text)

    def check(self) -> None:
        report = self.report
        records: list[tuple[str, Path]] = []
        counts = Counter[str]()
        storage = Storage(self.database)
        try:
            for table in self.run.tables:
                self.check_table(storage, table, records, counts)
        finally:
            storage.close()
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            failures = pool.map(replay_with_cli, [path for _, path in records])
            for (name, _path), failure in zip(records, failures, strict=True):
                if failure is not None:
                    report.replay_failures += 1
                    self.problem("replay_failures", f"{name}: {failure}")
        tally = self.run.tally
        backwards = len(tally.backwards)
        report.desyncs += backwards
        for text in tally.backwards:
            self.problem("desyncs", text)
        refusals = ", ".join(f"{kind} {n}" for kind, n in sorted(tally.refusals.items())) or "none"
        report.details += [
            f"tables: {len(self.run.tables)} ({sum(t.retired for t in self.run.tables)} retired: finished "
            "before a kill and not brought back)",
            f"actions acknowledged: {len(tally.acked)} ({tally.built_discards} discards built from "
            f"`discard`), matches started again: {len(tally.matches_started)}",
            f"resumes: {tally.reconnects} (views checked after a resume: {len(tally.resumed)})"
            + (f", full states after a takeover: {tally.takeovers}" if self.run.fleet.several else ""),
            f"records replayed with smear replay: {len(records)}",
            f"desyncs: versions going backwards {backwards}, views after a resume not stored "
            f"{counts['resumed']}, other views not stored {counts['seen']}",
            f"refused or unanswered requests: {refusals}",
        ]
        for kind, texts in self.problems.items():
            shown = texts[:PROBLEMS_SHOWN]
            more = f" (and {len(texts) - len(shown)} more)" if len(texts) > len(shown) else ""
            report.problems.append(f"{kind}{more}:")
            report.problems += [f"  {text}" for text in shown]

    def check_table(
        self, storage: Storage, table: TableRun, records: list[tuple[str, Path]], counts: Counter[str]
    ) -> None:
        report = self.report
        code = table.code
        stored = storage.table(code)
        latest = stored.current_match if stored is not None else None
        if stored is None or latest is None or not latest.finished or not table.done or table.stuck:
            report.stuck_tables += 1
            status = "missing" if stored is None else stored.status
            self.problem("stuck_tables", f"table {table.index} {code} ({table.plan.describe()}): {status}")
        if stored is None:
            return
        finished = set(storage.finished_matches(code))
        numbers = finished | ({latest.number} if latest is not None else set())
        for started_code, number in self.run.tally.matches_started:
            if started_code == code and number not in numbers:
                report.acknowledged_lost += 1
                self.problem(
                    "acknowledged_lost", f"{code}: play_again acknowledged, match {number} not stored"
                )
        asked = {match for (c, match) in [*self.acked, *self.seen, *self.resumed] if c == code}
        for number in sorted(numbers | asked):
            self.check_match(storage, stored.settings, code, number, latest, finished, records, counts)

    def check_match(
        self,
        storage: Storage,
        settings: dict[str, Any],
        code: str,
        number: int,
        latest: Any,
        finished: set[int],
        records: list[tuple[str, Path]],
        counts: Counter[str],
    ) -> None:
        report = self.report
        seats = set(self.seen[(code, number)])
        seats |= {a.seat for a in self.acked[(code, number)]} | {r.seat for r in self.resumed[(code, number)]}
        rebuilt: RebuiltMatch | None = None
        try:
            if number in finished:
                record = storage.match_record(code, number)
                assert record is not None
                path = self.records_dir / f"{code}-{number}.json"
                path.write_text(json.dumps(record))
                records.append((f"{code} match {number}", path))
                rebuilt = from_record(record, seats)
                if latest is not None and latest.number == number:
                    stored_actions = [(seat, canonical(text)) for seat, text in latest.actions]
                    if stored_actions != rebuilt.actions:
                        report.replay_failures += 1
                        self.problem("replay_failures", f"{code} match {number}: record and actions differ")
            elif latest is not None and latest.number == number:
                rebuilt = from_seed(settings, latest.seed, latest.actions, seats)
        except Exception as err:
            report.replay_failures += 1
            self.problem("replay_failures", f"{code} match {number}: rebuilding failed: {err!r}")
            return
        if rebuilt is None:  # the clients saw a match that is not stored at all
            rebuilt = RebuiltMatch([], {seat: {} for seat in seats})
        positions, actions = rebuilt.positions, rebuilt.actions
        for acked in self.acked[(code, number)]:
            at = positions[acked.seat].get(acked.view)
            stored = actions[at] if at is not None and at < len(actions) else None
            if stored != (acked.seat, canonical(acked.action)):
                report.acknowledged_lost += 1
                where = "a view not stored" if at is None else f"action {at + 1}, stored {stored}"
                self.problem(
                    "acknowledged_lost",
                    f"{code} match {number} seat {acked.seat}: {acked.action!r} acknowledged, at {where}",
                )
        for resumed in self.resumed[(code, number)]:
            at = positions[resumed.seat].get(resumed.view)
            lowest = 0
            if resumed.last_acked is not None and resumed.last_acked in positions[resumed.seat]:
                lowest = positions[resumed.seat][resumed.last_acked] + 1
            if resumed.last_seen is not None and resumed.last_seen in positions[resumed.seat]:
                lowest = max(lowest, positions[resumed.seat][resumed.last_seen])
            if at is None or at < lowest:
                report.desyncs += 1
                counts["resumed"] += 1
                shown = "no stored prefix" if at is None else f"the prefix of {at} actions"
                self.problem(
                    "desyncs",
                    f"{code} match {number} seat {resumed.seat}: the view after resume shows {shown}, "
                    f"expected at least {lowest}",
                )
        for seat, keys in self.seen[(code, number)].items():
            missing = len(keys - positions[seat].keys())
            if missing:
                report.desyncs += missing
                counts["seen"] += missing
                self.problem("desyncs", f"{code} match {number} seat {seat}: {missing} views no prefix shows")


async def run_async(
    kills: int, plans: list[TablePlan], seed: int, log: Callable[[str], None], fleet: Fleet
) -> ChaosRun:
    run = ChaosRun(kills, plans, seed, log, fleet)
    try:
        await run.play()
    finally:
        await run.close()
        await asyncio.to_thread(fleet.stop)
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
) -> Report:
    """Play ``tables`` tables (or those of ``plans``) while a server process is killed ``kills`` times,
    then check the storage. With ``servers`` above 1 they share ``database`` (default: a throwaway
    PostgreSQL) and ``redis`` (default: a throwaway Redis), with tables taken over after ``lease``."""
    plans = plans or plan_tables(tables, random.Random(seed))
    for index, plan in enumerate(plans):
        log(f"table {index}: {plan.describe()}")
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="smear-chaos-")))
        workdir.mkdir(parents=True, exist_ok=True)
        database, redis = shared_services(stack, servers, database, redis, workdir)
        options = serve_settings() + ([] if redis is None else cluster_options(redis, lease))
        fleet = Fleet(servers, database, workdir, options, seed, redis)
        try:
            run = asyncio.run(run_async(kills, plans, seed, log, fleet))
        except BaseException:
            troubles = fleet.troubles()
            if troubles:
                log("server log:\n  " + "\n  ".join(troubles[-20:]))
            raise
        report = Report(servers=servers, kills=run.kills_done)
        Checker(run, database, workdir, report).check()
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
    args = parser.parse_args(argv)
    if args.kills < 0 or args.tables < 1 or args.servers < 1:
        parser.error("--kills must be at least 0, --tables and --servers at least 1")
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
    )
    print()
    print(report.text())
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
