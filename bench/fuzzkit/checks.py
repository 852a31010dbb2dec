"""The fuzz benchmark's check of its own tables (``state_changes_from_refused``): every version one
of them reaches must be explained by an accepted request of the fuzzer's, a deal or a bot's move.

Apart from the fuzzer because it is one check with counts of its own, which the report reads: the
fuzzer calls it after each request about a table, and it looks at every table now and then besides.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from fuzzkit.tables import REPAIR_MARGIN, TargetTable
from fuzzkit.wire import CLOSED, Socket, dumps, short


class Fuzzing(Protocol):
    """What the check of the tables uses of the fuzzer (:class:`fuzzkit.run.Fuzzer`)."""

    grace: float
    stopping: bool
    tables: list[TargetTable]
    reconnects: Counter[str]

    def spawn(self, coroutine: Awaitable[Any]) -> None: ...

    async def open_socket(
        self, role: str, on_push: Callable[[str, Any], None] | None = None
    ) -> Socket | None: ...


EVENT_WAIT = 15.0  # a version read whose `event` push has not arrived yet
CHECK_EVERY = 2.0  # seconds between two looks at every table, besides the look after each request

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


class Checker:
    """Explains every change to the fuzzer's tables, and counts the changes it cannot explain."""

    def __init__(self, fuzzer: Fuzzing) -> None:
        self.fuzzer = fuzzer
        self.changes = 0  # state_changes_from_refused
        self.change_notes: list[str] = []
        self.unverified = 0  # unexplained changes after a request whose ack was lost (not counted)

    async def read_version(self, table: TargetTable) -> int | None:
        """The table's version as the server has it now, from a spectator's `watch_table` ack."""
        for _ in range(2):
            reader = table.next_reader()
            if reader is None:
                self.fuzzer.spawn(self.repair_reader(table))
                return None
            await reader.pace()
            label, reply = await reader.call("watch_table", {"table": table.code})
            if label == "ok" and reply is not None and isinstance(reply.get("version"), int):
                table.version = max(table.version, reply["version"])
                return int(reply["version"])
            if label == CLOSED:
                self.fuzzer.spawn(self.repair_reader(table))
        return None

    async def repair_reader(self, table: TargetTable) -> None:
        table.readers = [r for r in table.readers if not r.is_closed]
        if self.fuzzer.stopping or len(table.readers) >= 2:
            return
        self.fuzzer.reconnects["spectator"] += 1
        reader = await self.fuzzer.open_socket(f"spectator of {table.label}", table.on_push)
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
                horizon = time.monotonic() - self.fuzzer.grace - 2 * REPAIR_MARGIN - CHECK_EVERY
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
        while not self.fuzzer.stopping:
            await asyncio.sleep(CHECK_EVERY)
            for table in self.fuzzer.tables:
                async with table.lock:
                    await self.check(table)
