"""Leak audit at scale: thousands of bot matches over real Socket.IO, every message checked.

What it checks: that no message from the game server shows its recipient a card it may not see
(RULES.md section 5, docs/protocol.md "Hidden information"), and that the server's log names no
hidden card. The checks are those of the leak test (``tests/server/test_leaks.py``), shared in
``bench/leakaudit.py``: every ``state`` and ``event`` each seat and spectator received, every
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
captured at DEBUG. The WebSocket frame trace (a DEBUG line per frame, a cut-short copy of a message
that is checked anyway as its recipient received it) would cost a sixth of the run: it is on for one
match in ``--trace-every`` (10), whose sockets' frames are all checked but the few written while
another match opens a socket; the leak test traces every frame.

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

Usage: python bench/leaks.py [--matches 200] [--workers 2] [--seed 1] [--in-flight 24] [--trace-every 10]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
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
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from leakaudit import (
    HandFacts,
    Leak,
    LogAudit,
    RawMessage,
    capture_logs,
    cards_in,
    check_received,
    check_reply,
    discard_from,
    facts_of,
)
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from smear.rules import PRESETS
from smear.server.protocol import TARGETS

# Short matches for most: every state carries the result of every hand so far.
TARGET_WEIGHTS = {11: 94.0, 21: 4.0, 31: 1.5, 52: 0.5}
BOT_LEVELS = ("heuristic", "random", "expert")
# The heuristic is as quick as the random bot and ends a match in fewer hands (the random bot's bids
# are set again and again); the expert thinks for tens of milliseconds a move.
BOT_WEIGHTS = (82, 17, 1)
WAIT = 120.0  # seconds without a new state before a waiting client counts its match as failed
CLOSE_WAIT = 5.0  # seconds a client waits for the server to end a connection it closed
MATCH_TIMEOUT = 900.0  # seconds a whole match may take
SHOWN = 5  # leaks printed in detail
COLLECT_EVERY = 200  # matches a worker plays between two full passes of the garbage collector


# --- the plan: which match is played with which settings -------------------------------------------


def configurations() -> list[tuple[str, int, bool]]:
    """Every (preset, players, teams) the presets allow."""
    found = []
    for name, rules in PRESETS.items():
        found += [(name, players, False) for players in rules.player_counts]
        found += [(name, players, True) for players in rules.team_player_counts]
    return found


@dataclass(frozen=True)
class MatchSpec:
    """One match of the run: the table's settings and what its people will do."""

    index: int
    settings: dict[str, Any]  # create_table's fields but the name
    people: int
    seed: int  # the people's choices
    hints: int  # hints asked for
    resume_after: int | None  # a person drops its connection after this many actions, then resumes
    late_watch: float | None  # a second spectator comes this many seconds after the start
    traced: bool = True  # the server traces the WebSocket frames of this match's sockets

    def label(self) -> str:
        s = self.settings
        options = [f"to {s['target']}", f"bots {s['bot_level']}"]
        options += [name for name in ("shoot_the_moon", "elimination", "kitty") if s.get(name)]
        teams = " teams" if s["teams"] else ""
        return f"match {self.index} ({s['preset']} {s['players']}{teams}, {', '.join(options)})"


