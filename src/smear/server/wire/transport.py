"""The transport's door: what reaches python-engineio, how many connections an address holds, and
how the server lets every session go when it stops.

python-engineio, as pinned, has three gaps that a client can reach from outside:

- A long-polling POST over ``max_http_buffer_size`` makes it close the session and wait until the
  client fetches the close packet, which a client that never polls again never does: the POST is
  never answered, and the server's shutdown waits for it for ever. Here such a POST is answered
  413 at once and its session closed; and the Engine.IO server closes a session without waiting
  (:class:`DoorEngine`), whatever asked for it.
- A POST to a session it has just closed raises inside the library (a 500 with a traceback); here
  it is answered 400.
- Sessions are not counted: an address could open any number of them without ever joining the
  Socket.IO namespace, where the per-address cap used to be counted. Here every Engine.IO session
  and every WebSocket is counted against its address from its first request
  (:class:`TransportCount`), and refused past the cap.

And when the server stops, :meth:`TransportDoor.stop` closes every session at once, so that no
long poll holds the stop up for the 45 seconds it may wait for packets.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import engineio  # type: ignore[import-untyped]
import orjson

from smear.server.limits import AddressBook, scope_address
from smear.server.web import SECURITY_HEADERS
from smear.server.wire.errorcodes import error_payload
from smear.server.wire.leansocket import FrameDropped, LeanSocket

ENGINE_PATH: Final = "/socket.io/"
# How much of a refused long-polling body is read and thrown away before the connection is given up.
REFUSED_BODY_READ_MAX: Final = 1 << 20
# Where the door leaves the ticket of a counted request, for the Engine.IO connect handler to find.
TICKET: Final = "smear.ticket"


class DoorEngine(engineio.AsyncServer):  # type: ignore[misc]
    """python-engineio's server, closing sessions without waiting for their clients."""

    async def disconnect(self, sid: str | None = None) -> None:
        """Close the session ``sid`` (every session without it) at once.

        The library's own waits until a long-polling client has fetched the close packet, for ever
        if it never polls again, and with it the request that asked and the server's shutdown. The
        close packet is still queued: a poll under way, or the WebSocket's writer, sends it.
        """
        for one in list(self.sockets) if sid is None else [sid]:
            socket = self.sockets.get(one)
            if socket is not None:
                await socket.close(wait=False, reason=self.reason.SERVER_DISCONNECT)
            self.sockets.pop(one, None)

    def lean(self, sid: str, dropped: FrameDropped) -> None:
        """Make session ``sid``, just opened, a :class:`LeanSocket` telling ``dropped`` of the frames
        it drops: the library makes its own class's."""
        socket = self.sockets.get(sid)
        if socket is not None and not isinstance(socket, LeanSocket):
            LeanSocket.adopt(socket, dropped)

    def session_open(self, sid: str) -> bool:
        socket = self.sockets.get(sid)
        return socket is not None and not socket.closed

    def on_polling(self, sid: str) -> bool:
        """Whether session ``sid`` is open and still served by long-polling (not upgraded)."""
        socket = self.sockets.get(sid)
        return socket is not None and not socket.closed and not socket.upgraded


@dataclass(eq=False)
class Ticket:
    """One counted transport connection of ``address``: a WebSocket, counted while its request
    lasts, or a long-polling session, counted from its handshake until the session ends."""

    address: str
    websocket: bool
    sid: str | None = None  # the Engine.IO session it opened, once it did
    released: bool = False


class TransportCount:
    """Per client address, the transport connections open now, against the per-address cap.

    The numbers are the :class:`AddressBook`'s. A WebSocket's ticket is given back when its request
    ends or its session closes, whichever comes first; a long-polling session's when it closes. A
    session's end is noticed by its Engine.IO disconnect event and, in case an end ever came without
    one (or the session moved to a WebSocket, counted on its own), by a look at the sessions still
    polling before an address is refused.
    """

    def __init__(self, book: AddressBook, on_polling: Callable[[str], bool]) -> None:
        self.book = book
        self._on_polling = on_polling
        self._by_session: dict[str, list[Ticket]] = {}

    def take(self, address: str, websocket: bool) -> Ticket | None:
        """A ticket for one more connection of ``address``, or None past its cap."""
        if not self.book.may_open(address):
            self._forget_ended(address)
            if not self.book.may_open(address):
                return None
        self.book.connected(address)
        return Ticket(address, websocket)

    def opened(self, sid: str, ticket: Ticket | None) -> None:
        """The request holding ``ticket`` opened Engine.IO session ``sid``."""
        if ticket is not None and not ticket.released:
            ticket.sid = sid
            self._by_session.setdefault(sid, []).append(ticket)

    def request_ended(self, ticket: Ticket) -> None:
        """The request that took ``ticket`` is over: a WebSocket's connection with it, and a
        long-polling handshake's if it opened no session."""
        if ticket.websocket or ticket.sid is None:
            self._release(ticket)

    def session_ended(self, sid: str) -> None:
        for ticket in self._by_session.pop(sid, []):
            self._release(ticket)

    def over_cap(self, address: str) -> bool:
        """Whether ``address`` holds more connections than its cap: then the one asking to join the
        Socket.IO namespace is the one past the cap, let in only to be told it is refused."""
        if self.book.over_cap(address):
            self._forget_ended(address)
        return self.book.over_cap(address)

    def _release(self, ticket: Ticket) -> None:
        if ticket.released:
            return
        ticket.released = True
        self.book.disconnected(ticket.address)
        if ticket.sid is not None:
            held = self._by_session.get(ticket.sid, [])
            if ticket in held:
                held.remove(ticket)
            if not held:
                self._by_session.pop(ticket.sid, None)

    def _forget_ended(self, address: str) -> None:
        """Give back the long-polling tickets of ``address`` whose sessions no longer poll."""
        for sid, tickets in list(self._by_session.items()):
            for ticket in list(tickets):
                if ticket.address == address and not ticket.websocket and not self._on_polling(sid):
                    self._release(ticket)


