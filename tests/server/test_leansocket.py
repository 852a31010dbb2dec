"""LeanSocket: python-engineio's WebSocket session writing at once, in order, and ending as the
library's does; tried on a WebSocket stand-in whose peer can be made slow to read."""

from __future__ import annotations

import asyncio
from typing import Any

import engineio  # type: ignore[import-untyped]
from engineio import packet
from engineio.async_socket import AsyncSocket  # type: ignore[import-untyped]

from smear.server.wire.leansocket import LeanSocket


class StandIn:
    """A WebSocket as python-engineio's ASGI driver hands it over: frames in, frames out."""

    def __init__(self) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[str] = []
        self.slow = asyncio.Event()  # cleared: the peer reads nothing until it is set
        self.slow.set()
        self.closed = asyncio.Event()

    async def asgi_receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send(self, frame: str) -> None:
        await self.slow.wait()
        self.sent.append(frame)

    async def close(self) -> None:
        self.closed.set()

    def frame(self, text: str) -> None:
        self.incoming.put_nowait({"type": "websocket.receive", "text": text})


def lean_session(dropped: list[str]) -> LeanSocket:
    server = engineio.AsyncServer(async_mode="asgi")
    session = AsyncSocket(server, "sid-1")
    server.sockets["sid-1"] = session
    LeanSocket.adopt(session, dropped.append)
    assert isinstance(session, LeanSocket)
    return session


def message(text: str) -> Any:
    return packet.Packet(packet.MESSAGE, data=text)


def test_packets_keep_their_order_behind_a_peer_slow_to_read() -> None:
    async def scenario() -> None:
        dropped: list[str] = []
        session, ws = lean_session(dropped), StandIn()
        handler = asyncio.create_task(session._websocket_handler(ws))
        await asyncio.sleep(0)
        await session.send(message("first"))  # straight to the WebSocket
        assert ws.sent == ["4first"] and session.queue.empty()
        ws.slow.clear()
        sends = [asyncio.create_task(session.send(message(text))) for text in ("a", "b", "c")]
        await asyncio.sleep(0.01)
        assert ws.sent == ["4first"]  # "a" waits for the peer; "b" and "c" wait behind it, queued
        ws.slow.set()
        await asyncio.gather(*sends)
        while len(ws.sent) < 4:
            await asyncio.sleep(0.001)
        assert ws.sent == ["4first", "4a", "4b", "4c"]
        ws.incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.wait_for(handler, 5)  # a bound on a hang: the handler ends with its peer
        assert ws.closed.is_set() and session.closed
        assert dropped == []

    asyncio.run(scenario())


def test_frames_no_client_may_send_are_dropped_and_the_session_reads_on() -> None:
    async def scenario() -> None:
        dropped: list[str] = []
        session, ws = lean_session(dropped), StandIn()
        received: list[Any] = []
        session.server.on("message", lambda sid, data: received.append(data))
        handler = asyncio.create_task(session._websocket_handler(ws))
        for garbage in ("", "zzz", "9", "7x"):
            ws.frame(garbage)
        ws.frame("4hello")
        while not received:
            await asyncio.sleep(0.001)
        assert received == ["hello"]
        assert len(dropped) == 4
        assert all(why.startswith(("undecodable", "of unknown type")) for why in dropped), dropped
        ws.frame("1")  # the client's own close packet
        await asyncio.wait_for(handler, 5)
        assert session.closed and ws.closed.is_set()

    asyncio.run(scenario())


def test_closing_the_session_stops_the_wait_for_a_silent_peer() -> None:
    async def scenario() -> None:
        session, ws = lean_session([]), StandIn()
        handler = asyncio.create_task(session._websocket_handler(ws))
        await asyncio.sleep(0.01)
        assert not handler.done()  # the peer says nothing: the reader waits
        await session.close(wait=False)  # as python-engineio's ping timeout does
        await asyncio.wait_for(handler, 5)
        assert ws.sent == ["1"]  # Engine.IO's close packet, then the WebSocket's close
        assert ws.closed.is_set()

    asyncio.run(scenario())