def plan(index: int, seed: int, trace_every: int = 1) -> MatchSpec:
    """The settings of match ``index``: configurations in turn, each cycling through its options;
    one match in ``trace_every`` has its WebSocket frames traced in the log."""
    configs = configurations()
    preset, players, teams = configs[index % len(configs)]
    round_ = index // len(configs)
    rng = random.Random(f"{seed}:{index}")
    names = ["shoot_the_moon", "elimination"]
    if PRESETS[preset].kitty_option:
        names.insert(0, "kitty")
    options = {name: bool(round_ >> bit & 1) for bit, name in enumerate(names)}
    settings = {
        "preset": preset,
        "players": players,
        "teams": teams,
        "target": rng.choices(TARGETS, [TARGET_WEIGHTS.get(target, 1.0) for target in TARGETS])[0],
        "bot_level": rng.choices(BOT_LEVELS, BOT_WEIGHTS)[0],
        "hints": rng.random() < 0.8,
        **options,
    }
    if settings["bot_level"] == "random":
        settings["target"] = min(TARGETS)  # see the module's docstring
    people = min(players, rng.choices((1, 2, 3), (80, 16, 4))[0])
    return MatchSpec(
        index=index,
        settings=settings,
        people=people,
        seed=rng.getrandbits(32),
        hints=rng.choice((0, 0, 0, 1, 2)),
        resume_after=rng.randint(1, 12) if rng.random() < 0.06 else None,
        late_watch=rng.uniform(0.05, 1.5) if rng.random() < 0.1 else None,
        traced=index % trace_every == 0,
    )


# --- one worker: a server and many matches at once -------------------------------------------------


class HarnessError(Exception):
    """The match could not be played as planned (not a leak: nothing was shown that should not be)."""


DATA_FRAMES = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


