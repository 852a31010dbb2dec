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
every phase. An honest table (one person and bots, hints on) plays beside it all the while.

What it checks:

- state_changes_from_refused: the fuzzer's own tables of people move only when a request it sent
  was accepted. Requests that name one of them go one at a time; after each, a spectator reads the
  table's version (a ``watch_table`` ack) and every version since the last check must be explained:
  by an accepted request of the matching kind, a deal (the server deals after a hand's summary) or a
  bot's move. Any other change counts, one per version.
- server_errors: tracebacks and ERROR lines in the server's log, HTTP answers of 500 and more, and
  ``internal_error`` acks.
- honest_p99_ms: the 99th percentile of the honest person's ``act`` acks, in milliseconds.

It prints a breakdown per kind of message (sent, acked ok, refused by code, error pushes for
requests sent without an ack, no answer, connection closed), the details of any failure, and ends
with these lines, exiting with 1 if server_errors or state_changes_from_refused is not 0 (2 if the
run could not finish). Ctrl-C or SIGTERM stops the sending early; the tables are still checked and
the figures so far printed::

    messages: M
    server_errors: N
    state_changes_from_refused: N
    honest_p99_ms: X

Usage: python bench/fuzz.py [--messages 100000] [--seed 1] [--workers 32] [--spectators 60]
                            [--kinds wrong,garbage,...] [--log FILE] [--max-seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import itertools
import json
import math
import random
import re
import signal
import string
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import serverproc
import yarl
from load import percentile, raise_file_limit

try:
    import uvloop
except ImportError:  # optional: the standard event loop does too
    uvloop = None  # type: ignore[assignment]

ACK_TIMEOUT = 30.0  # a well-formed request's ack (generous: the machine may be busy with other work)
SHAPE_WAIT = 2.0  # an ack for a malformed packet that asked for one, if it comes at all
PUSH_WAIT = 0.4  # an `error` push answering a request sent without an ack id
RAW_WAIT = 0.15  # after garbage: long enough to see the server close the socket or push an error
DEAF_WAIT = 5.0  # a plain request after an unanswered message: a connection that stays silent is deaf
EVENT_WAIT = 15.0  # a version read whose `event` push has not arrived yet
FLOOD_TIMEOUT = 90.0  # the acks of a hint flood (hints queue behind each other)
CHECK_EVERY = 2.0  # seconds between two looks at every table, besides the look after each request
PACE = 15.0  # messages a second per connection, under the server's 20 (bursts go over on purpose)
PROGRESS_EVERY = 10.0
DEFAULT_GRACE = 20.0  # the server's grace period when `smear serve` has no --grace option
GRACE = 3.0  # the grace period asked for: a seat wrongly taken for absent is played soon after
REPAIR_MARGIN = 2.0  # after a seat holder sent `disconnect`, wait this long past the grace, then resume
MAX_VERSION = 2**53 - 1

CLOSED = "closed"  # the connection ended before an answer
NO_ANSWER = "no answer"

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

# Message kinds and their weights. Each is a method of :class:`Fuzzer`: ``probe_<kind>`` makes one
# message about one of the fuzzer's tables (the kinds in TABLE_KINDS), ``kind_<kind>`` sends itself.
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

KNOWN_EVENTS = (
    "create_table",
    "join_table",
    "watch_table",
    "resume",
    "take_seat",
    "set_bot",
    "kick",
    "start",
    "act",
    "play_again",
    "leave",
    "hint",
    "react",
    "chat",
    "chat_history",
    "chat_settings",
    "mute",
    "list_table",
    "rematch",
)
# How often each event is picked for a wrong request.
WRONG_WEIGHTS = (3, 3, 1, 3, 3, 3, 3, 2, 14, 2, 2, 3, 1, 2, 1, 1, 1, 1, 1)
# The event an accepted request adds to its table's history: the only change it explains.
CHANGE_KIND = {
    "join_table": "joined",
    "take_seat": "seated",
    "set_bot": "bot",
    "kick": "kicked",
    "start": "started",
    "play_again": "started",
    "act": "action",
    "leave": "left",
}

CARDS = tuple(rank + suit for suit in "cdhs" for rank in "23456789TJQKA")
# Texts that are no action in record notation, nor another spelling of one.
NOT_ACTIONS = (
    "bid",
    "bid two",
    "bid 1234",
    "play Ah",
    "Ahh",
    "Zz",
    "trump x",
    "trump hearts please",
    "discard Zz",
    "pass pass",
    "widow now",
    "\u0000",
    "ＡＨ",
    "A♥",
    "undo",
    "x" * 160,
    "bid -1",
    "0x3",
)
# Actions to try in a phase where they do not belong (each is checked against the legal ones).
OUT_OF_PHASE = ("bid 2", "bid 3", "bid 5", "pass", "trump h", "trump s", "widow", "Ah", "7d", "Qc", "BJ")
# Names that fit the schema, and names it refuses.
ODD_NAMES = (
    "Ana",
    "  Zoë  ",
    "e\u0301e\u0301",
    "名前",
    "🃏 Joker",
    "Ω" * 24,
    "O'Brien <b>",
    "x\u200by",
    "Ｆｕｚｚ",
)
BAD_NAMES = (
    "",
    "   ",
    "\u202eevil",
    "a\u0000b",
    "line\u2028break",
    "\ue000",
    "\U000e0001",
    "x" * 25,
    "e\u0301" * 30,
    "\u200b",
    "\ud800",
    "\t\n",
)
UNKNOWN_NAMES = (
    "act ",
    "ACT",
    "Act",
    "act\u0000",
    "hint2",
    "",
    " ",
    "актер",
    "🃏",
    "__init__",
    "constructor",
    "toString",
    "on_connect",
    "create-table",
    "watch_table\n",
    "\ud800",
)
RESERVED_NAMES = ("connect", "disconnect", "*", "message", "connect_error", "error", "state", "event")
# Numbers that are no version or seat: out of range, not integers, or past what JSON readers hold.
ODD_NUMBERS: tuple[Any, ...] = (-1, 2**53, 2**64, -(2**63), 10**30, 0.0, 1.5, 21.0, True, False, None, "1")
RAW_NUMBERS = ("1e400", "-0", "NaN", "Infinity", "-Infinity", "0x10", "01", "1" + "0" * 5000, "1.0e2")
PRESETS = ("house", "ten_point", "no_jick", "cutthroat", "five_point", "mcleod", "widow", "nine_card")

CODE_CHARS = string.ascii_letters + string.digits + "_-"


def dumps(value: Any) -> str:
    """Compact JSON; non-ASCII as it is unless the text holds lone surrogates (not UTF-8)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"))
    return text


def short(text: str, limit: int = 90) -> str:
    """A frame or payload for a report line: cut, with its length when it was cut."""
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


def random_code(rng: random.Random) -> str:
    """A code of the server's format that no table has."""
    return "".join(rng.choice(CODE_CHARS) for _ in range(16))


def random_token(rng: random.Random) -> str:
    return "".join(rng.choice(CODE_CHARS) for _ in range(32))


def odd_text(rng: random.Random, text: str) -> str:
    """``text`` with a unicode oddity or a format problem."""
    variants: list[Callable[[str], str]] = [
        lambda s: s + "\n",
        lambda s: " " + s,
        lambda s: s.translate({ord(c): ord(c) + 0xFEE0 for c in string.ascii_letters + string.digits}),
        lambda s: s[:4] + "\u200b" + s[4:],
        lambda s: "\u202e" + s,
        lambda s: s + "\ud800",
        lambda s: "\u0430" + s[1:],  # a Cyrillic a
        lambda s: s + "\u0000",
        lambda s: "\ufeff" + s,
        lambda s: s * 10,
        lambda s: s[:7],
        lambda s: "",
        lambda s: s[:6] + "/../" + s[6:],
        lambda s: s[:5] + "%20" + s[5:],
    ]
    return rng.choice(variants)(text)


# --- probes: what is sent, and what came back -----------------------------------------------------------

Frame = tuple[str, str | bytes]  # ("text", str), ("binary", bytes) or ("bad_text", non-UTF-8 bytes)


@dataclass
class Probe:
    """One message to send. A request is ``head + ack id + body`` (the id only when ``ack``), then
    ``attachments``; raw ``frames`` are sent as they are instead."""

    kind: str
    note: str  # what it is, for the report
    body: str = ""
    head: str = "42"
    ack: bool = True
    event: str | None = None  # the event it names, when it is a well-formed request
    attachments: list[Frame] = field(default_factory=list)
    frames: list[Frame] | None = None
    wait: float = ACK_TIMEOUT
    poison: bool = False  # leaves the connection unusable (an attachment never sent): drop it after


def outcome_of(answer: Any) -> tuple[str, dict[str, Any] | None]:
    """A label for the breakdown ("ok", "refused: code", ...) and the ack's payload, if any."""
    if isinstance(answer, str):
        return answer, None
    if not isinstance(answer, list) or not answer:
        return "ack: empty", None
    reply = answer[0]
    if not isinstance(reply, dict):
        return "ack: not an object", None
    if reply.get("ok") is True:
        return "ok", reply
    error = reply.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return (f"refused: {code}" if isinstance(code, str) else "ack: odd"), reply


# --- a raw Socket.IO connection -------------------------------------------------------------------------


class Socket:
    """One Engine.IO v4 / Socket.IO v5 connection over a WebSocket, spoken frame by frame."""

    def __init__(self, fuzzer: Fuzzer, role: str, on_push: Callable[[str, Any], None] | None = None) -> None:
        self.fuzzer = fuzzer
        self.role = role
        self.on_push = on_push  # None: pushes are not decoded (a crowd spectator), except `error`
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.errors: list[Any] = []  # `error` pushes not yet claimed by a request
        self.error_arrived = asyncio.Event()
        self.closed = asyncio.Event()
        self.allowance = PACE
        self.paced = time.monotonic()
        self.reader: asyncio.Task[None] | None = None
        self.recent: deque[str] = deque(maxlen=1)  # the last message sent, for findings

    @property
    def is_closed(self) -> bool:
        return self.closed.is_set()

    async def open(self) -> bool:
        """Connect and join the default namespace; False (and closed) if that fails."""
        try:
            self.ws = await self.fuzzer.http.ws_connect(
                self.fuzzer.ws_url,
                max_msg_size=0,
                autoping=True,
                timeout=aiohttp.ClientWSTimeout(ws_close=2.0),
            )
            opening = await self.ws.receive(timeout=ACK_TIMEOUT)
            if opening.type is not aiohttp.WSMsgType.TEXT or not opening.data.startswith("0"):
                raise ConnectionError("no Engine.IO open packet")
            await self.ws.send_str("40")
            while True:
                reply = await self.ws.receive(timeout=ACK_TIMEOUT)
                if reply.type is not aiohttp.WSMsgType.TEXT:
                    raise ConnectionError("closed while joining the namespace")
                if reply.data.startswith("40"):
                    break
                if reply.data.startswith("44"):
                    raise ConnectionError(f"refused: {reply.data[2:120]}")
                if reply.data == "2":
                    await self.ws.send_str("3")
        except (aiohttp.ClientError, OSError, TimeoutError, ConnectionError) as error:
            self.fuzzer.connect_failures[f"{self.role}: {type(error).__name__} {error}"[:120]] += 1
            await self.close()
            return False
        self.reader = asyncio.get_running_loop().create_task(self._read())
        return True

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for message in self.ws:
                if message.type is aiohttp.WSMsgType.TEXT:
                    await self._on_text(message.data)
                elif message.type is not aiohttp.WSMsgType.BINARY:
                    break
        except (aiohttp.ClientError, OSError, ValueError, TimeoutError):
            pass
        finally:
            self._closed()

    async def _on_text(self, text: str) -> None:
        if text == "2":  # the server's ping
            await self.send_frames([("text", "3")])
        elif text.startswith("43"):
            digits = re.match(r"\d+", text[2:])
            if digits is None:
                return
            future = self.pending.pop(int(digits.group()), None)
            if future is not None and not future.done():
                try:
                    future.set_result(json.loads(text[2 + digits.end() :]))
                except ValueError:
                    future.set_result("ack: not JSON")
        elif text.startswith("42"):
            self.fuzzer.pushes += 1
            if self.on_push is None and not text.startswith('42["error"'):
                return
            try:
                data = json.loads(text[2:])
            except ValueError:
                return
            if not isinstance(data, list) or not data:
                return
            name, argument = data[0], (data[1] if len(data) > 1 else None)
            if name == "error":
                self.errors.append(argument)
                self.error_arrived.set()
            if self.on_push is not None:
                self.on_push(name, argument)
        elif text.startswith(("41", "44")) or text == "1":
            # Out of the namespace, or closed by the server: this connection is of no more use.
            await self.close()

    def _closed(self) -> None:
        self.closed.set()
        self.error_arrived.set()
        for future in self.pending.values():
            if not future.done():
                future.set_result(CLOSED)
        self.pending.clear()

    async def close(self) -> None:
        if self.ws is not None and not self.ws.closed:
            with contextlib.suppress(Exception):  # it is going away either way
                await asyncio.wait_for(self.ws.close(), 3.0)
        if self.reader is None:
            self._closed()

    async def pace(self, count: int = 1) -> None:
        """Wait as the server's token bucket would, at a rate a little under its own."""
        now = time.monotonic()
        self.allowance = min(PACE, self.allowance + (now - self.paced) * PACE)
        self.paced = now
        self.allowance -= count
        if self.allowance < 0:
            await asyncio.sleep(-self.allowance / PACE)

    async def send_frames(self, frames: Sequence[Frame]) -> bool:
        ws = self.ws
        if ws is None or ws.closed:
            return False
        try:
            for kind, data in frames:
                if kind == "text":
                    assert isinstance(data, str)
                    await ws.send_str(data)
                elif kind == "binary":
                    assert isinstance(data, bytes)
                    await ws.send_bytes(data)
                else:
                    assert isinstance(data, bytes)
                    await ws.send_frame(data, aiohttp.WSMsgType.TEXT)
        except (aiohttp.ClientError, OSError, RuntimeError):
            return False
        return True

    async def start(self, head: str, body: str, attachments: Sequence[Frame] = ()) -> asyncio.Future[Any]:
        """Send a request with an ack id, without waiting for the ack: the future gets the ack's
        array, or CLOSED. Requests started one after the other leave in that order."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.is_closed:
            future.set_result(CLOSED)
            return future
        ident = next(self.ids)
        self.pending[ident] = future
        if not await self.send_frames([("text", f"{head}{ident}{body}"), *attachments]):
            self.pending.pop(ident, None)
            if not future.done():
                future.set_result(CLOSED)
        return future

    async def ask(
        self, head: str, body: str, attachments: Sequence[Frame] = (), wait: float = ACK_TIMEOUT
    ) -> Any:
        future = await self.start(head, body, attachments)
        try:
            return await asyncio.wait_for(future, wait)
        except TimeoutError:
            return CLOSED if self.is_closed else NO_ANSWER

    async def call(
        self, event: str, payload: Any, wait: float = ACK_TIMEOUT
    ) -> tuple[str, dict[str, Any] | None]:
        """A well-formed request; its outcome label and ack payload."""
        return outcome_of(await self.ask("42", dumps([event, payload]), wait=wait))

    async def quiet(self, wait: float) -> str:
        """After frames that ask for no ack: an `error` push, the connection closing, or nothing."""
        deadline = time.monotonic() + wait
        while True:
            if self.errors:
                error = self.errors.pop(0)
                code = error.get("code") if isinstance(error, dict) else None
                return f"error push: {code}"
            if self.is_closed:
                return CLOSED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return NO_ANSWER
            self.error_arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.error_arrived.wait(), remaining)


# --- the tables -----------------------------------------------------------------------------------------


class Holder:
    """A person holding one seat at one of the fuzzer's tables, on a connection of its own."""

    def __init__(self, table: TargetTable, name: str) -> None:
        self.table = table
        self.name = name
        self.socket: Socket | None = None
        self.token = ""
        self.seat = -1
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.impaired = False  # it told the server it disconnected (or lost its socket): not until resumed

    def on_push(self, name: str, data: Any) -> None:
        if name != "state" or not isinstance(data, dict) or not isinstance(data.get("version"), int):
            return
        if data["version"] >= self.version:
            self.version = data["version"]
            self.view = data
            you = (data.get("table") or {}).get("you")
            if isinstance(you, int):
                self.seat = you

    @property
    def game(self) -> dict[str, Any]:
        game = (self.view or {}).get("game")
        return game if isinstance(game, dict) else {}

    def legal(self) -> list[str]:
        return list(self.game.get("legal") or [])

    def hand(self) -> list[str]:
        return list(self.game.get("hand") or [])


@dataclass
class TableSpec:
    label: str
    settings: dict[str, Any]
    started: bool = True
    frozen: bool = False  # nothing is ever accepted there: it must never move


TABLE_SPECS = (
    TableSpec("house-4", {"preset": "house", "players": 4, "teams": False}),
    TableSpec("ten_point-4-teams", {"preset": "ten_point", "players": 4, "teams": True, "hints": False}),
    TableSpec("five_point-4-kitty", {"preset": "five_point", "players": 4, "teams": True, "kitty": True}),
    TableSpec("cutthroat-3", {"preset": "cutthroat", "players": 3, "teams": False, "target": 11}),
    TableSpec("house-3-lobby", {"preset": "house", "players": 3, "teams": False}, started=False),
    TableSpec("widow-3", {"preset": "widow", "players": 3, "teams": False, "target": 11}),
    TableSpec("mcleod-4-teams", {"preset": "mcleod", "players": 4, "teams": True}),
    TableSpec("nine_card-4", {"preset": "nine_card", "players": 4, "teams": False, "target": 11}),
    TableSpec("house-4-hints", {"preset": "house", "players": 4, "teams": False}, frozen=True),
)


class TargetTable:
    """One of the fuzzer's tables of people, as its spectators (the readers) see it."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.label = spec.label
        self.code = ""
        self.holders: list[Holder] = []
        self.readers: list[Socket] = []
        self.lock = asyncio.Lock()  # one request naming this table at a time, then its check
        self.version = -1
        self.snapshot: dict[str, Any] = {}  # the latest spectator state
        self.events: dict[int, Any] = {}
        self.event_arrived = asyncio.Event()
        self.checked = -1  # every version up to this one is explained (or counted)
        self.accepted: dict[int, str] = {}  # version -> the event of the accepted request that made it
        self.recent: deque[str] = deque(maxlen=5)
        # Reserved events sent from seats here (when, what): their effect may come a grace period later.
        self.seat_events: deque[tuple[float, str]] = deque(maxlen=8)
        self.turn = 0

    def on_push(self, name: str, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("version"), int):
            return
        version = data["version"]
        if name == "state" and version >= self.version:
            self.version = version
            self.snapshot = data
            if data.get("event") is not None:  # the change that made this version
                self.events[version] = data["event"]
            self.event_arrived.set()
        elif name == "event":
            self.events[version] = data.get("event")
            self.version = max(self.version, version)
            self.event_arrived.set()

    @property
    def status(self) -> str:
        return str((self.snapshot.get("table") or {}).get("status", "lobby"))

    @property
    def host_seat(self) -> int | None:
        host = (self.snapshot.get("table") or {}).get("host")
        return host if isinstance(host, int) else None

    @property
    def public(self) -> dict[str, Any]:
        game = self.snapshot.get("game")
        return game if isinstance(game, dict) else {}

    @property
    def to_act(self) -> int | None:
        seat = self.public.get("to_act")
        return seat if isinstance(seat, int) and self.status == "playing" else None

    @property
    def bot_seats(self) -> set[int]:
        seats = (self.snapshot.get("table") or {}).get("seats") or []
        return {entry.get("seat") for entry in seats if isinstance(entry, dict) and entry.get("bot")}

    @property
    def hints(self) -> bool:
        return bool(self.spec.settings.get("hints", True))

    def holder_at(self, seat: int | None) -> Holder | None:
        return next((h for h in self.holders if h.seat == seat), None) if seat is not None else None

    def next_reader(self) -> Socket | None:
        open_readers = [r for r in self.readers if not r.is_closed]
        if not open_readers:
            return None
        self.turn += 1
        return open_readers[self.turn % len(open_readers)]


class Honest:
    """The honest table: one person and bots, hints on. It times its own `act` acks."""

    def __init__(self, fuzzer: Fuzzer) -> None:
        self.fuzzer = fuzzer
        self.rng = random.Random(fuzzer.args.seed)
        self.socket: Socket | None = None
        self.code = ""
        self.token = ""
        self.seat = 0
        self.version = -1
        self.acted = -1
        self.again = -1
        self.latencies: list[float] = []
        self.outcomes: Counter[str] = Counter()
        self.reconnects = 0
        self.latest: dict[str, Any] = {}
        self.busy = False  # a request is under way: the next waits for its ack

    def on_push(self, name: str, data: Any) -> None:
        if name != "state" or not isinstance(data, dict) or not isinstance(data.get("version"), int):
            return
        if data["version"] < self.version:
            return
        self.version = data["version"]
        self.latest = data
        table = data.get("table") or {}
        if isinstance(table.get("you"), int):
            self.seat = table["you"]
        self.consider()

    def consider(self) -> None:
        """Act on the latest state if it asks something of this person."""
        data, version = self.latest, self.version
        table = data.get("table") or {}
        if self.fuzzer.stopping or self.busy or not data:
            return
        if table.get("status") == "finished" and table.get("host") == self.seat and version > self.again:
            self.again = version
            self.fuzzer.spawn(self.request("play_again", {"table": self.code, "token": self.token}))
            return
        game = data.get("game") or {}
        legal = game.get("legal") or []
        if legal and (game.get("public") or {}).get("to_act") == self.seat and version > self.acted:
            self.acted = version
            action = self.rng.choice(legal)
            payload = {"table": self.code, "token": self.token, "version": version, "action": action}
            self.fuzzer.spawn(self.request("act", payload))

    async def request(self, event: str, payload: dict[str, Any]) -> None:
        if self.socket is None:
            return
        self.busy = True
        sent = time.monotonic()
        try:
            label, _ = await self.socket.call(event, payload)
            if event == "act" and label == "ok":
                self.latencies.append(time.monotonic() - sent)
            self.outcomes[f"{event}: {label}"] += 1
            if label == CLOSED:
                await self.reconnect()
        finally:
            self.busy = False
        self.consider()  # a state that came meanwhile may be this person's turn

    async def reconnect(self) -> None:
        """A lost connection comes back with `resume` (it should not happen: counted)."""
        while not self.fuzzer.stopping:
            self.reconnects += 1
            socket = await self.fuzzer.open_socket("honest", self.on_push)
            if socket is not None:
                self.socket = socket
                payload = {"table": self.code, "token": self.token, "version": max(0, self.version)}
                label, _ = await socket.call("resume", payload)
                if label == "ok":
                    return
            await asyncio.sleep(0.5)


# --- the server's log -----------------------------------------------------------------------------------


@dataclass
class LogFindings:
    tracebacks: Counter[str] = field(default_factory=Counter)  # signature -> count
    examples: dict[str, str] = field(default_factory=dict)  # signature -> the whole first one
    logged_before: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    error_lines: Counter[str] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)

    @property
    def errors(self) -> int:
        return sum(self.tracebacks.values()) + sum(self.error_lines.values())


ERROR_LINE = re.compile(r"^(ERROR|CRITICAL)\b|\b(ERROR|CRITICAL)[:\]]")


def scan_log(text: str) -> LogFindings:
    """Tracebacks (with the line logged before each), other ERROR lines, and warnings, counted."""
    found = LogFindings()
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("Traceback (most recent call last)"):
            message = lines[index - 1].strip() if index else ""
            start = index
            index += 1
            innermost = ""
            last = ""
            while index < len(lines):
                current = lines[index]
                if current.startswith("  File "):
                    innermost = current.strip()
                elif current and not current[0].isspace():
                    if current.startswith(("Traceback", "During handling", "The above exception")):
                        pass
                    else:
                        last = current.strip()
                        # A chained exception continues the same block.
                        following = lines[index + 2] if index + 2 < len(lines) else ""
                        if not following.startswith(("During handling", "The above exception")):
                            break
                index += 1
            # The exception and where it was raised, numbers left out: one line per kind of fault.
            where = re.sub(r'File ".*?(site-packages|src)/', 'File "', innermost)
            signature = re.sub(r"\d+", "N", f"{last[:110]} (raised at {where[:110]})")
            found.tracebacks[signature] += 1
            found.logged_before[signature][message[:80]] += 1
            found.examples.setdefault(signature, "\n".join(lines[max(0, start - 1) : index + 1]))
        elif ERROR_LINE.search(line):
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if following.startswith(": "):  # a message ending in a newline, then the exception
                line += following
                index += 1
            if not following.startswith("Traceback"):
                found.error_lines[re.sub(r"\d+", "N", line.strip())[:200]] += 1
        elif "WARNING" in line or "dropped" in line or "could not" in line:
            found.warnings[re.sub(r"\d+", "N", line.strip())[:160]] += 1
        index += 1
    return found


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
        self.budget = args.messages
        self.sent: Counter[str] = Counter()
        self.outcomes: dict[str, Counter[str]] = defaultdict(Counter)
        self.examples: dict[tuple[str, str], list[str]] = defaultdict(list)  # a few notes per outcome
        self.tables: list[TargetTable] = []
        self.honest = Honest(self)
        self.crowd: list[Socket] = []
        self.sockets: list[Socket] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        self.stopping = False
        self.started_at = time.monotonic()
        self.pushes = 0
        self.changes = 0  # state_changes_from_refused
        self.change_notes: list[str] = []
        self.unverified = 0  # unexplained changes after a request whose ack was lost (not counted)
        self.internal_errors: Counter[str] = Counter()
        self.http_errors: Counter[str] = Counter()
        self.connect_failures: Counter[str] = Counter()
        self.client_faults: Counter[str] = Counter()
        self.findings: Counter[str] = Counter()
        self.reconnects: Counter[str] = Counter()
        self.incomplete: list[str] = []

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
        version = await self.read_version(table)
        table.checked = max(table.version, version if version is not None else -1)

    async def must(self, socket: Socket, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        label, reply = await socket.call(event, payload)
        if label != "ok" or reply is None:
            raise SetupError(f"{event} answered {label}")
        return reply

    # --- checking the fuzzer's tables -------------------------------------------------------------------

    async def read_version(self, table: TargetTable) -> int | None:
        """The table's version as the server has it now, from a spectator's `watch_table` ack."""
        for _ in range(2):
            reader = table.next_reader()
            if reader is None:
                self.spawn(self.repair_reader(table))
                return None
            await reader.pace()
            label, reply = await reader.call("watch_table", {"table": table.code})
            if label == "ok" and reply is not None and isinstance(reply.get("version"), int):
                table.version = max(table.version, reply["version"])
                return int(reply["version"])
            if label == CLOSED:
                self.spawn(self.repair_reader(table))
        return None

    async def repair_reader(self, table: TargetTable) -> None:
        table.readers = [r for r in table.readers if not r.is_closed]
        if self.stopping or len(table.readers) >= 2:
            return
        self.reconnects["spectator"] += 1
        reader = await self.open_socket(f"spectator of {table.label}", table.on_push)
        if reader is not None:
            label, _ = await reader.call("watch_table", {"table": table.code})
            if label == "ok":
                table.readers.append(reader)

    async def check(self, table: TargetTable, lost_ack: bool = False) -> None:
        """Explain every version since the last check (call with the table's lock held)."""
        read = await self.read_version(table)
        latest = max(table.version, read if read is not None else -1)
        deadline = time.monotonic() + EVENT_WAIT
        for version in range(table.checked + 1, latest + 1):
            while version not in table.events and time.monotonic() < deadline:
                table.event_arrived.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.event_arrived.wait(), max(0.01, deadline - time.monotonic()))
            problem = self.unexplained(table, version, table.events.get(version))
            if problem is None:
                continue
            if lost_ack:
                self.unverified += 1
                continue
            self.changes += 1
            if len(self.change_notes) < 25:
                recent = "; ".join(table.recent) or "none"
                horizon = time.monotonic() - self.grace - 2 * REPAIR_MARGIN - CHECK_EVERY
                from_seats = "; ".join(
                    f"{note} ({time.monotonic() - when:.1f} s ago)"
                    for when, note in table.seat_events
                    if when > horizon
                )
                if from_seats:
                    recent += f"; and from seats: {from_seats}"
                self.change_notes.append(f"{table.label} {problem}; the requests before it: {recent}")
        table.checked = max(table.checked, latest)
        # The next request is made from the table's state: wait for the state of this version too.
        while table.snapshot.get("version", -1) < latest and time.monotonic() < deadline:
            table.event_arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.event_arrived.wait(), max(0.01, deadline - time.monotonic()))
        for old in [v for v in table.events if v < table.checked - 64]:
            del table.events[old]
        for old in [v for v in table.accepted if v < table.checked - 64]:
            del table.accepted[old]

    @staticmethod
    def unexplained(table: TargetTable, version: int, event: Any) -> str | None:
        """None if the change to ``version`` is explained; else what it was."""
        if not isinstance(event, dict):
            return f"version {version} came without an event"
        kind = event.get("kind")
        made_by = table.accepted.get(version)
        if made_by is not None and CHANGE_KIND.get(made_by) == kind:
            return None
        if kind == "deal":  # the server deals once a hand's summary has been shown
            return None
        if kind == "action" and event.get("seat") in table.bot_seats:
            return None
        return f"version {version}: {short(dumps(event), 120)}"

    async def monitor(self) -> None:
        """Every table is looked at now and then too: a refused request may move one later."""
        while not self.stopping:
            await asyncio.sleep(CHECK_EVERY)
            for table in self.tables:
                async with table.lock:
                    await self.check(table)

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
                await self.check(table, lost_ack=probe.ack and label in (NO_ANSWER, CLOSED))
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
                    await self.deliver(socket, partial(getattr(self, f"probe_{kind}"), rng, table), table)
                else:
                    await getattr(self, f"kind_{kind}")(socket, rng)
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

    def other_code(self, rng: random.Random, table: TargetTable | None = None) -> str:
        """A code of another real table, or of none."""
        codes = [t.code for t in self.tables if t is not table] + [self.honest.code]
        return rng.choice(codes) if rng.random() < 0.7 and codes else random_code(rng)

    def foreign_token(self, rng: random.Random, table: TargetTable) -> str:
        """A seat token of another of the fuzzer's tables, or a random one."""
        tokens = [h.token for t in self.tables if t is not table for h in t.holders]
        return rng.choice(tokens) if rng.random() < 0.8 and tokens else random_token(rng)

    # --- kind: valid ------------------------------------------------------------------------------------

    async def kind_valid(self, socket: Socket, rng: random.Random) -> None:
        """A legal move at one of the fuzzer's tables (or the host starting the next match)."""
        tables = [t for t in self.movable() if t.spec.started]
        if not tables:
            return
        table = rng.choice(tables)
        async with table.lock:
            made = self.valid_request(rng, table)
            if made is None or not self.reserve(1):
                return
            holder, event, payload = made
            assert holder.socket is not None
            await holder.socket.pace()
            probe = Probe(
                "valid", f"{event} {payload.get('action', '')}".strip(), dumps([event, payload]), event=event
            )
            label, reply = await self.exchange(holder.socket, probe)
            self.record("valid", label, note=probe.note)
            self.note_internal(probe, label)
            if label == "ok" and reply is not None and isinstance(reply.get("version"), int):
                table.accepted[reply["version"]] = event
            table.recent.append(f"valid {probe.note} -> {label}")
            await self.check(table, lost_ack=label in (NO_ANSWER, CLOSED))
            if label == CLOSED:
                self.spawn(self.repair_holder(holder, 0.0))

    def valid_request(
        self, rng: random.Random, table: TargetTable
    ) -> tuple[Holder, str, dict[str, Any]] | None:
        if table.status == "finished":
            host = table.holder_at(table.host_seat)
            if host is None or host.impaired:
                return None
            return host, "play_again", {"table": table.code, "token": host.token}
        holder = table.holder_at(table.to_act)
        if holder is None or holder.impaired or holder.version < table.version:
            return None
        action = self.legal_action(rng, holder)
        if action is None:
            return None
        return (
            holder,
            "act",
            {"table": table.code, "token": holder.token, "version": holder.version, "action": action},
        )

    @staticmethod
    def legal_action(rng: random.Random, holder: Holder) -> str | None:
        legal = holder.legal()
        if legal:
            return str(rng.choice(legal))
        discard = holder.game.get("discard")
        if isinstance(discard, dict):  # too many discards to list: build one from the rule
            required = list(discard.get("required") or [])
            choosable = list(discard.get("choosable") or [])
            count = int(discard.get("count") or 0)
            rng.shuffle(choosable)
            return "discard " + " ".join(required + choosable[: count - len(required)])
        return None

    # --- kind: wrong ------------------------------------------------------------------------------------

    def probe_wrong(self, rng: random.Random, table: TargetTable) -> Probe:
        event, payload, note = self.wrong_request(rng, table)
        probe = Probe("wrong", f"{event}: {note}", dumps([event, payload]), event=event)
        return probe

    def wrong_request(self, rng: random.Random, table: TargetTable) -> tuple[str, dict[str, Any], str]:
        """A request that fits the schema but that the table must refuse: (event, payload, why)."""
        event = rng.choices(KNOWN_EVENTS, WRONG_WEIGHTS)[0]
        code = table.code
        status = table.status
        players = int(table.spec.settings["players"])
        holders = table.holders
        host = table.holder_at(table.host_seat) or holders[0]
        guests = [h for h in holders if h is not host] or holders
        anyone = rng.choice(holders)
        out_of_range = rng.randint(players, 7) if players < 8 else 7
        if event == "act":
            return (event, *self.wrong_act(rng, table))
        if event == "join_table":
            if rng.random() < 0.2:
                return event, {"table": random_code(rng), "name": rng.choice(ODD_NAMES)}, "no such table"
            return event, {"table": code, "name": rng.choice(ODD_NAMES)}, "full or started table"
        if event == "watch_table":
            return event, {"table": random_code(rng)}, "no such table"
        if event == "resume":
            version = rng.choice([0, max(0, table.version - 1), table.version, MAX_VERSION])
            token = self.foreign_token(rng, table)
            return event, {"table": code, "token": token, "version": version}, "another table's token"
        if event == "take_seat":
            if status != "lobby":
                return (
                    event,
                    {"table": code, "token": anyone.token, "seat": rng.randrange(players)},
                    "not in lobby",
                )
            taken = [h.seat for h in holders if h is not anyone and h.seat >= 0]
            if rng.random() < 0.5 and taken:
                return event, {"table": code, "token": anyone.token, "seat": rng.choice(taken)}, "seat taken"
            if rng.random() < 0.5:
                return (
                    event,
                    {"table": code, "token": anyone.token, "seat": out_of_range},
                    "seat out of range",
                )
            token = self.foreign_token(rng, table)
            return (
                event,
                {"table": code, "token": token, "seat": rng.randrange(players)},
                "another table's token",
            )
        if event == "set_bot":
            seat = rng.randrange(players)
            if rng.random() < 0.4:
                return (
                    event,
                    {"table": code, "token": rng.choice(guests).token, "seat": seat, "bot": True},
                    "not host",
                )
            if status != "lobby":
                return event, {"table": code, "token": host.token, "seat": seat, "bot": True}, "not in lobby"
            if rng.random() < 0.5:
                return event, {"table": code, "token": host.token, "seat": seat, "bot": False}, "no bot there"
            bot = rng.random() < 0.5
            return (
                event,
                {"table": code, "token": host.token, "seat": out_of_range, "bot": bot},
                "seat out of range",
            )
        if event == "kick":
            if rng.random() < 0.4:
                return (
                    event,
                    {"table": code, "token": rng.choice(guests).token, "seat": host.seat},
                    "not host",
                )
            if status != "lobby":
                return (
                    event,
                    {"table": code, "token": host.token, "seat": rng.randrange(players)},
                    "not in lobby",
                )
            seat = rng.choice([host.seat, out_of_range])
            return event, {"table": code, "token": host.token, "seat": seat}, "own seat or out of range"
        if event == "start":
            if status == "playing" and rng.random() < 0.5:
                return event, {"table": code, "token": host.token}, "already started"
            return event, {"table": code, "token": rng.choice(guests).token}, "not host"
        if event == "play_again":
            if status != "finished" and rng.random() < 0.5:
                return event, {"table": code, "token": host.token}, "match not over"
            return event, {"table": code, "token": rng.choice(guests).token}, "not host"
        if event == "leave":
            if rng.random() < 0.2:
                return event, {"table": random_code(rng), "token": anyone.token}, "no such table"
            return event, {"table": code, "token": self.foreign_token(rng, table)}, "another table's token"
        if event == "hint":
            if not table.hints or status == "lobby":
                return event, {"table": code, "token": anyone.token}, "hints off or not started"
            waiting = [h for h in holders if h.seat != table.to_act]
            if table.to_act is not None and waiting:  # (between hands, the deal may make anyone's turn)
                return event, {"table": code, "token": rng.choice(waiting).token}, "not their turn"
            return event, {"table": code, "token": self.foreign_token(rng, table)}, "another table's token"
        talk = self.wrong_talk(rng, event, table)
        if talk is not None:
            return talk
        return event, self.refused_settings(rng), "settings the rules refuse"

    def wrong_talk(
        self, rng: random.Random, event: str, table: TargetTable
    ) -> tuple[str, dict[str, Any], str] | None:
        """A reaction, chat line, host's switch or rematch the table must refuse, or None for
        another event."""
        code = table.code
        host = table.holder_at(table.host_seat) or table.holders[0]
        guest = rng.choice([h for h in table.holders if h is not host] or table.holders)
        if event == "react":
            payload = {"table": code, "token": self.foreign_token(rng, table), "reaction": "oops"}
            return event, payload, "another table's token"
        if event == "chat":
            payload = {"table": code, "token": self.foreign_token(rng, table), "text": rng.choice(ODD_NAMES)}
            return event, payload, "another table's token"
        if event == "chat_history":
            return event, {"table": random_code(rng)}, "a table this socket does not follow"
        if event == "chat_settings":
            return event, {"table": code, "token": guest.token, "on": False, "spectators": True}, "not host"
        if event == "mute":
            return event, {"table": code, "token": guest.token, "seat": host.seat, "muted": True}, "not host"
        if event == "list_table":
            return event, {"table": code, "token": guest.token, "listed": True}, "not host"
        if event == "rematch":
            if table.status != "finished":
                return event, {"table": code, "token": host.token, "ready": True}, "match not over"
            return event, {"table": code, "token": self.foreign_token(rng, table), "ready": True}, "bad token"
        return None

    def wrong_act(self, rng: random.Random, table: TargetTable) -> tuple[dict[str, Any], str]:
        code, version = table.code, max(0, table.version)
        acting = table.holder_at(table.to_act)
        plausible = rng.choice(acting.legal() or list(OUT_OF_PHASE)) if acting else rng.choice(OUT_OF_PHASE)
        waiting = [h for h in table.holders if h is not acting]

        def act(token: str, at: int, action: str) -> dict[str, Any]:
            return {"table": code, "token": token, "version": at, "action": action}

        if acting is None:  # in the lobby, between hands, or the match is over
            return act(rng.choice(table.holders).token, version, plausible), f"no turn ({table.status})"
        choice = rng.randrange(8)
        if choice == 0 and waiting:
            return act(rng.choice(waiting).token, version, plausible), "not their turn"
        if choice == 1:
            return act(acting.token, rng.randint(0, max(0, version - 1)), plausible), "stale version"
        if choice == 2:
            ahead = rng.choice([version + 3, version + 1000, MAX_VERSION])
            return act(acting.token, min(ahead, MAX_VERSION), plausible), "future version"
        if choice == 3:
            return act(acting.token, version, self.illegal_action(rng, acting)), "illegal action"
        if choice == 4:
            return act(acting.token, version, rng.choice(NOT_ACTIONS)), "not an action"
        if choice == 5:
            return act(self.foreign_token(rng, table), version, plausible), "another table's token"
        if choice == 6:
            return {
                **act(acting.token, version, plausible),
                "table": self.other_code(rng, table),
            }, "other table"
        legal = set(acting.legal())
        card = rng.choice([c for c in CARDS if c not in legal] or list(CARDS))
        return act(acting.token, version, card), "a card (not held, or not playable now)"

    @staticmethod
    def illegal_action(rng: random.Random, holder: Holder) -> str:
        """An action the rules refuse for this holder now: a card not held, or out of phase."""
        legal = set(holder.legal())
        hand = set(holder.hand())
        discarding = isinstance(holder.game.get("discard"), dict)
        for _ in range(20):
            if rng.random() < 0.5:
                text = rng.choice([card for card in CARDS if card not in hand] or list(CARDS))
            else:
                text = rng.choice(OUT_OF_PHASE)
            if text not in legal and not (discarding and text.startswith("discard")):
                return text
        return "bid 99"

    @staticmethod
    def refused_settings(rng: random.Random) -> dict[str, Any]:
        """`create_table` settings of the right types that the rules refuse."""
        base = {"name": rng.choice(ODD_NAMES), "preset": "house", "players": 4, "teams": False}
        variant = rng.randrange(6)
        if variant == 0:
            return {**base, "players": 2}
        if variant == 1:
            return {**base, "kitty": True}
        if variant == 2:
            return {**base, "bot_level": "zzz"}
        if variant == 3:
            return {**base, "preset": "cutthroat", "players": 4}
        if variant == 4:
            return {**base, "preset": "five_point", "teams": False}
        return {**base, "preset": "mcleod", "players": 5, "teams": True}

    # --- kind: mutated and no_ack -----------------------------------------------------------------------

    def probe_mutated(self, rng: random.Random, table: TargetTable) -> Probe:
        if rng.random() < 0.1:
            event, payload, note = "create_table", self.refused_settings(rng), "settings"
            if rng.random() < 0.5:  # a valid table now and then: its mutations reach the rules
                payload = {
                    "name": rng.choice(ODD_NAMES),
                    "preset": rng.choice(PRESETS),
                    "players": 4,
                    "teams": True,
                }
        else:
            event, payload, note = self.wrong_request(rng, table)
        body, how = mutate(rng, event, payload)
        # Raw numbers past what JSON readers take make the packet undecodable: no ack can come.
        wait = SHAPE_WAIT if "(raw)" in how else ACK_TIMEOUT
        return Probe("mutated", f"{event}: {note}, {how}", body, event=event, wait=wait)

    def probe_no_ack(self, rng: random.Random, table: TargetTable) -> Probe:
        """A refused request sent without an ack id: the server should push an `error`."""
        event, payload, note = self.wrong_request(rng, table)
        if rng.random() < 0.3:
            body, how = mutate(rng, event, payload)
            note += f", {how}"
        else:
            body = dumps([event, payload])
        if rng.random() < 0.1:
            body, note = dumps([rng.choice(UNKNOWN_NAMES), payload]), "unknown event"
        return Probe("no_ack", f"{event}: {note}", body, ack=False, event=event, wait=PUSH_WAIT)

    # --- kinds: unknown events, reserved names, packet shapes -------------------------------------------

    def probe_unknown_event(self, rng: random.Random, table: TargetTable) -> Probe:
        _, payload, _ = self.wrong_request(rng, table)
        name: Any = (
            rng.choice(UNKNOWN_NAMES)
            if rng.random() < 0.6
            else "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 60)))
        )
        if rng.random() < 0.1:
            name = rng.choice([5, None, True, 1.5, {}, [], "a" * 3000])
        body = dumps([name, payload]) if rng.random() < 0.8 else dumps([name])
        return Probe("unknown_event", f"name {short(dumps(name), 40)}", body)

    async def kind_reserved(self, socket: Socket, rng: random.Random) -> None:
        """Events named as the server's own handlers: from a seat holder (which must not lose its
        seat by it), as a rate-limit reset, or from any connection."""
        roll = rng.random()
        if roll < 0.2:
            await self.reserved_from_seat(rng)
            return
        if roll < 0.28:
            await self.rate_reset(socket, rng)
            return
        table = rng.choice(self.tables)
        await self.deliver(socket, partial(self.probe_reserved, rng, table), table)

    def probe_reserved(self, rng: random.Random, table: TargetTable) -> Probe:
        event, payload, _ = self.wrong_request(rng, table)
        name = rng.choice(RESERVED_NAMES)
        shapes = [[name], [name, {}], [name, payload], [name, {"token": random_token(rng)}, {}]]
        if name == "*":
            shapes += [["*", event, payload], ["*", "watch_table", {"table": table.code}]]
        if name == "disconnect":
            shapes.append(["disconnect", "client namespace disconnect"])
        body = dumps(rng.choice(shapes))
        ack = rng.random() < 0.7
        return Probe("reserved", short(body, 60), body, ack=ack, wait=SHAPE_WAIT if ack else PUSH_WAIT)

    async def reserved_from_seat(self, rng: random.Random) -> None:
        """`disconnect` or `connect` from the connection of the seat to act. If the server took the
        seat for gone, it would play for it after the grace period: a change nobody asked for."""
        tables = [t for t in self.movable() if t.status == "playing"]
        if not tables:
            return
        table = rng.choice(tables)
        async with table.lock:
            holder = table.holder_at(table.to_act) or rng.choice(table.holders)
            if holder.impaired or holder.socket is None or holder.socket.is_closed or not self.reserve(1):
                return
            body = dumps(
                rng.choice([["disconnect"], ["disconnect", "transport close"], ["connect"], ["connect", {}]])
            )
            ack = rng.random() < 0.5
            probe = Probe(
                "reserved", f"from a seat: {body}", body, ack=ack, wait=SHAPE_WAIT if ack else PUSH_WAIT
            )
            await holder.socket.pace()
            label, _ = await self.exchange(holder.socket, probe)
            self.record("reserved", label, note=probe.note)
            table.recent.append(f"reserved {probe.note} -> {label}")
            table.seat_events.append((time.monotonic(), f"seat {holder.seat} sent {body} -> {label}"))
            holder.impaired = True
            await self.check(table)
        # Resume only once the grace period is over, so a seat wrongly taken for gone shows.
        self.spawn(self.repair_holder(holder, self.grace + REPAIR_MARGIN))

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
            await self.check(table)

    async def rate_reset(self, socket: Socket, rng: random.Random) -> None:
        """45 messages at once, then `connect`, then 5 more: if the 5 are answered, `connect`
        reset the rate limit (a finding, not a server error)."""
        count = self.reserve(51)
        if count < 51:
            self.record("reserved", "not sent (budget)", count)
            return
        body = dumps(["no_such_event", {}])
        first = [await socket.start("42", body) for _ in range(45)]
        await socket.send_frames([("text", '42["connect",{}]')])
        await asyncio.sleep(0.02)
        after = [await socket.start("42", body) for _ in range(5)]
        labels = [outcome_of(await self.wait_future(f, ACK_TIMEOUT))[0] for f in [*first, *after]]
        for label in labels:
            self.record("reserved", label)
        self.record("reserved", "connect sent without an ack id")
        if labels[-5:] and all(label == "refused: unknown_event" for label in labels[-5:]):
            self.findings[
                "rate limit reset by a `connect` event (45 sent, then connect, then 5 answered)"
            ] += 1
        await socket.pace(51)

    @staticmethod
    async def wait_future(future: asyncio.Future[Any], wait: float) -> Any:
        try:
            return await asyncio.wait_for(future, wait)
        except TimeoutError:
            return NO_ANSWER

    def probe_shape(self, rng: random.Random, table: TargetTable) -> Probe:
        """Socket.IO events whose array is wrong: empty, not an array, two data arguments, none."""
        event, payload, _ = self.wrong_request(rng, table)
        text = dumps(payload)
        bodies = [
            "[]",
            "{}",
            '"act"',
            "5",
            "null",
            "true",
            "",
            f'["{event}",{text},{text}]',
            f'["{event}",{text},{{}}]',
            f'["{event}",{text},null,1,"x"]',
            f'["{event}"]',
            f'["{event}",null]',
            f"[{text}]",
            f'[["{event}"],{text}]',
            f'{{"0":"{event}","1":{text}}}',
            f'"{event}",{text}',
        ]
        body = rng.choice(bodies)
        ack = rng.random() < 0.6 and not body[:1].isdigit()  # a digit would read as part of the ack id
        wait = SHAPE_WAIT if ack else PUSH_WAIT
        return Probe("shape", short(body or "(nothing)", 60), body, ack=ack, wait=wait)

    # --- kinds: size and depth --------------------------------------------------------------------------

    def probe_oversized(self, rng: random.Random, table: TargetTable) -> Probe:
        event, payload, _ = self.wrong_request(rng, table)
        roll = rng.random()
        if roll < 0.3:
            field_name = rng.choice(list(payload))
            size = rng.choice([4100, 5000, 9000])
            payload = {**payload, field_name: "A" * size}
            body, note = dumps([event, payload]), f"{field_name} of {size} chars"
        elif roll < 0.45:
            body, note = dumps([event, dumps(payload) + " " * 5000]), "payload as 5 KB of JSON text"
        elif roll < 0.6:
            body, note = dumps([event, {f"k{i}": i for i in range(700)}]), "700 fields"
        elif roll < 0.72:
            body, note = dumps(["x" * 10_000, payload]), "event name of 10,000 chars"
        elif roll < 0.97:
            size = rng.choice([16_500, 40_000])
            body, note = dumps([event, {**payload, "pad": "B" * size}]), f"frame over {size // 1000} KB"
        else:
            body, note = dumps([event, {**payload, "pad": "C" * 1_000_000}]), "frame of 1 MB"
        # Past the server's buffer (16 KB) the connection is closed: no ack comes then.
        wait = SHAPE_WAIT if len(body) > 16_000 else ACK_TIMEOUT
        return Probe("oversized", note, body, event=event, wait=wait)

    def probe_nested(self, rng: random.Random, table: TargetTable) -> Probe:
        """Deeply nested JSON: in the packet, in a field, and inside a payload given as text."""
        depth = rng.choice([1000, 5000, 5000, 20_000])
        event, payload, _ = self.wrong_request(rng, table)
        arrays = "[" * depth + "]" * depth
        objects = '{"a":' * (depth // 2) + "1" + "}" * (depth // 2)
        variants = [
            (f'["{event}",{arrays}]', f"arrays {depth} deep as the payload"),
            (f'["{event}",{{"table":{arrays}}}]', f"arrays {depth} deep in a field"),
            (f"[{arrays}]", f"arrays {depth} deep as the event name"),
            (f'["{event}",{objects}]', f"objects {depth // 2} deep as the payload"),
            (dumps([event, "[" * 2000 + "]" * 2000]), "arrays 2000 deep in the payload's JSON text"),
            (dumps([event, payload])[:-1] + "," + arrays + "]", f"arrays {depth} deep as a second argument"),
        ]
        body, note = rng.choice(variants)
        probe = Probe("nested", note, body, wait=SHAPE_WAIT)
        if rng.random() < 0.2:
            probe.ack, probe.wait = False, PUSH_WAIT
        return probe

    # --- kinds: garbage and binary frames ---------------------------------------------------------------

    async def kind_garbage(self, socket: Socket, rng: random.Random) -> None:
        frames = [
            "",
            "x",
            "4",
            "42",
            "42[",
            "42]",
            '42["act"',
            '42"act"',
            "4{}",
            "9",
            "7",
            "5",
            "6",
            "8",
            "0",
            "0{}",
            "2",
            "3",
            "2probe",
            "3probe",
            "40",
            "43",
            "43[]",
            "4399[{}]",
            "44{}",
            "47",
            "48[]",
            "49",
            "4" + "9" * 120 + '["act",{}]',
            "42" + "9" * 120 + '["act",{}]',
            "4-1[]",
            "42-5[]",
            "45-[]",
            "4512345678901-[]",
            '42/nsp,["act",{}]',
            '42/,["act"]',
            "40/admin,",
            "41/admin,",
            '42?x,["act"]',
            '42["act",{"table":"x",}]',
            '42["act",{"version":' + "1" + "0" * 5000 + "}]",
            '42["act",{"version":NaN}]',
            "42" + "\u0000" * 20,
            "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 200))),
            "4" + "".join(chr(rng.randint(0x80, 0x2FFF)) for _ in range(rng.randint(1, 50))),
            "1",
            "41",
        ]
        frame = rng.choice(frames)
        probe = Probe("garbage", short(frame or "(empty)", 50), frames=[("text", frame)], wait=RAW_WAIT)
        probe.poison = frame in ("1", "41")  # the client itself closed, or left the namespace
        await self.deliver(socket, lambda: probe, None)

    def probe_binary(self, rng: random.Random, table: TargetTable) -> Probe:
        """Binary frames alone, Socket.IO binary events with attachments, and non-UTF-8 text."""
        event, payload, _ = self.wrong_request(rng, table)
        placeholder = {"_placeholder": True, "num": 0}
        attachment = rng.choice(
            [
                dumps(payload).encode(),
                b"\xff\xfe\xfd" + dumps(payload).encode(),
                rng.randbytes(rng.randint(1, 300)),
            ]
        )
        variant = rng.randrange(11)
        if variant == 0:
            probe = Probe(
                "binary", "binary frame alone", frames=[("binary", rng.randbytes(rng.randint(0, 400)))]
            )
        elif variant == 1:
            probe = Probe(
                "binary",
                "binary frame b'4...'",
                frames=[("binary", b"42" + dumps([event, payload]).encode())],
            )
        elif variant == 2:
            body = dumps([event, placeholder])
            probe = Probe(
                "binary", "event with an attachment", body, head="451-", attachments=[("binary", attachment)]
            )
        elif variant == 3:
            body = dumps([event, {"table": placeholder, "token": "x" * 20}])
            probe = Probe(
                "binary", "attachment in a field", body, head="451-", attachments=[("binary", attachment)]
            )
        elif variant == 4:
            body = dumps([event, {"_placeholder": True, "num": rng.choice([3, -1, "0", None, 10**9])}])
            probe = Probe(
                "binary", "placeholder out of range", body, head="451-", attachments=[("binary", attachment)]
            )
        elif variant == 5:
            body = dumps([placeholder, payload])
            probe = Probe("binary", "binary event name", body, head="451-", attachments=[("binary", b"act")])
        elif variant == 6:
            body = dumps([event, placeholder, {"_placeholder": True, "num": 1}])
            probe = Probe("binary", "2 attachments announced, 1 sent", body, head="452-", poison=True)
            probe.attachments = [("binary", attachment)]
            probe.wait = SHAPE_WAIT
        elif variant == 7:
            # An Engine.IO text message as the attachment (any other text frame is not a message).
            body = dumps([event, placeholder])
            attachments: list[Frame] = [("text", "4" + dumps(payload))]
            probe = Probe(
                "binary", "text message as the attachment", body, head="451-", attachments=attachments
            )
        elif variant == 8:
            frames: list[Frame] = [("text", "461-5" + dumps([placeholder])), ("binary", attachment)]
            probe = Probe("binary", "binary ack from the client", frames=frames)
        elif variant == 9:
            encoded = base64.b64encode(b"42" + dumps([event, payload]).encode()).decode()
            probe = Probe("binary", "base64 message frame", frames=[("text", "b" + encoded)])
        else:
            raw = b'42["' + event.encode() + b'",{"table":"\xff\xfe' + table.code.encode() + b'"}]'
            probe = Probe("binary", "text frame not UTF-8", frames=[("bad_text", raw)])
        if variant in (2, 7):  # the attachment is the whole request: an accepted one explains its change
            probe.event = event
        if probe.frames is not None:
            probe.wait = RAW_WAIT
        elif rng.random() < 0.2 and not probe.poison:
            probe.ack, probe.wait = False, PUSH_WAIT
        elif not probe.poison:
            probe.wait = SHAPE_WAIT
        return probe

    # --- kinds: bursts, hint floods, spectators ---------------------------------------------------------

    async def kind_burst(self, socket: Socket, rng: random.Random) -> None:
        """Many requests at once on one connection: past the burst, `rate_limited`."""
        count = self.reserve(rng.randint(30, 60))
        bodies = []
        for _ in range(count):
            if rng.random() < 0.5:
                bodies.append(dumps([rng.choice(UNKNOWN_NAMES[:6]), {}]))
            else:  # wrong acts at tables that are not the fuzzer's own (they need no check)
                code = rng.choice([self.honest.code, random_code(rng)])
                act = {
                    "table": code,
                    "token": random_token(rng),
                    "version": rng.randint(0, 99),
                    "action": "Ah",
                }
                bodies.append(dumps(["act", act]))
        futures = [await socket.start("42", body) for body in bodies]
        for future in futures:
            label, _ = outcome_of(await self.wait_future(future, ACK_TIMEOUT))
            self.record("burst", label)
        await socket.pace(count)

    async def kind_hint_flood(self, socket: Socket, rng: random.Random) -> None:
        """Many `hint` requests at once for the seat to act at a table with hints on."""
        tables = [t for t in self.tables if t.hints and t.to_act is not None]
        if not tables:
            return
        table = rng.choice(tables)
        holder = table.holder_at(table.to_act)
        if holder is None:
            return
        count = self.reserve(rng.randint(8, 24))
        body = dumps(["hint", {"table": table.code, "token": holder.token}])
        futures = [await socket.start("42", body) for _ in range(count)]
        for future in futures:
            label, _ = outcome_of(await self.wait_future(future, FLOOD_TIMEOUT))
            self.record("hint_flood", label)
            if label.endswith("internal_error"):
                self.internal_errors["hint_flood: hint"] += 1
        await socket.pace(count)

    async def kind_crowd(self, socket: Socket, rng: random.Random) -> None:
        """Spectators that stay: most watch the honest table, the others the table of hints."""
        frozen = [t for t in self.tables if t.spec.frozen]
        code = self.honest.code if rng.random() < 0.75 or not frozen else frozen[0].code
        self.crowd = [s for s in self.crowd if not s.is_closed]
        if len(self.crowd) < self.args.spectators:
            spectator = await self.open_socket("spectator")
            if spectator is None:
                return
            self.crowd.append(spectator)
        else:
            spectator = rng.choice(self.crowd)
        # Not locked: watching changes nothing, and a check would only wait behind the crowd.
        probe = Probe("crowd", "watch_table", dumps(["watch_table", {"table": code}]))
        await self.deliver(spectator, lambda: probe, None)

    # --- kind: http -------------------------------------------------------------------------------------

    async def kind_http(self, socket: Socket, rng: random.Random) -> None:
        if not self.reserve(1):
            return
        codes = [t.code for t in self.tables] + [self.honest.code]
        code = rng.choice(
            [
                *codes,
                random_code(rng),
                "x",
                "A" * 3000,
                "%00",
                "%FF%FE",
                "..%2F..",
                "%E2%80%AE" + random_code(rng),
                "%D0%BA%D1%83%D1%85%D0%BD%D1%8F",
            ]
        )
        number = rng.choice(["0", "1", "2", "99999", str(2**31), str(2**63 - 1), str(2**63), str(2**64)])
        if rng.random() < 0.15:
            number = rng.choice([str(10**30), "1" * 400, "1" * 5000, "01", "-1", "1e3", "%31"])
        paths = [
            f"/tables/{code}/matches/{number}/record.json",
            f"/tables/{code}/matches/{number}/record.json",
            f"/tables/{code}/matches/{number}/record.json",
            "/health",
            "/health?x=" + "A" * 5000,
            "/",
            f"/t/{code}",
            "/nope",
            "/static/../../etc/passwd",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/" + "a" * 10_000,
            "/socket.io/",
            "/socket.io/?EIO=3&transport=websocket",
            "/socket.io/?EIO=4&transport=polling&sid=bogus",
            "/socket.io/?EIO=4&transport=bogus",
            "/tables/",
            f"/tables/{code}/matches/1/record.json/extra",
        ]
        path = rng.choice(paths)
        method = "GET" if rng.random() < 0.85 else rng.choice(["POST", "PUT", "DELETE", "HEAD", "OPTIONS"])
        try:
            async with self.http.request(
                method, yarl.URL(self.url + path, encoded=True), allow_redirects=False
            ) as response:
                await response.read()
                status = response.status
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
            self.record("http", f"http: {type(error).__name__}")
            return
        self.record("http", f"http {status}")
        if status >= 500:
            self.http_errors[f"{method} {short(path, 100)} -> {status}"] += 1

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
                f"tracebacks in the log {tracebacks}, state changes {self.changes}, "
                f"honest p99 {p99:.1f} ms over {len(latencies)} acts",
                flush=True,
            )
            if server.poll() is not None:
                self.incomplete.append(f"the server exited with status {server.returncode}")
                self.stopping = True

    async def wait_for_workers(self, workers: list[asyncio.Future[None]]) -> None:
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
                asyncio.ensure_future(self.monitor()),
                asyncio.ensure_future(self.progress(log_path, server)),
            ]
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
                    await self.check(table)
            for task in list(self.tasks):
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            await asyncio.gather(*(s.close() for s in self.sockets), return_exceptions=True)


