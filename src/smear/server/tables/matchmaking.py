"""Find a game: the ``find_game`` and ``take_bot_seat`` requests (docs/players.md, "Find a game").

``find_game`` is answered by the process the person is connected to. It looks among the matchmade
tables of the game asked for (:class:`~smear.server.tables.openings.Openings`), the closest in
rating and the surest to be finished first, and asks each in turn for a bot's seat with
``take_bot_seat``, which its owner answers (through :meth:`Sharing.handle`, so across processes as
any request). The owner refuses a table that holds someone who blocks the person or whom the person
blocks, as if it were full, so nobody learns of a block. With no seat found, a new matchmade table
is opened: the person, bots in the other seats, its match started at once.

A person who takes a bot's seat watches until the hand under way ends: the bot plays it, and the
seat is the person's from the next deal (:meth:`Table.deal_next_hand`). Matchmade tables have no
host, are timed (``Timing.matchmade_turn``) and never wait: a turn that times out, or the turn of a
person gone, is played by the bot, and a person who leaves gives the seat back to a bot at once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from smear.server.players.ratings import NEW_PLAYER
from smear.server.social.blocks import Blocks
from smear.server.social.talk import TableReach
from smear.server.storage.playerstore import PlayerStore
from smear.server.tables.live import TableStore
from smear.server.tables.openings import Game, Opening, Openings
from smear.server.tables.pacing import Pacing
from smear.server.tables.requests import TableRequests
from smear.server.tables.table import TableError, TableSettings
from smear.server.wire.protocol import ProfileProof

log = logging.getLogger("smear.server")

__all__ = ["Matchmaking"]

# How many tables one search asks for a seat before opening a new one.
TRIES: Final = 4
# How much a point of finishing rate counts against one of rating, choosing among tables.
FINISHING_WEIGHT: Final = 10.0
# A table that answers this is gone for good: its entry is dropped at once.
GONE: Final = frozenset({"no_such_table", "table_unavailable", "table_closed", "match_over"})

Ask = Callable[[str, str, list[Any]], Awaitable[dict[str, Any]]]


class Matchmaking:
    """The ``find_game`` and ``take_bot_seat`` requests."""

    def __init__(
        self,
        reach: TableReach,
        openings: Openings,
        requests: TableRequests,
        pacing: Pacing,
        store: TableStore,
        player_store: PlayerStore,
        blocks: Blocks,
        linked_profile: Callable[[ProfileProof | None], Awaitable[str | None]],
        ask: Ask,
        turn_seconds: int,
    ) -> None:
        self.reach = reach
        self.openings = openings
        self.requests = requests  # opens a new matchmade table, and seats a person
        self.pacing = pacing
        self.store = store
        self.player_store = player_store
        self.blocks = blocks
        self.linked_profile = linked_profile
        self.ask = ask  # a request answered at its table's owner (Sharing.handle)
        self.turn_seconds = turn_seconds  # each matchmade table's turn limit

    async def find_game(self, sid: str, message: Any) -> dict[str, Any]:
        settings = TableSettings(
            preset=message.preset,
            players=message.players,
            teams=message.teams,
            turn_timer=self.turn_seconds,
            matchmade=True,
        )
        settings.check()  # rules_refused before anything else
        profile = await self.linked_profile(message.profile)
        game = Game(settings.preset, settings.players, settings.teams)
        rating = await self._rating(profile, settings.preset)
        proof = None if message.profile is None else message.profile.model_dump()
        for opening in self._ranked(await self.openings.find(game), rating)[:TRIES]:
            args = {"table": opening.code, "name": message.name, "profile": proof}
            reply = await self.ask(sid, "take_bot_seat", [args])
            if reply.get("ok"):
                return {**{k: v for k, v in reply.items() if k != "ok"}, "matched": True}
            code = reply.get("error", {}).get("code")
            if code in GONE:
                await self.openings.forget(game, opening.code)
            elif code in ("banned", "rate_limited"):
                raise TableError(code)  # the same at any table: the person is told
        opened = await self.requests.open_table(sid, settings, message.name, message.profile)
        await self.openings.opened(opened["table"])
        log.info(
            "a matchmade table opened",
            extra={"event": "matchmade_opened", "table": opened["table"], "preset": settings.preset},
        )
        return {**opened, "matched": False}

    @staticmethod
    def _ranked(openings: list[Opening], rating: float) -> list[Opening]:
        """Closest in rating first, then whose people finish their matches, then the fullest."""

        def distance(opening: Opening) -> tuple[float, int]:
            apart = abs((opening.rating if opening.rating is not None else rating) - rating)
            finishing = opening.finishing if opening.finishing is not None else 1.0
            return apart + FINISHING_WEIGHT * (1.0 - finishing), opening.free

        return sorted(openings, key=distance)

    async def _rating(self, profile: str | None, preset: str) -> float:
        if profile is None:
            return NEW_PLAYER.shown
        ratings = await self.store.read(self.player_store.ratings_of, [profile], preset)
        return ratings.get(profile, NEW_PLAYER).shown

    async def take_bot_seat(self, sid: str, message: Any) -> dict[str, Any]:
        """Answered by the table's owner: a bot's seat for the asking person from the next hand."""
        profile = await self.linked_profile(message.profile)
        async with self.reach.at(message.table) as table:
            people = {seat.profile for seat in table.seats if seat.token_hash is not None and seat.profile}
            if profile is not None and people:
                pairs = await self.blocks.blocked_pairs(people | {profile})
                if any(profile in pair for pair in pairs):
                    raise TableError("table_full")  # never told apart from a full table
            seated = await self.requests.seat(sid, table, lambda t: t.take_bot_seat(message.name, profile))
            self.pacing.drive(table)
        await self.openings.written([table])
        log.info(
            "a bot's seat taken at a matchmade table",
            extra={"event": "bot_seat_taken", "table": table.code, "seat": seated["seat"]},
        )
        return seated
