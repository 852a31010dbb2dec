"""What the server does at a table by itself: deal the next hand, play for bots, absent players and
expired turn timers; close, rest or free tables nobody is at; store the records that failed
(:mod:`smear.server.finishing`), and put aside a table whose record keeps failing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial

from smear.bots import make_bot
from smear.server.core import NotStored, Snapshot
from smear.server.errorcodes import error_payload
from smear.server.presence import Presence
from smear.server.quarantine import FINISH
from smear.server.tables import Table
from smear.state import Phase
from smear.views import player_view

log = logging.getLogger("smear.server")

# After storage failed, the server's own move at a table waits at least this long before it is tried again.
RETRY_PAUSE = 1.0


class Pacing(Presence):
    """The server's own moves, and the end of idle tables."""

    def _keep(self, table: Table, idle_since: tuple[float, bool] | None = None) -> None:
        self.tables[table.code] = table
        if idle_since is not None:
            self.idle_since[table.code] = idle_since
        self.drive(table)

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
        if table.status != "playing" or table.state is None:
            return
        hashes = self._connected_hashes(table)
        if not self._may_move(table, hashes):
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
        elif not self._connected(table, seat, hashes):
            gone = self.disconnected_at.setdefault((table.code, seat), time.monotonic())
            delay = max(self.timing.bot_pause, gone + self.timing.grace - time.monotonic())
        else:
            deadline = self._turn_deadline(table, hashes)
            if deadline is not None:
                delay = max(0.0, deadline - time.monotonic())
        if delay is not None:
            delay = max(at_least, delay)
            self.timers[table.code] = loop.call_later(delay, self._later, table.code, drive, seat)

    def _later(self, code: str, drive: int, seat: int | None) -> None:
        self._spawn(self._act_for(code, drive, seat))

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
                before = Snapshot.of(table)
                assert seat is not None
                try:
                    table.apply_action(seat, action)
                    await self._store_or_undo(table, before, self._store_action(table, seat, str(action)))
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

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping the idle tables failed")

    async def sweep(self) -> None:
        """Store the records that failed before; close lobbies and put to rest matches that have had
        no person for too long, and free finished tables nobody follows (and whose record is
        stored). What is idle is noted in storage, so a restart knows."""
        now = self.clock()
        await self._retry_finishes()
        for code, table in list(self.tables.items()):
            async with self._lock(table):
                if self.tables.get(code) is not table:
                    continue
                if self._people_here(table):
                    await self._note_present(code)
                elif table.status == "finished":
                    if not self.followers.get(code) and not self.finishes.waiting(code):
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
        await self.quarantine.recount()

    async def _retry_finishes(self) -> None:
        """Try again to store each record that failed; put aside a table whose record has failed
        as often as the limit allows."""
        for code in self.finishes.codes():
            table = self.tables.get(code)
            if table is None or not self.finishes.waiting(code):
                self.finishes.drop(code)  # stored meanwhile, or its table is another process's now
                continue
            async with self._lock(table):
                if self.tables.get(code) is not table:
                    self.finishes.drop(code)
                    continue
                try:
                    await self._db(self.finishes.attempt(code))
                except Exception as err:
                    if self.finishes.failed_again(code):
                        await self._put_aside(table, FINISH, err)
                    continue
                self.finishes.drop(code)
                log.info("table %s: the record of its match is stored", code)
                await self._show_ratings(table)
                await self.broadcast(table, with_event=False)

    async def _put_aside(self, table: Table, reason: str, error: BaseException) -> None:
        """Quarantine a table in memory (if that is not stored, the next sweep tries again): whoever
        follows it is told, and it leaves memory."""
        if not await self.quarantine.put_aside(table.code, reason, error):
            return
        self.finishes.drop(table.code)
        followers = list(self.followers.get(table.code, ()))
        if followers:
            await self._push("error", error_payload("table_unavailable"), followers)
        self._free(table)

    async def _note_present(self, code: str) -> None:
        since = self.idle_since.pop(code, None)
        if since is not None and since[1]:
            await self._db(self.storage.set_idle, code, None)

    async def _retire(self, code: str, status: str, since: float, now: float) -> bool:
        """Close a lobby or put a match to rest if it has been idle long enough; says whether it did."""
        if status == "lobby" and now - since >= self.limits.lobby_idle:
            await self._db(self.storage.delete_table, code)
            self.list_changed.set()  # it may have been listed as open
            log.info("closed the lobby of table %s: nobody came for %.0f s", code, now - since)
            return True
        if status == "playing" and now - since >= self.limits.match_idle:
            await self._db(partial(self.storage.set_idle, code, since, resting=True))
            log.info("put table %s to rest: nobody came for %.0f s", code, now - since)
            return True
        return False

    def _free(self, table: Table, lost: bool = False) -> None:
        """Forget a table in memory (storage keeps what it has), and give up its lease; or, when
        the lease was ``lost`` to another process, leave the table to it: this process's sockets
        still follow it (from here, at its new owner), other processes' are forgotten."""
        code = table.code
        del self.tables[code]
        handle = self.timers.pop(code, None)
        if handle is not None:
            handle.cancel()
        homes: set[str] = set()
        for sid in self.followers.pop(code, set()):
            connection = self.connections.get(sid)
            if connection is None:
                continue
            if connection.home is not None:
                homes.add(connection.home)
                del self.connections[sid]
            elif not lost:
                connection.table = None
        if self.cluster is not None:
            if not lost:
                self._spawn(self.cluster.release(code))
            for home in homes:  # its sockets there follow the table wherever it goes next
                self.cluster.send(home, {"kind": "released", "tables": [code]})
        for mapping in (self.drives, self.turn_deadlines, self.idle_since, self.locks):
            mapping.pop(code, None)
        for key in [key for key in self.disconnected_at if key[0] == code]:
            del self.disconnected_at[key]
        self.hints.forget(code)
