"""A request body refused for its size gets its 413 answer, not a connection reset."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from serverkit import session, stopped_pace  # noqa: F401  (stopped_pace: a fixture)

from smear.server.limits import Limits
from smear.server.players.api import REFUSED_BODY_READ_MAX

RECORD_BYTES_MAX = Limits().record_bytes


def post_whole_body(url: str, path: str, size: int) -> tuple[int, dict[str, Any]]:
    """Sends the request line, headers and the whole body as a plain client does, then reads the
    answer: the status and its JSON."""
    parts = urlsplit(url)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection((parts.hostname, parts.port), timeout=20) as conn:
        # Small buffers, so that the body cannot all wait in the kernel for a server not reading it.
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16384)
        conn.sendall(head)
        conn.sendall(b" " * size)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    header, _, body = answer.partition(b"\r\n\r\n")
    return int(header.split()[1]), json.loads(body)


def test_a_record_too_large_to_replay_is_read_to_its_end_and_answered_413(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            for size in (RECORD_BYTES_MAX + 1, 3 * RECORD_BYTES_MAX):
                assert size <= REFUSED_BODY_READ_MAX
                status, answer = await asyncio.to_thread(post_whole_body, s.url, "/api/replay", size)
                assert status == 413, answer
                assert answer["error"]["code"] == "message_too_large"

    asyncio.run(scenario())
