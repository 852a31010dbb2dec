"""Open tables: a host may list its table so that anyone finds it on the landing page and takes a
free seat in one click. Tables are private (reached by their link only) unless listed.

The list is read from the database, so every process of a cluster shows the same one. A socket that
asks with ``watch`` gets it again whenever it changes: after a change at a table of this process at
once, and every :data:`LIST_REFRESH` seconds for changes made by other processes. An entry shows what
the lobby shows anyone who opens the table's link (settings, the host's name, how many seats are
free), never a token.

:class:`OpenTables` owns the watchers and the signal of a change; the other parts tell it of a
change through :meth:`OpenTables.changed` (the ``list_table`` request is a table's, in
:mod:`smear.server.tables.requests`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from smear.server.faultlog import FaultLog
from smear.server.players.names import Named, marks
from smear.server.storage.database import StorageError
from smear.server.storage.liststore import ListedTable, ListingStore
from smear.server.tables.live import LiveTables, NotStored, Snapshot, TableStore

log = logging.getLogger("smear.server")

# The most open tables a client is shown, the most recently listed first.
OPEN_TABLES_SHOWN = 50
# With several processes, a change made by another shows within this many seconds.
LIST_REFRESH = 5.0
# Bursts of changes are published together, at most this often (seconds).
LIST_PACE = 0.25


def open_table_json(table: ListedTable) -> dict[str, Any] | None:
    """What the landing page shows of a listed lobby, or None once no seat is free."""
    free = sum(1 for name, _bot, _profile in table.seats if name is None)
    if free == 0:
        return None
    host = mark = None
    if table.host_seat is not None and 0 <= table.host_seat < len(table.seats):
        host = table.seats[table.host_seat][0]
        # The host's mark among the table's names (a host named like a bot level is marked).
        named = [Named(name or "", profile, bot) for name, bot, profile in table.seats]
        mark = marks(named)[table.host_seat]
    return {
        "table": table.code,
        "settings": table.settings,
        "seats": len(table.seats),
        "free": free,
        "bots": sum(1 for _name, bot, _profile in table.seats if bot),
        "host": host,
        "host_mark": mark,
    }


class OpenTables:
    """The ``open_tables`` request, and the ``open_tables`` pushes."""

    def __init__(
        self,
        live: LiveTables,
        store: TableStore,
        faults: FaultLog,
        listing_store: ListingStore,
        push: Callable[[str, Any, list[str]], Awaitable[None]],
        shared: bool,
    ) -> None:
        self.live = live
        self.store = store
        self.faults = faults
        self.listing_store = listing_store
        self.push = push
        self.shared = shared  # other processes change the list too: it is read again now and then
        # The sockets shown the open tables, and a change to them to publish.
        self.watchers: set[str] = set()
        self.list_changed = asyncio.Event()
        self._publisher: asyncio.Task[None] | None = None
        # The list last pushed to every watcher; None when a watcher may know another (it then gets
        # the next one, even if equal to this).
        self._list_sent: list[dict[str, Any]] | None = None

    def changed(self, before: Snapshot | None = None) -> None:
        """A table changed: if it was listed (as ``before`` shows), the watchers get the list again.
        Only ``list_table`` puts a table on the list, so a table that was not listed changes nothing."""
        if before is None or before.listed:
            self.list_changed.set()

    def close(self) -> None:
        if self._publisher is not None:
            self._publisher.cancel()

    async def _open_tables(self) -> list[dict[str, Any]]:
        listed = await self.store.read(self.listing_store.listed_lobbies, OPEN_TABLES_SHOWN)
        return [entry for entry in map(open_table_json, listed) if entry is not None]

    async def open_tables(self, sid: str, message: Any) -> dict[str, Any]:
        if message.watch:
            self.watchers.add(sid)
            self._list_sent = None  # its answer may be newer than what the others were sent
            self._start_publishing()
        else:
            self.watchers.discard(sid)
        try:
            tables = await self._open_tables()
        except StorageError as err:
            self.faults.failed("database", "open_tables_not_read", err, "the open tables could not be read")
            raise NotStored from None  # answered not_stored: ask again
        return {"tables": tables}

    def _start_publishing(self) -> None:
        if self._publisher is None or self._publisher.done():
            self._publisher = asyncio.get_running_loop().create_task(self._publish_forever())

    async def _publish_forever(self) -> None:
        while True:
            try:
                refresh = LIST_REFRESH if self.shared else None
                await asyncio.wait_for(self.list_changed.wait(), refresh)
            except TimeoutError:
                pass
            self.list_changed.clear()
            watchers = [sid for sid in self.watchers if sid in self.live.connections]
            self.watchers.intersection_update(watchers)
            if not watchers:
                self._list_sent = None
                continue
            try:
                tables = await self._open_tables()
            except StorageError as err:
                self.faults.failed(
                    "database", "open_tables_not_read", err, "the open tables could not be read"
                )
                continue
            except Exception:
                log.exception("publishing the open tables failed", extra={"event": "open_tables_failed"})
                continue
            if tables != self._list_sent:
                self._list_sent = tables
                await self.push("open_tables", {"tables": tables}, watchers)
            await asyncio.sleep(LIST_PACE)