class TransportDoor:
    """ASGI middleware in front of the application: every request to the Engine.IO endpoint is
    counted (:class:`TransportCount`) and a long-polling POST's body is read here, within
    ``max_body`` bytes; :meth:`stop` lets every session go when the server stops."""

    def __init__(
        self,
        app: Any,
        engine: DoorEngine,
        count: TransportCount,
        trusted_proxies: tuple[str, ...],
        max_body: int,
        limited: Callable[[str], None] = lambda limit: None,
    ) -> None:
        self.app = app
        self.limited = limited  # a connection refused by a limit, told by the limit's name
        self.engine = engine
        self.count = count
        self.trusted_proxies = trusted_proxies
        self.max_body = max_body
        self.stopping = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket") or not (scope["path"] + "/").startswith(ENGINE_PATH):
            await self.app(scope, receive, send)
            return
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
        sid = query.get("sid", [None])[0]
        if kind == "websocket":
            await self._counted(scope, receive, send, websocket=True)
        elif scope.get("method") == "POST":
            await self._post(scope, receive, send, sid)
        elif scope.get("method") == "GET" and sid is None:
            await self._counted(scope, receive, send, websocket=False)
        else:
            await self.app(scope, receive, send)

    async def stop(self) -> None:
        """The server is stopping: no new session, and every session closed now, so that no poll
        waits for packets and every WebSocket is told."""
        self.stopping = True
        await self.engine.disconnect()

    async def _counted(self, scope: dict[str, Any], receive: Any, send: Any, websocket: bool) -> None:
        """A WebSocket, or a long-polling handshake, once its address has a place for it."""
        address = scope_address(scope, self.trusted_proxies)
        ticket = None if self.stopping else self.count.take(address, websocket)
        if ticket is None:
            if not self.stopping:
                self.limited("connections")
            if websocket:  # refused before it is accepted: the client gets a 403
                await send({"type": "websocket.close", "code": 1008})
            elif self.stopping:
                await _answer(send, 503, b"the server is stopping", b"text/plain")
            else:
                limit = self.count.book.limits.connections_per_address
                await _answer(send, 429, _error_json("too_many_connections", limit=limit))
            return
        scope[TICKET] = ticket
        try:
            await self.app(scope, receive, send)
        finally:
            self.count.request_ended(ticket)

    async def _post(self, scope: dict[str, Any], receive: Any, send: Any, sid: str | None) -> None:
        """A long-polling POST: its body read here, refused past ``max_body`` (its session closed
        at once), then handed to python-engineio; a POST to a session that is gone is a 400."""
        reader = _BodyReader(receive)
        declared = _declared_length(scope)
        body = None if declared > self.max_body else await reader.within(self.max_body)
        if reader.gone:
            return  # the client went away mid-body: there is no one to answer
        if body is None:
            if sid is not None:
                await self.engine.disconnect(sid)
            if declared <= REFUSED_BODY_READ_MAX:
                await reader.drain(REFUSED_BODY_READ_MAX)
            await _answer(send, 413, _error_json("message_too_large", limit=self.max_body))
            return
        if sid is None or not self.engine.session_open(sid):
            if sid is not None:  # closed by its client: python-engineio would fail on it
                self.engine.sockets.pop(sid, None)
            await _answer(send, 400, b"Invalid session", b"text/plain")
            return
        delivered = False

        async def replay() -> dict[str, Any]:
            nonlocal delivered
            if delivered:
                message: dict[str, Any] = await receive()
                return message
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class _BodyReader:
    """Reads an HTTP request's body through ASGI ``receive``, counting what it read."""

    def __init__(self, receive: Any) -> None:
        self._receive = receive
        self.read = 0
        self.done = False
        self.gone = False  # the client went away before the body's end

    async def chunk(self) -> bytes | None:
        """The body's next part, or None at its end."""
        if self.done:
            return None
        message = await self._receive()
        if message["type"] != "http.request":
            self.done = self.gone = True
            return None
        self.done = not message.get("more_body", False)
        data: bytes = message.get("body", b"")
        self.read += len(data)
        return data

    async def within(self, limit: int) -> bytes | None:
        """The whole body, or None as soon as it is past ``limit`` bytes (the rest left unread)."""
        body = bytearray()
        while (data := await self.chunk()) is not None:
            body += data
            if len(body) > limit:
                return None
        return bytes(body)

    async def drain(self, limit: int) -> None:
        """Read the rest of a refused body (up to ``limit`` bytes in all) and throw it away: a client
        sends its whole body before it reads the answer, and a connection closed with part of the
        body unread is reset, which would lose the answer on its way."""
        while self.read <= limit and await self.chunk() is not None:
            pass


def _declared_length(scope: dict[str, Any]) -> int:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length" and value.isdigit():
            return int(value)
    return 0


def _error_json(code: str, **args: int) -> bytes:
    return orjson.dumps({"error": error_payload(code, **args)})


async def _answer(send: Any, status: int, body: bytes, content_type: bytes = b"application/json") -> None:
    """An answer that closes the connection (what is left of the request is not read)."""
    headers = [(b"content-type", content_type), (b"connection", b"close"), *SECURITY_HEADERS]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
