"""Which profiles have a page open, and at which table: for their friends' lists, and to bring
them a friend's invitation (docs/players.md, "Friends").

A page says whose it is with ``hello`` (the profile and its secret); from then on its socket counts
the profile as online, and the table that socket follows (seated or watching) is where the profile
is. A socket that closes stops counting at once (the sockets are read from
:class:`~smear.server.tables.live.LiveTables` each time). With Redis, each process writes where its
profiles are under a key that expires unless renewed every lease (``smear:online:{profile}``), so
any process can say where a friend is; an invitation goes to every process, and each gives it to its
own sockets of that profile.

Nothing here is sent to anyone: :class:`smear.server.social.friends.FriendsApi` decides who may know.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from redis.exceptions import RedisError

from smear.server.cluster.coordination import Cluster
from smear.server.faultlog import FaultLog
from smear.server.tables.live import LiveTables
from smear.server.tables.presence import Sender
from smear.server.wire.protocol import ProfileProof

log = logging.getLogger("smear.server")

__all__ = ["Place", "Whereabouts"]

_KEY: Final = "smear:online:"


@dataclass(frozen=True)
class Place:
    """Whether a profile has a page open, and the table one of its pages follows (or None)."""

    online: bool
    table: str | None = None


AWAY: Final = Place(False)


class Whereabouts:
    """The ``hello`` event, the profiles of this process's sockets, and where any profile is."""

    def __init__(
        self,
        live: LiveTables,
        cluster: Cluster | None,
        faults: FaultLog,
        sender: Sender,
        linked_profile: Callable[[ProfileProof | None], Awaitable[str | None]],
        lease: float,
    ) -> None:
        self.live = live
        self.cluster = cluster
        self.faults = faults  # Redis failing: logged once, then counted
        self.sender = sender
        self.linked_profile = linked_profile  # a profile proven by its secret (else ``bad_profile``)
        self.lease = lease
        self.profiles: dict[str, str] = {}  # socket id -> the profile whose page it is
        self._refresher: asyncio.Task[None] | None = None

    async def hello(self, sid: str, message: Any) -> dict[str, Any]:
        """``hello``: the socket ``sid`` is the page of the profile it proves."""
        player = await self.linked_profile(message.profile)
        if player is not None and sid in self.live.connections:
            self.profiles[sid] = player
            self.live.connections[sid].page = player  # carried to the owner of a table it follows
            if self.cluster is not None:
                with contextlib.suppress(RedisError):
                    await self._publish({player: self._here(player)})
        return {}

    def profile_of(self, sid: str) -> str | None:
        """The profile whose page socket ``sid`` is, if it said so: a socket of this process, or of
        another that follows a table of this one (its process sends it with each request)."""
        connection = self.live.connections.get(sid)
        return None if connection is None else connection.page

    def sockets_of(self, player: str) -> list[str]:
        """This process's open sockets of ``player``."""
        self._forget_closed()
        return [sid for sid, profile in self.profiles.items() if profile == player]

    def _forget_closed(self) -> None:
        for sid in [sid for sid in self.profiles if sid not in self.live.connections]:
            del self.profiles[sid]

    def _here(self, player: str) -> Place:
        """Where ``player`` is by this process's sockets alone."""
        sids = self.sockets_of(player)
        if not sids:
            return AWAY
        tables = sorted(t for sid in sids if (t := self.live.connections[sid].table) is not None)
        return Place(True, tables[0] if tables else None)

    async def places(self, players: list[str]) -> dict[str, Place]:
        """Where each of ``players`` is (online, and the table one of its pages follows)."""
        here = {player: self._here(player) for player in players}
        if self.cluster is None or not players:
            return here
        found = await self.cluster.redis.mget([_KEY + player for player in players])
        for player, value in zip(players, found, strict=True):
            if value is not None and not here[player].online:
                text = value.decode() if isinstance(value, bytes) else str(value)
                here[player] = Place(True, text or None)
        return here

    # --- invitations ---------------------------------------------------------------------------

    async def invite(self, player: str, invitation: dict[str, Any]) -> None:
        """Bring ``invitation`` to every open page of ``player``, on whichever process it is."""
        if self.cluster is None:
            await self.deliver(player, invitation)
        else:
            self.cluster.send_everyone({"kind": "invitation", "to": player, "invitation": invitation})

    async def deliver(self, player: str, invitation: dict[str, Any]) -> None:
        sids = self.sockets_of(player)
        if sids:
            await self.sender.send("invitation", invitation, sids)

    async def on_cluster_message(self, message: dict[str, Any]) -> None:
        """An invitation sent by any process (this one included)."""
        await self.deliver(str(message["to"]), dict(message["invitation"]))

    # --- the places kept in Redis --------------------------------------------------------------

    def start(self) -> None:
        if self.cluster is not None:
            self._refresher = asyncio.get_running_loop().create_task(self._refresh_forever())

    def close(self) -> None:
        if self._refresher is not None:
            self._refresher.cancel()

    async def _publish(self, places: dict[str, Place]) -> None:
        assert self.cluster is not None
        async with self.cluster.redis.pipeline(transaction=False) as pipe:
            for player, place in places.items():
                if place.online:
                    pipe.set(_KEY + player, place.table or "", px=int(self.lease * 3_000))
            await pipe.execute()

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease)
            try:
                self._forget_closed()
                await self._publish({player: self._here(player) for player in set(self.profiles.values())})
            except RedisError as err:
                assert self.cluster is not None
                self.faults.failed("redis", "places_not_kept", err, "the profiles' places were not kept")
