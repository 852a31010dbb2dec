"""The web server: Starlette for HTTP, python-socketio for real-time play, SQLAlchemy for storage.

The server alone applies actions, through the engine (:mod:`smear.server.tables.requests`). Bots,
the turn timer and absent players are played for on the server, after a short pause, off the event
loop, and only while a person is at the table (:mod:`smear.server.tables.pacing`). Idle tables
close, rest or leave memory (:meth:`SmearServer.sweep`).

The server is a few parts, each owning its state and taking in its constructor only what it uses:
the live tables and their storage (:mod:`smear.server.tables.live`), presence
(:mod:`smear.server.tables.presence`) and pacing, the cluster (:mod:`smear.server.cluster.sharing`),
the social side (:mod:`smear.server.social.talk`, :mod:`smear.server.social.listing`), the table
requests, hints and reviews (:mod:`smear.server.players.hintrequests`) and the players' HTTP API
(:mod:`smear.server.players.api`). docs/architecture.md draws them.
:func:`build_server` is the one place that builds and wires them; :class:`SmearServer` holds them,
answers the sockets' door (:class:`SocketDoor`) and runs the ASGI application's life.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import socketio  # type: ignore[import-untyped]
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.bots import table_bots
from smear.rules import PRESETS
from smear.server.cluster.coordination import Cluster, process_name
from smear.server.cluster.sharing import Handler, Sharing
from smear.server.faultlog import FaultLog
from smear.server.limits import AddressBook, Limits, Timing, client_address
from smear.server.metrics import Metrics
from smear.server.players.api import PlayersApi
from smear.server.players.background import BackgroundWork
from smear.server.players.hintrequests import HintRequests
from smear.server.players.hints import HintService
from smear.server.players.ownpractice import OwnPractice
from smear.server.players.practice import PracticeApi
from smear.server.players.profilepace import ProfilePace
from smear.server.readiness import Readiness
from smear.server.social import talk
from smear.server.social.blocks import Blocks
from smear.server.social.friends import FriendsApi
from smear.server.social.listing import OpenTables
from smear.server.social.moderation import Moderation, this_process
from smear.server.social.reports import Reports
from smear.server.social.talk import Talk, TalkPace
from smear.server.social.whereabouts import Whereabouts
from smear.server.storage.database import Storage, StorageError
from smear.server.storage.playerstore import mask_names
from smear.server.storage.rows import StoredTable
from smear.server.tables.finishing import PendingFinishes
from smear.server.tables.live import Connection, LiveTables, TableStore, Tasks
from smear.server.tables.matchmaking import Matchmaking
from smear.server.tables.openings import Openings
from smear.server.tables.pacing import Pacing
from smear.server.tables.presence import Presence
from smear.server.tables.quarantine import Quarantine
from smear.server.tables.requests import TableRequests
from smear.server.tables.table import TableError
from smear.server.web import STATIC_DIR, client_routes, facts_routes, with_security_headers
from smear.server.wire.guard import (
    GuardedServer,
    LogThrottle,
    page_may_connect,
    quiet_client_faults,
    quiet_logger,
)
from smear.server.wire.protocol import MAX_MESSAGE_BYTES, error_payload
from smear.server.wire.transport import TransportDoor

log = logging.getLogger("smear.server")

RATE_PER_SECOND = 20.0
RATE_BURST = 40.0
SAMPLE_EVERY = 1.0  # seconds between two readings of the gauges (with --metrics)


class SocketDoor:
    """The sockets' door: a socket let in (or refused past its address's cap), gone, and every
    client event it sends, rate-limited and answered by
    :meth:`smear.server.cluster.sharing.Sharing.handle`."""

    def __init__(
        self,
        live: LiveTables,
        limits: Limits,
        over_cap: Callable[[str], bool],
        sharing: Sharing,
        metrics: Metrics,
    ) -> None:
        self.live = live
        self.limits = limits
        self.over_cap = over_cap  # whether an address has more Engine.IO sessions than allowed
        self.sharing = sharing
        self.metrics = metrics

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        address = client_address(environ, self.limits.trusted_proxies)
        # Its Engine.IO session is counted already; one past the cap is let in only to hear this.
        if self.over_cap(address):
            self.metrics.rate_limited("connections")
            limit = self.limits.connections_per_address
            refusal = error_payload("too_many_connections", limit=limit)
            # The client reads the error as the refusal's data.
            raise socketio.exceptions.ConnectionRefusedError(refusal["message"], refusal)
        self.live.connections[sid] = Connection(address)

    async def on_disconnect(self, sid: str, *args: Any) -> None:
        connection = self.live.connections.get(sid)
        if connection is None or connection.home is not None:
            return
        await self.sharing.drop_connection(sid, connection)

    async def dispatch(self, sid: str, data: Any) -> dict[str, Any]:
        """Answer one client event, sent as ``[name, payload]``; never raises.

        Names are looked up here, never by the Socket.IO library, so a client cannot reach the
        server's own ``connect`` and ``disconnect`` handlers by naming them.
        """
        started = time.perf_counter()
        connection = self.live.connections.get(sid)
        if connection is None or connection.home is not None:
            return {"ok": False, "error": error_payload("rate_limited")}
        if not self._rate_ok(connection):
            self.metrics.rate_limited("messages")
            return {"ok": False, "error": error_payload("rate_limited")}
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            self.metrics.request("unknown", "malformed_json")
            return {"ok": False, "error": error_payload("malformed_json")}
        reply = await self.sharing.handle(sid, data[0], data[1:])
        if self.metrics.on:
            self._count(data[0], reply, time.perf_counter() - started)
        return reply

    def _count(self, event: str, reply: dict[str, Any], seconds: float) -> None:
        """The request in the metrics, under its event's name if there is such an event."""
        name = event if event in self.sharing.handlers else "unknown"
        code = None if reply.get("ok") else str(reply.get("error", {}).get("code", "internal_error"))
        self.metrics.request(name, code)
        if name == "act":
            self.metrics.act_acked(seconds)
        if code == "too_many_tables":  # the paces count their own refusals, by their names
            self.metrics.rate_limited("tables_per_hour")

    @staticmethod
    def _rate_ok(connection: Connection) -> bool:
        now = time.monotonic()
        connection.allowance = min(
            RATE_BURST, connection.allowance + (now - connection.checked) * RATE_PER_SECOND
        )
        connection.checked = now
        if connection.allowance < 1:
            return False
        connection.allowance -= 1
        return True


