"""Several server processes sharing one Redis serve the same tables: who owns each table, and the
messages between processes.

Each live table has one owner process at a time, holding its lease in Redis (a key that expires
unless the owner renews it, whose value is the owner's name: its host, pid and a random part). Any
process accepts any client: a request for a table owned elsewhere is sent to the owner over Redis,
answered there, and the answer comes back the same way; what the owner pushes to a socket of another
process (events, states) goes to that process, which sends it on. So no sticky sessions and no
coordinator are needed.

When an owner dies, its leases run out within :attr:`Cluster.lease` seconds. A process with a socket
following one of its tables then claims it and brings it back from the database (every acknowledged
action is stored there), and every process tells the new owner which of its sockets follow it; they
get a full state and play on.

Messages are orjson documents published on the receiving process's channel (or on the channel
every process hears, for news that concerns them all: a profile deleted), those queued together as
one array. All of a process's messages leave through one connection, in the order they were
sent, so a socket gets a table's pushes and answers in the order the owner made them. Redis is
trusted as the server's own part: it sees what the owner sends to each seat, as the database does.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import secrets
import socket
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Final, TypeVar

import orjson
import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from smear.errors import SmearError
from smear.server.faultlog import FaultLog
from smear.server.metrics import Metrics

T = TypeVar("T")
log = logging.getLogger("smear.server")

__all__ = ["Cluster", "ClusterError", "OwnerGone", "masked", "owner_host_pid", "process_name", "reach_redis"]

PREFIX: Final = "smear:"
LEASE_SECONDS: Final = 5.0  # an owner that stops renewing loses its tables after this long
ANSWER_SECONDS: Final = 10.0  # how long a forwarded request waits for the owner's answer

# Renews a lease only while it is still this process's: a lease lost (expired, then claimed by
# another process) stays lost.
_RENEW: Final = """
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    renewed[#renewed + 1] = 1
  else
    renewed[#renewed + 1] = 0
  end
end
return renewed
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Receives a message sent to this process (a request, a push, a follower...): never raises.
Receiver = Callable[[dict[str, Any]], Awaitable[None]]


class ClusterError(SmearError):
    """Redis cannot be reached or refused a command."""


class LeftCluster(RedisError):
    """This process has left the cluster: nothing more goes to Redis. A request answered during the
    shutdown would otherwise open a connection after the client closed, which nobody closes. A
    :class:`RedisError`, so every caller takes it as Redis gone."""


class OwnerGone(ClusterError):
    """A forwarded request got no answer: its table's owner stopped or is too slow."""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _lease_key(code: str) -> str:
    return f"{PREFIX}lease:{code}"


def _alive_key(process: str) -> str:
    return f"{PREFIX}alive:{process}"


def _channel(process: str) -> str:
    return f"{PREFIX}process:{process}"


EVERYONE: Final = f"{PREFIX}everyone"  # the channel every process listens on


def process_name() -> str:
    """A process's name in the cluster, also the value of each lease it holds: its host, its pid and
    a random part (a pid is reused), so the operator can tell from a lease which process to stop."""
    return f"{socket.gethostname()[:64]}:{os.getpid()}:{secrets.token_hex(4)}"


def owner_host_pid(owner: str) -> tuple[str, int] | None:
    """The host and pid in a process's name (:func:`process_name`), if it has them."""
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    return (host, int(pid)) if host and pid.isdigit() else None


def masked(url: str) -> str:
    """``url`` with its password, if any, as ``***`` (for messages and logs)."""
    parts = urllib.parse.urlsplit(url)
    if not parts.password:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)


def reach_redis(url: str) -> None:
    """Check that Redis answers at ``url`` (:class:`ClusterError` saying why not)."""
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except ValueError as err:
        raise ClusterError(f"the Redis URL {masked(url)!r} cannot be read ({err})") from None
    except RedisError as err:
        raise ClusterError(f"cannot reach Redis at {masked(url)!r}: {err}") from None


class Cluster:
    """This process among the others on one Redis: its leases, its channel and its outbox."""

    def __init__(
        self,
        url: str,
        lease: float = LEASE_SECONDS,
        answer_within: float = ANSWER_SECONDS,
        metrics: Metrics | None = None,
        faults: FaultLog | None = None,
    ) -> None:
        self.metrics = metrics or Metrics()
        self.faults = faults or FaultLog(log)  # Redis failing: logged once, then counted
        try:
            self._redis = aioredis.Redis.from_url(url)
        except ValueError as err:  # not quoted: the URL may hold a password
            raise ClusterError(f"the Redis URL cannot be read ({err})") from None
        self.process = process_name()
        self.lease = lease
        self.answer_within = answer_within
        self.owned: set[str] = set()
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._sending = False  # a batch taken from the outbox is on its way
        self._left = False
        self._renew = self._redis.register_script(_RENEW)
        self._release = self._redis.register_script(_RELEASE)

    @property
    def redis(self) -> aioredis.Redis:
        """The Redis client, until this process leaves the cluster (then :class:`LeftCluster`)."""
        if self._left:
            raise LeftCluster("this process has left the cluster")
        return self._redis

    @property
    def _lease_ms(self) -> int:
        return int(self.lease * 1000)

    async def _trip(self, op: str, call: Awaitable[T]) -> T:
        """One round trip to Redis, counted in the metrics."""
        try:
            result = await call
        except RedisError:
            self.metrics.redis_call(op, failed=True)
            raise
        self.metrics.redis_call(op, failed=False)
        return result

    async def start(self, receive: Receiver) -> None:
        """Listen on this process's channel and everyone's; ``receive`` gets every message but the
        answers."""
        try:
            await self.redis.set(_alive_key(self.process), 1, px=self._lease_ms)
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(_channel(self.process), EVERYONE)
        except RedisError as err:
            raise ClusterError(f"cannot reach Redis: {err}") from None
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(pubsub, receive)),
            loop.create_task(self._send_outbox()),
        ]
        log.info(
            "process %s joined the cluster",
            self.process,
            extra={"event": "cluster_joined", "peer": self.process},
        )

    async def close(self, tell: Iterable[str] = ()) -> None:
        """Leave the cluster: give every lease up, and tell the processes ``tell`` (those with
        sockets at this process's tables) which tables are free, so they take them at once."""
        released = sorted(self.owned)
        with contextlib.suppress(RedisError):
            for code in released:
                await self._release(keys=[_lease_key(code)], args=[self.process], client=self.redis)
            await self.redis.delete(_alive_key(self.process))
        self.owned.clear()
        if released:
            for process in set(tell):
                self.send(process, {"kind": "released", "tables": released})
        for _ in range(100):  # what is queued leaves first (within a second)
            if self._outbox.empty() and not self._sending:
                break
            await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._left = True
        await self._redis.aclose()

    # --- leases ----------------------------------------------------------------------------------

    async def claim(self, code: str) -> str:
        """Take the lease of table ``code`` if nobody holds it; returns its owner (maybe this process)."""
        if code in self.owned:
            return self.process
        key = _lease_key(code)
        while True:
            owner = await self._trip("get", self.redis.get(key))
            if owner is not None:
                found = _text(owner)
                if found == self.process:
                    self.owned.add(code)
                return found
            if await self._trip("set", self.redis.set(key, self.process, nx=True, px=self._lease_ms)):
                self.owned.add(code)
                return self.process
            # Another process claimed it in between: read who.

    async def owners(self, codes: list[str]) -> dict[str, str | None]:
        """The owner of each table, or None where its lease ran out."""
        if not codes:
            return {}
        found = await self._trip("mget", self.redis.mget([_lease_key(code) for code in codes]))
        return {
            code: (None if owner is None else _text(owner)) for code, owner in zip(codes, found, strict=True)
        }

    async def release(self, code: str) -> None:
        """Give the table up (it left memory here): the next request for it may go to any process."""
        self.owned.discard(code)
        releasing = self._release(keys=[_lease_key(code)], args=[self.process], client=self.redis)
        await self._trip("release", releasing)

    async def renew(self) -> list[str]:
        """Renew this process's leases and say it is alive; returns the tables whose lease was lost."""
        codes = sorted(self.owned)
        await self._trip("set", self.redis.set(_alive_key(self.process), 1, px=self._lease_ms))
        if not codes:
            return []
        keys = [_lease_key(code) for code in codes]
        renewing = self._renew(keys=keys, args=[self.process, self._lease_ms], client=self.redis)
        renewed = await self._trip("renew", renewing)
        lost = [code for code, kept in zip(codes, renewed, strict=True) if not kept]
        self.owned.difference_update(lost)
        return lost

    async def alive(self, processes: Iterable[str]) -> dict[str, bool]:
        """Whether each process renewed its presence within the lease."""
        names = sorted(set(processes))
        if not names:
            return {}
        found = await self._trip("mget", self.redis.mget([_alive_key(process) for process in names]))
        return {process: value is not None for process, value in zip(names, found, strict=True)}

    # --- messages --------------------------------------------------------------------------------

    def send(self, process: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``process``: sent in order with everything queued before it."""
        self._outbox.put_nowait((_channel(process), orjson.dumps(message)))

    def send_everyone(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for every process, this one included."""
        self._outbox.put_nowait((EVERYONE, orjson.dumps(message)))

    async def call(self, process: str, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request to ``process`` and wait for its answer: :class:`OwnerGone` if none comes
        within :attr:`answer_within`, or sooner once ``process`` has stopped saying it is alive."""
        number = next(self._ids)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._waiting[number] = answer
        deadline = loop.time() + self.answer_within
        try:
            self.send(process, {**message, "call": number, "from": self.process})
            while True:
                wait = min(self.lease / 2, deadline - loop.time())
                if wait <= 0:
                    raise OwnerGone(f"process {process} did not answer")
                done, _ = await asyncio.wait({answer}, timeout=wait)
                if done:
                    return answer.result()
                if not (await self.alive([process]))[process]:
                    raise OwnerGone(f"process {process} stopped")
        finally:
            self._waiting.pop(number, None)

    def answer(self, request: dict[str, Any], reply: dict[str, Any]) -> None:
        """Answer a request received through :meth:`call`."""
        self.send(request["from"], {"kind": "answer", "call": request["call"], "reply": reply})

    async def _send_outbox(self) -> None:
        # Everything queued meanwhile leaves in one round trip, as one array per receiving process.
        while True:
            by_channel: dict[str, list[bytes]] = {}
            self._sending = False
            channel, data = await self._outbox.get()
            self._sending = True
            by_channel[channel] = [data]
            while not self._outbox.empty():
                channel, data = self._outbox.get_nowait()
                by_channel.setdefault(channel, []).append(data)
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, messages in by_channel.items():
                        pipe.publish(channel, b"[" + b",".join(messages) + b"]")
                    await self._trip("publish", pipe.execute())
            except RedisError as err:
                lost = sum(len(messages) for messages in by_channel.values())
                self.faults.failed(
                    "redis",
                    "messages_not_sent",
                    err,
                    "could not send %d messages to other processes",
                    lost,
                    messages=lost,
                )

    async def _listen(self, pubsub: Any, receive: Receiver) -> None:
        while True:
            try:
                async for raw in pubsub.listen():
                    for message in orjson.loads(raw["data"]):
                        if message.get("kind") == "answer":
                            waiting = self._waiting.get(message["call"])
                            if waiting is not None and not waiting.done():
                                waiting.set_result(message["reply"])
                            continue
                        await receive(message)
            except asyncio.CancelledError:
                raise
            except RedisError as err:  # Redis gone for a moment: listen again after a pause
                self.faults.failed(
                    "redis", "channel_failed", err, "the cluster channel failed; listening again"
                )
                await asyncio.sleep(0.5)
            except Exception:
                log.exception(
                    "the cluster channel failed; listening again", extra={"event": "channel_failed"}
                )
                await asyncio.sleep(0.5)
