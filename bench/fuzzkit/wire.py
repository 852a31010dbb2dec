"""The fuzz benchmark's raw Socket.IO connection: one Engine.IO v4 / Socket.IO v5 connection over a
WebSocket, spoken frame by frame so it can send anything at all, and the probe (one message) it sends."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp


class Fuzzing(Protocol):
    """What a socket uses of the fuzzer that opens it (:class:`fuzzkit.run.Fuzzer`)."""

    ws_url: str
    http: aiohttp.ClientSession
    pushes: int
    connect_failures: Counter[str]


ACK_TIMEOUT = 30.0  # a well-formed request's ack (generous: the machine may be busy with other work)
SHAPE_WAIT = 2.0  # an ack for a malformed packet that asked for one, if it comes at all
PUSH_WAIT = 0.4  # an `error` push answering a request sent without an ack id
RAW_WAIT = 0.15  # after garbage: long enough to see the server close the socket or push an error
PACE = 15.0  # messages a second per connection, under the server's 20 (bursts go over on purpose)

CLOSED = "closed"  # the connection ended before an answer
NO_ANSWER = "no answer"


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

    def __init__(self, fuzzer: Fuzzing, role: str, on_push: Callable[[str, Any], None] | None = None) -> None:
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


async def wait_future(future: asyncio.Future[Any], wait: float) -> Any:
    try:
        return await asyncio.wait_for(future, wait)
    except TimeoutError:
        return NO_ANSWER