class SmearServer:
    """The game server: its parts (built by :func:`build_server`), their life, and the ASGI
    application."""

    def __init__(
        self,
        *,
        sio: GuardedServer,
        live: LiveTables,
        store: TableStore,
        storage: Storage,
        faults: FaultLog,
        parts: tuple[Presence, Pacing, Sharing, Talk, OpenTables, TableRequests, PlayersApi],
        settings: tuple[Timing, Limits, Callable[[], float]],
        hints: HintService,
        background: BackgroundWork,
        cluster: Cluster | None,
        addresses: AddressBook,
        drops: LogThrottle,
        moderation: Moderation,
        readiness: Readiness,
        reports: Reports,
        metrics: Metrics,
        practice: PracticeApi,
        own_practice: OwnPractice,
        friends: FriendsApi,
        whereabouts: Whereabouts,
        openings: Openings,
        quarantine: Quarantine,
    ) -> None:
        self.sio = sio
        self.live = live
        self.store = store
        self.storage = storage
        self.faults = faults  # the database failing: logged once, then counted
        self.presence, self.pacing, self.sharing, self.talk, self.listing, self.requests, self.players = parts
        self.timing, self.limits, self.clock = settings
        self.hints = hints
        self.background = background
        self.cluster = cluster
        self.addresses = addresses  # the connections and new tables counted per client address
        self.drops = drops
        self.moderation = moderation  # the bans, and the operator's orders carried out
        self.readiness = readiness
        self.reports = reports  # players' reports of other players
        self.practice = practice  # practice positions, attempts and practice ratings
        self.own_practice = own_practice  # a profile's costliest decisions of a match, to practise
        self.friends = friends  # friends, invitations and blocks
        self.whereabouts = whereabouts  # where each profile's pages are, across the processes
        self.quarantine = quarantine  # the tables put aside
        self.openings = openings  # the matchmade tables' seats to take, shared with every process
        self.metrics = metrics
        self._sweeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._sampler: asyncio.Task[None] | None = None

    # --- the ASGI application -----------------------------------------------------------------------

    def asgi_app(self) -> Any:
        routes: list[BaseRoute] = [
            Route("/health", self.health),
            *self.readiness.routes(),
            Route("/tables/{code}/matches/{number}/record.json", self.record),
            *facts_routes(self.limits),
            *self.reports.routes(),
            *self.friends.routes(),
            *self.own_practice.routes(),  # before the practice routes: .../practice/matches/{match}
            *self.practice.routes(),  # before the players' routes: /api/players/{player}/practice/...
            *self.players.routes(),
            *client_routes(STATIC_DIR),  # after the routes above, so they keep their paths
        ]
        http = Starlette(routes=routes)
        app = socketio.ASGIApp(self.sio, other_asgi_app=http, on_startup=self.restore, on_shutdown=self.close)
        return TransportDoor(
            with_security_headers(app),
            self.sio.eio,
            self.sio.transport,
            self.limits.trusted_proxies,
            max_body=self.sio.eio.max_http_buffer_size,
            limited=self.metrics.rate_limited,
        )

    async def health(self, request: Request) -> Response:
        # The tables put aside are for the operator to see; the count is read at each sweep.
        return JSONResponse({"ok": True, "quarantined": self.quarantine.count})

    async def record(self, request: Request) -> Response:
        code = request.path_params["code"]
        digits = str(request.path_params["number"])
        # Read here, not by a route converter: int() refuses thousands of digits with a ValueError.
        number = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 12 else 0
        try:
            record = await self.store.read(self.storage.match_record, code, number)
            if record is not None:
                record = mask_names(
                    record, await self.store.read(self.storage.players.deleted_seats, code, number)
                )
        except StorageError as err:
            self.faults.failed("database", "record_not_read", err, "a record could not be read", table=code)
            return JSONResponse({"error": "storage unavailable, try again"}, status_code=503)
        if record is None:
            return JSONResponse({"error": "no finished match there"}, status_code=404)
        headers = {"Content-Disposition": f'attachment; filename="smear-{code}-{number}.json"'}
        return JSONResponse(record, headers=headers)

    async def restore(self) -> None:
        """Bring back every live table, replaying the actions of its match in progress.

        A lobby or match that was idle too long when the server stopped is closed or put to rest
        instead. Nobody is connected yet, so the tables wait for their people. Each table is brought
        back alone: one that cannot be is put aside or left for later, and the others are served.
        """
        now = self.clock()
        self.hints.warm()
        try:
            await self.store.db(self.storage.players.ensure_bots, table_bots(), list(PRESETS), now)
        except StorageError as err:  # the database failed: a bot gets its profile at its first rated match
            self.faults.failed("database", "bots_not_stored", err, "the bots' profiles were not stored")
        if self.cluster is not None:
            await self.cluster.start(self.sharing.on_cluster_message)
            self._watcher = asyncio.get_running_loop().create_task(self.sharing.look_around_forever())
            self.whereabouts.start()
            self.openings.start()
        process = self.cluster.process if self.cluster is not None else process_name()
        await self.moderation.start(this_process(process, now))
        for stored in await self.store.db(self.storage.unfinished_tables):
            if self.cluster is not None and await self.cluster.claim(stored.code) != self.cluster.process:
                continue  # another process serves it
            await self._restore_table(stored, now)
        await self.quarantine.recount()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        if self.metrics.on:
            self._sampler = asyncio.get_running_loop().create_task(self._sample_forever())
        log.info(
            "restored %d tables (%d put aside)",
            len(self.live.tables),
            self.quarantine.count,
            extra={
                "event": "tables_restored",
                "tables": len(self.live.tables),
                "put_aside": self.quarantine.count,
            },
        )

    async def _restore_table(self, stored: StoredTable, now: float) -> None:
        """Bring back one table, or leave it out: put aside if it cannot be rebuilt, in storage for
        its next reader if storage failed."""
        since = stored.idle_since
        try:
            if since is not None and await self.pacing.retire(stored.code, stored.status, since, now):
                return
            table = await self.store.table_from_storage(stored)
        except TableError:  # put aside, and logged
            return
        except StorageError as err:
            self.faults.failed(
                "database",
                "table_not_restored",
                err,
                "table %s was not restored",
                stored.code,
                table=stored.code,
            )
            return
        self.pacing.keep(table, idle_since=(since if since is not None else now, since is not None))

    async def sweep(self) -> None:
        """Store the records that failed, close, rest or free the idle tables (:meth:`Pacing.sweep`),
        delete the chat lines kept long enough (:meth:`Talk.sweep`), and empty old reports' chat."""
        await self.pacing.sweep()
        await self.talk.sweep()
        await self.reports.sweep()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping the idle tables failed", extra={"event": "sweep_failed"})

    async def _sample_forever(self) -> None:
        """The gauges, every second: cheap counts of what the parts hold."""
        while True:
            local = sum(1 for connection in self.live.connections.values() if connection.home is None)
            self.metrics.sample(
                len(self.live.tables),
                local,
                0 if self.cluster is None else len(self.cluster.owned),
                {"hint": self.hints.working, **self.background.depths()},
            )
            await asyncio.sleep(SAMPLE_EVERY)

    async def close(self) -> None:
        for task in (self._sweeper, self._watcher, self._sampler):
            if task is not None:
                task.cancel()
        self.listing.close()
        self.whereabouts.close()
        self.openings.close()
        for handle in self.live.timers.values():
            handle.cancel()
        self.hints.close()
        self.background.close()
        self.moderation.close()
        self.readiness.close()
        await self.store.close()
        if self.cluster is not None:
            homes = (c.home for c in self.live.connections.values() if c.home is not None)
            await self.cluster.close(tell=homes)


