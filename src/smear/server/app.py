"""The web server: Starlette for HTTP, python-socketio for real-time play, SQLAlchemy for storage.

The server alone applies actions, through the engine. Each change to a table happens under that
table's lock: the change is made, stored (on the storage thread, never on the event loop), then
acknowledged and sent to every seat and spectator as its own view; if storing fails, the table is
put back as it was and the request answered ``not_stored``. Bots, the turn timer and absent players
are played for on the server, after a short pause, off the event loop, and only while a person is
at the table. Idle tables close, rest or leave memory (:meth:`SmearServer.sweep`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import socketio  # type: ignore[import-untyped]
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.bots import make_bot
from smear.record import record_of
from smear.server.guard import GuardedServer, LogThrottle, drop_undecodable_frames, quiet_logger
from smear.server.hints import HintService
from smear.server.limits import AddressBook, Limits, Timing, client_address
from smear.server.protocol import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    error_payload,
    parse_inbound,
    public_json,
    view_json,
)
from smear.server.storage import SeatRow, Storage, StorageError, StoredTable
from smear.server.tables import Seat, Table, TableError, TableSettings
from smear.server.web import STATIC_DIR, client_routes, with_security_headers
from smear.state import Phase, State
from smear.views import player_view

log = logging.getLogger("smear.server")

T = TypeVar("T")
Handler = Callable[[str, Any], Awaitable[dict[str, Any]]]


@dataclass
class Connection:
    """One socket: where it comes from, which table it follows and as whom (a seat's token hash,
    or None to watch)."""

    address: str
    table: str | None = None
    token_hash: str | None = None
    # Token bucket for the rate limit.
    allowance: float = 40.0
    checked: float = field(default_factory=time.monotonic)


class NotStored(Exception):
    """Storing a change failed and the table was put back; the request is answered ``not_stored``."""


RATE_PER_SECOND = 20.0
RATE_BURST = 40.0
# After storage failed, the server's own move at a table waits at least this long before it is tried again.
RETRY_PAUSE = 1.0


class SmearServer:
    """Tables in memory, every accepted change in the database."""

    def __init__(
        self,
        database: str = "sqlite:///smear.db",
        timing: Timing | None = None,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = Storage(database)
        self.timing = timing or Timing()
        self.limits = limits or Limits()
        self.clock = clock  # wall-clock seconds, for how long tables have been idle
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, Connection] = {}
        self.addresses = AddressBook(self.limits)
        # The sockets following each table, so a broadcast never scans every connection.
        self.followers: dict[str, set[str]] = {}
        # Every change at a table, and every batch of messages it sends, happens under its lock: no
        # client sees a version before one it has already seen, and storage is never interleaved.
        self.locks: dict[str, asyncio.Lock] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        # Bumped by every drive(): a server move decided for an older one is dropped.
        self.drives: dict[str, int] = {}
        # Per table: the version whose turn is timed and when (monotonic clock) that turn runs out.
        self.turn_deadlines: dict[str, tuple[int, float]] = {}
        self.disconnected_at: dict[tuple[str, int], float] = {}
        # Per table with no person connected: since when (clock), and whether that is stored.
        self.idle_since: dict[str, tuple[float, bool]] = {}
        self.rng = random.Random()
        self.hints = HintService(self.limits.hint_queue)
        self._storage_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="smear-storage")
        self._reading_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="smear-reading")
        self._waking = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.drops = LogThrottle(log)
        origins = self.limits.allowed_origins
        self.sio = GuardedServer(
            self.dispatch,
            self.drops,
            async_mode="asgi",
            cors_allowed_origins=(lambda origin, environ: _allowed(origin, environ, origins)),
            max_http_buffer_size=MAX_MESSAGE_BYTES * 4,
            logger=quiet_logger("smear.socketio"),
            engineio_logger=quiet_logger("smear.engineio"),
        )
        self.sio.on("connect", self.on_connect)
        self.sio.on("disconnect", self.on_disconnect)
        self.handlers: dict[str, Handler] = {
            "create_table": self.create_table,
            "join_table": self.join_table,
            "watch_table": self.watch_table,
            "resume": self.resume,
            "take_seat": self.take_seat,
            "set_bot": self.set_bot,
            "kick": self.kick,
            "start": self.start,
            "act": self.act,
            "play_again": self.play_again,
            "leave": self.leave,
            "hint": self.hint,
        }

    # --- the ASGI application -----------------------------------------------------------------------

    def asgi_app(self) -> Any:
        routes: list[BaseRoute] = [
            Route("/health", self.health),
            Route("/tables/{code}/matches/{number:int}/record.json", self.record),
            *client_routes(STATIC_DIR),  # after the routes above, so they keep their paths
        ]
        http = Starlette(routes=routes)
        app = socketio.ASGIApp(self.sio, other_asgi_app=http, on_startup=self.restore, on_shutdown=self.close)
        return with_security_headers(drop_undecodable_frames(app, self.drops))

    async def health(self, request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def record(self, request: Request) -> Response:
        code = request.path_params["code"]
        number = request.path_params["number"]
        try:
            record = await self._read(self.storage.match_record, code, number)
        except StorageError as err:
            self.drops.warn("store", "a record could not be read (%s)", type(err).__name__)
            return JSONResponse({"error": "storage unavailable, try again"}, status_code=503)
        if record is None:
            return JSONResponse({"error": "no finished match there"}, status_code=404)
        headers = {"Content-Disposition": f'attachment; filename="smear-{code}-{number}.json"'}
        return JSONResponse(record, headers=headers)

    async def restore(self) -> None:
        """Bring back every live table, replaying the actions of its match in progress.

        A lobby or match that was idle too long when the server stopped is closed or put to rest
        instead. Nobody is connected yet, so the tables wait for their people.
        """
        now = self.clock()
        for stored in await self._db(self.storage.unfinished_tables):
            since = stored.idle_since
            if since is not None and await self._retire(stored.code, stored.status, since, now):
                continue
            table = self._table_from_storage(stored)
            self._keep(table, idle_since=(since if since is not None else now, since is not None))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        log.info("restored %d tables", len(self.tables))

    def _table_from_storage(self, stored: StoredTable) -> Table:
        settings = TableSettings(**stored.settings)
        seats = [Seat(name=s.name, token_hash=s.token_hash, is_bot=s.is_bot) for s in stored.seats]
        table = Table(code=stored.code, settings=settings, seats=seats, host_seat=stored.host_seat)
        match = stored.current_match
        if stored.status != "lobby" and match is not None:
            # A finished match is replayed too, so whoever comes back sees how it ended.
            table.restore_match(match.number, match.seed, match.actions)
            if table.status == "finished" and not match.finished:
                # The last action ended it but the record was not stored.
                assert table.state is not None
                self.storage.finish_match(table.code, match.number, record_of(table.state, table.names))
        elif match is not None:
            table.match_number = match.number
        # Versions only grow, across restarts too; the replay's events were never sent to anyone.
        table.version = max(table.version, int(time.time() * 1000))
        table.events.clear()
        return table

    def _keep(self, table: Table, idle_since: tuple[float, bool] | None = None) -> None:
        self.tables[table.code] = table
        if idle_since is not None:
            self.idle_since[table.code] = idle_since
        self.drive(table)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for handle in self.timers.values():
            handle.cancel()
        self.hints.close()
        self._reading_threads.shutdown(wait=True)
        await self._db(self.storage.close)
        self._storage_thread.shutdown(wait=True)

    # --- storage, off the event loop ------------------------------------------------------------

    async def _db(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage call that writes on the storage thread (one at a time, in the order asked)."""
        return await asyncio.get_running_loop().run_in_executor(self._storage_thread, partial(call, *args))

    async def _read(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage read on a reading thread: it does not wait behind the writes."""
        return await asyncio.get_running_loop().run_in_executor(self._reading_threads, partial(call, *args))

    async def _store_or_undo(self, table: Table, before: _Snapshot, call: Callable[[], None]) -> None:
        """Store a change already made to ``table``; if that fails, put the table back and say so.

        The message names no card: the call may carry a discard.
        """
        try:
            await self._db(call)
        except Exception as err:
            before.restore(table)
            # The type only: the error quotes the change, and a discard names hidden cards.
            kind = type(err).__name__
            self.drops.warn("store", "table %s: a change was not stored; undone (%s)", table.code, kind)
            raise NotStored from None

    def _lobby_call(self, table: Table) -> Callable[[], None]:
        return partial(self.storage.save_lobby, table.code, self._seat_rows(table), table.host_seat)

    def _action_call(self, table: Table, seat: int, action: str) -> Callable[[], None]:
        code, number, count = table.code, table.match_number, table.action_count
        finished = table.status == "finished" and table.state is not None
        record = record_of(table.state, table.names) if finished and table.state is not None else None

        def store() -> None:
            self.storage.append_action(code, number, count, seat, action)
            if record is not None:
                self.storage.finish_match(code, number, record)

        return store

    # --- connections and the one door for every event ---------------------------------------------

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        address = client_address(environ, self.limits.trusted_proxies)
        if not self.addresses.may_connect(address):
            limit = self.limits.connections_per_address
            refusal = error_payload("too_many_connections", limit=limit)
            # The client reads the error as the refusal's data.
            raise socketio.exceptions.ConnectionRefusedError(refusal["message"], refusal)
        self.addresses.connected(address)
        self.connections[sid] = Connection(address)

    async def on_disconnect(self, sid: str, *args: Any) -> None:
        connection = self.connections.pop(sid, None)
        if connection is None:
            return
        self.addresses.disconnected(connection.address)
        code = connection.table
        self._unfollow(sid, connection)
        table = self.tables.get(code or "")
        if table is None or connection.token_hash is None:
            return
        async with self._lock(table):
            if self.tables.get(table.code) is not table:
                return
            seat = self._seat_of_hash(table, connection.token_hash)
            if seat is not None and not self._connected(table, seat):
                self.disconnected_at[(table.code, seat)] = time.monotonic()
                await self.broadcast(table, with_event=False)
                self.drive(table)

    async def dispatch(self, sid: str, data: Any) -> dict[str, Any]:
        """Answer one client event, sent as ``[name, payload]``; never raises.

        Names are looked up here, never by the Socket.IO library, so a client cannot reach the
        server's own ``connect`` and ``disconnect`` handlers by naming them.
        """
        connection = self.connections.get(sid)
        if connection is None or not self._rate_ok(connection):
            return {"ok": False, "error": error_payload("rate_limited")}
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            return {"ok": False, "error": error_payload("malformed_json")}
        event, args = data[0], data[1:]
        handler = self.handlers.get(event)
        try:
            if handler is None:
                raise ProtocolError("unknown_event", event=event[:40])
            if len(args) > 1:
                raise ProtocolError("malformed_json")
            message = parse_inbound(event, args[0] if args else None)
            return {"ok": True, **await handler(sid, message)}
        except (ProtocolError, TableError) as err:
            return {"ok": False, "error": error_payload(err.code, **err.args_map)}
        except NotStored:
            return {"ok": False, "error": error_payload("not_stored")}
        except Exception:  # never let a bug reach the client as anything but a code
            log.exception("internal error in %s", event)
            return {"ok": False, "error": error_payload("internal_error")}

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

    def _lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.code, asyncio.Lock())

    @asynccontextmanager
    async def _at(self, code: str) -> AsyncIterator[Table]:
        """The table with that code, its lock held; brought back first if it is not in memory.

        Checked again once the lock is held: a table freed meanwhile is brought back anew.
        """
        while True:
            table = await self._table(code)
            async with self._lock(table):
                if self.tables.get(code) is table:
                    yield table
                    return

    async def _table(self, code: str) -> Table:
        """The table with that code, brought back from storage if it was put to rest or freed."""
        table = self.tables.get(code)
        if table is not None:
            return table
        async with self._waking:
            table = self.tables.get(code)
            if table is not None:
                return table
            stored = await self._read(self.storage.table, code)
            if stored is None:
                raise TableError("no_such_table")
            table = await self._db(self._table_from_storage, stored)
            if stored.resting:
                await self._db(self.storage.set_idle, code, stored.idle_since)
            self._keep(table, idle_since=(self.clock(), False))
            log.info("table %s is back from storage", code)
            return table

    def _follow(self, sid: str, table: Table, token_hash: str | None) -> None:
        connection = self.connections.get(sid)
        if connection is None:  # the socket closed while its request was being answered
            return
        self._unfollow(sid, connection)
        connection.table = table.code
        connection.token_hash = token_hash
        self.followers.setdefault(table.code, set()).add(sid)
        if token_hash is not None:
            self._present(table)

    def _unfollow(self, sid: str, connection: Connection) -> None:
        if connection.table is None:
            return
        followers = self.followers.get(connection.table)
        if followers is not None:
            followers.discard(sid)
            if not followers:
                del self.followers[connection.table]
        connection.table = None

    @staticmethod
    def _seat_of_hash(table: Table, token_hash: str) -> int | None:
        for index, seat in enumerate(table.seats):
            if seat.token_hash == token_hash:
                return index
        return None

    def _connected(self, table: Table, seat: int) -> bool:
        token_hash = table.seats[seat].token_hash
        if token_hash is None:
            return False
        for sid in self.followers.get(table.code, ()):
            connection = self.connections.get(sid)
            if connection is not None and connection.token_hash == token_hash:
                return True
        return False

    def _people_here(self, table: Table) -> bool:
        """Whether a person holding a seat is connected."""
        return any(seat.is_person and self._connected(table, i) for i, seat in enumerate(table.seats))

    def _may_move(self, table: Table) -> bool:
        """The server plays at a table only while someone is there to see it: a seated person, or,
        at a table every person has left, anyone watching."""
        if any(seat.is_person for seat in table.seats):
            return self._people_here(table)
        return bool(self.followers.get(table.code))

    def _present(self, table: Table) -> None:
        """A person is at the table: it is no longer idle (storage hears of it at the next sweep)."""
        since = self.idle_since.pop(table.code, None)
        if since is not None and since[1]:
            self.idle_since[table.code] = (-1.0, True)  # the stored idleness is to be cleared

    # --- lobby requests -----------------------------------------------------------------------------

    async def create_table(self, sid: str, message: Any) -> dict[str, Any]:
        connection = self.connections.get(sid)
        if connection is None:
            raise TableError("rate_limited")
        settings = TableSettings(
            preset=message.preset,
            players=message.players,
            teams=message.teams,
            target=message.target,
            turn_timer=message.turn_timer,
            bot_level=message.bot_level,
            hints=message.hints,
            shoot_the_moon=message.shoot_the_moon,
            elimination=message.elimination,
            kitty=message.kitty,
        )
        table, token = Table.create(settings, message.name)
        now = self.clock()
        if not self.addresses.may_create_table(connection.address, now):
            raise TableError("too_many_tables", limit=self.limits.tables_per_hour)
        if not self.limits.counted(self.limits.max_tables, len(self.tables)):
            raise TableError("server_full")
        try:
            await self._db(
                self.storage.create_table,
                table.code,
                settings.to_json(),
                table.host_seat,
                self._seat_rows(table),
                time.time(),
            )
        except Exception as err:
            self.drops.warn("store", "a new table was not stored (%s)", type(err).__name__)
            raise NotStored from None
        self.addresses.table_created(connection.address, now)
        self.tables[table.code] = table
        async with self._lock(table):
            self._follow(sid, table, table.seats[0].token_hash)
            version = table.version
            await self.broadcast(table)
        return {"table": table.code, "seat": 0, "token": token, "version": version}

    async def join_table(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            before = _Snapshot.of(table)
            seat, token = table.join(message.name)
            await self._store_or_undo(table, before, self._lobby_call(table))
            self._follow(sid, table, table.seats[seat].token_hash)
            version = table.version
            await self.broadcast(table)
        return {"table": table.code, "seat": seat, "token": token, "version": version}

    async def watch_table(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            connection = self.connections.get(sid)
            if connection is not None and connection.table != table.code:
                watchers = sum(
                    1
                    for other in self.followers.get(table.code, ())
                    if (c := self.connections.get(other)) is not None and c.token_hash is None
                )
                if not self.limits.counted(self.limits.spectators_per_table, watchers):
                    raise TableError("too_many_spectators", limit=self.limits.spectators_per_table)
            self._follow(sid, table, None)
            version = table.version
            await self.send_state(sid, table)
            self.drive(table)  # a table every person has left plays on while watched
        return {"version": version}

    async def resume(self, sid: str, message: Any) -> dict[str, Any]:
        """A client back after a disconnection or a reload: the events it missed, then its state."""
        async with self._at(message.table) as table:
            seat = table.seat_of(message.token)
            self._follow(sid, table, table.seats[seat].token_hash)
            self.disconnected_at.pop((table.code, seat), None)
            missed = table.events_since(message.version)
            version = table.version
            messages = [("event", {"version": v, "event": e}, sid) for v, e in missed or []]
            messages.append(("state", self._state_payload(table, seat, resync=missed is None), sid))
            await self._send(messages)
            await self.broadcast(table, with_event=False, skip=sid)  # others see the seat connected again
            self.drive(table)
        return {"seat": seat, "version": version, "replayed": len(missed or [])}

    async def take_seat(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(message.table, lambda t: t.take_seat(message.token, message.seat))

    async def set_bot(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(
            message.table, lambda t: t.set_bot(message.token, message.seat, message.bot)
        )

    async def kick(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(message.table, lambda t: t.kick(message.token, message.seat))

    async def leave(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            before = _Snapshot.of(table)
            table.leave(message.token)
            await self._store_or_undo(table, before, self._lobby_call(table))
            self._follow(sid, table, None)
            version = table.version
            await self.broadcast(table)
            self.drive(table)
        return {"version": version}

    async def start(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._match_start(message.table, lambda t: t.start(message.token))

    async def play_again(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._match_start(message.table, lambda t: t.play_again(message.token))

    async def _match_start(self, code: str, change: Callable[[Table], None]) -> dict[str, Any]:
        async with self._at(code) as table:
            before = _Snapshot.of(table)
            change(table)
            store = partial(
                self.storage.start_match,
                table.code,
                table.match_number,
                table.seed,
                table.sides,
                table.names,
                seats=self._seat_rows(table),
                host_seat=table.host_seat,
            )
            await self._store_or_undo(table, before, store)
            version = table.version
            await self.broadcast(table)
            self.drive(table)
        return {"version": version}

    async def _lobby_change(self, code: str, change: Callable[[Table], None]) -> dict[str, Any]:
        async with self._at(code) as table:
            before = _Snapshot.of(table)
            change(table)
            if table.version != before.version:
                await self._store_or_undo(table, before, self._lobby_call(table))
            version = table.version
            await self.broadcast(table)
        return {"version": version}

    def _seat_rows(self, table: Table) -> list[SeatRow]:
        return [SeatRow(i, s.name, s.token_hash, s.is_bot) for i, s in enumerate(table.seats)]

    async def hint(self, sid: str, message: Any) -> dict[str, Any]:
        """The expert's choice for the asking seat, when the table allows hints and it is its turn."""
        table = await self._table(message.table)
        seat = table.seat_of(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        if table.status != "playing" or table.state is None or table.state.public.to_act != seat:
            raise TableError("not_your_turn")
        version = table.version  # the advice is for this version, even if the table moves on meanwhile
        advice = await self.hints.advise(table.code, version, seat, player_view(table.state, seat))
        expected = None if advice.expected_points is None else round(advice.expected_points, 1)
        return {"action": str(advice.action), "expected": expected, "version": version}

    # --- play ---------------------------------------------------------------------------------------

    async def act(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            before = _Snapshot.of(table)
            seat, action = table.act(message.token, message.version, message.action)
            await self._store_or_undo(table, before, self._action_call(table, seat, str(action)))
            version = table.version
            await self.broadcast(table)
            self.drive(table)
        return {"version": version}

    def drive(self, table: Table, at_least: float = 0.0) -> None:
        """Schedule whatever the server does next at this table: a deal, a bot, the timer (not
        before ``at_least`` seconds).

        A move already being worked out for the table is dropped: it was decided for a situation
        (who is connected, whose turn) that this call may have changed.
        """
        handle = self.timers.pop(table.code, None)
        if handle is not None:
            handle.cancel()
        drive = self.drives[table.code] = self.drives.get(table.code, 0) + 1
        if table.status != "playing" or table.state is None or not self._may_move(table):
            return
        pub = table.state.public
        loop = asyncio.get_running_loop()
        if pub.phase is Phase.HAND_OVER:
            pause = max(at_least, self.timing.hand_pause)
            self.timers[table.code] = loop.call_later(pause, self._later, table.code, drive, None)
            return
        seat = pub.to_act
        if seat is None:
            return
        chair = table.seats[seat]
        delay: float | None = None
        if chair.is_bot:
            delay = self.timing.bot_pause
        elif not self._connected(table, seat):
            gone = self.disconnected_at.setdefault((table.code, seat), time.monotonic())
            delay = max(self.timing.bot_pause, gone + self.timing.grace - time.monotonic())
        else:
            deadline = self._turn_deadline(table)
            if deadline is not None:
                delay = max(0.0, deadline - time.monotonic())
        if delay is not None:
            delay = max(at_least, delay)
            self.timers[table.code] = loop.call_later(delay, self._later, table.code, drive, seat)

    def _turn_deadline(self, table: Table) -> float | None:
        """When the turn timer runs out for the seat to act (a connected person), else None.

        The first caller for a version starts its clock, so the countdown sent with the state and
        the timer that plays for the seat agree.
        """
        if not table.settings.turn_timer or table.status != "playing" or table.state is None:
            return None
        seat = table.state.public.to_act
        if seat is None or table.seats[seat].is_bot or not self._connected(table, seat):
            return None
        timed = self.turn_deadlines.get(table.code)
        if timed is None or timed[0] != table.version:
            timed = self.turn_deadlines[table.code] = (
                table.version,
                time.monotonic() + table.settings.turn_timer,
            )
        return timed[1]

    def _later(self, code: str, drive: int, seat: int | None) -> None:
        asyncio.get_running_loop().create_task(self._act_for(code, drive, seat))

    async def _act_for(self, code: str, drive: int, seat: int | None) -> None:
        """The server's own move: deal the next hand (seat None) or play for a seat."""
        table = self.tables.get(code)
        if table is None or table.state is None or self.drives.get(code) != drive:
            return  # something happened meanwhile; drive() has scheduled anew
        action = None
        if seat is not None:
            view = player_view(table.state, seat)
            bot = make_bot(table.settings.bot_level)
            try:
                action = await asyncio.to_thread(bot.choose, view, self.rng)
            except Exception:
                log.exception("the bot could not choose at table %s", code)
                self._retry(table)
                return
        async with self._lock(table):
            if self.drives.get(code) != drive or self.tables.get(code) is not table:
                return  # the situation changed while the bot thought
            if action is None:
                table.deal_next_hand()
            else:
                before = _Snapshot.of(table)
                assert seat is not None
                try:
                    table.apply_action(seat, action)
                    await self._store_or_undo(table, before, self._action_call(table, seat, str(action)))
                except NotStored:
                    self._retry(table)
                    return
                except Exception:
                    log.exception("the server could not act at table %s", code)
                    self._retry(table)
                    return
            await self.broadcast(table)
            self.drive(table)

    def _retry(self, table: Table) -> None:
        """Try the server's move again after a pause, rather than leave the table stuck."""
        self.drive(table, at_least=RETRY_PAUSE)

    # --- idle tables --------------------------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping the idle tables failed")

    async def sweep(self) -> None:
        """Close lobbies and put to rest matches that have had no person for too long, and free
        finished tables nobody follows. What is idle is noted in storage, so a restart knows."""
        now = self.clock()
        for code, table in list(self.tables.items()):
            async with self._lock(table):
                if self.tables.get(code) is not table:
                    continue
                if self._people_here(table):
                    await self._note_present(code)
                elif table.status == "finished":
                    if not self.followers.get(code):
                        self._free(table)
                else:
                    since, stored = self.idle_since.get(code, (now, False))
                    if since < 0:
                        since, stored = now, False
                    if not stored:
                        await self._db(self.storage.set_idle, code, since)
                    self.idle_since[code] = (since, True)
                    if await self._retire(code, table.status, since, now):
                        self._free(table)
        self.addresses.forget_old(now)

    async def _note_present(self, code: str) -> None:
        since = self.idle_since.pop(code, None)
        if since is not None and since[1]:
            await self._db(self.storage.set_idle, code, None)

    async def _retire(self, code: str, status: str, since: float, now: float) -> bool:
        """Close a lobby or put a match to rest if it has been idle long enough; says whether it did."""
        if status == "lobby" and now - since >= self.limits.lobby_idle:
            await self._db(self.storage.delete_table, code)
            log.info("closed the lobby of table %s: nobody came for %.0f s", code, now - since)
            return True
        if status == "playing" and now - since >= self.limits.match_idle:
            await self._db(partial(self.storage.set_idle, code, since, resting=True))
            log.info("put table %s to rest: nobody came for %.0f s", code, now - since)
            return True
        return False

    def _free(self, table: Table) -> None:
        """Forget a table in memory (storage keeps what it has)."""
        code = table.code
        del self.tables[code]
        handle = self.timers.pop(code, None)
        if handle is not None:
            handle.cancel()
        for sid in self.followers.pop(code, set()):
            connection = self.connections.get(sid)
            if connection is not None:
                connection.table = None
        for mapping in (self.drives, self.turn_deadlines, self.idle_since, self.locks):
            mapping.pop(code, None)
        for key in [key for key in self.disconnected_at if key[0] == code]:
            del self.disconnected_at[key]
        self.hints.forget(code)

    # --- sending ------------------------------------------------------------------------------------

    def _state_payload(self, table: Table, seat: int | None, resync: bool = False) -> dict[str, Any]:
        lobby = table.lobby_json(seat)
        for entry in lobby["seats"]:
            index = entry["seat"]
            entry["connected"] = table.seats[index].is_bot or self._connected(table, index)
        game: dict[str, Any] | None = None
        if table.state is not None:
            if seat is None:
                game = public_json(table.state.public)
            else:
                game = view_json(player_view(table.state, seat))
        deadline = self._turn_deadline(table)
        turn_left_ms = None if deadline is None else max(0, round((deadline - time.monotonic()) * 1000))
        return {
            "version": table.version,
            "table": lobby,
            "game": game,
            "resync": resync,
            "turn_left_ms": turn_left_ms,
        }

    async def _send(self, messages: list[tuple[str, dict[str, Any], str]]) -> None:
        """Send ``(event, data, sid)`` messages (the caller holds the table's lock).

        Each socket gets its messages in order; different sockets are served side by side.
        """
        by_sid: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for name, data, sid in messages:
            by_sid.setdefault(sid, []).append((name, data))

        async def send_to(sid: str, batch: list[tuple[str, dict[str, Any]]]) -> None:
            for name, data in batch:
                await self.sio.emit(name, data, to=sid)

        await asyncio.gather(*(send_to(sid, batch) for sid, batch in by_sid.items()))

    async def send_state(self, sid: str, table: Table, resync: bool = False) -> None:
        connection = self.connections.get(sid)
        seat = None
        if connection is not None and connection.token_hash is not None:
            seat = self._seat_of_hash(table, connection.token_hash)
        await self._send([("state", self._state_payload(table, seat, resync), sid)])

    async def broadcast(self, table: Table, *, with_event: bool = True, skip: str | None = None) -> None:
        """Send the latest event and each follower (but ``skip``) its own state.

        A connection lost or resumed changes no version, so it goes out as states only
        (``with_event=False``): an event is sent once per version.
        """
        event = table.events[-1][1] if table.events and with_event else None
        payloads: dict[int | None, dict[str, Any]] = {}
        messages: list[tuple[str, dict[str, Any], str]] = []
        for sid in list(self.followers.get(table.code, ())):
            connection = self.connections.get(sid)
            if connection is None or connection.table != table.code or sid == skip:
                continue
            seat = None
            if connection.token_hash is not None:
                seat = self._seat_of_hash(table, connection.token_hash)
            if seat not in payloads:
                payloads[seat] = self._state_payload(table, seat)
            if event is not None:
                messages.append(("event", {"version": table.version, "event": event}, sid))
            messages.append(("state", payloads[seat], sid))
        await self._send(messages)


@dataclass(frozen=True)
class _Snapshot:
    """Everything a request may change at a table, to put back if storing the change fails."""

    state: State | None
    version: int
    action_count: int
    status: str
    seats: list[Seat]
    host_seat: int | None
    match_number: int
    seed: int
    names: list[str]

    @classmethod
    def of(cls, table: Table) -> _Snapshot:
        return cls(
            table.state,
            table.version,
            table.action_count,
            table.status,
            list(table.seats),  # seats are replaced, never changed in place
            table.host_seat,
            table.match_number,
            table.seed,
            list(table.names),
        )

    def restore(self, table: Table) -> None:
        table.state = self.state
        table.version = self.version
        table.action_count = self.action_count
        table.status = self.status
        table.seats = list(self.seats)
        table.host_seat = self.host_seat
        table.match_number = self.match_number
        table.seed = self.seed
        table.names = list(self.names)
        # By version, not by count: the history is bounded, so a change may have pushed out its oldest.
        while table.events and table.events[-1][0] > self.version:
            table.events.pop()


def _allowed(origin: str | None, environ: dict[str, Any], others: tuple[str, ...]) -> bool:
    """A page may open a socket if it comes from the server's own host or a configured origin.

    A request without an Origin header comes from no web page (a program), which CORS does not govern.
    """
    if origin is None:
        return True
    host = str(environ.get("HTTP_HOST") or "")
    return origin in others or (bool(host) and origin.partition("://")[2] == host)


def create_app(
    database: str = "sqlite:///smear.db", timing: Timing | None = None, limits: Limits | None = None
) -> Any:
    """The ASGI application (``uvicorn smear.server.app:app``)."""
    return SmearServer(database, timing, limits).asgi_app()
