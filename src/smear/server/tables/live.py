"""What every part of the server shares: the live tables and who follows them
(:class:`LiveTables`), the tasks run beside the requests (:class:`Tasks`), and the storing and
reading of tables (:class:`TableStore`: the storage thread, the reading threads, the records still to
store and the tables put aside).

The parts built on these (:mod:`smear.server.tables.presence`, :mod:`smear.server.tables.pacing`,
:mod:`smear.server.cluster.sharing`, ...) each take what they use in their constructor;
:func:`smear.server.app.build_server` builds and wires them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from smear.record import record_of
from smear.server.faultlog import FaultLog
from smear.server.metrics import Metrics
from smear.server.players.playerstats import seat_stats, side_ranks
from smear.server.players.ratings import NEW_PLAYER, bot_profile_id
from smear.server.social.chat import CHAT_KEPT_SECONDS
from smear.server.storage.chatstore import StoredChat
from smear.server.storage.database import Storage
from smear.server.storage.playerstore import MatchOutcome
from smear.server.storage.rows import ActionRow, SeatRow, StoredTable
from smear.server.storage.writer import StorageWriter
from smear.server.tables.finishing import PendingFinishes
from smear.server.tables.quarantine import RESTORE, Quarantine
from smear.server.tables.table import Seat, Table, TableError, TableSettings
from smear.server.wire.guard import LogThrottle
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
    # The profile whose page this socket is (its ``hello``, said at its own process), for blocks.
    page: str | None = None
    # Token bucket for the rate limit.
    allowance: float = 40.0
    checked: float = field(default_factory=time.monotonic)


class NotStored(Exception):
    """Storing a change failed and the table was put back; the request is answered ``not_stored``."""


class LiveTables:
    """The tables in memory and the sockets that follow them: the state every part reads, each
    mapping keyed by table code (or socket id), written only under the table's lock."""

    def __init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, Connection] = {}
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
        # Per (table, seat) of a person not connected during a match: since when (clock), and
        # whether they were cut off: nobody saw them leave, the table came to this process (a
        # restart, a take-over) without them, most likely with the process that had it.
        self.disconnected_at: dict[tuple[str, int], tuple[float, bool]] = {}
        # Per table with no person connected: since when (clock), and whether that is stored.
        self.idle_since: dict[str, tuple[float, bool]] = {}

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.code, asyncio.Lock())

    def forget(self, code: str) -> None:
        """Drop what is kept for table ``code`` (it has left memory)."""
        for mapping in (self.drives, self.turn_deadlines, self.idle_since, self.locks):
            mapping.pop(code, None)
        for key in [key for key in self.disconnected_at if key[0] == code]:
            del self.disconnected_at[key]


