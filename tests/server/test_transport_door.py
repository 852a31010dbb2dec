"""The transport's door, probed over raw HTTP and WebSockets: a long-polling POST past the size
limit is answered 413 and its session closed at once; every Engine.IO session and every WebSocket
counts against its address's cap from its first request, is refused past it, and is given back
however it ends; and SIGTERM stops a real ``smear serve`` whatever its clients are doing, with every
acknowledged action there when it starts again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import socket
import subprocess
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import socketio
from serverkit import Client, free_port, running_server, server_process
from test_restart import close_all, same_hand, start_three, step, stored_actions

from smear.server.app import SmearServer
from smear.server.limits import Limits

CAP = 3
CAPPED = Limits(connections_per_address=CAP, tables_per_hour=0)
BIG = 16 * 1024 + 1  # one byte past the server's long-polling limit (max_http_buffer_size)
WAIT = 30.0  # seconds before something that should have happened is taken as never happening
CLOSED = (
    aiohttp.WSMsgType.CLOSE,
    aiohttp.WSMsgType.CLOSED,
    aiohttp.WSMsgType.ERROR,
)


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every log record of the server, uvicorn's too (its logger does not pass records up)."""
    caplog.set_level(logging.INFO)
    uvicorn_log = logging.getLogger("uvicorn")
    uvicorn_log.addHandler(caplog.handler)
    try:
        yield caplog
    finally:
        uvicorn_log.removeHandler(caplog.handler)


def assert_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    failures = [r.getMessage() for r in caplog.records if r.exc_info or "Exception" in r.getMessage()]
    assert failures == []
    assert "Traceback" not in caplog.text


def polling(url: str, sid: str | None = None) -> str:
    return f"{url}/socket.io/?EIO=4&transport=polling" + (f"&sid={sid}" if sid else "")


def websocket(url: str, sid: str | None = None) -> str:
    base = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
    return base + (f"&sid={sid}" if sid else "")


async def handshake(http: aiohttp.ClientSession, url: str) -> tuple[int, str | None]:
    """A long-polling handshake: its status, and the session's id when it was accepted."""
    async with http.get(polling(url)) as answer:
        text = await answer.text()
    if answer.status != 200:
        return answer.status, None
    assert text.startswith("0{"), text
    return 200, str(json.loads(text[1:])["sid"])


async def post(http: aiohttp.ClientSession, url: str, sid: str, body: Any) -> tuple[int, str]:
    async with http.post(polling(url, sid), data=body) as answer:
        return answer.status, await answer.text()


async def get(http: aiohttp.ClientSession, url: str, sid: str) -> tuple[int, str]:
    async with http.get(polling(url, sid)) as answer:
        return answer.status, await answer.text()


async def open_websocket(http: aiohttp.ClientSession, address: str) -> aiohttp.ClientWebSocketResponse | None:
    """A WebSocket to ``address``, or None when the server refused it."""
    try:
        return await http.ws_connect(address)
    except aiohttp.WSServerHandshakeError as refusal:
        assert refusal.status == 403, refusal
        return None


async def engine_open(ws: aiohttp.ClientWebSocketResponse) -> None:
    frame = await ws.receive_str(timeout=WAIT)
    assert frame.startswith("0{"), frame


async def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.01)


def polling_now(server: SmearServer, sid: str) -> bool:
    """Whether a long-polling GET of session ``sid`` is waiting at the server for packets."""
    return bool(server.sio.eio.sockets[sid].queue._getters)


def held(server: SmearServer) -> int:
    return server.addresses.connections.get("127.0.0.1", 0)


@contextlib.asynccontextmanager
async def capped(tmp_path: Path) -> AsyncIterator[tuple[SmearServer, str, aiohttp.ClientSession]]:
    async with (
        running_server(tmp_path / "smear.db", limits=CAPPED) as (server, url),
        aiohttp.ClientSession() as http,
    ):
        yield server, url, http


# --- a long-polling POST past the size limit -----------------------------------------------------------


