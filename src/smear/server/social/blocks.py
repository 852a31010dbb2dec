"""Blocks between profiles as the tables see them: a blocked player's chat lines and reactions never
reach the blocker's sockets (docs/players.md, "Blocking").

Each chat line and reaction is filtered per recipient where it is sent (the table's owner): a socket
is its seat's profile, or, watching, the profile its page said it is (``hello``; with Redis, said at
the socket's own process and carried to the table's owner with its requests and when the table is
taken over). Who blocks a
speaker is read from the database once and kept a short while (:data:`KEPT_SECONDS`); a block made
or lifted forgets it at once here and, with Redis, at every process.

For matchmaking (issue 50's "find a game"), :meth:`Blocks.any_blocked` and
:meth:`Blocks.blocked_pairs` say whether profiles may be seated together.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import Any, Final

from smear.server.cluster.coordination import Cluster
from smear.server.storage.relationstore import RelationStore
from smear.server.tables.live import LiveTables, TableStore
from smear.server.tables.presence import Presence
from smear.server.tables.table import Table

__all__ = ["Blocks"]

KEPT_SECONDS: Final = 60.0  # a speaker's blockers are read again after this long


class Blocks:
    """Who blocks whom, kept a little per speaker, and the sockets a speaker's words may reach."""

    def __init__(
        self,
        live: LiveTables,
        store: TableStore,
        relations: RelationStore,
        cluster: Cluster | None,
        profile_of: Callable[[str], str | None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.live = live
        self.store = store
        self.relations = relations
        self.cluster = cluster
        self.profile_of = profile_of  # the profile a socket's page said it is (``hello``)
        self.clock = clock
        self.kept: dict[str, tuple[float, frozenset[str]]] = {}  # speaker -> (read at, its blockers)

    async def blockers_of(self, player: str) -> frozenset[str]:
        """The profiles that block ``player``."""
        now = self.clock()
        kept = self.kept.get(player)
        if kept is not None and now - kept[0] < KEPT_SECONDS:
            return kept[1]
        if len(self.kept) > 10_000:
            self.kept.clear()
        found = frozenset(await self.store.read(self.relations.blockers_of, player))
        self.kept[player] = (now, found)
        return found

    def changed(self, blocker: str, blocked: str) -> None:
        """A block was made or lifted: forget what was kept of it, here and at every process."""
        self.kept.pop(blocked, None)
        if self.cluster is not None:
            self.cluster.send_everyone({"kind": "blocks_changed", "player": blocked})

    async def on_cluster_message(self, message: dict[str, Any]) -> None:
        self.kept.pop(str(message["player"]), None)

    def recipient(self, table: Table, sid: str) -> str | None:
        """The profile socket ``sid`` stands for at ``table``: its seat's, else its page's."""
        connection = self.live.connections.get(sid)
        if connection is not None and connection.token_hash is not None:
            seat = Presence.seat_of_hash(table, connection.token_hash)
            if seat is not None and table.seats[seat].profile is not None:
                return table.seats[seat].profile
        return self.profile_of(sid)

    def speaker(self, table: Table, seat: int | None, sid: str) -> str | None:
        """The profile a line or reaction comes from: its seat's, else the spectator's page's."""
        if seat is not None:
            return table.seats[seat].profile
        return self.profile_of(sid)

    async def reaching(self, table: Table, speaker: str | None, sids: list[str]) -> list[str]:
        """Those of ``sids`` whose profile does not block ``speaker``."""
        if speaker is None:
            return sids
        blockers = await self.blockers_of(speaker)
        if not blockers:
            return sids
        return [sid for sid in sids if self.recipient(table, sid) not in blockers]

    async def visible_lines(
        self, table: Table, sid: str, lines: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """The chat lines (as sent) the reader at socket ``sid`` sees: not those of seats whose
        profile it blocks."""
        reader = self.recipient(table, sid)
        if reader is None:
            return lines
        hidden: set[int] = set()
        for seat_number, seat in enumerate(table.seats):
            if seat.profile is not None and reader in await self.blockers_of(seat.profile):
                hidden.add(seat_number)
        return [line for line in lines if line.get("seat") not in hidden]

    # --- for matchmaking ---------------------------------------------------------------------------

    async def blocked_pairs(self, players: Collection[str]) -> set[tuple[str, str]]:
        """Every ``(blocker, blocked)`` among ``players`` (read from the database)."""
        return await self.store.read(self.relations.blocked_pairs, list(players))

    async def any_blocked(self, players: Collection[str]) -> bool:
        """Whether any of ``players`` blocks another of them: they are not to be seated together."""
        return bool(await self.blocked_pairs(players))
