"""The fuzz benchmark's tables: its tables of people (each seat on a connection of its own, watched by
spectators that track the version) and the honest table that plays beside the fuzzing."""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from fuzzkit.wire import CLOSED, Socket


class Fuzzing(Protocol):
    """What the tables use of the fuzzer (:class:`fuzzkit.run.Fuzzer`)."""

    args: argparse.Namespace
    stopping: bool

    def spawn(self, coroutine: Awaitable[Any]) -> None: ...

    async def open_socket(
        self, role: str, on_push: Callable[[str, Any], None] | None = None
    ) -> Socket | None: ...


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
        return [action["text"] for action in self.game.get("legal") or []]

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
        return {
            entry["seat"]
            for entry in seats
            if isinstance(entry, dict) and entry.get("bot") and isinstance(entry.get("seat"), int)
        }

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


# Of the honest person's turns, the share it asks a hint for first (every hint must be answered).
REPAIR_MARGIN = 2.0  # after a seat holder sent `disconnect`, wait this long past the grace, then resume
HONEST_HINTS = 0.5


class Honest:
    """The honest table: one person and bots, hints on. It times its own `act` acks, and asks for a
    hint before some of them (its outcomes apart: a hint is not timed)."""

    def __init__(self, fuzzer: Fuzzing) -> None:
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
        self.hints: Counter[str] = Counter()
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
        legal = [action["text"] for action in game.get("legal") or []]
        if legal and (game.get("public") or {}).get("to_act") == self.seat and version > self.acted:
            self.acted = version
            action = self.rng.choice(legal)
            payload = {"table": self.code, "token": self.token, "version": version, "action": action}
            self.busy = True  # until the act is answered: no second request for this turn meanwhile
            self.fuzzer.spawn(self.hint_then_act(payload, self.rng.random() < HONEST_HINTS))

    async def hint_then_act(self, payload: dict[str, Any], hint: bool) -> None:
        if hint and self.socket is not None:
            label, _ = await self.socket.call("hint", {"table": self.code, "token": self.token})
            self.hints[label] += 1
        await self.request("act", payload)

    async def request(self, event: str, payload: dict[str, Any]) -> None:
        if self.socket is None:
            self.busy = False
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
