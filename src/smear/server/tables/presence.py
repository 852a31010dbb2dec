"""Who is at each table, and what each of them is sent: a seat its own view, a spectator the public
state, every batch in version order (the caller holds the table's lock).

:class:`Presence` reads and writes who follows what in the :class:`~smear.server.tables.live.LiveTables`,
and sends through the Socket.IO server (a :class:`Sender`), or, with Redis, through the process that
holds a socket (:mod:`smear.server.cluster.coordination`).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

import orjson

from smear.server.cluster.coordination import Cluster
from smear.server.limits import Timing
from smear.server.social.chat import chat_seen_by, event_seen_by
from smear.server.tables.live import Connection, LiveTables
from smear.server.tables.table import Table
from smear.server.wire.protocol import Encoded, public_text, view_text
from smear.views import player_view


class Sender(Protocol):
    """Sends one message to sockets of this process (the Socket.IO server)."""

    async def send(self, event: str, data: Any, sids: list[str]) -> None: ...


class Presence:
    """Following tables, being connected to them, and sending them their states."""

    def __init__(self, live: LiveTables, timing: Timing, cluster: Cluster | None, sender: Sender) -> None:
        self.live = live
        self.timing = timing
        self.cluster = cluster
        self.sender = sender

    def follow(self, sid: str, table: Table, token_hash: str | None) -> None:
        connection = self.live.connections.get(sid)
        if connection is None:  # the socket closed while its request was being answered
            return
        self.unfollow(sid, connection)
        connection.table = table.code
        connection.token_hash = token_hash
        self.live.followers.setdefault(table.code, set()).add(sid)
        if token_hash is not None:
            self.present(table)

    def unfollow(self, sid: str, connection: Connection) -> None:
        if connection.table is None:
            return
        followers = self.live.followers.get(connection.table)
        if followers is not None:
            followers.discard(sid)
            if not followers:
                del self.live.followers[connection.table]
        connection.table = None

    @staticmethod
    def seat_of_hash(table: Table, token_hash: str) -> int | None:
        for index, seat in enumerate(table.seats):
            if seat.token_hash == token_hash:
                return index
        return None

    def connected(self, table: Table, seat: int, hashes: set[str] | None = None) -> bool:
        """Whether the person in ``seat`` is connected (``hashes``: the table's connected seat
        tokens, when the caller has them already)."""
        token_hash = table.seats[seat].token_hash
        if token_hash is None:
            return False
        return token_hash in (self.connected_hashes(table) if hashes is None else hashes)

    def connected_hashes(self, table: Table) -> set[str]:
        """The seat tokens (hashed) of the table's connected followers."""
        hashes = set()
        for sid in self.live.followers.get(table.code, ()):
            connection = self.live.connections.get(sid)
            if connection is not None and connection.token_hash is not None:
                hashes.add(connection.token_hash)
        return hashes

    def people_here(self, table: Table, hashes: set[str] | None = None) -> bool:
        """Whether a person holding a seat is connected (``hashes`` as for :meth:`connected`)."""
        if hashes is None:
            hashes = self.connected_hashes(table)
        return any(seat.is_person and self.connected(table, i, hashes) for i, seat in enumerate(table.seats))

    def may_move(self, table: Table, hashes: set[str] | None = None) -> bool:
        """The server plays at a table only while someone is there to see it: a seated person, or,
        at a table every person has left, anyone watching."""
        if any(seat.is_person for seat in table.seats):
            return self.people_here(table, hashes)
        return bool(self.live.followers.get(table.code))

    def present(self, table: Table) -> None:
        """A person is at the table: it is no longer idle (storage hears of it at the next sweep)."""
        since = self.live.idle_since.pop(table.code, None)
        if since is not None and since[1]:
            self.live.idle_since[table.code] = (-1.0, True)  # the stored idleness is to be cleared

    def turn_deadline(self, table: Table, hashes: set[str] | None = None) -> float | None:
        """When the turn timer runs out for the seat to act (a connected person), else None.

        The first caller for a version starts its clock, so the countdown sent with the state and
        the timer that plays for the seat agree.
        """
        if not table.settings.turn_timer or table.status != "playing" or table.state is None:
            return None
        seat = table.state.public.to_act
        if seat is None or table.seats[seat].is_bot or not self.connected(table, seat, hashes):
            return None
        timed = self.live.turn_deadlines.get(table.code)
        if timed is None or timed[0] != table.version:
            timed = self.live.turn_deadlines[table.code] = (
                table.version,
                time.monotonic() + table.settings.turn_timer,
            )
        return timed[1]

    def state_payload(
        self, table: Table, seat: int | None, resync: bool = False, event: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The ``state`` message for ``seat`` (a spectator's for None), with the ``event`` that made
        its version when this state is the first to show it; its game is already encoded."""
        return self.state_for(table, self.state_common(table), seat, resync, event)

    def state_common(self, table: Table) -> dict[str, Any]:
        """What every follower's ``state`` of this version shares (its lobby's ``you`` aside)."""
        lobby = table.lobby_json(None)
        hashes = self.connected_hashes(table)
        for index, entry in enumerate(lobby["seats"]):
            entry["connected"] = table.seats[index].is_bot or self.connected(table, index, hashes)
        # With no person connected the server plays for nobody (see may_move): no bot is coming.
        people = any(s.is_person and e["connected"] for s, e in zip(table.seats, lobby["seats"], strict=True))
        now = time.monotonic()
        for index, entry in enumerate(lobby["seats"]):
            away = people and not entry["connected"]
            entry["bot_in_ms"] = self.bot_in_ms(table, index, now) if away else None
        deadline = self.turn_deadline(table, hashes)
        turn_left_ms = None if deadline is None else max(0, round((deadline - time.monotonic()) * 1000))
        return {"table": lobby, "turn_left_ms": turn_left_ms}

    def bot_in_ms(self, table: Table, seat: int, now: float) -> int | None:
        """During a match, for the seat of a person who is not connected: the milliseconds before the
        server plays for it (0 once it does), else None."""
        if table.status != "playing" or not table.seats[seat].is_person:
            return None
        return max(0, round((self.plays_for_at(table, seat, now) - now) * 1000))

    def plays_for_at(self, table: Table, seat: int, now: float) -> float:
        """When (monotonic clock) the server plays for the seat of a person not connected.

        A person seen leaving waits out the grace: none at a matchmade table, which never waits for
        anyone (the seat stays the person's to resume). A seat not seen connected since the table came
        to this process (a restart, a take-over) starts its wait at the first call, so what the state
        says and when drive() plays agree; its person was cut off rather than gone, so a matchmade
        table gives them its turn limit.
        """
        gone, cut_off = self.live.disconnected_at.setdefault((table.code, seat), (now, True))
        if not table.settings.matchmade:
            return gone + self.timing.grace
        return gone + (self.timing.matchmade_turn if cut_off else 0.0)

    @staticmethod
    def state_for(
        table: Table, common: dict[str, Any], seat: int | None, resync: bool, event: dict[str, Any] | None
    ) -> dict[str, Any]:
        arriving = seat if seat is not None and table.seats[seat].arriving else None
        seat = table.view_seat(seat)  # a person arriving at the next hand watches until then
        game: Encoded | None = None
        if table.state is not None:
            if seat is None:
                game = public_text(table.state.public)
            else:
                game = view_text(player_view(table.state, seat))
        chat = chat_seen_by(common["table"]["chat"], you=seat, host=table.host_seat)
        return {
            "version": table.version,
            "table": common["table"] | {"you": seat, "you_arrive": arriving, "chat": chat},
            "game": game,
            "resync": resync,
            "turn_left_ms": common["turn_left_ms"],
            "event": event_seen_by(event, you=seat, host=table.host_seat),
        }

    async def send(self, messages: list[tuple[str, Any, str]]) -> None:
        """Send ``(event, data, sid)`` messages, in order (the caller holds the table's lock)."""
        for name, data, sid in messages:
            await self.push(name, data, [sid])

    async def push(self, event: str, data: Any, sids: list[str]) -> None:
        """Send one message to each of ``sids``: this process's sockets directly, another process's
        through it (encoded once for each such process)."""
        if self.cluster is None:
            await self.sender.send(event, data, sids)
            return
        here: list[str] = []
        elsewhere: dict[str, list[str]] = {}
        for sid in sids:
            connection = self.live.connections.get(sid)
            home = None if connection is None else connection.home
            if home is None:
                here.append(sid)
            else:
                elsewhere.setdefault(home, []).append(sid)
        if here:
            await self.sender.send(event, data, here)
        if elsewhere:
            text = orjson.dumps(data).decode()
            for home, group in elsewhere.items():
                self.cluster.send(home, {"kind": "push", "event": event, "data": text, "sids": group})

    async def send_state(self, sid: str, table: Table, resync: bool = False) -> None:
        connection = self.live.connections.get(sid)
        seat = None
        if connection is not None and connection.token_hash is not None:
            seat = self.seat_of_hash(table, connection.token_hash)
        await self.send([("state", self.state_payload(table, seat, resync), sid)])

    async def broadcast(self, table: Table, *, with_event: bool = True, skip: str | None = None) -> None:
        """Send each follower (but ``skip``) its own state, carrying the latest event.

        A connection lost or resumed changes no version, so its states carry no event
        (``with_event=False``): an event is sent once per version. Each message is encoded once for
        all who get the same (every spectator shares one state). The event rides in the state rather
        than in a message of its own: one frame per socket and change, not two.
        """
        event = table.events[-1][1] if table.events and with_event else None
        by_seat: dict[int | None, list[str]] = {}
        for sid in self.live.followers.get(table.code, ()):
            connection = self.live.connections.get(sid)
            if connection is None or connection.table != table.code or sid == skip:
                continue
            seat = None
            if connection.token_hash is not None:
                seat = self.seat_of_hash(table, connection.token_hash)
            by_seat.setdefault(seat, []).append(sid)
        if not by_seat:
            return
        common = self.state_common(table)
        for seat, sids in by_seat.items():
            await self.push("state", self.state_for(table, common, seat, False, event), sids)