class Tasks:
    """The work run beside the requests, which nobody awaits: kept until done, or the loop may drop
    it half done."""

    def __init__(self) -> None:
        self._running: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` beside the caller, which does not wait for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._running.add(task)
        task.add_done_callback(self._running.discard)


class TableStore:
    """Tables in storage: every accepted change stored (on the storage thread, in order), read back
    on reading threads, the records that failed kept to try again, and tables that cannot be
    rebuilt put aside."""

    def __init__(
        self,
        storage: Storage,
        finishes: PendingFinishes,
        clock: Callable[[], float],
        drops: LogThrottle,
        metrics: Metrics | None = None,
        faults: FaultLog | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock  # wall-clock seconds, for how long chat lines are kept
        self.drops = drops
        self.faults = faults or FaultLog(log)  # the database failing: logged once, then counted
        self.metrics = metrics or Metrics()
        self.writer = StorageWriter(storage, metrics=self.metrics)
        self._reading_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="smear-reading")
        self.quarantine = Quarantine(storage.quarantine, self.db, self.read, clock)
        self.finishes = finishes  # matches over whose record is to be stored again

    async def close(self) -> None:
        self._reading_threads.shutdown(wait=True)
        await self.writer.close()

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage call that writes on the storage thread (one at a time, in the order asked)."""
        return await self._counted("write", self.writer.call(partial(call, *args)))

    async def read(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage read on a reading thread: it does not wait behind the writes."""
        loop = asyncio.get_running_loop()
        return await self._counted("read", loop.run_in_executor(self._reading_threads, partial(call, *args)))

    async def _counted(self, kind: str, call: Awaitable[T]) -> T:
        try:
            result = await call
        except Exception:
            self.metrics.database_call(kind, failed=True)
            raise
        self.metrics.database_call(kind, failed=False)
        self.faults.worked("database")  # a fault going on is over: one line says so
        return result

    async def store_or_undo(self, table: Table, before: Snapshot, write: Awaitable[object]) -> None:
        """Store a change already made to ``table`` (``write``, one of the ``_store_...`` below); if
        that fails, put the table back and say so.

        The message names no card: the write may carry a discard.
        """
        try:
            await write
        except Exception as err:
            before.restore(table)
            # The type only (the fault log's way): the error quotes the change, and a discard
            # names hidden cards.
            self.faults.failed(
                "database",
                "change_not_stored",
                err,
                "table %s: a change was not stored; undone",
                table.code,
                table=table.code,
            )
            raise NotStored from None
        self.faults.worked("database")

    def store_lobby(self, table: Table, left: str | None = None) -> Awaitable[None]:
        """The seats and host; ``left``: a profile that gave up its seat in the match under way."""
        counted = None if left is None else (left, table.match_number)
        return self.db(self.storage.save_lobby, table.code, self.seat_rows(table), table.host_seat, counted)

    def match_start(self, table: Table) -> Callable[[], None]:
        """The storage call of a match just started at ``table`` (after the last match's record,
        if that is still to store)."""
        start = partial(
            self.storage.start_match,
            table.code,
            table.match_number,
            table.seed,
            table.sides,
            table.names,
            seats=self.seat_rows(table),
            host_seat=table.host_seat,
        )
        return self.finishes.before(table.code, start)

    def store_action(self, table: Table, seat: int, action: str) -> Awaitable[object]:
        """The latest action (and, if it ended the match, its record)."""
        row = ActionRow(table.code, table.match_number, table.action_count, seat, action)
        if table.status != "finished" or table.state is None:
            return self.writer.append(row)
        return self._store_last_action(table, row, self.finish_call(table))

    async def _store_last_action(self, table: Table, row: ActionRow, finish: Callable[[], None]) -> None:
        """The action that ended a match, the match's record and history after it; then the seats
        show their new ratings. Once the action is stored it stands: a record that fails is tried
        again later (:mod:`smear.server.tables.finishing`), the match shown over meanwhile."""
        failed = await self.writer.append(row, finish)
        self.metrics.match_finished(table.settings.preset)
        log.info(
            "table %s: match %d is over",
            table.code,
            table.match_number,
            extra={
                "event": "match_finished",
                "table": table.code,
                "match": table.match_number,
                "preset": table.settings.preset,
                "record_stored": failed is None,
            },
        )
        if failed is not None:
            self.finishes.failed(table.code, finish, failed)
        await self.show_ratings(table)

    def finish_call(self, table: Table) -> Callable[[], None]:
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

    async def show_ratings(self, table: Table) -> None:
        """Read the ratings of the profiles seated at ``table``, and the people's matches finished
        and left, for its seats to show. A failed read leaves them shown as they were: they are only
        shown."""
        profiles = sorted({seat.profile for seat in table.seats if seat.profile is not None})
        people = [seat.profile for seat in table.seats if seat.profile is not None and not seat.is_bot]
        try:
            ratings = await self.read(self.storage.players.ratings_of, profiles, table.settings.preset)
            finishes = await self.read(self.storage.players.finishes_of, people)
        except Exception as err:
            self.faults.failed(
                "database",
                "ratings_not_read",
                err,
                "table %s: ratings could not be read",
                table.code,
                table=table.code,
            )
            return
        # A profile not rated yet in this preset shows where a new player starts; a person who has
        # neither finished nor left a match, 0 and 0.
        table.set_ratings(
            {player: ratings.get(player, NEW_PLAYER).shown for player in profiles},
            {player: finishes.get(player, (0, 0)) for player in people},
        )

    @staticmethod
    def seat_rows(table: Table) -> list[SeatRow]:
        return [SeatRow(i, s.name, s.token_hash, s.is_bot, s.profile) for i, s in enumerate(table.seats)]

    async def table_from_storage(self, stored: StoredTable) -> Table:
        """The table as stored, its match replayed, and its record stored if the replay ends it.

        Raises ``table_closed`` (with the operator's reason) for a table the operator closed,
        ``table_unavailable`` for one put aside otherwise, or one that cannot be rebuilt (which is
        put aside now); :class:`~smear.server.storage.database.StorageError` if storage cannot be read.
        """
        if stored.quarantined:
            note = await self.read(self.storage.moderation.closing_note, stored.code)
            if note is not None:
                raise TableError("table_closed", note=note)
            raise TableError("table_unavailable")
        chat, listed = await self.read(self._chat_and_listing, stored)
        try:
            table = self._rebuilt(stored, chat, listed)
        except Exception as err:  # whatever the rules or the settings refuse: this table only
            await self.quarantine.put_aside(stored.code, RESTORE, err)
            raise TableError("table_unavailable") from None
        match = stored.current_match
        if table.status == "finished" and match is not None and not match.finished:
            # The last action ended it but the record was not stored.
            finish = self.finish_call(table)
            try:
                await self.db(finish)
            except Exception as err:
                self.finishes.failed(table.code, finish, err)
        return table

    def _chat_and_listing(self, stored: StoredTable) -> tuple[StoredChat, bool]:
        """A stored table's recent chat and whether it is listed (on a reading thread)."""
        chat = self.storage.chat.chat(stored.code, self.clock() - CHAT_KEPT_SECONDS)
        return chat, stored.status == "lobby" and self.storage.listing.is_listed(stored.code)

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
