"""The one door every client packet goes through before it reaches the game.

python-socketio dispatches a client event by its name, so a client could call the server's own
``connect``, ``disconnect`` or catch-all ``*`` handlers by naming them, and a packet that does not
decode raises inside the library and logs a traceback. Here every decoded event goes to a single
dispatch function with the event's name and arguments as sent, whatever they are; frames that do
not decode are dropped with one throttled log line; and a refused request sent without an ack is
answered with an ``error`` push.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import orjson
import socketio  # type: ignore[import-untyped]
from engineio import packet as eio_packet  # type: ignore[import-untyped]
from socketio import packet as sio_packet

from smear.server.limits import AddressBook, Limits
from smear.server.wire.protocol import NOT_JSON, NotJson
from smear.server.wire.transport import TICKET, DoorEngine, TransportCount

# Receives (sid, the event's array as sent) and returns the ack; it never raises.
Dispatch = Callable[[str, Any], Awaitable[dict[str, Any]]]


class LogThrottle:
    """At most one log line per ``every`` seconds and kind, saying how many were left out meanwhile."""

    def __init__(self, logger: logging.Logger | None = None, every: float = 10.0) -> None:
        self.logger = logger
        self.every = every
        self._last: dict[str, float] = {}
        self._skipped: dict[str, int] = {}

    def admit(self, kind: str) -> str | None:
        """None while a line of ``kind`` was written less than ``every`` seconds ago (this one is
        counted as left out); else the suffix saying how many were left out since ("" for none)."""
        now = time.monotonic()
        if now - self._last.get(kind, -self.every) < self.every:
            self._skipped[kind] = self._skipped.get(kind, 0) + 1
            return None
        self._last[kind] = now
        skipped = self._skipped.pop(kind, 0)
        return f" ({skipped} more since the last such line)" if skipped else ""

    def warn(self, kind: str, event: str, message: str, *args: object, **fields: object) -> None:
        """A warning line of ``event`` with ``fields`` (JSON fields), unless ``kind`` had one lately."""
        self.line(logging.WARNING, kind, event, message, *args, **fields)

    def line(self, level: int, kind: str, event: str, message: str, *args: object, **fields: object) -> None:
        """A line at ``level`` of ``event`` with ``fields``, unless ``kind`` had one lately."""
        suffix = self.admit(kind)
        if suffix is not None and self.logger is not None:
            self.logger.log(level, message + suffix, *args, extra={"event": event, **fields})


class OneLine(logging.Filter):
    """Turns a record with a traceback into one line naming the exception, throttled per message.

    Given to the Socket.IO and Engine.IO loggers: whatever a client sends, they print no traceback,
    and what they call an error (an unknown session, transport or protocol version) is a client's
    fault, written as a warning: an ERROR line is the server's own bug.
    """

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self.every = every
        self._last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            # The type only: the error's text may quote what a client sent (a chat line, a token).
            record.msg = f"{record.getMessage()}: {type(error).__name__}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        now = time.monotonic()
        key = str(record.msg)[:80]
        if now - self._last.get(key, -self.every) < self.every:
            return False
        self._last[key] = now
        return True


def quiet_logger(name: str) -> logging.Logger:
    """A library logger that reports warnings and errors in one line each, throttled."""
    logger = logging.getLogger(name)
    logger.setLevel(logging.WARNING)
    if not any(isinstance(f, OneLine) for f in logger.filters):
        logger.addFilter(OneLine())
    return logger


class WireJson:
    """The JSON module of the server's packets: orjson out, so that parts already encoded
    (:data:`~smear.server.wire.protocol.Encoded`) are placed as they are; orjson in, and the
    standard module for what orjson refuses (NaN, Infinity, numbers past 64 bits, lone surrogates),
    each NaN, Infinity or number too large for a float read as :data:`NOT_JSON`, so that the
    message it is in is refused as ``malformed_json`` (see ``smear.server.wire.protocol``)."""

    @staticmethod
    def dumps(data: Any, **_options: Any) -> str:
        return orjson.dumps(data).decode()  # always compact, as the library asks

    @staticmethod
    def loads(text: str | bytes, **_options: Any) -> Any:
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            return json.loads(text, parse_constant=_not_json, parse_float=_float_or_not_json)


def _not_json(_name: str) -> NotJson:
    return NOT_JSON


def _float_or_not_json(text: str) -> float | NotJson:
    number = float(text)
    return number if math.isfinite(number) else NOT_JSON


class TextPacket(sio_packet.Packet):  # type: ignore[misc]
    """A Socket.IO packet the server sends as JSON text, never with binary attachments.

    Everything the server sends is JSON, so the library's search of each outgoing payload for
    bytes (a walk of the whole state, a fifth of the server's time in a busy match) is skipped.
    A client's binary events still decode: their type comes from the wire.
    """

    uses_binary_events = False
    json = WireJson


class GuardedServer(socketio.AsyncServer):  # type: ignore[misc]
    """python-socketio's server with every client event sent to one ``dispatch`` function, its
    Engine.IO sessions counted per address (:attr:`transport`, filled by the
    :class:`~smear.server.wire.transport.TransportDoor` in front) and closed without waiting."""

    def __init__(
        self, dispatch: Dispatch, drops: LogThrottle, addresses: AddressBook | None = None, **options: Any
    ) -> None:
        super().__init__(serializer=TextPacket, **options)
        self._dispatch = dispatch
        self._drops = drops
        self._answering: set[asyncio.Task[None]] = set()
        # Without an address book, nothing is capped (the benchmarks' bare transport).
        book = addresses or AddressBook(Limits(connections_per_address=0))
        self.transport = TransportCount(book, self.eio.on_polling)

    def _frame_dropped(self, why: str) -> None:
        self._drops.warn("frame", "frame_dropped", "dropped an Engine.IO frame: %s", why, error=why)

    def _engineio_server_class(self) -> type[DoorEngine]:
        return DoorEngine

    async def _handle_eio_connect(self, eio_sid: str, environ: dict[str, Any]) -> Any:
        scope = environ.get("asgi.scope") or {}
        self.transport.opened(eio_sid, scope.get(TICKET))
        self.eio.lean(eio_sid, self._frame_dropped)
        return await super()._handle_eio_connect(eio_sid, environ)

    async def _handle_eio_disconnect(self, eio_sid: str, reason: Any) -> None:
        # The address's place is free before its socket leaves the namespace, so that whoever
        # learns of the leaving finds the place free.
        self.transport.session_ended(eio_sid)
        await super()._handle_eio_disconnect(eio_sid, reason)

    async def send(self, event: str, data: Any, sids: Iterable[str], namespace: str = "/") -> None:
        """``emit`` one message to each of ``sids``, in order, without python-socketio's task per
        recipient and wait for them all: the packet is encoded once and queued to each socket in
        turn, and nothing here waits. So a socket's writer finds every message of a broadcast
        queued together and sends them at one wake-up. A socket gone meanwhile is skipped."""
        encoded = self.packet_class(sio_packet.EVENT, namespace=namespace, data=[event, data]).encode()
        message = eio_packet.Packet(eio_packet.MESSAGE, encoded)
        sockets = self.eio.sockets
        for sid in sids:
            socket = sockets.get(self.manager.eio_sid_from_sid(sid, namespace))
            if socket is not None and not socket.closed:
                await socket.send(message)

    async def _handle_eio_message(self, eio_sid: str, data: Any) -> None:
        try:
            await super()._handle_eio_message(eio_sid, data)
        except Exception as error:  # a Socket.IO packet that does not decode
            # A binary event whose attachments do not fit would otherwise stay pending and take
            # every later message of the socket as one more attachment.
            self._binary_packet.pop(eio_sid, None)
            self._drops.warn(
                "packet",
                "packet_dropped",
                "dropped an undecodable Socket.IO packet: %s",
                type(error).__name__,
                error=type(error).__name__,
            )

    async def _handle_event(self, eio_sid: str, namespace: str | None, id: int | None, data: Any) -> None:
        namespace = namespace or "/"
        sid = self.manager.sid_from_eio_sid(eio_sid, namespace)
        if sid is None or not self.manager.is_connected(sid, namespace):
            return
        task = asyncio.get_running_loop().create_task(self._answer(sid, eio_sid, namespace, id, data))
        self._answering.add(task)
        task.add_done_callback(self._answering.discard)

    async def _answer(self, sid: str, eio_sid: str, namespace: str, id: int | None, data: Any) -> None:
        reply = await self._dispatch(sid, data)
        try:
            if id is not None:
                await self._send_packet(
                    eio_sid, self.packet_class(sio_packet.ACK, namespace=namespace, id=id, data=[reply])
                )
            elif not reply.get("ok", False):
                await self.emit("error", reply["error"], to=sid, namespace=namespace)
        except Exception as error:  # the socket went away meanwhile
            self._drops.warn(
                "reply",
                "reply_lost",
                "could not answer a closed socket: %s",
                type(error).__name__,
                error=type(error).__name__,
            )


def page_may_connect(origin: str | None, environ: dict[str, Any], others: tuple[str, ...]) -> bool:
    """A page may open a socket if it comes from the server's own host or a configured origin.

    A request without an Origin header comes from no web page (a program), which CORS does not govern.
    """
    if origin is None:
        return True
    host = str(environ.get("HTTP_HOST") or "")
    return origin in others or (bool(host) and origin.partition("://")[2] == host)


class ClientFaultsAsWarnings(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 as an error with a traceback; it is the
    client's fault, so it becomes one warning line, at most one per ``every`` seconds (saying how
    many were left out meanwhile), so that a client sending such frames cannot flood the log.
    Every other record passes as it is."""

    FAULTS = ("Invalid UTF-8 sequence received from client",)

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self._throttle = LogThrottle(every=every)

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.FAULTS):
            return True
        suffix = self._throttle.admit("not utf-8")
        if suffix is None:
            return False
        error = record.exc_info[1] if record.exc_info else None
        message = f"{record.getMessage()} ({type(error).__name__})" if error else record.getMessage()
        record.msg = message + suffix
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.event = "frame_not_utf8"
        return True


class CutsAtStopInOneLine(logging.Filter):
    """A request still under way when the server's grace for stopping runs out (a body half sent
    and never finished) is cancelled, and uvicorn logs the cancellation with a traceback; it becomes
    one warning line, at most one per ``every`` seconds."""

    CUT = "timeout graceful shutdown exceeded"  # the message uvicorn cancels such a request with

    def __init__(self, every: float = 10.0) -> None:
        super().__init__()
        self._throttle = LogThrottle(every=every)

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, asyncio.CancelledError) or self.CUT not in str(error):
            return True
        suffix = self._throttle.admit("cut")
        if suffix is None:
            return False
        record.msg = "a request still under way was cut as the server stopped" + suffix
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.event = "request_cut_at_stop"
        return True


def quiet_client_faults(name: str = "uvicorn.error") -> None:
    """uvicorn's error log gets client faults, and the requests cut at a stop, in one line each."""
    logger = logging.getLogger(name)
    for kind in (ClientFaultsAsWarnings, CutsAtStopInOneLine):
        if not any(isinstance(f, kind) for f in logger.filters):
            logger.addFilter(kind())
