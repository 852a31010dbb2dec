"""The server's side of sharing tables with other processes (:mod:`smear.server.cluster.coordination`).

A socket of this process may follow a table another process owns: this process then keeps where it
follows (``Connection.table`` and ``token_hash``) but not the table, and the owner keeps a
``Connection`` for the socket with ``home`` set to this process. Requests go to the owner and come
back answered; the owner's pushes come here and go out to the socket. Every ``lease / 4`` seconds
(:meth:`Sharing.look_around`) a process renews its leases, claims the tables its sockets follow
whose owner is gone, tells a new owner who follows its tables here, forgets the owners of tables
no socket here follows any more, and forgets the sockets of processes that stopped.

:class:`Sharing` owns that bookkeeping (``told_owner``, ``unused_leases``, ``home_missing``), brings
tables back from storage (:meth:`Sharing.at`, for every request), and answers each request with the
handler the application registered for its event (:meth:`Sharing.handle`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import orjson
from redis.exceptions import RedisError

from smear.server.cluster.coordination import Cluster, ClusterError, OwnerGone
from smear.server.limits import Timing
from smear.server.metrics import Metrics
from smear.server.storage.database import Storage
from smear.server.tables.live import Connection, LiveTables, NotStored, TableStore, Tasks
from smear.server.tables.pacing import Pacing
from smear.server.tables.presence import Presence, Sender
from smear.server.tables.table import Table, TableError
from smear.server.wire.guard import LogThrottle
from smear.server.wire.protocol import ProtocolError, echoed, error_payload, parse_inbound

log = logging.getLogger("smear.server")


class Moved(Exception):
    """A request forwarded here for a table this process does not own: the sender asks Redis."""


Handler = Callable[[str, Any], Awaitable[dict[str, Any]]]


class Sharing:
    """Where a request is answered, messages from other processes, and taking tables over."""

    def __init__(
        self,
        live: LiveTables,
        presence: Presence,
        pacing: Pacing,
        store: TableStore,
        storage: Storage,
        tasks: Tasks,
        timing: Timing,
        clock: Callable[[], float],
        cluster: Cluster | None,
        sender: Sender,
        handlers: Mapping[str, Handler],
        metrics: Metrics | None = None,
    ) -> None:
        self.metrics = metrics or Metrics()
        self.live = live
        self.presence = presence
        self.pacing = pacing
        self.store = store
        self.storage = storage
        self.tasks = tasks
        self.timing = timing
        self.clock = clock
        self.cluster = cluster
        self.sender = sender
        # By event name: the requests' handlers, registered by the application (smear.server.app).
        self.handlers = handlers
        # By message kind: other parts' messages between processes (an invitation, a block changed).
        self.listeners: dict[str, Callable[[dict[str, Any]], Awaitable[None]]] = {}
        # With Redis: per table followed from here but owned elsewhere, the owner told so; and the
        # leases held for tables not in memory at the last look (released at the next).
        self.told_owner: dict[str, str] = {}
        self.unused_leases: set[str] = set()
        self.home_missing: dict[str, float] = {}  # processes with sockets here, missing since (monotonic)
        self._waking = asyncio.Lock()
        self.refusals = LogThrottle(log)

    @asynccontextmanager
    async def at(self, code: str) -> AsyncIterator[Table]:
        """The table with that code, its lock held; brought back first if it is not in memory.

        Checked again once the lock is held: a table freed meanwhile is brought back anew.
        """
        while True:
            table = await self.table(code)
            async with self.live.lock(table):
                if self.live.tables.get(code) is table:
                    yield table
                    return

    async def table(self, code: str) -> Table:
        """The table with that code, brought back from storage if it was put to rest or freed."""
        table = self.live.tables.get(code)
        if table is not None:
            return table
        async with self._waking:
            table = self.live.tables.get(code)
            if table is not None:
                return table
            stored = await self.store.read(self.storage.table, code)
            if stored is None:
                raise TableError("no_such_table")
            table = await self.store.table_from_storage(stored)  # table_unavailable if put aside
            if stored.resting:
                await self.store.db(self.storage.set_idle, code, stored.idle_since)
            self.pacing.keep(table, idle_since=(self.clock(), False))
            log.info("table %s is back from storage", code, extra={"event": "table_woken", "table": code})
            if self.cluster is not None:  # taken over: sockets here that followed it elsewhere follow it here
                self.tasks.spawn(self._welcome_strays(code))
            return table

    async def handle(self, sid: str, event: str, args: list[Any], forwarded: bool = False) -> dict[str, Any]:
        """Answer the request ``event`` with ``args``, here or (with Redis) at its table's owner; a
        request ``forwarded`` by another process is answered here or refused. Never raises."""
        handler = self.handlers.get(event)
        code: Any = None
        try:
            if handler is None:
                raise ProtocolError("unknown_event", event=echoed(event))
            if len(args) > 1:
                raise ProtocolError("malformed_json")
            message = parse_inbound(event, args[0] if args else None)
            code = getattr(message, "table", None)  # every request but create_table names one
            if self.cluster is not None and isinstance(code, str):
                owner = await self.owner_of(code)
                if owner != self.cluster.process:
                    if forwarded:
                        raise Moved
                    reply = await self._ask(owner, sid, event, args)
                    if reply is not None:
                        return reply
                    # The owner known here has given the table up or stopped: ask Redis who has it
                    # now (this process, if nobody). Nothing the old owner did was acknowledged.
                    self.told_owner.pop(code, None)
                    owner = await self.cluster.claim(code)
                    if owner != self.cluster.process:
                        reply = await self._ask(owner, sid, event, args)
                        if reply is None:
                            raise NotStored  # moving again: the client asks again
                        return reply
            return {"ok": True, **await handler(sid, message)}
        except Moved:
            return {"moved": True}
        except (ProtocolError, TableError) as err:
            self._log_refusal(event if handler is not None else "unknown", err.code, code)
            return {"ok": False, "error": error_payload(err.code, **err.args_map)}
        except (NotStored, ClusterError, RedisError):  # Redis gone a moment: nothing was acknowledged
            return {"ok": False, "error": error_payload("not_stored")}
        except Exception:  # never let a bug reach the client as anything but a code
            log.exception("internal error in %s", event, extra={"event": "request_failed", "request": event})
            return {"ok": False, "error": error_payload("internal_error")}

    def _log_refusal(self, request: str, error: str, table: Any) -> None:
        """One info line per kind of refusal (request and code) every few seconds, with how many
        were left out: a client repeating a refused request cannot flood the log."""
        fields = {"request": request, "code": error}
        if isinstance(table, str) and table in self.live.tables:  # a code, never what a client typed
            fields["table"] = table
        self.refusals.line(
            logging.INFO, f"{request} {error}", "request_refused", "%s refused: %s", request, error, **fields
        )

    def _cluster(self) -> Cluster:
        assert self.cluster is not None, "only with Redis"
        return self.cluster

    async def owner_of(self, code: str) -> str:
        """The process that owns table ``code`` (this one if it is free: it is claimed); the owner
        this process last dealt with, without asking Redis, if there is one."""
        cluster = self._cluster()
        if code in self.live.tables and code in cluster.owned:
            return cluster.process
        known = self.told_owner.get(code)
        if known is not None:
            return known
        return await cluster.claim(code)

    async def _ask(self, owner: str, sid: str, event: str, args: list[Any]) -> dict[str, Any] | None:
        """:meth:`forward`, with None also when ``owner`` stopped (its lease runs out with its mark
        of being alive); ``not_stored`` if the socket closed meanwhile."""
        connection = self.live.connections.get(sid)
        if connection is None:
            raise NotStored
        try:
            return await self.forward(owner, sid, connection, event, args)
        except OwnerGone:
            return None

    async def forward(
        self, owner: str, sid: str, connection: Connection, event: str, args: list[Any]
    ) -> dict[str, Any] | None:
        """Have ``owner`` answer the request, and note where the socket follows after it; None if
        ``owner`` does not own the table (any more), :class:`OwnerGone` if it stopped."""
        request = {
            "kind": "request",
            "sid": sid,
            "address": connection.address,
            "page": connection.page,
            "event": event,
            "args": args,
        }
        answer = await self._cluster().call(owner, request)
        if answer["reply"].get("moved"):
            return None
        follow = answer.get("follow")
        if follow is not None:
            code, token_hash = follow
            self._follow_elsewhere(sid, connection, code, token_hash)
            self.told_owner[code] = owner
        reply: dict[str, Any] = answer["reply"]
        return reply

    def _follow_elsewhere(self, sid: str, connection: Connection, code: str, token_hash: str | None) -> None:
        if connection.table != code and connection.table is not None:
            if connection.table in self.live.tables:
                self.presence.unfollow(sid, connection)
            else:
                self._tell_owner_gone(connection.table, sid)
        connection.table = code
        connection.token_hash = token_hash

    def _tell_owner_gone(self, code: str, sid: str) -> None:
        """The owner of ``code`` forgets a socket of this process (closed, or following elsewhere)."""
        owner = self.told_owner.get(code)
        if owner is not None:
            self._cluster().send(owner, {"kind": "gone", "sid": sid})

    async def on_cluster_message(self, message: dict[str, Any]) -> None:
        """A message from another process: never raises."""
        try:
            kind = message.get("kind")
            if kind == "push":
                await self.sender.send(message["event"], orjson.Fragment(message["data"]), message["sids"])
            elif kind == "request":
                self.tasks.spawn(self._answer_request(message))
            elif kind == "gone":
                connection = self.live.connections.get(message["sid"])
                if connection is not None and connection.home is not None:
                    await self.drop_connection(message["sid"], connection)
            elif kind == "released":  # its owner stopped: the tables followed from here move here
                for code in message["tables"]:
                    self.told_owner.pop(code, None)
                self.tasks.spawn(self._follow_owners())
            elif kind == "follow":
                self.tasks.spawn(self._welcome(message["table"], message["from"], message["sockets"]))
            elif kind == "profile_deleted":  # deleted at any process: its seats here lose it too
                self.tasks.spawn(self.profile_gone(message["player"]))
            elif isinstance(kind, str) and kind in self.listeners:
                await self.listeners[kind](message)
        except Exception:
            log.exception(
                "a message from another process could not be handled",
                extra={"event": "cluster_message_failed", "kind": str(message.get("kind"))[:40]},
            )

    async def profile_gone(self, player: str) -> None:
        """A profile was deleted: the seats it holds at this process's tables play on without it,
        and their followers see so."""
        for table in [t for t in self.live.tables.values() if any(s.profile == player for s in t.seats)]:
            async with self.live.lock(table):
                if self.live.tables.get(table.code) is table:
                    table.set_profile_gone(player)
                    await self.presence.broadcast(table, with_event=False)

    async def _answer_request(self, message: dict[str, Any]) -> None:
        cluster = self._cluster()
        sid, home = message["sid"], message["from"]
        connection = self.live.connections.get(sid)
        if connection is None or connection.home != home:
            connection = self.live.connections[sid] = Connection(message["address"], home=home)
        page = message.get("page")
        connection.page = page if isinstance(page, str) else None
        reply = await self.handle(sid, message["event"], message["args"], forwarded=True)
        after = self.live.connections.get(sid)
        follow = None
        if after is not None and after.table is not None:
            follow = [after.table, after.token_hash]
        elif after is not None:
            del self.live.connections[sid]  # follows nothing here: nothing to keep for it
        cluster.answer(message, {"reply": reply, "follow": follow})

    async def _welcome(self, code: str, home: str | None, sockets: list[list[Any]]) -> None:
        """Sockets (of process ``home``, or of this one for None) that follow ``code``, now owned
        here: each follows it again and gets a full state."""
        if home is not None and await self.owner_of(code) != self._cluster().process:
            return  # not (or no longer) the owner: the sender finds the real one at its next look
        try:
            async with self.at(code) as table:
                for sid, address, token_hash, *page in sockets:
                    connection = self.live.connections.get(sid)
                    if home is not None and (connection is None or connection.home != home):
                        connection = self.live.connections[sid] = Connection(address, home=home)
                    if connection is None:
                        continue
                    if home is not None:  # its page's profile, for blocks (a process before it sent none)
                        connection.page = page[0] if page and isinstance(page[0], str) else None
                    if token_hash is not None and self.presence.seat_of_hash(table, token_hash) is None:
                        token_hash = None  # the seat was given up meanwhile: it watches
                    self.presence.follow(sid, table, token_hash)
                    await self.presence.send_state(sid, table, resync=True)
                await self.presence.broadcast(table, with_event=False)  # everyone sees who is back
                self.pacing.drive(table)
        except TableError as err:  # gone (a lobby closed) or put aside: its sockets here follow nothing
            if err.code == "table_unavailable":  # they are told, as whoever opens it is
                await self._tell_unavailable(home, [socket[0] for socket in sockets])
            for sid, *_ in sockets:
                connection = self.live.connections.get(sid)
                if home is None and connection is not None and connection.table == code:
                    connection.table = None

    async def _tell_unavailable(self, home: str | None, sids: list[str]) -> None:
        """An ``error`` push ``table_unavailable`` to sockets of process ``home`` (None: this one)."""
        payload = error_payload("table_unavailable")
        if home is not None:
            text = orjson.dumps(payload).decode()
            self._cluster().send(home, {"kind": "push", "event": "error", "data": text, "sids": sids})
        else:
            await self.sender.send("error", payload, sids)

    async def look_around_forever(self) -> None:
        while True:
            await asyncio.sleep(self.timing.lease / 4)
            faults = self._cluster().faults
            try:
                await self.look_around()
            except (ClusterError, RedisError) as err:
                faults.failed("redis", "redis_unreachable", err, "Redis cannot be reached")
                continue
            except Exception:
                log.exception("looking around the cluster failed", extra={"event": "look_around_failed"})
                continue
            faults.worked("redis")

    async def look_around(self) -> None:
        """Renew this process's leases; take over the tables followed here whose owner stopped; tell
        a table's new owner who follows it from here; forget the sockets of processes that stopped."""
        cluster = self._cluster()
        lost = await cluster.renew()
        self.metrics.lease_change("lost", len(lost))
        for code in lost:
            table = self.live.tables.get(code)
            if table is not None:
                log.warning(
                    "table %s: its lease was lost to another process; it leaves memory here",
                    code,
                    extra={"event": "lease_lost", "table": code},
                )
                async with self.live.lock(table):
                    if self.live.tables.get(code) is table:
                        self.pacing.free(table, lost=True)
        unused = {code for code in cluster.owned if code not in self.live.tables}
        for code in unused & self.unused_leases:
            await cluster.release(code)
        self.unused_leases = unused - self.unused_leases
        await self._follow_owners()
        homes = {c.home for c in self.live.connections.values() if c.home is not None}
        now = time.monotonic()
        for home, alive in (await cluster.alive(homes)).items():
            if alive:
                self.home_missing.pop(home, None)
                continue
            # Gone for a whole lease, not at one look: a Redis that restarted has lost every
            # process's mark until its next renewal.
            if now - self.home_missing.setdefault(home, now) < self.timing.lease:
                continue
            del self.home_missing[home]
            log.warning(
                "process %s stopped: its sockets leave the tables here",
                home,
                extra={"event": "process_gone", "peer": home},
            )
            for sid, connection in list(self.live.connections.items()):
                if connection.home == home:
                    await self.drop_connection(sid, connection)

    def _local_followers(self) -> dict[str, list[list[Any]]]:
        """This process's sockets that follow a table, as ``[sid, address, token_hash, page]`` by
        table (``page``: the profile its page said it is, or None)."""
        found: dict[str, list[list[Any]]] = {}
        for sid, connection in self.live.connections.items():
            code = connection.table
            if connection.home is None and code is not None:
                socket = [sid, connection.address, connection.token_hash, connection.page]
                found.setdefault(code, []).append(socket)
        return found

    def _strays(self, only: str | None = None) -> dict[str, list[list[Any]]]:
        """This process's sockets following a table it holds in memory without being among its
        followers (they followed it at an owner that stopped), by table."""
        found: dict[str, list[list[Any]]] = {}
        for code, sockets in self._local_followers().items():
            if code in self.live.tables and (only is None or code == only):
                following = self.live.followers.get(code, set())
                strays = [socket for socket in sockets if socket[0] not in following]
                if strays:
                    found[code] = strays
        return found

    async def _welcome_strays(self, only: str | None = None) -> None:
        for code, sockets in self._strays(only).items():
            await self._welcome(code, None, sockets)

    async def _follow_owners(self) -> None:
        cluster = self._cluster()
        await self._welcome_strays()
        followers = {
            code: sockets for code, sockets in self._local_followers().items() if code not in self.live.tables
        }
        # An owner is remembered while a socket here follows its table there, and no longer.
        for code in [code for code in self.told_owner if code not in followers]:
            del self.told_owner[code]
        for code, owner in (await cluster.owners(list(followers))).items():
            if owner is None:
                owner = await cluster.claim(code)
                if owner == cluster.process:
                    self.metrics.lease_change("taken_over")
                    log.warning(
                        "table %s: its owner stopped or let it go; taken over from the database",
                        code,
                        extra={"event": "table_taken_over", "table": code},
                    )
                    self.told_owner.pop(code, None)
                    await self._welcome(code, None, followers[code])
                    continue
            if owner != self.told_owner.get(code) and owner != cluster.process:
                cluster.send(
                    owner,
                    {"kind": "follow", "table": code, "from": cluster.process, "sockets": followers[code]},
                )
                self.told_owner[code] = owner

    async def drop_connection(self, sid: str, connection: Connection) -> None:
        """The socket is gone: it leaves its table, and its seat's person is counted as away."""
        self.live.connections.pop(sid, None)
        code = connection.table
        self.presence.unfollow(sid, connection)
        table = self.live.tables.get(code or "")
        if table is None:
            if code is not None and self.cluster is not None and connection.home is None:
                self._tell_owner_gone(code, sid)
            return
        if connection.token_hash is not None:
            # Not awaited here: python-engineio calls on_disconnect from inside a send when it finds
            # the socket silent too long, and that send may be a broadcast holding this table's lock.
            self.tasks.spawn(self._seat_left(table, connection.token_hash))

    async def _seat_left(self, table: Table, token_hash: str) -> None:
        """Tell the table a seat's person is gone, and let the server play for it after the grace."""
        async with self.live.lock(table):
            if self.live.tables.get(table.code) is not table:
                return
            seat = self.presence.seat_of_hash(table, token_hash)
            if seat is not None and not self.presence.connected(table, seat):
                self.live.disconnected_at[(table.code, seat)] = (time.monotonic(), False)
                await self.presence.broadcast(table, with_event=False)
                self.pacing.drive(table)
