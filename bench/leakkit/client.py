"""The leak benchmark's client connection: a Socket.IO client on the ``websockets`` library's sans-I/O
protocol over an asyncio transport, light enough for thousands at once, that keeps every message it
receives for the audit."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

import orjson
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from leakkit.audit import RawMessage
from leakkit.worker import Worker

WAIT = 120.0  # seconds without a new state before a waiting client counts its match as failed
CLOSE_WAIT = 5.0  # seconds a client waits for the server to end a connection it closed


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
