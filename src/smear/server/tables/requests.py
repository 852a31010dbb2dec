"""The requests of a table's lobby and play: create, join, watch, resume, seats and bots, start,
rematch, leave, list, act.

Each change happens under the table's lock: the change is made, stored (on the storage thread, never
on the event loop), then acknowledged and sent to every seat and spectator as its own view; if storing
fails, the table is put back as it was and the request answered ``not_stored``.
:class:`TableRequests` owns the table quota, and takes the parts it asks in its constructor.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

from smear.server.cluster.coordination import Cluster
from smear.server.faultlog import FaultLog
from smear.server.limits import AddressBook, Limits, TableQuota
from smear.server.metrics import Metrics
from smear.server.social.chat import event_seen_by
from smear.server.social.talk import TableReach, TalkPace
from smear.server.storage.database import Storage
from smear.server.tables.live import LiveTables, NotStored, Snapshot, TableStore
from smear.server.tables.pacing import Pacing
from smear.server.tables.presence import Presence
from smear.server.tables.table import Table, TableError, TableSettings
from smear.server.wire.protocol import ProfileProof


class TableRequests:
    """The lobby's and play's requests, each answered at its table."""

    def __init__(
        self,
        live: LiveTables,
        reach: TableReach,
        presence: Presence,
        pacing: Pacing,
        store: TableStore,
        faults: FaultLog,
        storage: Storage,
        pace: TalkPace,
        settings: tuple[Limits, AddressBook],
        clock: Callable[[], float],
        cluster: Cluster | None,
        linked_profile: Callable[[ProfileProof | None], Awaitable[str | None]],
        open_tables_changed: Callable[[Snapshot | None], None],
        metrics: Metrics | None = None,
    ) -> None:
        self.metrics = metrics or Metrics()
        self.live = live
        self.reach = reach
        self.presence = presence
        self.pacing = pacing
        self.store = store
        self.faults = faults
        self.storage = storage
        self.pace = pace
        self.limits, addresses = settings
        self.clock = clock
        self.cluster = cluster
        self.linked_profile = linked_profile  # the profile a seat is taken with, once proven
        self.open_tables_changed = open_tables_changed
        # The tables still allowed: per address in any hour, and in memory at once.
        self.table_quota = TableQuota(self.limits, addresses, live=lambda: len(live.tables))

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
        return await self.open_table(sid, settings, message.name, message.profile)

    async def open_table(
        self, sid: str, settings: TableSettings, name: str, proof: ProfileProof | None
    ) -> dict[str, Any]:
        """A new table with the asking socket's person seated: the host of a lobby, or at a
        matchmade table (``settings.matchmade``) the only person, its match started with bots."""
        connection = self.live.connections.get(sid)
        if connection is None:
            raise TableError("rate_limited")
        # Counted before the first await, so that requests arriving meanwhile see this table.
        with self.table_quota.creating(connection.address, self.clock()):
            profile = await self.linked_profile(proof)
            if settings.matchmade:
                table, token = Table.create_matchmade(settings, name, profile)
            else:
                table, token = Table.create(settings, name, profile=profile)
            await self.store.show_ratings(table)
            try:
                await self.store.db(
                    self.storage.create_table,
                    table.code,
                    settings.to_json(),
                    table.host_seat,
                    self.store.seat_rows(table),
                    time.time(),
                )
                if table.status == "playing":
                    await self.store.db(self.store.match_start(table))
            except Exception as err:
                self.faults.failed(
                    "database", "table_not_stored", err, "a new table was not stored", table=table.code
                )
                raise NotStored from None
            if self.cluster is not None:
                await self.cluster.claim(table.code)
            self.live.tables[table.code] = table
        seat = next(index for index, chair in enumerate(table.seats) if chair.token_hash is not None)
        async with self.live.lock(table):
            self.presence.follow(sid, table, table.seats[seat].token_hash)
            version = table.version
            await self.presence.broadcast(table)
            self.pacing.drive(table)
        return {"table": table.code, "seat": seat, "token": token, "version": version}

    async def join_table(self, sid: str, message: Any) -> dict[str, Any]:
        profile = await self.linked_profile(message.profile)
        async with self.reach.at(message.table) as table:
            return await self.seat(sid, table, lambda t: t.join(message.name, profile))

    async def seat(self, sid: str, table: Table, sit: Callable[[Table], tuple[int, str]]) -> dict[str, Any]:
        """A person seated by ``sit`` (which returns the seat and its token), the table's lock held:
        stored, the ratings shown, the socket following the seat, everyone told."""
        before = Snapshot.of(table)
        seat, token = sit(table)
        await self.store.store_or_undo(table, before, self.store.store_lobby(table))
        await self.store.show_ratings(table)
        self.presence.follow(sid, table, table.seats[seat].token_hash)
        version = table.version
        await self.presence.broadcast(table)
        self.open_tables_changed(before)
        return {"table": table.code, "seat": seat, "token": token, "version": version}

    async def watch_table(self, sid: str, message: Any) -> dict[str, Any]:
        async with self.reach.at(message.table) as table:
            connection = self.live.connections.get(sid)
            if connection is not None and connection.table != table.code:
                watchers = sum(
                    1
                    for other in self.live.followers.get(table.code, ())
                    if (c := self.live.connections.get(other)) is not None and c.token_hash is None
                )
                if not self.limits.counted(self.limits.spectators_per_table, watchers):
                    raise TableError("too_many_spectators", limit=self.limits.spectators_per_table)
            self.presence.follow(sid, table, None)
            version = table.version
            await self.presence.send_state(sid, table)
            self.pacing.drive(table)  # a table every person has left plays on while watched
        return {"version": version}

    async def resume(self, sid: str, message: Any) -> dict[str, Any]:
        """A client back after a disconnection or a reload: the events it missed, then its state."""
        async with self.reach.at(message.table) as table:
            seat = table.seat_of(message.token)
            self.presence.follow(sid, table, table.seats[seat].token_hash)
            self.live.disconnected_at.pop((table.code, seat), None)
            missed = table.events_since(message.version)
            version = table.version
            viewer = table.view_seat(seat)
            replayed: list[tuple[str, Any, str]] = [
                ("event", {"version": v, "event": shown}, sid)
                for v, e in missed or []
                if (shown := event_seen_by(e, you=viewer, host=table.host_seat)) is not None
            ]
            messages = list(replayed)
            messages.append(("state", self.presence.state_payload(table, seat, resync=missed is None), sid))
            await self.presence.send(messages)
            await self.presence.broadcast(
                table, with_event=False, skip=sid
            )  # others see the seat connected again
            self.pacing.drive(table)
        return {"seat": seat, "version": version, "replayed": len(replayed)}

    async def take_seat(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(message.table, lambda t: t.take_seat(message.token, message.seat))

    async def set_bot(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(
            message.table, lambda t: t.set_bot(message.token, message.seat, message.bot), show_ratings=True
        )

    async def kick(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._lobby_change(message.table, lambda t: t.kick(message.token, message.seat))

    async def leave(self, sid: str, message: Any) -> dict[str, Any]:
        async with self.reach.at(message.table) as table:
            before = Snapshot.of(table)
            leaver = table.leaving_profile(message.token)  # a match left, if one is under way
            table.leave(message.token)
            await self.store.store_or_undo(table, before, self.store.store_lobby(table, leaver))
            await self.store.show_ratings(table)  # a bot that takes the seat over shows its own
            self.presence.follow(sid, table, None)
            # After a match a bot takes the seat, and accepts a rematch the others want at once.
            left = Snapshot.of(table)
            if table.rematch_if_everyone_is_ready():
                with contextlib.suppress(NotStored):  # the leave holds; the rematch waits for a change
                    await self.store.store_or_undo(table, left, self.store.db(self.store.match_start(table)))
            version = table.version
            await self.presence.broadcast(table)
            self.open_tables_changed(before)
            self.pacing.drive(table)
        return {"version": version}

    async def start(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._match_start(message.table, lambda t: t.start(message.token))

    async def play_again(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._match_start(message.table, lambda t: t.play_again(message.token))

    async def rematch(self, sid: str, message: Any) -> dict[str, Any]:
        async with self.reach.at(message.table) as table:
            before = Snapshot.of(table)
            started = table.rematch(message.token, message.ready, message.new_partners)
            return await self._after_rematch(table, before, started)

    async def _after_rematch(self, table: Table, before: Snapshot, started: bool) -> dict[str, Any]:
        """Store the next match if a rematch started it (readiness alone is not stored), then tell
        everyone."""
        if started:
            await self.store.store_or_undo(table, before, self.store.db(self.store.match_start(table)))
        if table.version != before.version:
            await self.presence.broadcast(table)
            if started:
                self.pacing.drive(table)
        return {"version": table.version, "started": started}

    async def _match_start(self, code: str, change: Callable[[Table], None]) -> dict[str, Any]:
        async with self.reach.at(code) as table:
            before = Snapshot.of(table)
            change(table)
            await self.store.store_or_undo(table, before, self.store.db(self.store.match_start(table)))
            version = table.version
            await self.presence.broadcast(table)
            self.open_tables_changed(before)
            self.pacing.drive(table)
        return {"version": version}

    async def _lobby_change(
        self, code: str, change: Callable[[Table], None], show_ratings: bool = False
    ) -> dict[str, Any]:
        async with self.reach.at(code) as table:
            before = Snapshot.of(table)
            change(table)
            if table.version != before.version:
                await self.store.store_or_undo(table, before, self.store.store_lobby(table))
                self.open_tables_changed(before)
                if show_ratings:
                    await self.store.show_ratings(table)
            version = table.version
            await self.presence.broadcast(table)
        return {"version": version}

    async def act(self, sid: str, message: Any) -> dict[str, Any]:
        started = time.perf_counter()
        async with self.reach.at(message.table) as table:
            before = Snapshot.of(table)
            seat, action = table.act(message.token, message.version, message.action)
            await self.store.store_or_undo(table, before, self.store.store_action(table, seat, str(action)))
            version = table.version
            await self.presence.broadcast(table)
            self.metrics.act_viewed(time.perf_counter() - started)
            self.pacing.drive(table)
        return {"version": version}

    async def list_table(self, sid: str, message: Any) -> dict[str, Any]:
        async with self.reach.at(message.table) as table:
            before = Snapshot.of(table)
            table.set_listed(message.token, message.listed)
            if table.version != before.version:
                try:  # paced per client address, however many tables and sockets it has
                    connection = self.live.connections.get(sid)
                    paced = self.pace.paced(
                        "listing", "", connection.address if connection is not None else sid
                    )
                except TableError:
                    before.restore(table)
                    raise
                write = self.store.db(self.storage.listing.set_listed, table.code, table.listed, self.clock())
                try:
                    await self.store.store_or_undo(table, before, write)
                except NotStored:
                    paced.give_back()  # nothing was listed: it costs nothing
                    raise
                await self.presence.broadcast(table)
                self.open_tables_changed(None)
            version = table.version
        return {"version": version}
