"""What the server does at a table by itself: deal the next hand, play for bots, absent players and
expired turn timers; close, rest or free tables nobody is at; store the records that failed
(:mod:`smear.server.tables.finishing`), and put aside a table whose record keeps failing.

:class:`Pacing` owns the timers' random source and the idle sweep; it keeps tables in (and frees
them from) the :class:`~smear.server.tables.live.LiveTables`, and tells the open tables
(:mod:`smear.server.social.listing`) when it closes a lobby, through a callable.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from functools import partial

from smear.bots import make_bot
from smear.server.cluster.coordination import Cluster
from smear.server.limits import AddressBook, Limits, Timing
from smear.server.players.hints import HintService
from smear.server.storage.database import Storage
from smear.server.tables.finishing import PendingFinishes
from smear.server.tables.live import LiveTables, NotStored, Snapshot, TableStore, Tasks
from smear.server.tables.presence import Presence
from smear.server.tables.quarantine import FINISH, Quarantine
from smear.server.tables.table import Table
from smear.server.wire.errorcodes import error_payload
from smear.state import Phase
from smear.views import player_view

log = logging.getLogger("smear.server")

# After storage failed, the server's own move at a table waits at least this long before it is tried again.
RETRY_PAUSE = 1.0


class Pacing:
    """The server's own moves, and the end of idle tables."""

    def __init__(
        self,
        live: LiveTables,
        presence: Presence,
        store: TableStore,
        quarantine: Quarantine,
        finishes: PendingFinishes,
        storage: Storage,
        tasks: Tasks,
        settings: tuple[Timing, Limits],
        clock: Callable[[], float],
        cluster: Cluster | None,
        hints: HintService,
        addresses: AddressBook,
        open_tables_changed: Callable[[], None],
    ) -> None:
        self.live = live
        self.presence = presence
        self.store = store
        self.quarantine = quarantine
        self.finishes = finishes
        self.storage = storage
        self.tasks = tasks
        self.timing, self.limits = settings
        self.clock = clock  # wall-clock seconds, for how long tables have been idle
        self.cluster = cluster
        self.hints = hints
        self.addresses = addresses
        self.open_tables_changed = open_tables_changed  # a lobby that may have been listed closed
        self.rng = random.Random()

    def keep(self, table: Table, idle_since: tuple[float, bool] | None = None) -> None:
        self.live.tables[table.code] = table
        if idle_since is not None:
            self.live.idle_since[table.code] = idle_since
        self.drive(table)

    def drive(self, table: Table, at_least: float = 0.0) -> None:
        """Schedule whatever the server does next at this table: a deal, a bot, the timer (not
        before ``at_least`` seconds).

        A move already being worked out for the table is dropped: it was decided for a situation
        (who is connected, whose turn) that this call may have changed.
        """
        handle = self.live.timers.pop(table.code, None)
        if handle is not None:
            handle.cancel()
        drive = self.live.drives[table.code] = self.live.drives.get(table.code, 0) + 1
        if table.status == "finished" and table.settings.matchmade and self.presence.people_here(table):
            # A matchmade table never waits for its people to agree: the next match comes anyway.
            pause = max(at_least, self.timing.match_pause)
            loop = asyncio.get_running_loop()
            self.live.timers[table.code] = loop.call_later(pause, self._later_match, table.code, drive)
            return
        if table.status != "playing" or table.state is None:
            return
        hashes = self.presence.connected_hashes(table)
        if not self.presence.may_move(table, hashes):
            return
        pub = table.state.public
        loop = asyncio.get_running_loop()
        if pub.phase is Phase.HAND_OVER:
            pause = max(at_least, self.timing.hand_pause)
            self.live.timers[table.code] = loop.call_later(pause, self._later, table.code, drive, None)
            return
        seat = pub.to_act
        if seat is None:
            return
        chair = table.seats[seat]
        delay: float | None = None
        if chair.is_bot:
            delay = self.timing.bot_pause
        elif not self.presence.connected(table, seat, hashes):
            now = time.monotonic()
            delay = max(self.timing.bot_pause, self.presence.plays_for_at(table, seat, now) - now)
        else:
            deadline = self.presence.turn_deadline(table, hashes)
            if deadline is not None:
                delay = max(0.0, deadline - time.monotonic())
        if delay is not None:
            delay = max(at_least, delay)
            self.live.timers[table.code] = loop.call_later(delay, self._later, table.code, drive, seat)

    def _later(self, code: str, drive: int, seat: int | None) -> None:
        self.tasks.spawn(self._act_for(code, drive, seat))

    def _later_match(self, code: str, drive: int) -> None:
        self.tasks.spawn(self._next_match(code, drive))

    async def _next_match(self, code: str, drive: int) -> None:
        """The next match at a matchmade table, with those who said they play again and those who
        arrived; the others' seats are the bots'."""
        table = self.live.tables.get(code)
        if table is None:
            return
        async with self.live.lock(table):
            if self.live.drives.get(code) != drive or table.status != "finished":
                return  # a rematch everyone agreed to, or someone left: drive() has scheduled anew
            before = Snapshot.of(table)
            table.next_matchmade_match()
            try:
                await self.store.store_or_undo(table, before, self.store.db(self.store.match_start(table)))
            except NotStored:
                self._retry(table)
                return
            await self.presence.broadcast(table)
            self.drive(table)

    async def _act_for(self, code: str, drive: int, seat: int | None) -> None:
        """The server's own move: deal the next hand (seat None) or play for a seat."""
        table = self.live.tables.get(code)
        if table is None or table.state is None or self.live.drives.get(code) != drive:
            return  # something happened meanwhile; drive() has scheduled anew
        action = None
        if seat is not None:
            view = player_view(table.state, seat)
            bot = make_bot(table.settings.bot_level)
            try:
                action = await asyncio.to_thread(bot.choose, view, self.rng)
            except Exception:
                log.exception(
                    "the bot could not choose at table %s",
                    code,
                    extra={"event": "bot_failed", "table": code, "seat": seat},
                )
                self._retry(table)
                return
        async with self.live.lock(table):
            if self.live.drives.get(code) != drive or self.live.tables.get(code) is not table:
                return  # the situation changed while the bot thought
            if action is None:
                before = Snapshot.of(table)
                if table.deal_next_hand():  # people took bots' seats: stored before anyone sees it
                    try:
                        await self.store.store_or_undo(table, before, self.store.store_lobby(table))
                    except NotStored:
                        self._retry(table)
                        return
            else:
                before = Snapshot.of(table)
                assert seat is not None
                try:
                    table.apply_action(seat, action)
                    await self.store.store_or_undo(
                        table, before, self.store.store_action(table, seat, str(action))
                    )
                except NotStored:
                    self._retry(table)
                    return
                except Exception:
                    log.exception(
                        "the server could not act at table %s",
                        code,
                        extra={"event": "server_move_failed", "table": code, "seat": seat},
                    )
                    self._retry(table)
                    return
            await self.presence.broadcast(table)
            self.drive(table)

    def _retry(self, table: Table) -> None:
        """Try the server's move again after a pause, rather than leave the table stuck."""
        self.drive(table, at_least=RETRY_PAUSE)

    async def sweep(self) -> None:
        """Store the records that failed before; close lobbies and put to rest matches that have had
        no person for too long, and free finished tables nobody follows (and whose record is
        stored). What is idle is noted in storage, so a restart knows."""
        now = self.clock()
        await self._retry_finishes()
        for code, table in list(self.live.tables.items()):
            async with self.live.lock(table):
                if self.live.tables.get(code) is not table:
                    continue
                if self.presence.people_here(table):
                    await self._note_present(code)
                elif table.status == "finished":
                    if not self.live.followers.get(code) and not self.finishes.waiting(code):
                        self.free(table)
                else:
                    since, stored = self.live.idle_since.get(code, (now, False))
                    if since < 0:
                        since, stored = now, False
                    if not stored:
                        await self.store.db(self.storage.set_idle, code, since)
                    self.live.idle_since[code] = (since, True)
                    if await self.retire(code, table.status, since, now):
                        self.free(table)
        self.addresses.forget_old(now)
        await self.quarantine.recount()

    async def _retry_finishes(self) -> None:
        """Try again to store each record that failed; put aside a table whose record has failed
        as often as the limit allows."""
        for code in self.finishes.codes():
            table = self.live.tables.get(code)
            if table is None or not self.finishes.waiting(code):
                self.finishes.drop(code)  # stored meanwhile, or its table is another process's now
                continue
            async with self.live.lock(table):
                if self.live.tables.get(code) is not table:
                    self.finishes.drop(code)
                    continue
                try:
                    await self.store.db(self.finishes.attempt(code))
                except Exception as err:
                    if self.finishes.failed_again(code):
                        await self.put_aside(table, FINISH, err)
                    continue
                self.finishes.drop(code)
                log.info(
                    "table %s: the record of its match is stored",
                    code,
                    extra={"event": "record_stored_late", "table": code},
                )
                await self.store.show_ratings(table)
                await self.presence.broadcast(table, with_event=False)

    async def put_aside(self, table: Table, reason: str, error: BaseException) -> None:
        """Quarantine a table in memory (if that is not stored, the next sweep tries again): whoever
        follows it is told, and it leaves memory."""
        if not await self.quarantine.put_aside(table.code, reason, error):
            return
        self.finishes.drop(table.code)
        followers = list(self.live.followers.get(table.code, ()))
        if followers:
            await self.presence.push("error", error_payload("table_unavailable"), followers)
        self.free(table)

    async def _note_present(self, code: str) -> None:
        since = self.live.idle_since.pop(code, None)
        if since is not None and since[1]:
            await self.store.db(self.storage.set_idle, code, None)

    async def retire(self, code: str, status: str, since: float, now: float) -> bool:
        """Close a lobby or put a match to rest if it has been idle long enough; says whether it did."""
        if status == "lobby" and now - since >= self.limits.lobby_idle:
            await self.store.db(self.storage.delete_table, code)
            self.open_tables_changed()
            log.info(
                "closed the lobby of table %s: nobody came for %.0f s",
                code,
                now - since,
                extra={"event": "lobby_closed_idle", "table": code, "idle_seconds": round(now - since)},
            )
            return True
        if status == "playing" and now - since >= self.limits.match_idle:
            await self.store.db(partial(self.storage.set_idle, code, since, resting=True))
            log.info(
                "put table %s to rest: nobody came for %.0f s",
                code,
                now - since,
                extra={"event": "table_rested", "table": code, "idle_seconds": round(now - since)},
            )
            return True
        return False

    def free(self, table: Table, lost: bool = False) -> None:
        """Forget a table in memory (storage keeps what it has), and give up its lease; or, when
        the lease was ``lost`` to another process, leave the table to it: this process's sockets
        still follow it (from here, at its new owner), other processes' are forgotten."""
        code = table.code
        del self.live.tables[code]
        handle = self.live.timers.pop(code, None)
        if handle is not None:
            handle.cancel()
        homes: set[str] = set()
        for sid in self.live.followers.pop(code, set()):
            connection = self.live.connections.get(sid)
            if connection is None:
                continue
            if connection.home is not None:
                homes.add(connection.home)
                del self.live.connections[sid]
            elif not lost:
                connection.table = None
        if self.cluster is not None:
            if not lost:
                self.tasks.spawn(self.cluster.release(code))
            for home in homes:  # its sockets there follow the table wherever it goes next
                self.cluster.send(home, {"kind": "released", "tables": [code]})
        self.live.forget(code)
        self.hints.forget(code)
