"""Friends and blocks over HTTP, each request proven by the profile's secret
(``Authorization: Bearer``) and paced per profile and address (``ProfilePace.relating``);
docs/players.md ("Friends", "Blocking") and docs/protocol.md.

Who may know what: a profile's friends list (and so whether a friend is online and the code of the
table a friend's page follows) is sent to that profile alone, and names only accepted friends. A
block ends any friendship or request between the two, and the blocked player is never told: a
request to the blocker is answered as any request not answered yet, an invitation to the blocker as
one to anyone who is not a friend, and the blocker is on nobody's list of the blocked player.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.server.limits import Limits, scope_address
from smear.server.players.api import HttpError, answering, read_body
from smear.server.players.profilepace import ProfilePace
from smear.server.social.blocks import Blocks
from smear.server.social.whereabouts import Whereabouts
from smear.server.storage.relationstore import RelationStore
from smear.server.tables.live import TableStore
from smear.server.wire.protocol import OtherPlayer, parse_message

__all__ = ["FriendsApi"]

_NO_STORE: Final = {"Cache-Control": "no-store"}
_BASE: Final = "/api/players/{player}"


def _people(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"player": player, "name": name} for player, name in pairs]


class FriendsApi:
    """The friends' and blocks' routes of a profile."""

    def __init__(
        self,
        store: TableStore,
        relations: RelationStore,
        pace: ProfilePace,
        limits: Limits,
        clock: Callable[[], float],
        proven: Callable[[Request], Awaitable[str]],
        whereabouts: Whereabouts,
        blocks: Blocks,
    ) -> None:
        self.store = store
        self.relations = relations
        self.pace = pace
        self.limits = limits
        self.clock = clock
        self.proven = proven  # the path's profile, once the request holds its secret (else 401)
        self.whereabouts = whereabouts
        self.blocks = blocks

    def routes(self) -> list[BaseRoute]:
        return [
            Route(f"{_BASE}/friends", answering(self.get_friends), methods=["GET"]),
            Route(f"{_BASE}/friends", answering(self.ask), methods=["POST"]),
            Route(f"{_BASE}/friends/{{other}}/accept", answering(self.accept), methods=["POST"]),
            Route(f"{_BASE}/friends/{{other}}/invite", answering(self.invite), methods=["POST"]),
            Route(f"{_BASE}/friends/{{other}}", answering(self.end), methods=["DELETE"]),
            Route(f"{_BASE}/blocks", answering(self.get_blocks), methods=["GET"]),
            Route(f"{_BASE}/blocks", answering(self.block), methods=["POST"]),
            Route(f"{_BASE}/blocks/{{other}}", answering(self.unblock), methods=["DELETE"]),
        ]

    async def _paced(self, request: Request) -> str:
        player = await self.proven(request)
        self.pace.relating(player, scope_address(request.scope, self.limits.trusted_proxies))
        return player

    async def _other(self, player: str, other: str) -> str:
        """The other profile's name: a person's profile, not ``player``'s own (else a coded error)."""
        try:
            other = OtherPlayer(player=other).player
        except ValueError:
            raise HttpError(404, "no_such_player") from None
        if other == player:
            raise HttpError(400, "not_yourself")
        name = await self.store.read(self.relations.person_name, other)
        if name is None:
            raise HttpError(404, "no_such_player")
        return name

    async def _body_player(self, request: Request) -> str:
        return parse_message(OtherPlayer, await read_body(request)).player

    # --- friends ---------------------------------------------------------------------------------

    async def get_friends(self, request: Request) -> Response:
        """The profile's friends (online, and the table one of their pages follows) and requests."""
        player = await self.proven(request)
        found = await self.store.read(self.relations.relations, player)
        places = await self.whereabouts.places([friend for friend, _ in found.friends])
        friends: list[dict[str, Any]] = [
            {"player": friend, "name": name, "online": places[friend].online, "table": places[friend].table}
            for friend, name in found.friends
        ]
        return JSONResponse(
            {"friends": friends, "incoming": _people(found.incoming), "outgoing": _people(found.outgoing)},
            headers=_NO_STORE,
        )

    async def ask(self, request: Request) -> Response:
        """Ask another profile to be friends (accepting its own request, if it made one)."""
        player = await self._paced(request)
        other = await self._body_player(request)
        name = await self._other(player, other)
        friends = await self.store.db(self.relations.ask, player, other, self.clock())
        self.blocks.changed(player, other)  # asking lifts a block of its own
        status = "friends" if friends else "asked"
        return JSONResponse({"player": other, "name": name, "status": status}, status_code=201)

    async def accept(self, request: Request) -> Response:
        player = await self._paced(request)
        other = str(request.path_params["other"])
        name = await self._other(player, other)
        if not await self.store.db(self.relations.accept, player, other):
            raise HttpError(404, "no_such_request")
        return JSONResponse({"player": other, "name": name, "status": "friends"})

    async def end(self, request: Request) -> Response:
        """Decline a request, take one's own back, or end a friendship."""
        player = await self._paced(request)
        other = str(request.path_params["other"])
        await self._other(player, other)
        await self.store.db(self.relations.end, player, other)
        return JSONResponse({"ok": True})

    async def invite(self, request: Request) -> Response:
        """Invite a friend to the table this profile's page follows: each of the friend's open
        pages is shown the invitation."""
        player = await self._paced(request)
        other = str(request.path_params["other"])
        await self._other(player, other)
        if not await self.store.read(self.relations.are_friends, player, other):
            raise HttpError(404, "no_such_friend")
        table = (await self.whereabouts.places([player]))[player].table
        if table is None:
            raise HttpError(409, "not_at_a_table")
        name = await self.store.read(self.relations.person_name, player)
        invitation = {"from": {"player": player, "name": name or ""}, "table": table}
        await self.whereabouts.invite(other, invitation)
        return JSONResponse({"ok": True})

    # --- blocks ----------------------------------------------------------------------------------

    async def get_blocks(self, request: Request) -> Response:
        player = await self.proven(request)
        found = await self.store.read(self.relations.relations, player)
        return JSONResponse({"blocked": _people(found.blocked)}, headers=_NO_STORE)

    async def block(self, request: Request) -> Response:
        """Block another profile: any friendship or request between the two ends; it is not told."""
        player = await self._paced(request)
        other = await self._body_player(request)
        name = await self._other(player, other)
        await self.store.db(self.relations.block, player, other, self.clock())
        self.blocks.changed(player, other)
        return JSONResponse({"player": other, "name": name}, status_code=201)

    async def unblock(self, request: Request) -> Response:
        player = await self._paced(request)
        other = str(request.path_params["other"])
        await self._other(player, other)
        await self.store.db(self.relations.unblock, player, other)
        self.blocks.changed(player, other)
        return JSONResponse({"ok": True})