class SetupError(RuntimeError):
    pass


# --- mutations ------------------------------------------------------------------------------------------


def mutate(rng: random.Random, event: str, payload: dict[str, Any]) -> tuple[str, str]:
    """The body of ``[event, payload]`` changed in one way; returns it and what was done."""
    fields = list(payload) or ["table"]
    name = rng.choice(fields)
    value = payload.get(name)
    choice = rng.randrange(14)
    if choice == 0:
        flipped: Any = rng.choice(
            [str(value), [value], {"v": value}, None, True, 0, -1, 21.0, "", 10**20]
            if not isinstance(value, str)
            else [len(value), None, [value], {"": value}, True, 1.5, value.encode().hex()]
        )
        return dumps([event, {**payload, name: flipped}]), f"{name} as {type(flipped).__name__}"
    if choice == 1:
        return dumps([event, {k: v for k, v in payload.items() if k != name}]), f"{name} dropped"
    if choice == 2:
        extra = rng.choice(
            [
                ("extra", 1),
                ("__proto__", {"ok": True}),
                ("", None),
                (name.upper(), value),
                (" " + name, value),
            ]
        )
        return dumps([event, {**payload, extra[0]: extra[1]}]), f"extra field {extra[0]!r}"
    if choice == 3:
        size = rng.choice([200, 3000, 4090])
        return dumps([event, {**payload, name: "Z" * size}]), f"{name} of {size} chars"
    if choice == 4 and isinstance(value, str):
        return dumps([event, {**payload, name: odd_text(rng, value)}]), f"odd {name}"
    if choice == 5:
        odd = (
            {**payload, "name": rng.choice(BAD_NAMES)}
            if "name" in payload
            else {**payload, name: rng.choice(BAD_NAMES)}
        )
        return dumps([event, odd]), "a name the schema refuses"
    if choice == 6:
        number_field = next((f for f in ("version", "seat", "players", "target") if f in payload), name)
        odd_number = rng.choice(ODD_NUMBERS)
        how = f"{number_field} = {short(dumps(odd_number), 30)}"
        return dumps([event, {**payload, number_field: odd_number}]), how
    if choice == 7:
        number_field = next((f for f in ("version", "seat", "players", "target") if f in payload), name)
        raw = rng.choice(RAW_NUMBERS)
        text = dumps({**payload, number_field: 0}).replace(
            f'"{number_field}":0', f'"{number_field}":{raw}', 1
        )
        return f'["{event}",{text}]', f"{number_field} = {short(raw, 20)} (raw)"
    if choice == 8:
        return dumps([event, dumps(payload)]), "payload as JSON text"
    if choice == 9:
        text = dumps(payload)
        broken = rng.choice(
            [text[:-1], text + "x", "NaN", "[]", "null", text.replace(":", "=", 1), "\ufeff" + text]
        )
        return dumps([event, broken]), "payload as broken JSON text"
    if choice == 10:
        text = dumps(payload)
        duplicate = text[:-1] + f',"{name}":' + dumps(rng.choice(["other", 0, None])) + "}"
        return f'["{event}",{duplicate}]', f"{name} given twice"
    if choice == 11:
        other = rng.choice([[], [payload], "x", 5, True, None, 1.5])
        return dumps([event, other]), f"payload is {type(other).__name__}"
    if choice == 12:
        return dumps([event, {k.title(): v for k, v in payload.items()}]), "field names capitalised"
    # (also where choice 4 found no text to change)
    odd_points = "\u0000\u202e\ud800\ufffe\U0010ffff"  # NUL, an override, a lone surrogate, non-characters
    return dumps([event, {**payload, name: odd_points}]), f"{name} of odd code points"


