"""Runs the server in-process on a free port and talks to it over real Socket.IO connections."""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest
import socketio
from support.inprocess import served
from support.serverproc import ServerStartError, kill_group, launch, serve_command, wait_healthy
from support.serverproc import free_port as free_port  # re-exported: the tests take it from here

from smear.server.app import SmearServer, Timing, build_server
from smear.server.limits import Limits
from smear.server.social import talk

FAST = Timing(bot_pause=0.01, hand_pause=0.01, grace=0.3)
T = TypeVar("T")

REPLY_TIMEOUT = 10.0  # seconds a client waits for the server to answer a request
START_TIMEOUT = 60.0  # a server process's first start imports and may compile a lot: be generous


@contextlib.asynccontextmanager
async def running_server(
    database: Path | str,
    timing: Timing = FAST,
    limits: Limits | None = None,
    clock: Any = None,
    redis: str | None = None,
) -> AsyncIterator[tuple[SmearServer, str]]:
    """A server on a SQLite file (a path) or on any database (a URL), served on a free port; with
    ``redis``, one of the processes sharing the tables on it."""
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    # Background work shares the CPU evenly here: behind every other process (the default), a review
    # waits for an idle core, and on a machine busy with other tests it would never come in time.
    limits = replace(limits or Limits(), background_niceness=0)
    server = build_server(url, timing, limits, redis=redis, **({"clock": clock} if clock else {}))
    async with served(server.asgi_app()) as base:
        yield server, base


@pytest.fixture(autouse=True)
def stopped_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reactions' and chat's pace stands still (import it into a test module to use it): an
    allowance spent stays spent however slow the machine."""
    monkeypatch.setattr(talk, "pace_clock", lambda: 1_000.0)


@dataclass
class Client:
    """A Socket.IO client that keeps every message it receives."""

    url: str
    sio: socketio.AsyncClient = field(default_factory=lambda: socketio.AsyncClient(reconnection=False))
    states: list[dict[str, Any]] = field(default_factory=list)
    # Every event learnt, whether sent alone (replayed on resume) or inside its state.
    events: list[dict[str, Any]] = field(default_factory=list)
    received: list[tuple[str, Any]] = field(default_factory=list)  # every message, as it came
    token: str | None = None
    table: str | None = None
    seat: int | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    headers: dict[str, str] = field(default_factory=dict)  # sent with the connection (an Origin...)

    async def connect(self) -> Client:
        self.sio.on("state", self._on_state)
        self.sio.on("event", self._on_event)
        for name in ("chat", "reaction", "open_tables"):
            self.sio.on(name, self._keeper(name))
        # The library waits 1 s for the server's answer by default; a loaded machine can take longer,
        # so the connection gets the same 10 s as every request.
        await self.sio.connect(
            self.url, headers=self.headers, transports=["websocket"], wait_timeout=REPLY_TIMEOUT
        )
        return self

    async def _on_state(self, data: dict[str, Any]) -> None:
        if data.get("event") is not None:  # a live change's event rides in its state
            self.events.append({"version": data["version"], "event": data["event"]})
        self.states.append(data)
        self.received.append(("state", data))
        self.changed.set()

    async def _on_event(self, data: dict[str, Any]) -> None:
        self.events.append(data)
        self.received.append(("event", data))

    def _keeper(self, name: str) -> Any:
        async def keep(data: Any) -> None:
            self.received.append((name, data))
            self.changed.set()

        return keep

    def got(self, name: str) -> list[Any]:
        """The data of every ``name`` message received, in order."""
        return [data for kind, data in self.received if kind == name]

    async def wait_for_message(self, name: str, count: int, timeout: float = 10.0) -> list[Any]:
        """The data of the first ``count`` ``name`` messages, once that many have come."""
        deadline = asyncio.get_running_loop().time() + timeout
        while len(self.got(name)) < count:
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"{len(self.got(name))} {name} messages, not {count}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)
        return self.got(name)[:count]

    async def call(self, event: str, data: Any, timeout: float = REPLY_TIMEOUT) -> dict[str, Any]:
        reply: dict[str, Any] = await self.sio.call(event, data, timeout=timeout)
        return reply

    async def send(self, event: str, *, timeout: float = REPLY_TIMEOUT, **data: Any) -> dict[str, Any]:
        """Call an event with this client's table and token filled in, waiting ``timeout`` seconds."""
        payload = {"table": self.table, "token": self.token, **data}
        return await self.call(event, {k: v for k, v in payload.items() if v is not None}, timeout)

    @property
    def state(self) -> dict[str, Any]:
        return self.states[-1]

    @property
    def seat_now(self) -> int | None:
        """The seat the latest state says this client holds (seats are redrawn when teams start)."""
        you: int | None = self.states[-1]["table"]["you"]
        return you

    def event_versions(self) -> list[int]:
        return [event["version"] for event in self.events]

    async def wait_for(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The first state (old or new) that satisfies ``predicate``."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for state in reversed(self.states):
                if predicate(state):
                    return state
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError("no state matched")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)

    async def close(self) -> None:
        await self.sio.disconnect()


