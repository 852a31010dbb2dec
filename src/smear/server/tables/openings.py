"""Where "find a game" looks for a seat: the matchmade tables with bots' seats a person may take.

Without Redis they are read from this process's live tables at each search. With Redis each process
also writes its own to one hash per game (``smear:openings:{preset}:{players}:{teams}``, a field per
table: how many seats are free, its people's mean rating and finishing rate, when written) every
second and at once after a change, so that a process finds the tables of every other. An entry is
only a hint: the table's owner decides when a person asks for the seat, and an entry not rewritten
for :data:`STALE_SECONDS` (its process stopped) is skipped until whoever takes the table over
writes it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from statistics import fmean
from typing import Final

import orjson
from redis.exceptions import RedisError

from smear.server.cluster.coordination import Cluster
from smear.server.faultlog import FaultLog
from smear.server.players.playerstats import finish_rate
from smear.server.tables.live import LiveTables
from smear.server.tables.table import Table

log = logging.getLogger("smear.server")

__all__ = ["Game", "Opening", "Openings"]

_KEY: Final = "smear:openings:"
# An entry not rewritten for this long belongs to a process that stopped: skipped, then deleted.
STALE_SECONDS: Final = 15.0
# How often a process rewrites its own entries (and drops those of tables with no seat left).
WRITE_EVERY: Final = 1.0


@dataclass(frozen=True)
class Game:
    """What a person asks to play: a preset, a player count, teams or not."""

    preset: str
    players: int
    teams: bool

    @property
    def key(self) -> str:
        return f"{_KEY}{self.preset}:{self.players}:{int(self.teams)}"

    @classmethod
    def of(cls, table: Table) -> Game:
        return cls(table.settings.preset, table.settings.players, table.settings.teams)


@dataclass(frozen=True)
class Opening:
    """A matchmade table where ``free`` bots' seats may be taken; its people's mean shown rating
    and finishing rate (None with no person rated yet)."""

    code: str
    free: int
    rating: float | None
    finishing: float | None
    at: float

    @classmethod
    def of(cls, table: Table, now: float) -> Opening:
        people = [seat for seat in table.seats if seat.token_hash is not None]
        ratings = [seat.rating for seat in people if seat.rating is not None]
        finishes = [finish_rate(*seat.finishes) for seat in people if seat.finishes is not None]
        return cls(
            table.code,
            table.bot_seats_free(),
            fmean(ratings) if ratings else None,
            fmean(finishes) if finishes else None,
            now,
        )

    def to_json(self) -> bytes:
        return orjson.dumps([self.free, self.rating, self.finishing, self.at])

    @classmethod
    def from_json(cls, code: str, text: str) -> Opening | None:
        try:
            free, rating, finishing, at = orjson.loads(text)
            return cls(code, int(free), rating, finishing, float(at))
        except (ValueError, TypeError):
            return None  # not ours to read: skipped


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Openings:
    """The matchmade tables with seats to take: this process's, and with Redis every process's."""

    def __init__(
        self, live: LiveTables, cluster: Cluster | None, faults: FaultLog, clock: Callable[[], float]
    ) -> None:
        self.live = live
        self.cluster = cluster
        self.faults = faults  # Redis failing: logged once, then counted
        self.clock = clock
        self._written: dict[str, Game] = {}  # this process's tables in Redis, by code
        self._writer: asyncio.Task[None] | None = None

    def here(self, game: Game) -> list[Opening]:
        now = self.clock()
        return [
            Opening.of(table, now)
            for table in list(self.live.tables.values())
            if table.settings.matchmade and Game.of(table) == game and table.bot_seats_free()
        ]

    async def find(self, game: Game) -> list[Opening]:
        """Every table of ``game`` with a seat to take, as last known (this process's as they are)."""
        found = {opening.code: opening for opening in await self._elsewhere(game)}
        found.update((opening.code, opening) for opening in self.here(game))
        return [opening for opening in found.values() if opening.free > 0]

    async def _elsewhere(self, game: Game) -> list[Opening]:
        if self.cluster is None:
            return []
        try:
            entries = await self.cluster.redis.hgetall(game.key)
        except RedisError as err:  # matched among this process's tables alone meanwhile
            self.faults.failed("redis", "openings_not_read", err, "the open seats were not read")
            return []
        now = self.clock()
        found, stale = [], []
        for field, text in entries.items():
            opening = Opening.from_json(_text(field), _text(text))
            if opening is None or now - opening.at > STALE_SECONDS:
                stale.append(field)
            else:
                found.append(opening)
        if stale:
            with contextlib.suppress(RedisError):
                await self.cluster.redis.hdel(game.key, *stale)
        return found

    async def forget(self, game: Game, code: str) -> None:
        """Drop the entry of a table that is gone (its owner would have, had it not stopped)."""
        if self.cluster is not None:
            with contextlib.suppress(RedisError):
                await self.cluster.redis.hdel(game.key, code)

    async def written(self, tables: Iterable[Table] | None = None) -> None:
        """:meth:`write`, a Redis fault logged (the next round writes again)."""
        try:
            await self.write(tables)
        except RedisError as err:
            assert self.cluster is not None
            self.faults.failed("redis", "openings_not_written", err, "open seats not written")

    async def opened(self, code: str) -> None:
        """A table just opened here (:meth:`written` for it alone)."""
        await self.written([self.live.tables[code]])

    async def write(self, tables: Iterable[Table] | None = None) -> None:
        """Rewrite this process's entries (``tables``' alone if given), and delete those of its
        tables with no seat left, finished or gone."""
        if self.cluster is None:
            return
        now = self.clock()
        chosen = list(self.live.tables.values()) if tables is None else list(tables)
        kept = [table for table in chosen if table.settings.matchmade]
        gone = [] if tables is not None else [code for code in self._written if code not in self.live.tables]
        async with self.cluster.redis.pipeline(transaction=False) as pipe:
            for table in kept:
                game, opening = Game.of(table), Opening.of(table, now)
                if opening.free and table.code in self.cluster.owned:
                    pipe.hset(game.key, table.code, opening.to_json())
                    self._written[table.code] = game
                elif table.code in self._written:
                    pipe.hdel(self._written.pop(table.code).key, table.code)
            for code in gone:
                pipe.hdel(self._written.pop(code).key, code)
            await pipe.execute()

    def start(self) -> None:
        if self.cluster is not None:
            self._writer = asyncio.get_running_loop().create_task(self._write_forever())

    def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()

    async def _write_forever(self) -> None:
        while True:
            await asyncio.sleep(WRITE_EVERY)
            await self.written()
