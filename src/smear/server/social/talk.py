"""What people at a table say to each other: reactions at any time, and the chat when no hand is
being played (:mod:`smear.server.social.chat` says who may write when).

Each is paced per seat (per socket for a spectator), so a second socket buys no more. A pace is
taken before anything is awaited, so requests sent at once cannot all spend one allowance, and given
back when what it paid for could not be stored. Chat lines are stored before they are acknowledged
and sent, and deleted once older than :data:`~smear.server.social.chat.CHAT_KEPT_SECONDS`; reactions are
only shown, never stored.

:class:`TalkPace` owns the paces (also of listing a table); :class:`Talk`
answers the requests, reaching tables through a :class:`TableReach`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from typing import Any, Protocol

from smear.server.faultlog import FaultLog
from smear.server.limits import Bucket
from smear.server.metrics import Metrics
from smear.server.social.blocks import Blocks
from smear.server.social.chat import CHAT_KEPT_SECONDS, ChatLine
from smear.server.storage.chatstore import ChatStore
from smear.server.storage.database import StorageError
from smear.server.tables.live import LiveTables, NotStored, Snapshot, TableStore
from smear.server.tables.presence import Presence
from smear.server.tables.table import Table, TableError
from smear.server.wire.protocol import ProtocolError


def pace_clock() -> float:
    """The clock of the pace (monotonic seconds); a test may stop it."""
    return time.monotonic()


# (tokens a second, burst) per kind of message. New profiles, transfer codes tried, reviews and
# replays have paces of their own, settings of the server (smear.server.players.profilepace, .background).
TALK_PACE = {
    "reaction": (0.5, 3.0),
    "chat": (1 / 3, 5.0),
    "listing": (1 / 30, 5.0),
}


class TableReach(Protocol):
    """How a request reaches its table (:meth:`smear.server.cluster.sharing.Sharing.at`)."""

    def at(self, code: str) -> AbstractAsyncContextManager[Table]: ...


class TalkPace:
    """The allowances of reactions, chat lines and listings, by (kind, table, seat or socket)."""

    def __init__(self, metrics: Metrics | None = None) -> None:
        self.metrics = metrics or Metrics()  # a refusal counted under its kind
        self.buckets: dict[tuple[str, str, str], Bucket] = {}

    def paced(self, kind: str, code: str, who: str) -> Bucket:
        """Refuse with ``rate_limited`` when ``who`` has sent too many of ``kind`` at table ``code``;
        else take one from its allowance, in the bucket returned."""
        now = pace_clock()
        rate, burst = TALK_PACE[kind]
        bucket = self.buckets.setdefault((kind, code, who), Bucket(rate, burst, now))
        if not bucket.take(now):
            self.metrics.rate_limited(kind)
            raise TableError("rate_limited")
        return bucket

    @contextmanager
    def paced_while(self, kind: str, code: str, who: str) -> Iterator[None]:
        """:meth:`paced`, for a block that stores what was paced: if it cannot (``not_stored``),
        nothing happened and the allowance is given back."""
        bucket = self.paced(kind, code, who)
        try:
            yield
        except (NotStored, StorageError):
            bucket.give_back()
            raise

    def forget_full(self) -> None:
        """Forget the pace of those who went quiet (their allowance is whole again)."""
        now = pace_clock()
        for key in [key for key, bucket in self.buckets.items() if bucket.full(now)]:
            del self.buckets[key]


class Talk:
    """The ``react``, ``chat``, ``chat_history``, ``chat_settings`` and ``mute`` requests."""

    def __init__(
        self,
        live: LiveTables,
        reach: TableReach,
        presence: Presence,
        store: TableStore,
        faults: FaultLog,
        chat_store: ChatStore,
        pace: TalkPace,
        clock: Callable[[], float],
        blocks: Blocks,
    ) -> None:
        self.live = live
        self.reach = reach
        self.presence = presence
        self.store = store
        self.faults = faults
        self.chat_store = chat_store
        self.pace = pace
        self.clock = clock
        self.blocks = blocks  # a blocked player's lines and reactions never reach the blocker

    def _following(self, sid: str, code: str) -> None:
        """Refuse a socket that does not follow table ``code`` (checked before the table is touched,
        so asking never brings back a table put to rest)."""
        connection = self.live.connections.get(sid)
        if connection is None or connection.table != code:
            raise TableError("not_following")

    async def _to_followers(self, table: Table, event: str, data: Any, speaker: str | None) -> None:
        sids = [
            sid
            for sid in self.live.followers.get(table.code, ())
            if (connection := self.live.connections.get(sid)) is not None and connection.table == table.code
        ]
        sids = await self.blocks.reaching(table, speaker, sids)
        if sids:
            await self.presence.push(event, data, sids)

    async def react(self, sid: str, message: Any) -> dict[str, Any]:
        async with self.reach.at(message.table) as table:
            seat = table.seat_of(message.token)
            self.pace.paced("reaction", table.code, f"seat {seat}")
            data = {"seat": seat, "reaction": message.reaction}
            await self._to_followers(table, "reaction", data, self.blocks.speaker(table, seat, sid))
        return {}

    async def chat(self, sid: str, message: Any) -> dict[str, Any]:
        if message.token is None:
            self._following(sid, message.table)
            if message.name is None:
                raise ProtocolError(
                    "invalid_message",
                    field="name",
                    problem="a spectator's line needs a name",
                    problem_code="missing",
                )
        async with self.reach.at(message.table) as table:
            seat: int | None = None
            profile: str | None = None  # stored with the line: the operator deletes by writer
            mark: str | None = None  # a spectator's name has no profile to mark it
            name, who = message.name, sid
            if message.token is not None:
                seat = table.seat_of(message.token)
                name, who = table.seats[seat].name or f"Seat {seat + 1}", f"seat {seat}"
                profile = table.seats[seat].profile
                mark = table.seat_marks()[seat]
            refusal = table.chat_refusal(seat)
            if refusal is not None:
                raise TableError(refusal)
            at = self.clock()
            with self.pace.paced_while("chat", table.code, who):
                try:
                    add = self.chat_store.add_chat_line
                    write = self.store.db(add, table.code, at, seat, name, message.text, profile, mark)
                    line_id = await write
                except Exception as err:
                    self.faults.failed(
                        "database",
                        "chat_not_stored",
                        err,
                        "table %s: a chat line was not stored",
                        table.code,
                        table=table.code,
                        seat=seat,
                    )
                    raise NotStored from None
            line = ChatLine(line_id, at, seat, name, message.text, mark)
            table.chat.lines.append(line)
            speaker = self.blocks.speaker(table, seat, sid)
            await self._to_followers(table, "chat", {"lines": [line.to_json()]}, speaker)
        return {"id": line_id}

    async def chat_history(self, sid: str, message: Any) -> dict[str, Any]:
        self._following(sid, message.table)
        async with self.reach.at(message.table) as table:
            self._following(sid, table.code)
            table.chat.forget_before(self.clock() - CHAT_KEPT_SECONDS)
            lines = await self.blocks.visible_lines(table, sid, table.chat.history_json())
            return {"lines": lines, "kept_hours": round(CHAT_KEPT_SECONDS / 3_600)}

    async def chat_settings(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._chat_change(
            message.table, lambda t: t.set_chat(message.token, message.on, message.spectators)
        )

    async def mute(self, sid: str, message: Any) -> dict[str, Any]:
        return await self._chat_change(
            message.table, lambda t: t.mute(message.token, message.seat, message.muted)
        )

    async def _chat_change(self, code: str, change: Callable[[Table], None]) -> dict[str, Any]:
        async with self.reach.at(code) as table:
            before = Snapshot.of(table)
            change(table)
            if table.version != before.version:
                on, spectators, muted = table.chat.controls
                write = self.store.db(self.chat_store.save_chat_controls, table.code, on, spectators, muted)
                await self.store.store_or_undo(table, before, write)
                await self.presence.broadcast(table)
            version = table.version
        return {"version": version}

    async def sweep(self) -> None:
        """Delete the chat lines kept long enough, and forget the pace of those who went quiet."""
        cutoff = self.clock() - CHAT_KEPT_SECONDS
        for table in self.live.tables.values():
            table.chat.forget_before(cutoff)
        await self.store.db(self.chat_store.forget_chat_before, cutoff)
        self.pace.forget_full()