async def create(url: str, name: str = "Host", **settings: Any) -> Client:
    client = await Client(url).connect()
    payload = {"name": name, "preset": "house", "players": 4, "teams": False, **settings}
    reply = await client.call("create_table", payload)
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    return client


async def join(url: str, table: str, name: str) -> Client:
    client = await Client(url).connect()
    reply = await client.call("join_table", {"table": table, "name": name})
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    return client


async def watch(url: str, table: str) -> Client:
    client = await Client(url).connect()
    reply = await client.call("watch_table", {"table": table})
    assert reply["ok"], reply
    client.table = table
    return client


async def resume(url: str, table: str, token: str, version: int) -> tuple[Client, dict[str, Any]]:
    """A new connection taking a seat back with ``resume``; returns the client and the ack."""
    client = await Client(url).connect()
    client.table, client.token = table, token
    reply = await client.call("resume", {"table": table, "token": token, "version": version})
    if reply["ok"]:
        client.seat = reply["seat"]
    return client, reply


async def get_json(url: str) -> tuple[int, Any]:
    """``GET url``: the status and the decoded JSON body."""
    return await http_json("GET", url)


def match_over(state: dict[str, Any]) -> bool:
    return bool(state["table"]["status"] == "finished")


async def play_out(
    clients: list[Client], until: Callable[[dict[str, Any]], bool] = match_over, *, top_bid: bool = False
) -> None:
    """Each person plays its first legal action whenever it is its turn, until a state it is sent
    is ``until`` (by default: the match is over); with ``top_bid`` it bids the highest it may short
    of the moon instead (a player whose bids cost points)."""

    async def play(client: Client) -> None:
        after = 0
        while True:
            state = await client.wait_for(
                lambda st, after=after: (
                    st is client.states[-1]
                    and st["version"] >= after
                    and (until(st) or bool(st["game"] and st["game"].get("legal")))  # a spectator's has none
                ),
                timeout=60,
            )
            if until(state):
                return
            reply = await client.send("act", version=state["version"], action=chosen(state["game"], top_bid))
            after = reply.get("version", state["version"])

    await asyncio.gather(*(play(client) for client in clients))


def chosen(game: dict[str, Any], top_bid: bool) -> str:
    """The first legal action, or with ``top_bid`` the highest bid short of the moon where one is legal."""
    legal = game["legal"]
    moon = game["public"]["rules"]["moon_bid"]
    bids = [action for action in legal if action["kind"] == "bid" and action["amount"] != moon]
    if top_bid and bids:
        return str(max(bids, key=lambda action: int(action["amount"]))["text"])
    return str(legal[0]["text"])