def socket_server(
    limits: Limits, drops: LogThrottle, addresses: AddressBook, shared: bool, door: Callable[[], SocketDoor]
) -> GuardedServer:
    """The Socket.IO server, every event sent to the door ``door()`` returns (made after it: the door
    answers with the parts that send through this server)."""

    async def dispatch(sid: str, data: Any) -> dict[str, Any]:
        return await door().dispatch(sid, data)

    origins = limits.allowed_origins
    sio = GuardedServer(
        dispatch,
        drops,
        addresses,
        async_mode="asgi",
        cors_allowed_origins=(lambda origin, environ: page_may_connect(origin, environ, origins)),
        max_http_buffer_size=MAX_MESSAGE_BYTES * 4,
        # A long-polling session is a series of requests that must all reach the process that
        # holds it; without sticky sessions in front, only WebSockets (one connection) can work.
        transports=["websocket"] if shared else ["polling", "websocket"],
        logger=quiet_logger("smear.socketio"),
        engineio_logger=quiet_logger("smear.engineio"),
    )
    quiet_client_faults()
    return sio


def build_server(
    database: str = "sqlite:///smear.db",
    timing: Timing | None = None,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.time,
    redis: str | None = None,
    metrics: Metrics | None = None,
) -> SmearServer:
    """The server's parts, each given what it uses, and the events and routes that reach them; with
    ``redis``, one of several processes serving the same tables (:mod:`smear.server.cluster.coordination`);
    with ``metrics`` on, their numbers recorded there (:mod:`smear.server.metrics`)."""
    timing, limits, metrics = timing or Timing(), limits or Limits(), metrics or Metrics()
    drops, faults = LogThrottle(log), FaultLog(log)
    cluster = None if redis is None else Cluster(redis, lease=timing.lease, metrics=metrics, faults=faults)
    addresses = AddressBook(limits)
    doors: list[SocketDoor] = []  # the one door, once made
    sio = socket_server(limits, drops, addresses, cluster is not None, lambda: doors[0])
    live, tasks, pace = LiveTables(), Tasks(), TalkPace(metrics)
    storage = Storage(database)
    finishes = PendingFinishes(limits.finish_attempts)
    store = TableStore(storage, finishes, clock, drops, metrics=metrics, faults=faults)
    hints = HintService(limits.hint_queue, metrics=metrics)
    presence = Presence(live, timing, cluster, sio)
    listing = OpenTables(live, store, faults, storage.listing, presence.push, shared=cluster is not None)
    pacing = Pacing(
        live,
        presence,
        store,
        store.quarantine,
        finishes,
        storage,
        tasks,
        (timing, limits),
        clock,
        cluster,
        hints,
        addresses,
        listing.changed,
    )
    handlers: dict[str, Handler] = {}  # filled below, once the parts that answer are made
    sharing = Sharing(
        live, presence, pacing, store, storage, tasks, timing, clock, cluster, sio, handlers, metrics=metrics
    )
    background = BackgroundWork(limits, storage, lambda: talk.pace_clock(), metrics=metrics)
    profile_pace = ProfilePace(limits, lambda: talk.pace_clock(), metrics)
    owns = (lambda code: True) if cluster is None else (lambda code: code in cluster.owned)
    moderation = Moderation(
        live, store, storage.moderation, finishes, presence, pacing, clock, owns, sio.disconnect
    )
    players = PlayersApi(
        store,
        storage,
        profile_pace,
        background,
        limits,
        clock,
        drops,
        cluster,
        sharing.profile_gone,
        moderation.refuse_banned,
    )
    checked_profile = moderation.checked(players.linked_profile)
    whereabouts = Whereabouts(live, cluster, faults, sio, checked_profile, timing.lease)
    blocks = Blocks(live, store, storage.relations, cluster, whereabouts.profile_of)
    sharing.listeners.update(
        invitation=whereabouts.on_cluster_message, blocks_changed=blocks.on_cluster_message
    )
    chat = Talk(live, sharing, presence, store, faults, storage.chat, pace, clock, blocks)
    requests = TableRequests(
        live,
        sharing,
        presence,
        pacing,
        store,
        faults,
        storage,
        pace,
        (limits, addresses),
        clock,
        cluster,
        checked_profile,
        listing.changed,
        metrics=metrics,
    )
    reports = Reports(
        live,
        sharing,
        store,
        faults,
        storage.reports,
        profile_pace,
        limits,
        clock,
        players.linked_profile,
        moderation.refuse_banned,
    )
    handlers.update(_events(requests, HintRequests(sharing, hints), chat, listing), report=reports.report)
    handlers.update(hello=whereabouts.hello)
    openings = Openings(live, cluster, faults, clock)
    matchmaking = Matchmaking(
        sharing,
        openings,
        requests,
        pacing,
        store,
        storage.players,
        blocks,
        checked_profile,
        sharing.handle,
        timing.matchmade_turn,
    )
    handlers.update(find_game=matchmaking.find_game, take_bot_seat=matchmaking.take_bot_seat)
    door = SocketDoor(live, limits, sio.transport.over_cap, sharing, metrics)
    doors.append(door)
    sio.on("connect", moderation.door(door.on_connect, limits.trusted_proxies))
    sio.on("disconnect", door.on_disconnect)
    return SmearServer(
        sio=sio,
        live=live,
        store=store,
        storage=storage,
        faults=faults,
        parts=(presence, pacing, sharing, chat, listing, requests, players),
        settings=(timing, limits, clock),
        hints=hints,
        background=background,
        cluster=cluster,
        addresses=addresses,
        drops=drops,
        moderation=moderation,
        # Redis asked through the cluster each time: once the process has left it, it is refused.
        readiness=Readiness(storage.ping, None if cluster is None else lambda: cluster.redis.ping()),
        reports=reports,
        metrics=metrics,
        practice=PracticeApi(store, storage.practice, profile_pace, limits, clock, players.proven),
        own_practice=OwnPractice(
            store,
            storage.own_practice,
            storage.practice,
            background,
            profile_pace,
            limits,
            clock,
            players.proven,
        ),
        friends=FriendsApi(
            store, storage.relations, profile_pace, limits, clock, players.proven, whereabouts, blocks
        ),
        whereabouts=whereabouts,
        openings=openings,
        quarantine=store.quarantine,
    )


