"""An Engine.IO session that writes to its WebSocket at once, and waits without a task per wait.

python-engineio's WebSocket session queues every outgoing packet for a writer task of its own,
which wakes for each, and waits for it and for each incoming frame under ``asyncio.wait_for``: on
CPython 3.11 a task of its own per wait, with a future, a callback and a timer. At 800 tables that
is thousands of wake-ups a second and about 30,000 short-lived coroutines, tasks and futures alive
at any moment, and the cycle collector's passes over them held every action behind them for 100 ms
and more (docs/scaling.md).

:class:`LeanSocket` writes a packet to its WebSocket in the sender's own task when nothing is
queued before it (uvicorn writes the frame at once unless the peer is slow to read). Only packets
that must wait (behind a slow peer, during the upgrade, on long-polling) go through the queue and
the writer. The reader awaits uvicorn's next message itself, with no timer: a silent session is
ended by python-engineio's ping timeout, whose close stops the reader. The packets sent, their
order and the ends of a session stay the library's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from engineio import exceptions, packet  # type: ignore[import-untyped]
from engineio.async_socket import AsyncSocket  # type: ignore[import-untyped]

# The Engine.IO packets a client may send: close, ping (to probe an upgrade), pong, message, upgrade, noop.
CLIENT_PACKET_TYPES = frozenset(
    {packet.CLOSE, packet.PING, packet.PONG, packet.MESSAGE, packet.UPGRADE, packet.NOOP}
)

# Told why a frame was dropped ("undecodable (ValueError)", "of unknown type 7").
FrameDropped = Callable[[str], None]


class LeanSocket(AsyncSocket):  # type: ignore[misc]
    """python-engineio's session, writing at once and waiting without a task per wait."""

    # Set by :meth:`adopt` on python-engineio's own session: its WebSocket while packets may go
    # straight to it, and the lock held by whoever writes to it, so that packets keep their order.
    connected: bool  # python-engineio's own, declared for the type checker
    _direct: Any
    _writing: asyncio.Lock
    _reader: asyncio.Task[Any] | None  # the task reading the WebSocket, while it does
    _dropped: FrameDropped

    @classmethod
    def adopt(cls, socket: AsyncSocket, dropped: FrameDropped) -> None:
        """Make python-engineio's session ``socket``, just opened, a LeanSocket, telling
        ``dropped`` why it drops a frame."""
        socket.__class__ = cls
        socket._direct = None
        socket._writing = asyncio.Lock()
        socket._reader = None
        socket._dropped = dropped

    async def send(self, pkt: Any) -> None:
        """Write ``pkt`` at once when nothing waits before it, else queue it for the writer."""
        if not await self.check_ping_timeout():
            return
        ws = self._direct
        if ws is None or not self.queue.empty() or self._writing.locked():
            await self.queue.put(pkt)
            return
        async with self._writing:
            try:
                await ws.send(pkt.encode())
            except Exception:
                self._direct = None  # broken: the reader sees the end and closes the session

    def _idle_limit(self) -> float:
        """How long a session may send or receive nothing before it is over."""
        return float(self.server.ping_interval + self.server.ping_timeout)

    async def poll(self) -> list[Any]:
        """The packets waiting to be sent, after waiting for the first; [] once the session ends."""
        try:
            async with asyncio.timeout(self._idle_limit()):
                first = await self.queue.get()
        except (TimeoutError, asyncio.CancelledError):
            raise exceptions.QueueEmpty() from None
        self.queue.task_done()
        if first is None:
            return []
        packets = [first]
        while not self.queue.empty():
            more = self.queue.get_nowait()
            self.queue.task_done()
            if more is None:
                self.queue.put_nowait(None)  # the end, for the next poll to see
                break
            packets.append(more)
        return packets

    async def _websocket_handler(self, ws: Any) -> None:
        if self.connected:  # a long-polling session moving to this WebSocket
            if not await self._upgrade_on(ws):
                return
        else:
            self.connected = True
            self.upgraded = True
        writer = asyncio.ensure_future(self._write_to(ws))
        self.server.logger.info("%s: Upgrade to websocket successful", self.sid)
        self._direct = ws
        await self._read_from(ws)
        self._direct = None
        await self.queue.put(None)  # the writer's last packet: it closes the WebSocket
        await writer
        await self.close(wait=False, abort=True, reason=self.server.reason.TRANSPORT_CLOSE)

    async def _next_packet(self, ws: Any) -> Any:
        """The next frame's packet; None when the peer closed or broke the WebSocket, or sent a
        frame too large or no packet a client may send."""
        data = self._data_of(await ws.asgi_receive())
        return None if data is None else self._decoded(data)

    def _data_of(self, message: dict[str, Any]) -> Any:
        """A received ASGI message's frame; None when the peer closed or broke the WebSocket, or
        sent a frame too large."""
        if message["type"] != "websocket.receive":
            return None
        data = message.get("text")
        if data is None:
            data = message.get("bytes")
        if data is not None and len(data) > self.server.max_http_buffer_size:
            return None
        return data

    def _decoded(self, data: Any) -> Any:
        """The Engine.IO packet in a frame; None (and a throttled log line) when it is none a
        client may send: the library would end the session with a traceback."""
        try:
            pkt = packet.Packet(encoded_packet=data)
        except Exception as error:
            self._dropped(f"undecodable ({type(error).__name__})")
            return None
        if pkt.packet_type not in CLIENT_PACKET_TYPES:
            self._dropped(f"of unknown type {pkt.packet_type}")
            return None
        return pkt

    async def _upgrade_on(self, ws: Any) -> bool:
        """The probe and the upgrade packet of Engine.IO's upgrade; False if either is wrong."""
        self.upgrading = True  # packets sent meanwhile wait for the upgrade
        try:
            probe = await self._next_packet(ws)
            if probe is None or probe.packet_type != packet.PING or probe.data != "probe":
                self.server.logger.info("%s: Failed websocket upgrade, no PING packet", self.sid)
                return False
            await ws.send(packet.Packet(packet.PONG, data="probe").encode())
            await self.queue.put(packet.Packet(packet.NOOP))  # ends the long poll under way
            upgrade = await self._next_packet(ws)
            if upgrade is None or upgrade.packet_type != packet.UPGRADE:
                self.upgraded = False
                self.server.logger.info("%s: Failed websocket upgrade, no UPGRADE packet", self.sid)
                return False
        except Exception:
            return False
        finally:
            self.upgrading = False
        self.upgraded = True
        return True

    async def _read_from(self, ws: Any) -> None:
        """Receive the client's packets until it closes or breaks the WebSocket, or the session
        ends (:meth:`close` stops this wait then: a silent peer's session is closed by
        python-engineio's ping timeout)."""
        self._reader = asyncio.current_task()
        receive = ws.asgi_receive  # awaited here, not in a coroutine of ours: one fewer per frame
        try:
            while not self.closed:
                try:
                    data = self._data_of(await receive())
                except (Exception, asyncio.CancelledError):
                    return  # broken, or the session closed: it ends as the library's does
                if data is None:
                    return
                pkt = self._decoded(data)
                if pkt is None:
                    continue
                try:
                    await self.receive(pkt)
                except exceptions.UnknownPacketError:
                    pass
                except exceptions.SocketIsClosedError:
                    self.server.logger.info("Receive error -- socket is closed")
                    return
                except Exception:
                    self.server.logger.exception("Unknown receive error")
        finally:
            self._reader = None

    async def close(self, wait: bool = True, abort: bool = False, reason: Any = None) -> None:
        """python-engineio's close, which then stops the reader's wait for the client's next frame
        (unless the reader itself is closing the session)."""
        await super().close(wait=wait, abort=abort, reason=reason)
        reader = self._reader
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()

    async def _write_to(self, ws: Any) -> None:
        """Send the packets that had to wait until the session ends, then close the WebSocket.

        No time limit here: packets mostly go straight to the WebSocket, so the queue may stay
        empty for good; the end of the reader (see :meth:`close`) ends this writer."""
        while True:
            first = await self.queue.get()
            self.queue.task_done()
            packets = [first]
            while first is not None and not self.queue.empty():
                packets.append(self.queue.get_nowait())
                self.queue.task_done()
            try:
                async with self._writing:
                    for one in packets:
                        if one is None:
                            self.queue.put_nowait(None)  # for a poll after this writer
                            await ws.close()
                            return
                        await ws.send(one.encode())
            except Exception:
                break
        await ws.close()
