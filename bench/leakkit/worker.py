"""One leak benchmark process's shared state: its server, HTTP session, log audit and counts
(:class:`Worker`), which the clients and the people it plays with use, and what it tells of a table
that waits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from leakkit.log import LogAudit

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
        table = getattr(getattr(server, "live", None), "tables", {}).get(code)
        if table is None:
            return "no such table in memory"
        text = f"table {table.status} at version {table.version}"
        state = table.state
        if state is not None:
            text += f", {state.public.phase.value}, seat {state.public.to_act} to act"
        with contextlib.suppress(Exception):
            seats = [
                "bot" if seat.is_bot else ("connected" if server.presence.connected(table, i) else "away")
                for i, seat in enumerate(table.seats)
            ]
            text += f", seats {seats}, {len(server.live.followers.get(code, ()))} followers"
            may_move = server.presence.may_move(table)
            text += f", a move scheduled: {code in server.live.timers}, may move: {may_move}"
            lock = server.live.locks.get(code)
            text += f", its lock {'held' if lock is not None and lock.locked() else 'free'}"
            if isinstance(lock, OwnedLock) and lock.locked() and lock.owner is not None:
                held = time.monotonic() - lock.since
                text += f" for {held:.1f} s by: {' > '.join(waits_of(lock.owner))}"
            for sid in server.live.followers.get(code, ()):
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

    async def acquire(self) -> Literal[True]:
        await super().acquire()
        self.owner, self.since = asyncio.current_task(), time.monotonic()
        return True

    def release(self) -> None:
        self.owner = None
        super().release()


def waits_of(task: asyncio.Task[Any]) -> list[str]:
    """Where a task waits: its awaits from the outermost in."""
    chain: list[str] = []
    awaited: Any = task.get_coro()  # a coroutine, or what it awaits (a future, a generator)
    while awaited is not None and hasattr(awaited, "cr_frame"):
        frame = awaited.cr_frame
        if frame is not None:
            where = "/".join(Path(frame.f_code.co_filename).parts[-2:])
            chain.append(f"{where}:{frame.f_lineno} {frame.f_code.co_name}")
        awaited = awaited.cr_await
    if awaited is not None:
        chain.append(repr(awaited)[:120])
    return chain