def _events(
    requests: TableRequests, advice: HintRequests, chat: Talk, listing: OpenTables
) -> dict[str, Handler]:
    """The handler of each client event, by the event's name."""
    return {
        "create_table": requests.create_table,
        "join_table": requests.join_table,
        "watch_table": requests.watch_table,
        "resume": requests.resume,
        "take_seat": requests.take_seat,
        "set_bot": requests.set_bot,
        "kick": requests.kick,
        "start": requests.start,
        "act": requests.act,
        "play_again": requests.play_again,
        "rematch": requests.rematch,
        "leave": requests.leave,
        "hint": advice.hint,
        "bid_advice": advice.bid_advice,
        "review_hand": advice.review_hand,
        "review_match": advice.review_match,
        "react": chat.react,
        "chat": chat.chat,
        "chat_history": chat.chat_history,
        "chat_settings": chat.chat_settings,
        "mute": chat.mute,
        "list_table": requests.list_table,
        "open_tables": listing.open_tables,
    }


def create_app(
    database: str = "sqlite:///smear.db",
    timing: Timing | None = None,
    limits: Limits | None = None,
    redis: str | None = None,
    metrics: Metrics | None = None,
) -> Any:
    """The ASGI application (``uvicorn smear.server.app:app``); with ``redis``, one of several
    processes serving the same tables; with ``metrics``, its numbers recorded there."""
    return build_server(database, timing, limits, redis=redis, metrics=metrics).asgi_app()