class WebSocket(asyncio.Protocol):
    """A WebSocket client connection that hands each text message to ``on_text`` as it arrives.

    The ``websockets`` library's sans-I/O protocol on an asyncio transport: no task wakes up and no
    future is made per message, as in the library's own asyncio client.
    """

    def __init__(self, url: str, on_text: Callable[[str], None], on_lost: Callable[[], None]) -> None:
        self.uri = parse_uri(url)
        self.protocol = ClientProtocol(self.uri, max_size=None)
        self.on_text = on_text
        self.on_lost = on_lost
        self.transport: Any = None
        self.fragments: list[bytes] = []  # of a message sent in several frames
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.lost: asyncio.Future[None] = loop.create_future()

    async def open(self) -> WebSocket:
        """Connect, and wait for the server to accept the handshake."""
        loop = asyncio.get_running_loop()
        await loop.create_connection(lambda: self, self.uri.host, self.uri.port)
        await self.opened
        return self

    @property
    def local_port(self) -> int:
        return int(self.transport.get_extra_info("sockname")[1])

    def send(self, text: str) -> None:
        if self.protocol.state is State.OPEN:  # else it would not be sent anyway
            self.protocol.send_text(text.encode())
            self._flush()

    async def close(self) -> None:
        """The closing handshake; the server then ends the connection (else it is cut after a while)."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_close()
            self._flush()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CLOSE_WAIT):
                    await asyncio.shield(self.lost)
        if self.transport is not None:
            self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if not isinstance(event, Frame):  # the server's answer to the handshake
                if self.opened.done():
                    continue
                if self.protocol.handshake_exc is None:
                    self.opened.set_result(None)
                else:
                    self.opened.set_exception(self.protocol.handshake_exc)
            elif event.opcode in DATA_FRAMES:
                if event.fin and not self.fragments:
                    self.on_text(str(event.data, "utf-8", "replace"))
                    continue
                self.fragments.append(bytes(event.data))
                if event.fin:
                    self.on_text(str(b"".join(self.fragments), "utf-8", "replace"))
                    self.fragments = []
        self._flush()

    def eof_received(self) -> None:
        self.protocol.receive_eof()
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"the connection was lost opening: {exc}"))
        if not self.lost.done():
            self.lost.set_result(None)
        self.on_lost()

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self.transport.write(data)
            elif self.transport.can_write_eof():  # the protocol's sign to half-close
                self.transport.write_eof()


# Engine.IO v4 over a WebSocket: one packet a frame; "0{...}" opens, "2" is the server's ping and
# "3" the pong. A Socket.IO packet inside is "4" then "0" (join a namespace), "1" (leave it),
# "2[name,data]" (an event pushed, or "2<id>[...]" a request asking for an ack) or "3<id>[reply]".
PUSHED = re.compile(r'42\["(\w+)",')
ACKED = re.compile(r"43(\d+)\[")


class Socket:
    """One Socket.IO connection that keeps every message it is pushed, as the JSON text it came in.

    It speaks the protocol itself over a bare WebSocket: a python-socketio client over aiohttp made
    a task, futures and packet objects per message and cost several times as much, and the checks
    then searched an encoding of every message again.
    """

    def __init__(self, worker: Worker, traced: bool, publics: dict[str, Any]) -> None:
        self.worker = worker
        self.traced = traced
        self.publics = publics  # the public parts of its match's states, read once (see read_state)
        url = worker.url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
        self.ws = WebSocket(url, self._frame, self._lost)
        self.port: int | None = None  # the local port, by which the server's frame trace names it
        self.received: list[tuple[str, RawMessage]] = []
        self.latest: RawMessage | None = None  # the latest state
        self.changed = asyncio.Event()
        self.closed = False
        self.joined: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.acks: dict[int, asyncio.Future[Any]] = {}
        self.last_ack = 0

    async def connect(self, table: str | None = None) -> Socket:
        async with asyncio.timeout(WAIT):
            async with self.worker.frames_traced(self.traced):  # the server's connection is made then
                await self.ws.open()
            await self.joined
        self.port = self.ws.local_port
        if table is not None:
            self.worker.audit.follow(self.port, table, self.seat)
        return self

    def _frame(self, frame: str) -> None:
        if frame == "2":
            self.ws.send("3")
        elif frame.startswith("42"):
            self._pushed(frame)
        elif frame.startswith("43"):
            self._acked(frame)
        elif frame.startswith("0{"):  # the Engine.IO session is open: join the default namespace
            self.ws.send("40")
        elif frame.startswith("40") and not self.joined.done():
            self.joined.set_result(None)
        elif frame.startswith("4") and not self.joined.done():
            self.joined.set_exception(HarnessError(f"the server refused the Socket.IO session: {frame}"))
        elif frame not in ("41", "1"):  # not the server ending the session
            self.received.append(("frame", RawMessage(frame)))  # checked as an unexpected message

    def _lost(self) -> None:
        self.closed = True
        self.changed.set()
        if not self.joined.done():
            self.joined.set_exception(HarnessError("the connection was lost joining"))
        for future in self.acks.values():
            if not future.done():
                future.set_exception(HarnessError("the connection was lost before its acknowledgement"))

    def _pushed(self, frame: str) -> None:
        found = PUSHED.match(frame)
        if found is None or not frame.endswith("]"):
            self.received.append(("frame", RawMessage(frame)))  # checked as an unexpected message
            return
        kind = found.group(1)
        message = RawMessage(frame[found.end() : -1], self.publics if kind == "state" else None)
        self.received.append((kind, message))
        if kind == "state":
            self.latest = message
            self.changed.set()

    def _acked(self, frame: str) -> None:
        found = ACKED.match(frame)
        future = self.acks.get(int(found.group(1))) if found else None
        if found is None or future is None or future.done():
            self.received.append(("frame", RawMessage(frame)))  # checked as an unexpected message
            return
        try:
            future.set_result(orjson.loads(frame[found.end() - 1 :])[0])
        except (ValueError, IndexError) as err:
            future.set_exception(HarnessError(f"an acknowledgement that is no JSON list: {frame!r} ({err})"))

    def state(self) -> dict[str, Any] | None:
        """The latest state received (None before the first)."""
        state: dict[str, Any] | None = None if self.latest is None else self.latest.value
        return state

    def last_state(self) -> dict[str, Any]:
        """The latest state received, which there must be by now."""
        state = self.state()
        if state is None:
            raise HarnessError(f"no state received yet; {self.describe()}")
        return state

    def seat(self) -> int | None:
        """The seat this socket was sent the view of (None for a spectator's)."""
        state = self.state()
        game = state.get("game") if state is not None else None
        seat = game.get("seat") if isinstance(game, dict) else None
        return seat if isinstance(seat, int) else None

    async def call(self, event: str, data: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its acknowledgement."""
        if self.closed:
            raise HarnessError(f"a {event} request on a closed connection")
        self.last_ack += 1
        number = self.last_ack
        future = self.acks[number] = asyncio.get_running_loop().create_future()
        try:
            self.ws.send(f"42{number}" + json.dumps([event, data], separators=(",", ":")))
            async with asyncio.timeout(WAIT):
                reply: dict[str, Any] = await future
        finally:
            del self.acks[number]
        return reply

    async def wait_for(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The latest state once it satisfies ``predicate``.

        It fails when no new state came for ``WAIT`` seconds (a table that stopped), not when a long
        match on a busy machine takes longer than that: a spectator waits for the whole match here.
        """
        while True:
            state = self.state()
            if state is not None and predicate(state):
                return state
            if self.closed:
                raise HarnessError(f"the connection closed while the client waited; {self.describe()}")
            self.changed.clear()
            try:
                async with asyncio.timeout(WAIT):
                    await self.changed.wait()
            except TimeoutError:
                raise HarnessError(f"no state came for {WAIT:.0f} s; {self.describe()}") from None

    async def close(self) -> None:
        self.ws.send("41")  # leave the namespace, as a Socket.IO client does
        await self.ws.close()

    def describe(self) -> str:
        """This client's latest state, and the server's side of its table (to tell why it waits)."""
        text = f"connected {self.joined.done() and not self.closed}"
        state = self.state()
        if state is not None:
            game = state["game"]
            public = None if game is None else game.get("public", game)
            text += f", its latest state: version {state['version']}"
            if public is not None:
                text += f", {public['phase']}, seat {public['to_act']} to act"
            if game is not None and "legal" in game:
                text += f", seat {game['seat']} may {len(game['legal'])} actions"
            text += f"; the server: {self.worker.describe_table(state['table']['code'])}"
        return text


def over(state: dict[str, Any]) -> bool:
    game = state["game"]
    return game is not None and game.get("public", game)["phase"] == "match_over"


class Person:
    """A person at the table: its connections (one, or two after a resume) and its requests."""

    def __init__(self, run: MatchRun, name: str) -> None:
        self.run = run
        self.name = name
        self.sockets: list[Socket] = []
        self.token = ""

    @property
    def socket(self) -> Socket:
        return self.sockets[-1]

    def received(self) -> list[tuple[str, Any]]:
        return [message for socket in self.sockets for message in socket.received]

    async def request(
        self, event: str, data: dict[str, Any], hand: Sequence[str] = (), text: str = ""
    ) -> dict[str, Any]:
        """A request with this person's table and token; its acknowledgement is checked."""
        payload = {"table": self.run.code, "token": self.token, **data}
        return await self.run.call(self.socket, event, payload, f"{self.name}'s {event}", hand, text)

    async def act(self, state: dict[str, Any], action: str, version: int) -> dict[str, Any]:
        game = state["game"]
        self.run.worker.audit.note_sent(self.run.code, game["public"]["hand_number"], action)
        data = {"version": version, "action": action}
        while True:
            reply = await self.request("act", data, game["hand"], action)
            if reply["ok"] or reply["error"]["code"] != "rate_limited":
                return reply
            self.run.worker.counts["rate_limited"] += 1
            await asyncio.sleep(0.2)

    async def play(self) -> None:
        """Act whenever it is this seat's turn, at once, until the match is over."""
        run = self.run
        rng = run.rng
        probes = {"illegal": rng.randint(0, 2), "not_held": rng.randint(0, 1), "stale": rng.randint(0, 1)}
        hints = run.spec.hints if self is run.people[0] else 0
        http_after = rng.randint(1, 6) if self is run.people[0] else None
        resume_after = run.spec.resume_after if self is run.people[-1] else None
        after = 0
        done = 0
        while True:

            def ready(state: dict[str, Any], after: int = after) -> bool:
                if state["version"] < after or state["game"] is None:
                    return False
                game = state["game"]
                return game["public"]["phase"] == "match_over" or bool(game["legal"] or game["discard"])

            state = await self.socket.wait_for(ready)
            game = state["game"]
            public = game["public"]
            if public["phase"] == "match_over":
                return
            version = state["version"]
            if hints and rng.random() < 0.3:
                hints -= 1
                reply = await self.request("hint", {}, game["hand"])
                run.worker.counts["hint " + ("ok" if reply["ok"] else reply["error"]["code"])] += 1
            if public["phase"] == "play":
                forbidden = [card for card in game["hand"] if card not in game["legal"]]
                if forbidden and probes["illegal"]:
                    probes["illegal"] -= 1
                    await self.probe(state, rng.choice(forbidden), version, "illegal_action")
                played = [card for trick in public["tricks"] for card in trick["cards"]]
                if played and probes["not_held"]:
                    probes["not_held"] -= 1
                    await self.probe(state, rng.choice(played), version, "illegal_action")
            action = choose(game, rng)
            if probes["stale"] and version > 1:
                probes["stale"] -= 1
                await self.probe(state, action, version - 1, "stale_version")
            reply = await self.act(state, action, version)
            if not reply["ok"]:
                code = reply["error"]["code"]
                if code not in ("stale_version", "not_your_turn"):
                    raise HarnessError(f"{self.name}'s {action!r} was refused: {reply['error']}")
                run.worker.counts[f"act refused: {code}"] += 1  # the table moved on meanwhile
                after = version + 1
                continue
            after = reply["version"]
            done += 1
            if done == http_after:
                await run.http_while_playing()
            if done == resume_after:
                await self.reconnect(rng.uniform(0.0, 0.3))

    async def probe(self, state: dict[str, Any], action: str, version: int, expected: str) -> None:
        reply = await self.act(state, action, version)
        code = "ok" if reply["ok"] else reply["error"]["code"]
        self.run.worker.counts[f"probe {expected}"] += 1
        if code != expected:
            raise HarnessError(f"{self.name}'s {action!r} at version {version}: {code}, not {expected}")

    async def reconnect(self, pause: float) -> None:
        """Drop the connection, wait, and take the seat back with ``resume``."""
        old = self.socket
        version = old.last_state()["version"]
        await old.close()
        await asyncio.sleep(pause)
        self.sockets.append(await self.run.socket().connect(self.run.code))
        reply = await self.request("resume", {"version": version})
        if not reply["ok"]:
            raise HarnessError(f"resume refused: {reply['error']}")
        self.run.worker.counts["resumed"] += 1


def choose(game: dict[str, Any], rng: random.Random) -> str:
    """A random legal action: in the auction mostly a pass, else the lowest bid, so that the bots'
    bids end the match sooner and a random player's own are made as often as set; a discard too
    many to list is made from its description."""
    legal = game["legal"]
    if "pass" in legal and rng.random() < 0.75:
        return "pass"
    bids = [action for action in legal if action.startswith("bid ")]
    if bids:
        return min(bids, key=lambda bid: int(bid.split()[1]))
    if legal:
        return str(rng.choice(legal))
    return discard_from(game["discard"], rng.sample)


@dataclass
class MatchRun:
    """One match being played: its clients, and the leaks found in its acknowledgements."""

    worker: Worker
    spec: MatchSpec
    rng: random.Random
    code: str = ""
    people: list[Person] = field(default_factory=list)
    watchers: list[Socket] = field(default_factory=list)
    late: list[Socket] = field(default_factory=list)
    leaks: list[Leak] = field(default_factory=list)
    publics: dict[str, Any] = field(default_factory=dict)  # see read_state
    messages: int = 0  # acknowledgements and HTTP responses checked
    record: dict[str, Any] | None = None

    async def call(
        self, socket: Socket, event: str, payload: dict[str, Any], who: str, hand: Sequence[str], text: str
    ) -> dict[str, Any]:
        reply = await socket.call(event, payload)
        self.messages += 1
        try:
            check_reply(hand, text, reply)
        except Leak as leak:
            leak.where, leak.message = f"{who} ({text or event})", reply
            self.leaks.append(leak)
        return reply

    async def http(self, path: str) -> tuple[int, Any]:
        async with self.worker.http.get(self.worker.url + path) as response:
            body = await response.json(content_type=None)
            self.messages += 1
            return response.status, body

    async def http_while_playing(self) -> None:
        """The record of a match in play does not exist yet; ``/health`` names no card."""
        for path in (
            f"/tables/{self.code}/matches/1/record.json",
            f"/tables/{self.code}/matches/2/record.json",
        ):
            status, body = await self.http(path)
            if status == 200 and path.endswith("/1/record.json"):
                self.record = body  # the match ended meanwhile: it must be the whole record
                continue
            named = cards_in(body)
            if status != 404 or named:
                self.leaks.append(Leak(f"GET answered {status} while playing", named, f"GET {path}", body))
        status, body = await self.http("/health")
        named = cards_in(body)
        if status != 200 or named:
            self.leaks.append(Leak(f"GET /health answered {status}", named, "GET /health", body))

    async def play(self) -> None:
        spec = self.spec
        host = Person(self, "Host")
        self.people.append(host)
        host.sockets.append(await self.socket().connect())
        settings = {"name": "Host", **spec.settings}
        reply = await self.call(host.socket, "create_table", settings, "Host", (), "")
        if not reply["ok"]:
            raise HarnessError(f"create_table refused: {reply['error']}")
        self.code, host.token = reply["table"], reply["token"]
        self.worker.audit.follow(host.socket.port, self.code, host.socket.seat)
        for number in range(1, spec.people):
            guest = Person(self, f"Guest {number}")
            guest.sockets.append(await self.socket().connect(self.code))
            reply = await self.call(
                guest.socket, "join_table", {"table": self.code, "name": guest.name}, "", (), ""
            )
            if not reply["ok"]:
                raise HarnessError(f"join_table refused: {reply['error']}")
            guest.token = reply["token"]
            self.people.append(guest)
        for seat in range(spec.people, spec.settings["players"]):
            reply = await host.request("set_bot", {"seat": seat, "bot": True})
            if not reply["ok"]:
                raise HarnessError(f"set_bot refused: {reply['error']}")
        self.watchers.append(await self.watch())
        reply = await host.request("start", {})
        if not reply["ok"]:
            raise HarnessError(f"start refused: {reply['error']}")
        tasks = [person.play() for person in self.people]
        if spec.late_watch is not None:
            tasks.append(self.watch_late(spec.late_watch))
        await asyncio.gather(*tasks)
        for watcher in self.watchers:
            await watcher.wait_for(over)
        status, body = await self.http(f"/tables/{self.code}/matches/1/record.json")
        if status != 200:
            raise HarnessError(f"the record of a finished match: {status}")
        if self.record is not None and self.record != body:
            self.leaks.append(Leak("a record given while playing is not the match's", (), "GET record"))
        self.record = body

    def socket(self) -> Socket:
        """A new socket of this match, its frames traced if the match is."""
        return Socket(self.worker, self.spec.traced, self.publics)

    async def watch(self) -> Socket:
        socket = await self.socket().connect(self.code)
        reply = await self.call(socket, "watch_table", {"table": self.code}, "spectator", (), "")
        if not reply["ok"]:
            raise HarnessError(f"watch_table refused: {reply['error']}")
        return socket

    async def watch_late(self, pause: float) -> None:
        await asyncio.sleep(pause)
        socket = await self.watch()
        self.late.append(socket)
        await socket.wait_for(over)

    def latest_versions(self) -> str:
        """The version of the latest state each of this match's sockets got (to tell who missed one)."""
        named = [(person.name, socket) for person in self.people for socket in person.sockets]
        named += [(f"watcher {n}", socket) for n, socket in enumerate(self.watchers + self.late)]
        seen = [f"{name} {(socket.state() or {}).get('version', '-')}" for name, socket in named]
        return "latest versions seen: " + ", ".join(seen)

    def sockets(self) -> list[Socket]:
        return [s for person in self.people for s in person.sockets] + self.watchers + self.late

    async def close(self) -> None:
        for socket in self.sockets():
            await socket.close()

    def release(self) -> None:
        """Let go of every message kept: a client and its handlers hold each other, so without this
        they would wait for the garbage collector's next full pass."""
        for socket in self.sockets():
            socket.received.clear()
            socket.latest = None
        self.publics.clear()
        self.record = None

    def check(self) -> tuple[int, list[Leak]]:
        """Every message received, against the record; returns the messages checked and the leaks."""
        assert self.record is not None
        facts: dict[int, HandFacts] = facts_of(self.record)
        leaks = list(self.leaks)
        messages = self.messages
        streams: list[list[tuple[str, Any]]] = []
        for person in self.people:
            received = person.received()
            streams.append(received)
            leaks += check_received(received, facts, spectator=False, who=person.name)
        for number, socket in enumerate(self.watchers + self.late):
            late = number >= len(self.watchers)  # it came midway
            streams.append(socket.received)
            who = f"watcher {number}{' (late)' if late else ''}"
            leaks += check_received(socket.received, facts, spectator=True, who=who, whole_match=not late)
        messages += sum(len(stream) for stream in streams)
        leaks += self.worker.audit.check_table(self.code, facts, streams)
        # The record is the match these clients saw.
        names = self.record["players"]
        for person in self.people:
            seat = person.socket.last_state()["table"]["you"]
            if names[seat] != person.name:
                leaks.append(Leak(f"the record seats {names[seat]} where {person.name} sat", (), person.name))
        return messages, leaks


# uvicorn hands this logger to the websockets library, which traces every frame at DEBUG.
FRAME_TRACE = logging.getLogger("uvicorn.error")


@dataclass
class Worker:
    """One process: a server, an HTTP session, and the log audit of that server."""

    url: str
    http: Any
    audit: LogAudit
    server: Any = None
    counts: Counter[str] = field(default_factory=Counter)
    opening: Counter[bool] = field(default_factory=Counter)  # sockets being opened now, traced or not

    @contextlib.asynccontextmanager
    async def frames_traced(self, traced: bool) -> AsyncIterator[None]:
        """While a socket opens, the server's WebSocket frame trace is on if its match is traced.

        A connection decides when it opens whether it traces its frames, but the logger's level is
        asked again at every frame: so the trace is on at all other times, and the frames a traced
        connection writes while an untraced socket opens are the only ones lost (a few in a hundred).
        A socket of another match opened beside a traced one is traced too, and checked the same way.
        """
        self.opening[traced] += 1
        self._set_frame_trace()
        try:
            yield
        finally:
            self.opening[traced] -= 1
            self._set_frame_trace()

    def _set_frame_trace(self) -> None:
        off = self.opening[False] > 0 and self.opening[True] == 0
        FRAME_TRACE.setLevel(logging.INFO if off else logging.DEBUG)

    def describe_table(self, code: str) -> str:
        """What the server holds about a table: whose turn, who is connected, what it will do next."""
        server = self.server
        table = getattr(server, "tables", {}).get(code)
        if table is None:
            return "no such table in memory"
        text = f"table {table.status} at version {table.version}"
        state = table.state
        if state is not None:
            text += f", {state.public.phase.value}, seat {state.public.to_act} to act"
        with contextlib.suppress(Exception):
            seats = [
                "bot" if seat.is_bot else ("connected" if server._connected(table, i) else "away")
                for i, seat in enumerate(table.seats)
            ]
            text += f", seats {seats}, {len(server.followers.get(code, ()))} followers"
            text += f", a move scheduled: {code in server.timers}, may move: {server._may_move(table)}"
            lock = server.locks.get(code)
            text += f", its lock {'held' if lock is not None and lock.locked() else 'free'}"
            if isinstance(lock, OwnedLock) and lock.locked() and lock.owner is not None:
                held = time.monotonic() - lock.since
                text += f" for {held:.1f} s by: {' > '.join(waits_of(lock.owner))}"
            for sid in server.followers.get(code, ()):
                text += f"; follower {sid}: {self.socket_state(sid)}"
        return text

    def socket_state(self, sid: str) -> str:
        """The server's Engine.IO socket of a Socket.IO session: open or closing, its queue, its ping."""
        try:
            sio = self.server.sio
            eio_sid = sio.manager.eio_sid_from_sid(sid, "/")
            socket = sio.eio.sockets.get(eio_sid)
            if socket is None:
                return f"no Engine.IO socket ({eio_sid})"
            ping = "none" if not socket.last_ping else f"{time.time() - socket.last_ping:.1f} s ago"
            return (
                f"closing {socket.closing}, closed {socket.closed}, upgraded {socket.upgraded}, "
                f"queue {socket.queue.qsize()}, last ping {ping}"
            )
        except Exception as err:  # a diagnostic: never in the way of the report
            return repr(err)


class OwnedLock(asyncio.Lock):
    """A table's lock that remembers which task holds it and since when (to tell why a table waits)."""

    owner: asyncio.Task[Any] | None = None
    since = 0.0

    async def acquire(self) -> bool:
        await super().acquire()
        self.owner, self.since = asyncio.current_task(), time.monotonic()
        return True

    def release(self) -> None:
        self.owner = None
        super().release()


def waits_of(task: asyncio.Task[Any]) -> list[str]:
    """Where a task waits: its awaits from the outermost in."""
    chain, awaited = [], task.get_coro()
    while awaited is not None and hasattr(awaited, "cr_frame"):
        frame = awaited.cr_frame
        if frame is not None:
            where = "/".join(Path(frame.f_code.co_filename).parts[-2:])
            chain.append(f"{where}:{frame.f_lineno} {frame.f_code.co_name}")
        awaited = awaited.cr_await
    if awaited is not None:
        chain.append(repr(awaited)[:120])
    return chain


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
    import uvicorn

    from smear.server.app import SmearServer
    from smear.server.limits import Limits, Timing

    # Bots move at once; a finished hand stays up a moment. One address opens every socket and
    # table here, so the per-address limits are off (0), and so is the cap on tables in memory.
    timing = Timing(bot_pause=0.0, hand_pause=0.02, grace=0.1)
    limits = Limits(tables_per_hour=0, connections_per_address=0, max_tables=0, spectators_per_table=0)
    server = SmearServer(f"sqlite:///{database}", timing, limits)
    config = uvicorn.Config(
        server.asgi_app(), host="127.0.0.1", port=0, log_level="warning", lifespan="on", proxy_headers=False
    )
    uv = uvicorn.Server(config)
    task = asyncio.create_task(uv.serve())
    while not uv.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    port = uv.servers[0].sockets[0].getsockname()[1]
    try:
        yield server, f"http://127.0.0.1:{port}"
    finally:
        uv.should_exit = True
        await task


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
        server._lock = lambda table: server.locks.setdefault(table.code, OwnedLock())
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

    def add(self, result: dict[str, Any]) -> None:
        self.messages += int(result.get("log_lines", 0))
        self.leaks += int(result.get("leaks", 0))
        for kind, text in result.get("shown", []):
            if len(self.shown) < SHOWN or all(kind != seen for seen, _ in self.shown):
                self.shown.append((kind, text))
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
    print(f"leaks: {totals.leaks}")
    if totals.leaks:
        return 1
    return 2 if totals.errors or totals.matches < args.matches else 0


def main(argv: list[str] | None = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
