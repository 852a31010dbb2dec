"""The web server: Starlette for HTTP, python-socketio for real-time play, SQLAlchemy for storage.

The server alone applies actions, through the engine. For each request it checks, stores, then
acknowledges, then sends every seat and spectator its own view. Bots, the turn timer and absent
players are played for on the server, after a short pause, off the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import socketio  # type: ignore[import-untyped]
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from smear.actions import Action
from smear.bots import make_bot
from smear.bots.expert import ExpertBot
from smear.record import record_of
from smear.server.protocol import (
    MAX_MESSAGE_BYTES,
    ProtocolError,
    error_payload,
    parse_inbound,
    public_json,
    view_json,
)
from smear.server.storage import SeatRow, Storage, StoredTable
from smear.server.tables import Seat, Table, TableError, TableSettings
from smear.state import Phase
from smear.views import player_view

log = logging.getLogger("smear.server")

# The browser game, built from web/ by `npm run build` (a checkout that has not built it has none).
STATIC_DIR = Path(__file__).parent / "static"


@dataclass(frozen=True)
class Timing:
    """How long the server waits before it acts for someone (seconds)."""

    bot_pause: float = 0.8  # a bot "thinks" this long, so people can follow the play
    hand_pause: float = 4.0  # the end-of-hand summary stays up this long before the next deal
    grace: float = 20.0  # a disconnected player's seat waits this long before a bot plays for it


@dataclass
class Connection:
    """One socket: which table it follows, and as whom (a seat's token hash, or None to watch)."""

    table: str | None = None
    token_hash: str | None = None
    # Token bucket for the rate limit.
    allowance: float = 40.0
    checked: float = field(default_factory=time.monotonic)


class ActionNotStored(RuntimeError):
    """Storing an action failed and the table was put back; the message names no card."""


RATE_PER_SECOND = 20.0
RATE_BURST = 40.0


class SmearServer:
    """Tables in memory, every accepted action in the database."""

    def __init__(self, database: str = "sqlite:///smear.db", timing: Timing | None = None) -> None:
        self.storage = Storage(database)
        self.timing = timing or Timing()
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, Connection] = {}
        # The sockets following each table, so a broadcast never scans every connection.
        self.followers: dict[str, set[str]] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        # Per table: the version whose turn is timed and when (monotonic clock) that turn runs out.
        self.turn_deadlines: dict[str, tuple[int, float]] = {}
        # Sending yields to the event loop, so each table's messages go out one batch at a time, in
        # the order the batches were made: no client sees a version before one it has already seen.
        self.send_locks: dict[str, asyncio.Lock] = {}
        self.disconnected_at: dict[tuple[str, int], float] = {}
        self.rng = random.Random()
        self.sio = socketio.AsyncServer(
            async_mode="asgi",
            cors_allowed_origins=[],
            max_http_buffer_size=MAX_MESSAGE_BYTES * 4,
            logger=False,
            engineio_logger=False,
        )
        self.sio.on("connect", self.on_connect)
        self.sio.on("disconnect", self.on_disconnect)
        handlers: dict[str, Callable[[str, Any], Awaitable[dict[str, Any]]]] = {
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
        for event, handler in handlers.items():
            self.sio.on(event, self._wrap(event, handler))
        self.sio.on("*", self.on_other_event)  # every other event name

    # --- the ASGI application -----------------------------------------------------------------------

    def asgi_app(self) -> Any:
        routes: list[BaseRoute] = [
            Route("/health", self.health),
            Route("/tables/{code}/matches/{number:int}/record.json", self.record),
            *client_routes(STATIC_DIR),  # after the routes above, so they keep their paths
        ]
        http = Starlette(routes=routes)
        return socketio.ASGIApp(
            self.sio, other_asgi_app=http, on_startup=self.restore, on_shutdown=self.close
        )

    async def health(self, request: Request) -> Response:
        return JSONResponse({"ok": True, "tables": len(self.tables)})

    async def record(self, request: Request) -> Response:
        code = request.path_params["code"]
        number = request.path_params["number"]
        record = self.storage.match_record(code, number)
        if record is None:
            return JSONResponse({"error": "no finished match there"}, status_code=404)
        headers = {"Content-Disposition": f'attachment; filename="smear-{code}-{number}.json"'}
        return JSONResponse(record, headers=headers)

    async def restore(self) -> None:
        """Bring back every unfinished table, replaying the actions of its match in progress."""
        epoch = int(time.time() * 1000)  # versions only grow, across restarts too
        for stored in self.storage.unfinished_tables():
            table = self._table_from_storage(stored)
            table.version = max(table.version, epoch)
            # The replay gave its events versions no client saw: whoever is behind gets a resync.
            table.events.clear()
            self.tables[table.code] = table
            self.drive(table)
        log.info("restored %d tables", len(self.tables))

    def _table_from_storage(self, stored: StoredTable) -> Table:
        settings = TableSettings(**stored.settings)
        seats = [Seat(name=s.name, token_hash=s.token_hash, is_bot=s.is_bot) for s in stored.seats]
        table = Table(code=stored.code, settings=settings, seats=seats, host_seat=stored.host_seat)
        match = stored.current_match
        if stored.status == "playing" and match is not None and not match.finished:
            table.restore_match(match.number, match.seed, match.actions)
            if table.status == "finished":  # the last action ended it but the record was not stored
                self._store_finished(table)
        elif match is not None:
            table.match_number = match.number
        return table

    async def close(self) -> None:
        for handle in self.timers.values():
            handle.cancel()
        self.storage.close()

    # --- connections --------------------------------------------------------------------------------

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        self.connections[sid] = Connection()

    async def on_disconnect(self, sid: str, *args: Any) -> None:
        connection = self.connections.pop(sid, None)
        if connection is None or connection.table is None:
            return
        self.followers.get(connection.table, set()).discard(sid)
        table = self.tables.get(connection.table)
        if table is None or connection.token_hash is None:
            return
        seat = self._seat_of_hash(table, connection.token_hash)
        if seat is not None and not self._connected(table, seat):
            self.disconnected_at[(table.code, seat)] = time.monotonic()
            await self.broadcast(table, with_event=False)
            self.drive(table)

    async def on_other_event(self, event: str, sid: str, *data: Any) -> dict[str, Any]:
        """An event with no handler is answered too: ``unknown_event`` (within the rate limit)."""
        if not self._rate_ok(sid):
            return {"ok": False, "error": error_payload("rate_limited")}
        return {"ok": False, "error": error_payload("unknown_event", event=str(event)[:40])}

    def _rate_ok(self, sid: str) -> bool:
        connection = self.connections.setdefault(sid, Connection())
        now = time.monotonic()
        connection.allowance = min(
            RATE_BURST, connection.allowance + (now - connection.checked) * RATE_PER_SECOND
        )
        connection.checked = now
        if connection.allowance < 1:
            return False
        connection.allowance -= 1
        return True

    def _wrap(
        self, event: str, handler: Callable[[str, Any], Awaitable[dict[str, Any]]]
    ) -> Callable[[str, Any], Awaitable[dict[str, Any]]]:
        async def handle(sid: str, data: Any = None) -> dict[str, Any]:
            if not self._rate_ok(sid):
                return {"ok": False, "error": error_payload("rate_limited")}
            try:
                message = parse_inbound(event, data)
                return {"ok": True, **await handler(sid, message)}
            except (ProtocolError, TableError) as err:
                return {"ok": False, "error": error_payload(err.code, **err.args_map)}
            except Exception:  # never let a bug reach the client as anything but a code
                log.exception("internal error in %s", event)
                return {"ok": False, "error": error_payload("internal_error")}

        return handle

    def _table(self, code: str) -> Table:
        table = self.tables.get(code)
        if table is None:
            raise TableError("no_such_table")
        return table

    def _follow(self, sid: str, table: Table, token_hash: str | None) -> None:
        connection = self.connections.setdefault(sid, Connection())
        if connection.table is not None:
            self.followers.get(connection.table, set()).discard(sid)
        connection.table = table.code
        connection.token_hash = token_hash
        self.followers.setdefault(table.code, set()).add(sid)

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

    # --- lobby requests -----------------------------------------------------------------------------

    async def create_table(self, sid: str, message: Any) -> dict[str, Any]:
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
        self.storage.create_table(
            table.code, settings.to_json(), table.host_seat, self._seat_rows(table), time.time()
        )
        self.tables[table.code] = table
        self._follow(sid, table, table.seats[0].token_hash)
        version = table.version
        await self.broadcast(table)
        return {"table": table.code, "seat": 0, "token": token, "version": version}

    async def join_table(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        seat, token = table.join(message.name)
        self._save_lobby(table)
        self._follow(sid, table, table.seats[seat].token_hash)
        version = table.version
        await self.broadcast(table)
        return {"table": table.code, "seat": seat, "token": token, "version": version}

    async def watch_table(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        self._follow(sid, table, None)
        version = table.version
        await self.send_state(sid, table)
        return {"version": version}

    async def resume(self, sid: str, message: Any) -> dict[str, Any]:
        """A client back after a disconnection or a reload: the events it missed, then its state."""
        table = self._table(message.table)
        seat = table.seat_of(message.token)
        self._follow(sid, table, table.seats[seat].token_hash)
        self.disconnected_at.pop((table.code, seat), None)
        missed = table.events_since(message.version)
        version = table.version  # the version of the state sent below, whatever happens meanwhile
        messages = [("event", {"version": v, "event": e}, sid) for v, e in missed or []]
        messages.append(("state", self._state_payload(table, seat, resync=missed is None), sid))
        await self._send(table.code, messages)
        await self.broadcast(table, with_event=False, skip=sid)  # others see the seat connected again
        self.drive(table)
        return {"seat": seat, "version": version, "replayed": len(missed or [])}

    async def take_seat(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        table.take_seat(message.token, message.seat)
        return await self._lobby_changed(table)

    async def set_bot(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        table.set_bot(message.token, message.seat, message.bot)
        return await self._lobby_changed(table)

    async def kick(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        table.kick(message.token, message.seat)
        return await self._lobby_changed(table)

    async def leave(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        table.leave(message.token)
        self._follow(sid, table, None)
        result = await self._lobby_changed(table)
        self.drive(table)
        return result

    async def start(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        table.start(message.token)
        return await self._match_started(table)

    async def play_again(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        table.play_again(message.token)
        return await self._match_started(table)

    async def _match_started(self, table: Table) -> dict[str, Any]:
        self._save_lobby(table)
        self.storage.start_match(table.code, table.match_number, table.seed, table.sides, table.names)
        version = table.version
        await self.broadcast(table)
        self.drive(table)
        return {"version": version}

    async def _lobby_changed(self, table: Table) -> dict[str, Any]:
        self._save_lobby(table)
        version = table.version
        await self.broadcast(table)
        return {"version": version}

    def _seat_rows(self, table: Table) -> list[SeatRow]:
        return [SeatRow(i, s.name, s.token_hash, s.is_bot) for i, s in enumerate(table.seats)]

    def _save_lobby(self, table: Table) -> None:
        self.storage.save_seats(table.code, self._seat_rows(table))
        self.storage.update_table(table.code, host_seat=table.host_seat)

    async def hint(self, sid: str, message: Any) -> dict[str, Any]:
        """The expert's choice for the asking seat, when the table allows hints and it is its turn."""
        table = self._table(message.table)
        seat = table.seat_of(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        if table.status != "playing" or table.state is None or table.state.public.to_act != seat:
            raise TableError("not_your_turn")
        view = player_view(table.state, seat)
        version = table.version  # the advice is for this version, even if the table moves on meanwhile
        advice = await asyncio.to_thread(ExpertBot().advise, view, self.rng)
        expected = None if advice.expected_points is None else round(advice.expected_points, 1)
        return {"action": str(advice.action), "expected": expected, "version": version}

    # --- play ---------------------------------------------------------------------------------------

    async def act(self, sid: str, message: Any) -> dict[str, Any]:
        table = self._table(message.table)
        before = _Snapshot.of(table)
        seat, action = table.act(message.token, message.version, message.action)
        self._store_action(table, before, seat, action)
        version = table.version
        await self.broadcast(table)
        self.drive(table)
        return {"version": version}

    def _store_action(self, table: Table, before: _Snapshot, seat: int, action: Action) -> None:
        """Commit the action before anyone hears of it; if that fails, the table is put back."""
        try:
            self.storage.append_action(table.code, table.match_number, table.action_count, seat, str(action))
            if table.status == "finished":
                self._store_finished(table)
        except Exception as err:
            before.restore(table)
            # Not the error itself: it quotes the action, whose cards may be hidden (a discard).
            raise ActionNotStored(
                f"action {before.action_count + 1} of match {table.match_number} at table {table.code}"
                f" was not stored ({type(err).__name__})"
            ) from None

    def _store_finished(self, table: Table) -> None:
        assert table.state is not None
        self.storage.finish_match(table.code, table.match_number, record_of(table.state, table.names))

    def drive(self, table: Table) -> None:
        """Schedule whatever the server does next at this table: a deal, a bot, the timer."""
        handle = self.timers.pop(table.code, None)
        if handle is not None:
            handle.cancel()
        if table.status != "playing" or table.state is None:
            return
        pub = table.state.public
        loop = asyncio.get_running_loop()
        version = table.version
        if pub.phase is Phase.HAND_OVER:
            pause = self.timing.hand_pause
            self.timers[table.code] = loop.call_later(pause, self._later, table.code, version, None)
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
            self.timers[table.code] = loop.call_later(delay, self._later, table.code, version, seat)

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

    def _later(self, code: str, version: int, seat: int | None) -> None:
        asyncio.get_running_loop().create_task(self._act_for(code, version, seat))

    async def _act_for(self, code: str, version: int, seat: int | None) -> None:
        """The server's own move: deal the next hand (seat None) or play for a seat."""
        table = self.tables.get(code)
        if table is None or table.version != version or table.state is None:
            return  # something happened meanwhile; drive() has scheduled anew
        try:
            if seat is None:
                table.deal_next_hand()
            else:
                view = player_view(table.state, seat)
                bot = make_bot(table.settings.bot_level)
                action = await asyncio.to_thread(bot.choose, view, self.rng)
                if table.version != version:
                    return
                before = _Snapshot.of(table)
                table.apply_action(seat, action)
                self._store_action(table, before, seat, action)
        except Exception:
            log.exception("the server could not act at table %s", code)
            self.drive(table)  # try again after the usual pause rather than leave the table stuck
            return
        await self.broadcast(table)
        self.drive(table)

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

    async def _send(self, code: str, messages: list[tuple[str, dict[str, Any], str]]) -> None:
        """Send ``(event, data, sid)`` messages after the batches of this table made before.

        Each socket gets its messages in order; different sockets are served side by side.
        """
        by_sid: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        for name, data, sid in messages:
            by_sid.setdefault(sid, []).append((name, data))

        async def send_to(sid: str, batch: list[tuple[str, dict[str, Any]]]) -> None:
            for name, data in batch:
                await self.sio.emit(name, data, to=sid)

        async with self.send_locks.setdefault(code, asyncio.Lock()):
            await asyncio.gather(*(send_to(sid, batch) for sid, batch in by_sid.items()))

    async def send_state(self, sid: str, table: Table, resync: bool = False) -> None:
        connection = self.connections.get(sid)
        seat = None
        if connection is not None and connection.token_hash is not None:
            seat = self._seat_of_hash(table, connection.token_hash)
        await self._send(table.code, [("state", self._state_payload(table, seat, resync), sid)])

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
        await self._send(table.code, messages)


@dataclass(frozen=True)
class _Snapshot:
    """What an action changes at a table, to put back if storing it fails."""

    state: Any
    version: int
    action_count: int
    status: str
    events: int

    @classmethod
    def of(cls, table: Table) -> _Snapshot:
        return cls(table.state, table.version, table.action_count, table.status, len(table.events))

    def restore(self, table: Table) -> None:
        table.state = self.state
        table.version = self.version
        table.action_count = self.action_count
        table.status = self.status
        while len(table.events) > self.events:
            table.events.pop()


def client_routes(directory: Path) -> list[BaseRoute]:
    """The built browser game at ``/``, and its page at ``/t/{code}`` for invite links.

    Nothing when the client has not been built (no ``index.html``): the server runs without it.
    """
    index = directory / "index.html"
    if not index.is_file():
        return []

    async def page(request: Request) -> Response:
        # Always revalidated: it names the hashed bundles of the latest build.
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    return [
        Route("/", page),
        Route("/t/{code}", page),
        Mount("/", app=StaticFiles(directory=directory, html=True), name="client"),
    ]


def create_app(database: str = "sqlite:///smear.db", timing: Timing | None = None) -> Any:
    """The ASGI application (``uvicorn smear.server.app:app``)."""
    return SmearServer(database, timing).asgi_app()