def test_an_oversized_polling_post_is_answered_413_and_its_session_closed_at_once(
    tmp_path: Path, server_log: pytest.LogCaptureFixture
) -> None:
    async def oversized(body: Any) -> None:
        async with capped(tmp_path) as (server, url, http):
            status, sid = await handshake(http, url)
            assert status == 200 and sid is not None
            waiting = asyncio.create_task(get(http, url, sid))
            await wait_until(lambda: polling_now(server, sid), "a poll waits for packets")
            assert held(server) == 1
            async with asyncio.timeout(WAIT):  # a bound on a hang, not a time to meet
                status, text = await post(http, url, sid, body)
                assert status == 413, text
                assert json.loads(text)["error"]["code"] == "message_too_large"
                # The poll under way is answered with the close packet; the session is gone.
                assert await waiting == (200, "1")
            assert sid not in server.sio.eio.sockets
            assert (await post(http, url, sid, "40"))[0] == 400
            assert (await get(http, url, sid))[0] == 400
            assert held(server) == 0

    async def chunks() -> AsyncIterator[bytes]:  # sent chunked: no Content-Length to go by
        for _ in range(BIG // 1024 + 1):
            yield b"4" * 1024

    asyncio.run(oversized(b"4" + b"x" * BIG))
    asyncio.run(oversized(chunks()))
    assert_no_traceback(server_log)


def test_a_post_to_a_session_its_client_closed_is_a_400_not_a_server_error(
    tmp_path: Path, server_log: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with capped(tmp_path) as (server, url, http):
            _, sid = await handshake(http, url)
            assert sid is not None
            assert await post(http, url, sid, "1") == (200, "OK")  # the client's close packet
            assert (await post(http, url, sid, "40"))[0] == 400
            # A packet a client may not send closes its session at once (the library waited for
            # a poll that never came); the next request finds it gone.
            _, sid = await handshake(http, url)
            assert sid is not None
            async with asyncio.timeout(WAIT):
                assert (await post(http, url, sid, "0"))[0] == 400
            assert (await get(http, url, sid))[0] == 400
            await wait_until(lambda: held(server) == 0, "both sessions given back")

    asyncio.run(scenario())
    assert_no_traceback(server_log)


# --- every session counted against its address's cap ---------------------------------------------------


def test_long_polling_sessions_past_the_cap_are_refused_at_the_handshake(
    tmp_path: Path, server_log: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with capped(tmp_path) as (server, url, http):
            answers = [await handshake(http, url) for _ in range(40)]
            # The cap, and one more let in only to be told why it is refused if it joins.
            assert [status for status, _ in answers] == [200] * (CAP + 1) + [429] * (40 - CAP - 1)
            async with http.get(polling(url)) as answer:
                refusal = await answer.json()
            assert refusal["error"] == {
                "code": "too_many_connections",
                "args": {"limit": CAP},
                "message": f"too many connections from this address (at most {CAP})",
            }
            assert await open_websocket(http, websocket(url)) is None
            assert held(server) == CAP + 1
            # The one past the cap that asks to join hears why it may not.
            last = answers[CAP][1]
            assert last is not None
            assert (await post(http, url, last, "40"))[0] == 200
            _, text = await get(http, url, last)
            assert text.startswith("44") and json.loads(text[2:])["data"]["code"] == "too_many_connections"
            # One closes: there is room again.
            first = answers[0][1]
            assert first is not None
            await post(http, url, first, "1")
            await wait_until(lambda: held(server) == CAP, "a closed session is given back")
            assert (await handshake(http, url))[0] == 200

    asyncio.run(scenario())
    assert_no_traceback(server_log)


def test_raw_websockets_past_the_cap_are_refused_and_counted_without_joining(
    tmp_path: Path, server_log: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with capped(tmp_path) as (server, url, http):
            sockets = [await open_websocket(http, websocket(url)) for _ in range(40)]
            opened = [ws for ws in sockets if ws is not None]
            assert len(opened) == CAP + 1 and sockets[: CAP + 1] == opened
            for ws in opened:
                await engine_open(ws)
            assert held(server) == CAP + 1 and not server.live.connections  # none joined
            assert (await handshake(http, url))[0] == 429
            # The last joins and is refused with the coded error; the others may join.
            await opened[CAP].send_str("40")
            refusal = await opened[CAP].receive_str(timeout=WAIT)
            assert refusal.startswith("44") and json.loads(refusal[2:])["data"]["args"] == {"limit": CAP}
            await opened[CAP].close()
            await wait_until(lambda: held(server) == CAP, "the refused one is given back as it closes")
            await opened[0].send_str("40")
            assert (await opened[0].receive_str(timeout=WAIT)).startswith("40")
            for ws in opened:
                await ws.close()
            await wait_until(lambda: held(server) == 0, "closed WebSockets are given back")
            assert await open_websocket(http, websocket(url)) is not None

    asyncio.run(scenario())
    assert_no_traceback(server_log)


def test_every_websocket_upgrade_is_counted_while_it_is_open(
    tmp_path: Path, server_log: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        async with capped(tmp_path) as (server, url, http):
            _, sid = await handshake(http, url)
            assert sid is not None
            # Upgrades that never send their probe: each holds a connection, so each counts.
            upgrades = [await open_websocket(http, websocket(url, sid)) for _ in range(10)]
            assert sum(ws is not None for ws in upgrades) == CAP
            assert held(server) == CAP + 1
            for ws in upgrades:
                if ws is not None:
                    await ws.close()
            await wait_until(lambda: held(server) == 1, "the upgrades are given back, the session kept")
            # A real upgrade: the session moves to its WebSocket, and counts once.
            ws = await open_websocket(http, websocket(url, sid))
            assert ws is not None
            await ws.send_str("2probe")
            assert await ws.receive_str(timeout=WAIT) == "3probe"
            await ws.send_str("5")
            await wait_until(lambda: server.sio.eio.sockets[sid].upgraded, "the session is upgraded")
            assert [(await handshake(http, url))[0] for _ in range(CAP + 1)] == [200] * CAP + [429]
            await ws.close()

    asyncio.run(scenario())
    assert_no_traceback(server_log)


def test_sessions_are_given_back_however_they_end(
    tmp_path: Path, server_log: pytest.LogCaptureFixture
) -> None:
    """400 sessions opened and ended, in every way a session ends, from one address with a cap of 3:
    a single one not given back would leave the address refused after a few rounds."""

    async def scenario() -> None:
        async with capped(tmp_path) as (server, url, http):
            engine = server.sio.eio

            async def polling_closed_by_its_client() -> None:
                status, sid = await handshake(http, url)
                assert sid is not None, status
                await post(http, url, sid, "1")

            async def polling_closed_for_its_size() -> None:
                status, sid = await handshake(http, url)
                assert sid is not None, status
                assert (await post(http, url, sid, b"4" + b"x" * BIG))[0] == 413

            async def polling_closed_for_an_error() -> None:
                status, sid = await handshake(http, url)
                assert sid is not None, status
                assert (await post(http, url, sid, "6"))[0] == 400  # a packet a client may not send

            async def websocket_closed() -> None:
                ws = await open_websocket(http, websocket(url))
                assert ws is not None
                await engine_open(ws)
                await ws.send_str("40")
                assert (await ws.receive_str(timeout=WAIT)).startswith("40")
                await ws.close()

            async def websocket_dropped() -> None:
                async with aiohttp.ClientSession() as other:  # closed under it, without a close frame
                    ws = await open_websocket(other, websocket(url))
                    assert ws is not None
                    await engine_open(ws)

            async def socketio_polling_then_upgraded() -> None:
                client = socketio.AsyncClient(reconnection=False, http_session=http)
                await client.connect(url, wait_timeout=WAIT)
                await client.disconnect()

            # Sessions whose clients stop answering end at the heartbeat's timeout (made short
            # before the first session, which starts the library's watch over them).
            default_pings = engine.ping_interval, engine.ping_timeout
            engine.ping_interval, engine.ping_timeout = 0.05, 0.05
            silent = [await handshake(http, url) for _ in range(CAP)]
            assert all(sid is not None for _, sid in silent)
            mute = await open_websocket(http, websocket(url))
            assert mute is not None
            await wait_until(lambda: not engine.sockets, "silent sessions time out")
            await wait_until(lambda: held(server) == 0, "sessions that timed out are given back")
            await mute.close()
            engine.ping_interval, engine.ping_timeout = default_pings

            ends = [
                polling_closed_by_its_client,
                polling_closed_for_its_size,
                polling_closed_for_an_error,
                websocket_closed,
                websocket_dropped,
            ]
            for index in range(400):
                await ends[index % len(ends)]()
                await wait_until(lambda: held(server) == 0, "sessions are given back as they end")
            for _ in range(5):
                await socketio_polling_then_upgraded()
                await wait_until(lambda: held(server) == 0, "a Socket.IO client's session is given back")
            assert (await handshake(http, url))[0] == 200

    asyncio.run(scenario())
    assert_no_traceback(server_log)


# --- SIGTERM -------------------------------------------------------------------------------------------


class Stragglers:
    """Requests left hanging at a server in every way a stranger can leave them."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.host, self.port = "127.0.0.1", int(url.rsplit(":", 1)[1])
        self.raw: list[socket.socket] = []
        self.polls: list[asyncio.Task[tuple[int, str]]] = []

    def send_raw(self, data: bytes) -> None:
        conn = socket.create_connection((self.host, self.port), timeout=WAIT)
        conn.sendall(data)
        self.raw.append(conn)

    def half_sent_post(self, path: str) -> None:
        head = f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: 1000\r\n\r\n"
        self.send_raw(head.encode() + b"4" * 10)

    async def leave(self, http: aiohttp.ClientSession) -> list[aiohttp.ClientWebSocketResponse]:
        _, sid = await handshake(http, self.url)
        assert sid is not None
        self.polls.append(asyncio.create_task(get(http, self.url, sid)))  # waits for packets
        _, oversized = await handshake(http, self.url)
        assert oversized is not None
        assert (await post(http, self.url, oversized, b"4" + b"x" * BIG))[0] == 413
        _, half = await handshake(http, self.url)
        self.half_sent_post(f"/socket.io/?EIO=4&transport=polling&sid={half}")
        self.half_sent_post("/api/replay")
        # An HTTP request that never ends its headers, and a WebSocket handshake that never ends.
        self.send_raw(f"GET /health HTTP/1.1\r\nHost: {self.host}\r\n".encode())
        self.send_raw(
            f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {self.host}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n".encode()
        )
        unjoined = await open_websocket(http, websocket(self.url))  # never joins the namespace
        assert unjoined is not None
        await engine_open(unjoined)
        _, polled = await handshake(http, self.url)
        unprobed = await open_websocket(http, websocket(self.url, polled))  # an upgrade never probed
        assert unprobed is not None
        return [unjoined, unprobed]

    def close(self) -> None:
        for conn in self.raw:
            conn.close()


async def stop_with_everything_hanging(tmp_path: Path) -> None:
    database = tmp_path / "smear.db"
    port = free_port()
    clients: list[Client] = []
    roomy = ("--connections-per-address", "0")
    try:
        async with server_process(port, database, tmp_path / "first.log", *roomy) as first:
            host = await start_three(first.url, clients)
            acted = 0
            while not (
                host.state["game"]["public"]["phase"] == "play" and host.state["game"]["public"]["trick"]
            ):
                await step(clients)
                acted += 1
            before = {client.seat: client.state for client in clients}

            stragglers = Stragglers(first.url)
            async with aiohttp.ClientSession() as http:
                websockets = await stragglers.leave(http)
                first.process.send_signal(signal.SIGTERM)
                try:  # a bound on a hang, not a time to meet
                    await asyncio.to_thread(first.process.wait, WAIT)
                except subprocess.TimeoutExpired:
                    pytest.fail(f"the server still runs {WAIT} s after SIGTERM:\n{first.log()}")
                finally:
                    stragglers.close()
                for poll in stragglers.polls:  # answered (the close packet) or cut, never left hanging
                    with contextlib.suppress(aiohttp.ClientError):
                        await asyncio.wait_for(poll, WAIT)
                for ws in websockets:
                    message = await ws.receive(timeout=WAIT)
                    if message.type is aiohttp.WSMsgType.TEXT:  # Engine.IO's close packet, then the close
                        assert message.data == "1", message
                        message = await ws.receive(timeout=WAIT)
                    assert message.type in CLOSED, message
            log = first.output.read_text()
            assert "stopping" in log, log
            assert "Traceback" not in log, log
        await close_all(clients)
        assert stored_actions(database) == acted, "an acknowledged action was not stored"

        async with server_process(port, database, tmp_path / "second.log", *roomy) as second:
            old, clients = clients, []
            for client in old:
                assert client.seat is not None
                last = before[client.seat]
                again = await Client(second.url).connect()
                clients.append(again)
                reply = await again.call(
                    "resume", {"table": client.table, "token": client.token, "version": last["version"]}
                )
                assert reply["ok"], reply
                state = await again.wait_for(lambda s: s["game"] is not None)
                same_hand(last, state)
    finally:
        await close_all(clients)


def test_sigterm_stops_the_server_whatever_its_clients_are_doing(tmp_path: Path) -> None:
    asyncio.run(stop_with_everything_hanging(tmp_path))
