"""The operator's orders (``smear admin``) carried out by a running server, and the bans it keeps.

``smear admin`` writes to the database only: each order (a table closed, chat lines deleted, the
bans changed) is a row of ``admin_orders``. Every server reads the orders after the last it saw
once a second (:data:`ORDERS_EVERY`), with or without Redis, so an order reaches every process
within about a second and a process that was down reads nothing stale (it starts after the newest).
The owner of a closed table tells its followers why (``table_closed``) and lets it go; it stays in
storage, put aside, so no process brings it back. The owner of a table whose chat lines were
deleted drops them from memory and tells its followers (``chat_removed``). Bans are kept in memory
and read again whenever they change; a banned profile or address is refused with ``banned``.

Each server notes its host and pid as it starts, and that it still runs every
:data:`~smear.server.storage.moderationstore.HEARTBEAT_EVERY` seconds (``smear admin tables`` shows
them beside the tables each owns, and calls a process silent for longer "stopped?").
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any, Final

import socketio  # type: ignore[import-untyped]

from smear.server.limits import client_address
from smear.server.storage import moderationstore
from smear.server.storage.moderationstore import (
    BANS_CHANGED,
    CHAT_DELETE,
    CLOSE,
    Ban,
    ModerationStore,
    Order,
    ServerProcess,
    banned_address,
)
from smear.server.tables.finishing import PendingFinishes
from smear.server.tables.live import LiveTables, TableStore
from smear.server.tables.pacing import Pacing
from smear.server.tables.presence import Presence
from smear.server.tables.table import TableError
from smear.server.wire.errorcodes import error_payload
from smear.server.wire.protocol import ProfileProof

__all__ = ["ORDERS_EVERY", "Moderation", "this_process"]

Connect = Callable[[str, dict[str, Any], Any], Awaitable[None]]
LinkedProfile = Callable[[ProfileProof | None], Awaitable[str | None]]

log = logging.getLogger("smear.server")

ORDERS_EVERY: Final = 1.0  # seconds between two reads of the operator's orders


def this_process(process: str, started_at: float) -> ServerProcess:
    """This process as ``smear admin tables`` shows it: ``process`` is its name in the cluster."""
    return ServerProcess(process, socket.gethostname(), os.getpid(), started_at)


class Moderation:
    """The bans in force here, and the operator's orders read and carried out.

    ``owns`` says whether a table in memory is this process's to serve (with Redis, its lease);
    ``disconnect`` closes a socket of this process (one at an address banned while it was open).
    """

    def __init__(
        self,
        live: LiveTables,
        store: TableStore,
        moderation_store: ModerationStore,
        finishes: PendingFinishes,
        presence: Presence,
        pacing: Pacing,
        clock: Callable[[], float],
        owns: Callable[[str], bool],
        disconnect: Callable[[str], Awaitable[None]],
    ) -> None:
        self.live = live
        self.store = store
        self.moderation_store = moderation_store
        self.finishes = finishes
        self.presence = presence
        self.pacing = pacing
        self.clock = clock
        self.owns = owns
        self.disconnect = disconnect
        self._last = 0  # the id of the last order carried out
        self._process: str | None = None  # this process's name, once started
        self._beaten = 0.0  # when this process last noted it runs
        self._bans: list[Ban] = []
        self._profiles: dict[str, float | None] = {}
        self._networks: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, float | None]] = []
        self._task: asyncio.Task[None] | None = None

    async def start(self, process: ServerProcess) -> None:
        """Note this process, read the bans, and read the orders from now on."""
        await self.store.db(self.moderation_store.note_process, process)
        self._process, self._beaten = process.process, process.started_at
        self._last = await self.store.read(self.moderation_store.last_order)
        await self._read_bans()
        self._task = asyncio.get_running_loop().create_task(self._follow_orders())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()

    # --- bans --------------------------------------------------------------------------------------

    def address_banned(self, address: str) -> bool:
        now = self.clock()
        networks = [network for network, until in self._networks if until is None or until > now]
        return bool(networks) and banned_address(address, networks)

    def profile_banned(self, profile: str | None) -> bool:
        if profile is None or profile not in self._profiles:
            return False
        until = self._profiles[profile]
        return until is None or until > self.clock()

    def refuse_banned(self, address: str | None, profile: str | None = None) -> None:
        """Refuses (``banned``) a banned address or profile."""
        if (address is not None and self.address_banned(address)) or self.profile_banned(profile):
            raise TableError("banned")

    def door(self, on_connect: Connect, trusted_proxies: tuple[str, ...]) -> Connect:
        """``on_connect``, refusing first a socket from a banned address."""

        async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
            if self.address_banned(client_address(environ, trusted_proxies)):
                refusal = error_payload("banned")
                raise socketio.exceptions.ConnectionRefusedError(refusal["message"], refusal)
            await on_connect(sid, environ, auth)

        return connect

    def checked(self, linked_profile: LinkedProfile) -> LinkedProfile:
        """``linked_profile``, refusing a banned profile."""

        async def linked(proof: ProfileProof | None) -> str | None:
            self.refuse_banned(None, None if proof is None else proof.player)
            return await linked_profile(proof)

        return linked

    async def _read_bans(self) -> None:
        bans = await self.store.read(self.moderation_store.bans, self.clock())
        self._profiles = {ban.target: ban.until for ban in bans if ban.kind == "profile"}
        self._networks = [
            (ipaddress.ip_network(ban.target, strict=False), ban.until)
            for ban in bans
            if ban.kind == "address"
        ]

    # --- orders -------------------------------------------------------------------------------------

    async def _follow_orders(self) -> None:
        failing = False
        while True:
            await asyncio.sleep(ORDERS_EVERY)
            try:
                await self.carry_out_orders()
                await self._heartbeat()
            except Exception as err:  # the database away for a moment: one line, then read again
                if not failing:
                    kind = type(err).__name__
                    log.warning(
                        "the operator's orders could not be read (%s); read again each second",
                        kind,
                        extra={"event": "orders_unread", "error": kind},
                    )
                failing = True
                continue
            failing = False

    async def _heartbeat(self) -> None:
        """Note that this process runs, if it has not for a while."""
        now = self.clock()
        if self._process is None or now - self._beaten < moderationstore.HEARTBEAT_EVERY:
            return
        await self.store.db(self.moderation_store.heartbeat, self._process, now)
        self._beaten = now

    async def carry_out_orders(self) -> None:
        """Carry out the orders given since the last read."""
        orders = await self.store.read(self.moderation_store.orders_after, self._last)
        if any(order.kind == BANS_CHANGED for order in orders):
            await self._read_bans()
            await self._disconnect_banned()
        for order in orders:
            if order.table_code is not None and order.kind in (CLOSE, CHAT_DELETE):
                await self._at_table(order)
            self._last = order.id

    async def _disconnect_banned(self) -> None:
        """Close this process's sockets at a banned address: they are refused as they come back."""
        for sid, connection in list(self.live.connections.items()):
            if connection.home is None and self.address_banned(connection.address):
                await self.disconnect(sid)

    async def _at_table(self, order: Order) -> None:
        code = order.table_code
        table = self.live.tables.get(code) if code is not None else None
        if table is None or not self.owns(table.code):
            return  # another process's table, or in storage only: the order is done there
        async with self.live.lock(table):
            if self.live.tables.get(table.code) is not table:
                return
            followers = list(self.live.followers.get(table.code, ()))
            if order.kind == CLOSE:
                if followers:
                    payload = error_payload("table_closed", note=str(order.detail.get("note", "")))
                    await self.presence.push("error", payload, followers)
                self.finishes.drop(table.code)
                self.pacing.free(table)
                log.warning(
                    "table %s closed by the operator",
                    table.code,
                    extra={"event": "table_closed", "table": table.code},
                )
                return
            removed = {int(line) for line in order.detail.get("lines", [])}
            table.chat.lines = type(table.chat.lines)(
                (line for line in table.chat.lines if line.id not in removed), maxlen=table.chat.lines.maxlen
            )
            if followers and removed:
                await self.presence.push("chat_removed", {"lines": sorted(removed)}, followers)
            log.info(
                "table %s: %d chat lines deleted by the operator",
                table.code,
                len(removed),
                extra={"event": "chat_deleted", "table": table.code, "lines": len(removed)},
            )
