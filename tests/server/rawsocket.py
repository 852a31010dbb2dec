"""A Socket.IO connection spoken frame by frame over a raw WebSocket, to send what no library would.

Engine.IO v4 frames are text: ``0{...}`` opens, ``2``/``3`` are ping and pong, ``4...`` a message.
A Socket.IO message inside is ``0`` (connect), ``2[...]`` (an event) or ``2<id>[...]`` (an event
asking for an ack), answered by ``3<id>[...]``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import aiohttp


@dataclass
class RawSocket:
    session: aiohttp.ClientSession
    ws: aiohttp.ClientWebSocketResponse
    frames: list[str] = field(default_factory=list)
    next_id: int = 1

    @classmethod
    async def open(cls, url: str, headers: dict[str, str] | None = None) -> RawSocket:
        """Connects and joins the default namespace."""
        session = aiohttp.ClientSession()
        ws_url = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        try:
            ws = await session.ws_connect(ws_url, headers=headers or {})
        except Exception:
            await session.close()
            raise
        raw = cls(session, ws)
        opening = await raw.receive()
        assert opening.startswith("0{"), opening
        await raw.send("40")
        await raw.receive_until(lambda frame: frame.startswith("40"))
        return raw

    async def send(self, frame: str | bytes) -> None:
        if isinstance(frame, bytes):
            await self.ws.send_bytes(frame)
        else:
            await self.ws.send_str(frame)

    async def receive(self, timeout: float = 10.0) -> str:
        while True:
            message = await self.ws.receive(timeout=timeout)
            if message.type is not aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"the socket closed: {message.type}")
            frame = str(message.data)
            if frame == "2":  # the server's ping
                await self.send("3")
                continue
            self.frames.append(frame)
            return frame

    async def receive_until(self, matches: Any, timeout: float = 10.0) -> str:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"no such frame among {self.frames[-5:]}")
            frame = await self.receive(left)
            if matches(frame):
                return frame

    async def call_raw(self, body: str) -> Any:
        """Send ``42<id><body>`` and return the ack's first argument."""
        ack_id = self.next_id
        self.next_id += 1
        await self.send(f"42{ack_id}{body}")
        frame = await self.receive_until(lambda f: f.startswith(f"43{ack_id}["))
        return json.loads(frame[len(f"43{ack_id}") :])[0]

    async def call(self, event: str, *args: Any) -> Any:
        return await self.call_raw(json.dumps([event, *args]))

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()
