"""What every part of the server shares: its tables, connections, locks and storage threads.

:class:`ServerCore` holds the state; :mod:`smear.server.presence` adds who is at each table and what
each of them is sent, :mod:`smear.server.pacing` what the server does by itself (bots, timers, idle
tables), and :mod:`smear.server.app` the requests and the ASGI application on top.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from smear.record import record_of
from smear.server.chat import CHAT_KEPT_SECONDS
from smear.server.chatstore import StoredChat
from smear.server.cluster import Cluster
from smear.server.finishing import PendingFinishes
from smear.server.guard import LogThrottle
from smear.server.hints import HintService
from smear.server.limits import AddressBook, Bucket, Limits, Timing
from smear.server.playerstats import seat_stats, side_ranks
from smear.server.playerstore import MatchOutcome
from smear.server.quarantine import RESTORE, Quarantine
from smear.server.ratings import NEW_PLAYER, bot_profile_id
from smear.server.storage import Storage
from smear.server.storerows import ActionRow, SeatRow, StoredTable
from smear.server.tables import Seat, Table, TableError, TableSettings
from smear.server.writer import StorageWriter
from smear.state import State

log = logging.getLogger("smear.server")

T = TypeVar("T")


@dataclass
class Connection:
    """One socket: where it comes from, which table it follows and as whom (a seat's token hash,
    or None to watch)."""

    address: str
    table: str | None = None
    token_hash: str | None = None
    # The process whose socket this is, when another process owns the table it follows (None: here).
    home: str | None = None
    # Token bucket for the rate limit.
    allowance: float = 40.0
    checked: float = field(default_factory=time.monotonic)


class NotStored(Exception):
    """Storing a change failed and the table was put back; the request is answered ``not_stored``."""


class ServerCore:
    """Tables in memory, every accepted change in the database."""

    sio: Any  # the Socket.IO server, made by SmearServer around its dispatch

    def __init__(
        self,
        database: str = "sqlite:///smear.db",
        timing: Timing | None = None,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.time,
        redis: str | None = None,
    ) -> None:
        self.storage = Storage(database)
        self.timing = timing or Timing()
        # With Redis, this process is one of several serving the same tables (smear.server.cluster).
        self.cluster = None if redis is None else Cluster(redis, lease=self.timing.lease)
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
        # With Redis: per table followed from here but owned elsewhere, the owner told so; and the
        # leases held for tables not in memory at the last look (released at the next).
        self.told_owner: dict[str, str] = {}
        self.unused_leases: set[str] = set()
        # The pace of reactions and chat lines, by (kind, table, seat or socket): see smear.server.talk.
        self.talk_buckets: dict[tuple[str, str, str], Bucket] = {}
        # The sockets shown the open tables, and a change to them to publish: see smear.server.listing.
        self.list_watchers: set[str] = set()
        self.list_changed = asyncio.Event()
        self.home_missing: dict[str, float] = {}  # processes with sockets here, missing since (monotonic)
        self.hints = HintService(self.limits.hint_queue)
        self.writer = StorageWriter(self.storage)
        self._reading_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="smear-reading")
        self.quarantine = Quarantine(self.storage, self._db, self._read, self.clock)
        self.finishes = PendingFinishes(self.limits.finish_attempts)
        self._waking = asyncio.Lock()
        self._background: set[asyncio.Task[None]] = set()  # kept, or the loop may drop them half done
        self._sweeper: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self.drops = LogThrottle(log)
        self._open_doors()

    def _open_doors(self) -> None:
        """Make :attr:`sio`, the Socket.IO server (the application's part)."""
        raise NotImplementedError

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the caller, which does not wait for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.code, asyncio.Lock())

    async def _db(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage call that writes on the storage thread (one at a time, in the order asked)."""
        return await self.writer.call(partial(call, *args))

    async def _read(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage read on a reading thread: it does not wait behind the writes."""
        return await asyncio.get_running_loop().run_in_executor(self._reading_threads, partial(call, *args))

    async def _store_or_undo(self, table: Table, before: Snapshot, write: Awaitable[object]) -> None:
        """Store a change already made to ``table`` (``write``, one of the ``_store_...`` below); if
        that fails, put the table back and say so.

        The message names no card: the write may carry a discard.
        """
        try:
            await write
        except Exception as err:
            before.restore(table)
            # The type only: the error quotes the change, and a discard names hidden cards.
            kind = type(err).__name__
            self.drops.warn("store", "table %s: a change was not stored; undone (%s)", table.code, kind)
            raise NotStored from None

    def _store_lobby(self, table: Table) -> Awaitable[None]:
        return self._db(self.storage.save_lobby, table.code, self._seat_rows(table), table.host_seat)

    def _store_action(self, table: Table, seat: int, action: str) -> Awaitable[object]:
        """The latest action (and, if it ended the match, its record)."""
        row = ActionRow(table.code, table.match_number, table.action_count, seat, action)
        if table.status != "finished" or table.state is None:
            return self.writer.append(row)
        return self._store_last_action(table, row, self._finish_call(table))

    async def _store_last_action(self, table: Table, row: ActionRow, finish: Callable[[], None]) -> None:
        """The action that ended a match, the match's record and history after it; then the seats
        show their new ratings. Once the action is stored it stands: a record that fails is tried
        again later (:mod:`smear.server.finishing`), the match shown over meanwhile."""
        failed = await self.writer.append(row, finish)
        if failed is not None:
            self.finishes.failed(table.code, finish, failed)
        await self._show_ratings(table)

    def _finish_call(self, table: Table) -> Callable[[], None]:
        """The storage call that finishes the match over at ``table``: its record, and its place in
        the players' history and ratings, all worked out on the storage thread, so that a fault in
        any of it is a failed finish and never touches the table."""
        state = table.state
        assert state is not None
        code, number, preset, names, now = (
            table.code,
            table.match_number,
            table.settings.preset,
            list(table.names),
            time.time(),
        )

        def finish() -> None:
            pub = state.public
            outcome = MatchOutcome(
                preset=preset,
                sides=[list(side) for side in pub.sides],
                scores=list(pub.scores),
                winner=pub.winner,
                ranks=side_ranks(state),
                stats=[seat_stats(state, seat) for seat in range(pub.players)],
                names=names,
            )
            self.storage.finish_match(code, number, record_of(state, names), outcome, now=now)

        return finish

    async def _show_ratings(self, table: Table) -> None:
        """Read the ratings of the profiles seated at ``table`` for its seats to show. A failed read
        leaves the ratings shown as they were: they are only shown."""
        profiles = sorted({seat.profile for seat in table.seats if seat.profile is not None})
        try:
            ratings = await self._read(self.storage.ratings_of, profiles, table.settings.preset)
        except Exception as err:
            self.drops.warn("store", "ratings could not be read (%s)", type(err).__name__)
            return
        # A profile not rated yet in this preset shows where a new player starts.
        table.set_ratings({player: ratings.get(player, NEW_PLAYER).shown for player in profiles})

    def _seat_rows(self, table: Table) -> list[SeatRow]:
        return [SeatRow(i, s.name, s.token_hash, s.is_bot, s.profile) for i, s in enumerate(table.seats)]

    async def _table_from_storage(self, stored: StoredTable) -> Table:
        """The table as stored, its match replayed, and its record stored if the replay ends it.

        Raises ``table_unavailable`` for a table put aside, or one that cannot be rebuilt (which
        is put aside now); :class:`~smear.server.storage.StorageError` if storage cannot be read.
        """
        if stored.quarantined:
            raise TableError("table_unavailable")
        chat, listed = await self._read(self._chat_and_listing, stored)
        try:
            table = self._rebuilt(stored, chat, listed)
        except Exception as err:  # whatever the rules or the settings refuse: this table only
            await self.quarantine.put_aside(stored.code, RESTORE, err)
            raise TableError("table_unavailable") from None
        match = stored.current_match
        if table.status == "finished" and match is not None and not match.finished:
            # The last action ended it but the record was not stored.
            finish = self._finish_call(table)
            try:
                await self._db(finish)
            except Exception as err:
                self.finishes.failed(table.code, finish, err)
        return table

    def _chat_and_listing(self, stored: StoredTable) -> tuple[StoredChat, bool]:
        """A stored table's recent chat and whether it is listed (on a reading thread)."""
        chat = self.storage.chat(stored.code, self.clock() - CHAT_KEPT_SECONDS)
        return chat, stored.status == "lobby" and self.storage.is_listed(stored.code)

    def _rebuilt(self, stored: StoredTable, chat: StoredChat, listed: bool) -> Table:
        settings = TableSettings(**stored.settings)
        bots = bot_profile_id(settings.bot_level)  # a bot seated before bots had profiles has none
        seats = [
            Seat(
                name=s.name,
                token_hash=s.token_hash,
                is_bot=s.is_bot,
                profile=s.profile or (bots if s.is_bot else None),
            )
            for s in stored.seats
        ]
        table = Table(code=stored.code, settings=settings, seats=seats, host_seat=stored.host_seat)
        if chat.controls is not None:
            table.chat.set_controls(chat.controls)
        table.chat.lines.extend(chat.lines)
        table.listed = listed
        match = stored.current_match
        if stored.status != "lobby" and match is not None:
            # A finished match is replayed too, so whoever comes back sees how it ended.
            table.restore_match(match.number, match.seed, match.actions)
        elif match is not None:
            table.match_number = match.number
        # Versions only grow, across restarts too; the replay's events were never sent to anyone.
        table.version = max(table.version, int(time.time() * 1000))
        table.events.clear()
        return table


@dataclass(frozen=True)
class Snapshot:
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
    chat: tuple[bool, bool, frozenset[int]]
    listed: bool
    rematch: tuple[frozenset[int], bool]

    @classmethod
    def of(cls, table: Table) -> Snapshot:
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
            table.chat.controls,
            table.listed,
            (table.rematch_ready, table.new_partners),
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
        table.chat.set_controls(self.chat)
        table.listed = self.listed
        table.rematch_ready, table.new_partners = self.rematch
        # By version, not by count: the history is bounded, so a change may have pushed out its oldest.
        while table.events and table.events[-1][0] > self.version:
            table.events.pop()
