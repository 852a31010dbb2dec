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
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from functools import cached_property, partial
from typing import Any

import socketio  # type: ignore[import-untyped]
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.actionjson import action_json, record_action_json
from smear.bots import bot_names
from smear.review import REVIEW_COSTLIEST, Decision, costliest
from smear.rules import PRESETS
from smear.server.core import Connection, NotStored, Snapshot
from smear.server.guard import (
    GuardedServer,
    drop_undecodable_frames,
    page_may_connect,
    quiet_client_faults,
    quiet_logger,
)
from smear.server.limits import Limits, TableQuota, Timing, client_address
from smear.server.players import Players
from smear.server.playerstore import mask_names
from smear.server.protocol import (
    MAX_MESSAGE_BYTES,
    error_payload,
)
from smear.server.storage import StorageError
from smear.server.storerows import StoredTable
from smear.server.tables import Table, TableError, TableSettings
from smear.server.transport import TransportDoor
from smear.server.web import STATIC_DIR, client_routes, facts_routes, with_security_headers
from smear.state import Phase
from smear.views import player_view

log = logging.getLogger("smear.server")

Handler = Callable[[str, Any], Awaitable[dict[str, Any]]]


RATE_PER_SECOND = 20.0
RATE_BURST = 40.0


class SmearServer(Players):
    """The game server: the requests of every client event, and the ASGI application."""

    def _open_doors(self) -> None:
        """The Socket.IO server around :meth:`dispatch`, and the client events it answers."""
        origins = self.limits.allowed_origins
        self.sio = GuardedServer(
            self.dispatch,
            self.drops,
            self.addresses,
            async_mode="asgi",
            cors_allowed_origins=(lambda origin, environ: page_may_connect(origin, environ, origins)),
            max_http_buffer_size=MAX_MESSAGE_BYTES * 4,
            # A long-polling session is a series of requests that must all reach the process that
            # holds it; without sticky sessions in front, only WebSockets (one connection) can work.
            transports=["polling", "websocket"] if self.cluster is None else ["websocket"],
            logger=quiet_logger("smear.socketio"),
            engineio_logger=quiet_logger("smear.engineio"),
        )
        quiet_client_faults()
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
            "rematch": self.rematch,
            "leave": self.leave,
            "hint": self.hint,
            "bid_advice": self.bid_advice,
            "review_hand": self.review_hand,
            "review_match": self.review_match,
            "react": self.react,
            "chat": self.chat,
            "chat_history": self.chat_history,
            "chat_settings": self.chat_settings,
            "mute": self.mute,
            "list_table": self.list_table,
            "open_tables": self.open_tables,
        }

    # --- the ASGI application -----------------------------------------------------------------------

    def asgi_app(self) -> Any:
        routes: list[BaseRoute] = [
            Route("/health", self.health),
            Route("/tables/{code}/matches/{number}/record.json", self.record),
            *facts_routes(self.limits),
            *self.player_routes(),
            *client_routes(STATIC_DIR),  # after the routes above, so they keep their paths
        ]
        http = Starlette(routes=routes)
        app = socketio.ASGIApp(self.sio, other_asgi_app=http, on_startup=self.restore, on_shutdown=self.close)
        return TransportDoor(
            with_security_headers(drop_undecodable_frames(app, self.drops)),
            self.sio.eio,
            self.sio.transport,
            self.limits.trusted_proxies,
            max_body=self.sio.eio.max_http_buffer_size,
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
            record = await self._read(self.storage.match_record, code, number)
            if record is not None:
                record = mask_names(record, await self._read(self.storage.deleted_seats, code, number))
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
        instead. Nobody is connected yet, so the tables wait for their people. Each table is brought
        back alone: one that cannot be is put aside or left for later, and the others are served.
        """
        now = self.clock()
        self.hints.warm()
        try:
            await self._db(self.storage.ensure_bots, bot_names(), list(PRESETS), now)
        except StorageError as err:  # another process starting at the same moment; it did the same
            self.drops.warn("store", "the bots' profiles were not stored (%s)", type(err).__name__)
        if self.cluster is not None:
            await self.cluster.start(self.on_cluster_message)
            self._watcher = asyncio.get_running_loop().create_task(self.look_around_forever())
        for stored in await self._db(self.storage.unfinished_tables):
            if self.cluster is not None and await self.cluster.claim(stored.code) != self.cluster.process:
                continue  # another process serves it
            await self._restore_table(stored, now)
        await self.quarantine.recount()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        log.info("restored %d tables (%d put aside)", len(self.tables), self.quarantine.count)

    async def _restore_table(self, stored: StoredTable, now: float) -> None:
        """Bring back one table, or leave it out: put aside if it cannot be rebuilt, in storage for
        its next reader if storage failed."""
        since = stored.idle_since
        try:
            if since is not None and await self._retire(stored.code, stored.status, since, now):
                return
            table = await self._table_from_storage(stored)
        except TableError:  # put aside, and logged
            return
        except StorageError as err:
            self.drops.warn("store", "table %s was not restored (%s)", stored.code, type(err).__name__)
            return
        self._keep(table, idle_since=(since if since is not None else now, since is not None))

    async def close(self) -> None:
        for task in (self._sweeper, self._watcher, self._publisher):
            if task is not None:
                task.cancel()
        for handle in self.timers.values():
            handle.cancel()
        self.hints.close()
        self.background.close()
        self._reading_threads.shutdown(wait=True)
        await self.writer.close()
        if self.cluster is not None:
            await self.cluster.close(tell=(c.home for c in self.connections.values() if c.home is not None))

    # --- connections and the one door for every event ---------------------------------------------

    async def on_connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        address = client_address(environ, self.limits.trusted_proxies)
        # Its Engine.IO session is counted already; one past the cap is let in only to hear this.
        if self.sio.transport.over_cap(address):
            limit = self.limits.connections_per_address
            refusal = error_payload("too_many_connections", limit=limit)
            # The client reads the error as the refusal's data.
            raise socketio.exceptions.ConnectionRefusedError(refusal["message"], refusal)
        self.connections[sid] = Connection(address)

    async def on_disconnect(self, sid: str, *args: Any) -> None:
        connection = self.connections.get(sid)
        if connection is None or connection.home is not None:
            return
        await self.drop_connection(sid, connection)

    async def dispatch(self, sid: str, data: Any) -> dict[str, Any]:
        """Answer one client event, sent as ``[name, payload]``; never raises.

        Names are looked up here, never by the Socket.IO library, so a client cannot reach the
        server's own ``connect`` and ``disconnect`` handlers by naming them.
        """
        connection = self.connections.get(sid)
        if connection is None or connection.home is not None or not self._rate_ok(connection):
            return {"ok": False, "error": error_payload("rate_limited")}
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            return {"ok": False, "error": error_payload("malformed_json")}
        return await self.handle(sid, data[0], data[1:])

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

    # --- lobby requests -----------------------------------------------------------------------------

    @cached_property
    def table_quota(self) -> TableQuota:
        """The tables still allowed: per address in any hour, and in memory at once."""
        return TableQuota(self.limits, self.addresses, live=lambda: len(self.tables))

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
        # Counted before the first await, so that requests arriving meanwhile see this table.
        with self.table_quota.creating(connection.address, self.clock()):
            profile = await self.linked_profile(message.profile)
            table, token = Table.create(settings, message.name, profile=profile)
            await self._show_ratings(table)
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
            if self.cluster is not None:
                await self.cluster.claim(table.code)
            self.tables[table.code] = table
        async with self._lock(table):
            self._follow(sid, table, table.seats[0].token_hash)
            version = table.version
            await self.broadcast(table)
        return {"table": table.code, "seat": 0, "token": token, "version": version}

    async def join_table(self, sid: str, message: Any) -> dict[str, Any]:
        profile = await self.linked_profile(message.profile)
        async with self._at(message.table) as table:
            before = Snapshot.of(table)
            seat, token = table.join(message.name, profile)
            await self._store_or_undo(table, before, self._store_lobby(table))
            await self._show_ratings(table)
            self._follow(sid, table, table.seats[seat].token_hash)
            version = table.version
            await self.broadcast(table)
            self.open_tables_changed(before)
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
            messages: list[tuple[str, Any, str]] = [
                ("event", {"version": v, "event": e}, sid) for v, e in missed or []
            ]
            messages.append(("state", self._state_payload(table, seat, resync=missed is None), sid))
            await self._send(messages)
            await self.broadcast(table, with_event=False, skip=sid)  # others see the seat connected again
            self.drive(table)
        return {"seat": seat, "version": version, "replayed": len(missed or [])}

    async def take_seat(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(message.table, lambda t: t.take_seat(message.token, message.seat))

    async def set_bot(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(
            message.table, lambda t: t.set_bot(message.token, message.seat, message.bot), show_ratings=True
        )

    async def kick(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(message.table, lambda t: t.kick(message.token, message.seat))

    async def leave(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            before = Snapshot.of(table)
            table.leave(message.token)
            await self._store_or_undo(table, before, self._store_lobby(table))
            await self._show_ratings(table)  # a bot that takes the seat over shows its own
            self._follow(sid, table, None)
            # After a match a bot takes the seat, and accepts a rematch the others want at once.
            left = Snapshot.of(table)
            if table.rematch_if_everyone_is_ready():
                with contextlib.suppress(NotStored):  # the leave holds; the rematch waits for a change
                    await self._store_or_undo(table, left, self._db(self._match_store(table)))
            version = table.version
            await self.broadcast(table)
            self.open_tables_changed(before)
            self.drive(table)
        return {"version": version}

    async def start(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._match_start(message.table, lambda t: t.start(message.token))

    async def play_again(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._match_start(message.table, lambda t: t.play_again(message.token))

    async def rematch(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            before = Snapshot.of(table)
            started = table.rematch(message.token, message.ready, message.new_partners)
            return await self._after_rematch(table, before, started)

    async def _after_rematch(self, table: Table, before: Snapshot, started: bool) -> dict[str, Any]:
        """Store the next match if a rematch started it (readiness alone is not stored), then tell
        everyone."""
        if started:
            await self._store_or_undo(table, before, self._db(self._match_store(table)))
        if table.version != before.version:
            await self.broadcast(table)
            if started:
                self.drive(table)
        return {"version": table.version, "started": started}

    def _match_store(self, table: Table) -> Callable[[], None]:
        """The storage call of a match just started at ``table`` (after the last match's record,
        if that is still to store)."""
        start = partial(
            self.storage.start_match,
            table.code,
            table.match_number,
            table.seed,
            table.sides,
            table.names,
            seats=self._seat_rows(table),
            host_seat=table.host_seat,
        )
        return self.finishes.before(table.code, start)

    async def _match_start(self, code: str, change: Callable[[Table], None]) -> dict[str, Any]:
        async with self._at(code) as table:
            before = Snapshot.of(table)
            change(table)
            await self._store_or_undo(table, before, self._db(self._match_store(table)))
            version = table.version
            await self.broadcast(table)
            self.open_tables_changed(before)
            self.drive(table)
        return {"version": version}

    async def _lobby_change(
        self, code: str, change: Callable[[Table], None], show_ratings: bool = False
    ) -> dict[str, Any]:
        async with self._at(code) as table:
            before = Snapshot.of(table)
            change(table)
            if table.version != before.version:
                await self._store_or_undo(table, before, self._store_lobby(table))
                self.open_tables_changed(before)
                if show_ratings:
                    await self._show_ratings(table)
            version = table.version
            await self.broadcast(table)
        return {"version": version}

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
        return {"action": action_json(advice.action), "expected": expected, "version": version}

    async def bid_advice(self, sid: str, message: Any) -> dict[str, Any]:
        """Each auction choice of the asking seat with its chances, when the table allows hints and it
        is the seat's turn in the auction."""
        table = await self._table(message.table)
        seat = table.seat_of(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        state = table.state
        if table.status != "playing" or state is None or state.public.to_act != seat:
            raise TableError("not_your_turn")
        if state.public.phase is not Phase.AUCTION:
            raise TableError("not_your_turn")
        version = table.version  # the advice is for this version, even if the table moves on meanwhile
        advice = await self.hints.bid_advice(table.code, version, seat, player_view(state, seat))
        return {"version": version, "advice": advice.as_json(), "samples": advice.samples}

    async def review_hand(self, sid: str, message: Any) -> dict[str, Any]:
        """The asking seat's decisions in a hand of the match that is over, each with what the expert
        preferred and the expected points given away, when the table allows hints."""
        table = await self._table(message.table)
        seat = table.seat_of(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        state = table.state
        if state is None or table.status == "lobby" or message.hand >= len(state.public.results):
            raise TableError("hand_not_over")
        decisions = await self.hints.review_hand(
            table.code, table.match_number, table.seed, state, message.hand, seat
        )
        return {
            "hand": message.hand,
            "decisions": [_decision_json(decision) for decision in decisions],
            "costliest": [_decision_json(decision) for decision in costliest(decisions, REVIEW_COSTLIEST)],
            "total_loss": round(sum(decision.loss for decision in decisions), 2),
        }

    async def review_match(self, sid: str, message: Any) -> dict[str, Any]:
        """Every seat's decisions and total loss over the match just over, and the asking seat's
        costliest decisions, when the table allows hints."""
        table = await self._table(message.table)
        seat = table.seat_of(message.token)
        if not table.settings.hints:
            raise TableError("hints_off")
        state = table.state
        if state is None or table.status != "finished":
            raise TableError("match_not_over")
        review = await self.hints.review_match(table.code, table.match_number, table.seed, state)
        mine = [decision for decision in review.costliest() if decision.seat == seat][:REVIEW_COSTLIEST]
        return {
            "players": [player.to_json() for player in review.players],
            "costliest": [{"hand": d.hand, **_decision_json(d)} for d in mine],
        }

    # --- play ---------------------------------------------------------------------------------------

    async def act(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            before = Snapshot.of(table)
            seat, action = table.act(message.token, message.version, message.action)
            await self._store_or_undo(table, before, self._store_action(table, seat, str(action)))
            version = table.version
            await self.broadcast(table)
            self.drive(table)
        return {"version": version}


def _decision_json(decision: Decision) -> dict[str, Any]:
    """A reviewed decision as ``review_hand`` and ``review_match`` send it (its seat is the asker's)."""
    return {
        "action_index": decision.action_index,
        "action": record_action_json(decision.action),
        "best": record_action_json(decision.best),
        "expected_action": decision.expected_action,
        "expected_best": decision.expected_best,
        "loss": decision.loss,
    }


def create_app(
    database: str = "sqlite:///smear.db",
    timing: Timing | None = None,
    limits: Limits | None = None,
    redis: str | None = None,
) -> Any:
    """The ASGI application (``uvicorn smear.server.app:app``); with ``redis``, one of several
    processes serving the same tables."""
    return SmearServer(database, timing, limits, redis=redis).asgi_app()