async def http_json(
    method: str,
    url: str,
    body: Any = None,
    secret: str | None = None,
    raw: bytes | None = None,
    timeout: float = 10,
) -> tuple[int, Any]:
    """An HTTP request with a JSON body (or ``raw`` bytes) and, with ``secret``, a profile's
    ``Authorization``; the status and the decoded JSON answer (off the event loop, which runs the
    server). ``timeout``: the seconds a client waits, as long as the page waits for that request."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)

    def fetch() -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            with err:
                return err.code, json.loads(err.read())

    return await asyncio.to_thread(fetch)


async def fire_concurrently(n: int, make_request: Callable[[int], Awaitable[T]]) -> list[T]:
    """The answers, in order, of ``n`` requests sent at one instant: ``make_request(i)`` sends the
    i-th over a socket or HTTP client of its own (connected beforehand, see :func:`sockets`). All n
    are held at a gate until every one is ready, so the server has all of them before it can answer
    any: a limit checked before an await and counted after it lets them all through."""
    gate = asyncio.Event()
    ready = 0

    async def one(index: int) -> T:
        nonlocal ready
        request = make_request(index)
        ready += 1
        if ready == n:
            gate.set()
        await gate.wait()
        return await request

    return await asyncio.gather(*(one(index) for index in range(n)))


async def sockets(url: str, n: int) -> list[Client]:
    """``n`` connected clients, each on a socket of its own."""
    return list(await asyncio.gather(*(Client(url).connect() for _ in range(n))))


async def http_request(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    """An HTTP request with a JSON body on a connection of its own, on the event loop (not a
    thread: many may be under way at once); the status and the decoded JSON answer."""
    timeout = aiohttp.ClientTimeout(total=REPLY_TIMEOUT)
    async with (
        aiohttp.ClientSession(timeout=timeout) as http,
        http.request(method, url, json=body) as response,
    ):
        return response.status, await response.json()


@dataclass
class Session:
    """A running server and every client opened through it, all closed when the session ends."""

    server: SmearServer
    url: str
    clients: list[Client] = field(default_factory=list)

    def _keep(self, client: Client) -> Client:
        self.clients.append(client)
        return client

    async def create(self, name: str = "Host", **settings: Any) -> Client:
        return self._keep(await create(self.url, name, **settings))

    async def with_bots(self, name: str = "Host", players: int = 4, **settings: Any) -> Client:
        """A table of one person (its host) and bots in every other seat, not started."""
        host = await self.create(name, players=players, **settings)
        for seat in range(1, players):
            reply = await host.send("set_bot", seat=seat, bot=True)
            assert reply["ok"], reply
        return host

    async def join(self, table: str, name: str) -> Client:
        return self._keep(await join(self.url, table, name))

    async def watch(self, table: str) -> Client:
        return self._keep(await watch(self.url, table))

    async def connect(self) -> Client:
        return self._keep(await Client(self.url).connect())

    async def resume(self, table: str, token: str, version: int) -> tuple[Client, dict[str, Any]]:
        client, reply = await resume(self.url, table, token, version)
        return self._keep(client), reply

    async def close(self) -> None:
        for client in self.clients:
            if client.sio.connected:
                await client.close()


@contextlib.asynccontextmanager
async def session(
    database: Path | str, timing: Timing = FAST, limits: Limits | None = None, clock: Any = None
) -> AsyncIterator[Session]:
    async with running_server(database, timing, limits, clock) as (server, url):
        opened = Session(server, url)
        try:
            yield opened
        finally:
            await opened.close()


class Clock:
    """A wall clock that a test moves by hand (``clock.now += 3_600``)."""

    def __init__(self, now: float = 2_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class ServerProcess:
    """``smear serve`` in a child process, with its output in a file."""

    def __init__(self, port: int, database: Path | str, output: Path, *options: str) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.output = output
        url = database if isinstance(database, str) else f"sqlite:///{database}"
        # A group of its own: with --workers, killing it kills the workers too (not left orphans).
        self.process = launch(serve_command(port, url, list(options)), output, append=True, new_group=True)

    def log(self) -> str:
        return self.output.read_text(errors="replace")[-3000:]

    def wait_until_healthy(self) -> None:
        try:
            wait_healthy(self.url, self.process, START_TIMEOUT)
        except ServerStartError as err:
            raise AssertionError(f"{err}:\n{self.log()}") from err

    def kill(self) -> None:
        """SIGKILL the server and every worker it started."""
        kill_group(self.process)


@contextlib.asynccontextmanager
async def server_process(
    port: int, database: Path | str, output: Path, *options: str
) -> AsyncIterator[ServerProcess]:
    """``smear serve`` on ``port``, healthy; killed (SIGKILL) at the end if it still runs."""
    server = ServerProcess(port, database, output, *options)
    try:
        await asyncio.to_thread(server.wait_until_healthy)
        yield server
    finally:
        server.kill()
