"""Open tables: a host may list its table so that anyone finds it on the landing page and takes a
free seat in one click. Tables are private (reached by their link only) unless listed.

The list is read from the database, so every process of a cluster shows the same one. A socket that
asks with ``watch`` gets it again whenever it changes: after a change at a table of this process at
once, and every :data:`LIST_REFRESH` seconds for changes made by other processes. An entry shows what
the lobby shows anyone who opens the table's link (settings, the host's name, how many seats are
free), never a token.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from smear.server.core import NotStored, Snapshot
from smear.server.liststore import ListedTable
from smear.server.storage import StorageError
from smear.server.tables import TableError
from smear.server.talk import Talk

log = logging.getLogger("smear.server")

# The most open tables a client is shown, the most recently listed first.
OPEN_TABLES_SHOWN = 50
# With several processes, a change made by another shows within this many seconds.
LIST_REFRESH = 5.0
# Bursts of changes are published together, at most this often (seconds).
LIST_PACE = 0.25


def open_table_json(table: ListedTable) -> dict[str, Any] | None:
    """What the landing page shows of a listed lobby, or None once no seat is free."""
    free = sum(1 for name, _bot in table.seats if name is None)
    if free == 0:
        return None
    host = None
    if table.host_seat is not None and 0 <= table.host_seat < len(table.seats):
        host = table.seats[table.host_seat][0]
    return {
        "table": table.code,
        "settings": table.settings,
        "seats": len(table.seats),
        "free": free,
        "bots": sum(1 for _name, bot in table.seats if bot),
        "host": host,
    }


class Listing(Talk):
    """The ``list_table`` and ``open_tables`` requests, and the ``open_tables`` pushes."""

    _publisher: asyncio.Task[None] | None = None
    # The list last pushed to every watcher; None when a watcher may know another (it then gets
    # the next one, even if equal to this).
    _list_sent: list[dict[str, Any]] | None = None

    def open_tables_changed(self, before: Snapshot | None = None) -> None:
        """A table changed: if it was listed (as ``before`` shows), the watchers get the list again.
        Only ``list_table`` puts a table on the list, so a table that was not listed changes nothing."""
        if before is None or before.listed:
            self.list_changed.set()

    async def _open_tables(self) -> list[dict[str, Any]]:
        listed = await self._read(self.storage.listed_lobbies, OPEN_TABLES_SHOWN)
        return [entry for entry in map(open_table_json, listed) if entry is not None]

    async def list_table(self, sid: str, message: Any) -> dict[str, Any]:
        async with self._at(message.table) as table:
            before = Snapshot.of(table)
            table.set_listed(message.token, message.listed)
            if table.version != before.version:
                try:  # paced per client address, however many tables and sockets it has
                    connection = self.connections.get(sid)
                    paced = self._paced("listing", "", connection.address if connection is not None else sid)
                except TableError:
                    before.restore(table)
                    raise
                write = self._db(self.storage.set_listed, table.code, table.listed, self.clock())
                try:
                    await self._store_or_undo(table, before, write)
                except NotStored:
                    paced.give_back()  # nothing was listed: it costs nothing
                    raise
                await self.broadcast(table)
                self.open_tables_changed()
            version = table.version
        return {"version": version}

    async def open_tables(self, sid: str, message: Any) -> dict[str, Any]:
        if message.watch:
            self.list_watchers.add(sid)
            self._list_sent = None  # its answer may be newer than what the others were sent
            self._start_publishing()
        else:
            self.list_watchers.discard(sid)
        try:
            tables = await self._open_tables()
        except StorageError as err:
            self.drops.warn("store", "the open tables could not be read (%s)", type(err).__name__)
            raise NotStored from None  # answered not_stored: ask again
        return {"tables": tables}

    def _start_publishing(self) -> None:
        if self._publisher is None or self._publisher.done():
            self._publisher = asyncio.get_running_loop().create_task(self._publish_forever())

    async def _publish_forever(self) -> None:
        while True:
            try:
                refresh = LIST_REFRESH if self.cluster is not None else None
                await asyncio.wait_for(self.list_changed.wait(), refresh)
            except TimeoutError:
                pass
            self.list_changed.clear()
            watchers = [sid for sid in self.list_watchers if sid in self.connections]
            self.list_watchers.intersection_update(watchers)
            if not watchers:
                self._list_sent = None
                continue
            try:
                tables = await self._open_tables()
            except StorageError as err:
                self.drops.warn("store", "the open tables could not be read (%s)", type(err).__name__)
                continue
            except Exception:
                log.exception("publishing the open tables failed")
                continue
            if tables != self._list_sent:
                self._list_sent = tables
                await self._push("open_tables", {"tables": tables}, watchers)
            await asyncio.sleep(LIST_PACE)