# --- the report -----------------------------------------------------------------------------------------


def report(fuzzer: Fuzzer, log: LogFindings, server_died: bool) -> tuple[int, int]:
    """Print the breakdown and the details; returns (server_errors, state changes)."""
    print()
    print(
        "per kind: sent, acked ok, refused by code, error pushes (requests sent without an ack id), "
        "no answer, connection closed"
    )
    for kind in KINDS:
        if not fuzzer.sent[kind]:
            continue
        outcomes = fuzzer.outcomes[kind]
        refused = Counter(
            {k[len("refused: ") :]: n for k, n in outcomes.items() if k.startswith("refused: ")}
        )
        pushed = Counter(
            {k[len("error push: ") :]: n for k, n in outcomes.items() if k.startswith("error push: ")}
        )
        other = {k: n for k, n in outcomes.items() if not k.startswith(("refused: ", "error push: ", "ok"))}
        parts = [f"sent {fuzzer.sent[kind]}", f"ok {outcomes['ok']}"]
        if refused:
            detail = ", ".join(f"{code} {n}" for code, n in refused.most_common())
            parts.append(f"refused {sum(refused.values())} ({detail})")
        if pushed:
            detail = ", ".join(f"{code} {n}" for code, n in pushed.most_common())
            parts.append(f"error push {sum(pushed.values())} ({detail})")
        parts += [f"{label} {n}" for label, n in sorted(other.items())]
        print(f"  {kind}: " + "; ".join(parts))
        # What was accepted though it should not have been, and what went unanswered.
        for label in sorted(outcomes):
            surprising = label in (NO_ANSWER, CLOSED) or label.startswith(("ack", "refused: internal"))
            if (label == "ok" and kind not in ("valid", "crowd", "hint_flood")) or surprising:
                for note in fuzzer.examples[(kind, label)]:
                    print(f"      {label}: {note}")
    honest = fuzzer.honest
    latencies = sorted(honest.latencies)
    p99 = percentile(latencies, 0.99) * 1000 if latencies else math.nan
    ms = ", ".join(
        f"{name} {percentile(latencies, q) * 1000:.1f}"
        for name, q in (("p50", 0.5), ("p90", 0.9), ("max", 1.0))
    )
    print(f"honest table: {len(latencies)} acts acknowledged ({ms} ms), reconnects {honest.reconnects}")
    others = {k: n for k, n in honest.outcomes.items() if not k.endswith(": ok")}
    if others:
        print(f"  honest requests not ok: {dict(others)}")
    if fuzzer.reconnects:
        print(f"connections opened again: {dict(fuzzer.reconnects)}")
    if fuzzer.connect_failures:
        print(f"connections refused or failed: {dict(fuzzer.connect_failures)}")
    print(f"pushes received: {fuzzer.pushes}; crowd of spectators: {len(fuzzer.crowd)}")
    for finding, count in fuzzer.findings.items():
        print(f"finding: {finding}: {count}")
    if fuzzer.unverified:
        print(
            "changes not verified (the request's ack was lost, so it may have been accepted): "
            f"{fuzzer.unverified}"
        )
    if log.warnings:
        print("server warnings (by kind):")
        for line, count in log.warnings.most_common(12):
            print(f"  {count} x {line}")
    http_errors = sum(fuzzer.http_errors.values())
    internal = sum(fuzzer.internal_errors.values())
    server_errors = log.errors + http_errors + internal + int(server_died)
    if server_errors:
        print("server errors:")
        for signature, count in log.tracebacks.most_common():
            before = ", ".join(f"{line!r} x {n}" for line, n in log.logged_before[signature].most_common(6))
            print(f"  traceback x {count}: {signature}; logged after: {before}")
        for signature in list(log.examples)[:3]:
            print("    " + log.examples[signature][-1500:].replace("\n", "\n    "))
        for line, count in log.error_lines.most_common(10):
            print(f"  error line x {count}: {line}")
        for line, count in fuzzer.http_errors.most_common(10):
            print(f"  HTTP x {count}: {line}")
        for line, count in fuzzer.internal_errors.most_common(10):
            print(f"  internal_error ack x {count}: {line}")
        if server_died:
            print("  the server exited during the run")
    if fuzzer.changes:
        print("state changes after refused requests:")
        for note in fuzzer.change_notes:
            print(f"  {note}")
    if fuzzer.client_faults:
        print(f"faults of this benchmark (not the server's): {dict(fuzzer.client_faults)}")
    for problem in fuzzer.incomplete:
        print(f"incomplete: {problem}")
    sent = sum(fuzzer.sent.values())
    print(f"messages: {sent}")
    print(f"server_errors: {server_errors}")
    print(f"state_changes_from_refused: {fuzzer.changes}")
    print(f"honest_p99_ms: {p99:.1f}")
    return server_errors, fuzzer.changes


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
        command = serverproc.serve_command(port, f"sqlite:///{workdir}/fuzz.db", options)
        server = serverproc.launch(command, log_path)
        print(f"server: {' '.join(command[1:])} (pid {server.pid}), log {log_path}", flush=True)
        try:
            url = f"http://127.0.0.1:{port}"
            serverproc.wait_healthy(url, server)
            fuzzer = Fuzzer(args, url, grace)
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
        server_errors, changes = report(fuzzer, findings, server_died)
        if server_errors or changes:
            return 1
        return 2 if fuzzer.incomplete else 0


if __name__ == "__main__":
    sys.exit(main())
