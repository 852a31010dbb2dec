"""Players reporting another player for the operator (``smear admin reports`` reads them): at a
table (the ``report`` event) or from their history of finished matches
(``POST /api/players/{player}/reports``).

A report keeps the table, the match and the table's last chat lines. It is answered ``ok`` or
with a coded error, and says nothing either way about the one reported, who is never told. Reports
are paced per reporting profile and per client address (``ProfilePace.reporting``; in a cluster,
per process); an allowance is taken before the report is stored and given back if it could not be.
The log line of a report names its table and reason, never its text nor the chat.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Final, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.server.faultlog import FaultLog
from smear.server.limits import Limits, scope_address
from smear.server.players.api import HttpError, answering
from smear.server.players.profilepace import ProfilePace
from smear.server.social.chat import CHAT_KEPT_SECONDS
from smear.server.storage.database import StorageError
from smear.server.storage.reportstore import (
    REPORT_CHAT_KEPT_SECONDS,
    REPORT_CHAT_LINES,
    NewReport,
    PlayedSeat,
    ReportStore,
)
from smear.server.tables.live import LiveTables, NotStored, TableStore
from smear.server.tables.table import Table, TableError
from smear.server.wire.protocol import HistoryReport, ProfileProof, ProtocolError, parse_message

log = logging.getLogger("smear.server")

BODY_BYTES: Final = 8_192  # the largest body of a report from history


class TableReach(Protocol):
    """How a request reaches its table (:meth:`smear.server.cluster.sharing.Sharing.at`)."""

    def at(self, code: str) -> AbstractAsyncContextManager[Table]: ...


def _reported(seat: int, seats: list[tuple[str | None, bool]], reporter_seat: int | None) -> None:
    """Refuse a report of an empty seat, a bot or the reporter's own seat (by ``(name, is_bot)``)."""
    if not 0 <= seat < len(seats) or seats[seat][0] is None:
        raise TableError("no_such_seat", seat=seat)
    if seats[seat][1] or seat == reporter_seat:
        raise ProtocolError(
            "invalid_message",
            field="seat",
            problem="not another person's seat",
            problem_code="not_reportable",
        )


class Reports:
    """The ``report`` event and the history's report route, and the sweep of old reports' chat."""

    def __init__(
        self,
        live: LiveTables,
        reach: TableReach,
        store: TableStore,
        faults: FaultLog,
        report_store: ReportStore,
        pace: ProfilePace,
        limits: Limits,
        clock: Callable[[], float],
        linked_profile: Callable[[ProfileProof | None], Awaitable[str | None]],
        refuse_banned: Callable[[str | None, str | None], None],
    ) -> None:
        self.live = live
        self.reach = reach
        self.store = store
        self.faults = faults
        self.report_store = report_store
        self.pace = pace
        self.limits = limits
        self.clock = clock
        self.linked_profile = linked_profile  # a profile proven by its secret (else ``bad_profile``)
        self.refuse_banned = refuse_banned

    def _checked_text(self, text: str) -> str:
        if len(text) > self.limits.report_text:
            raise ProtocolError(
                "invalid_message",
                field="text",
                problem=f"a line has at most {self.limits.report_text} characters",
                problem_code="line_too_long",
            )
        return text

    async def report(self, sid: str, message: Any) -> dict[str, Any]:
        """``report`` from a seat (its token) or a spectator following the table."""
        connection = self.live.connections.get(sid)
        if connection is None or (message.token is None and connection.table != message.table):
            raise TableError("not_following")
        text = self._checked_text(message.text)
        async with self.reach.at(message.table) as table:
            reporter = None if message.token is None else table.seat_of(message.token)
            _reported(message.seat, [(s.name, s.is_bot) for s in table.seats], reporter)
            target = table.seats[message.seat]
            report = NewReport(
                at=self.clock(),
                reporter_profile=None if reporter is None else table.seats[reporter].profile,
                reporter_address=connection.address[:64],
                reported_profile=target.profile,
                reported_name=target.name or "",
                reported_seat=message.seat,
                table_code=table.code,
                match_number=table.match_number or None,
                match_id=None,
                reason=message.reason,
                text=text,
                chat=[line.to_json() for line in list(table.chat.lines)[-REPORT_CHAT_LINES:]],
            )
            # Taken under the table's lock before anything is awaited: requests sent at once each pay.
            with self.pace.reporting(report.reporter_profile, report.reporter_address):
                await self._stored(report)
        return {}

    async def _stored(self, report: NewReport) -> int:
        try:
            report_id = await self.store.db(self.report_store.add_report, report)
        except Exception as err:
            self.faults.failed(
                "database",
                "report_not_stored",
                err,
                "table %s: a report was not stored",
                report.table_code,
                table=report.table_code,
            )
            raise NotStored from None
        log.info(
            "report %d made at table %s (%s)",
            report_id,
            report.table_code,
            report.reason,
            extra={
                "event": "report_made",
                "report": report_id,
                "table": report.table_code,
                "reason": report.reason,
            },
        )
        return report_id

    # --- from history ----------------------------------------------------------------------------------

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/players/{player}/reports", answering(self.report_from_history), methods=["POST"])]

    async def report_from_history(self, request: Request) -> Response:
        """A profile (its secret as ``Authorization: Bearer``) reports a player of one of its
        finished matches; answered 201 ``{"ok": true}``."""
        address = scope_address(request.scope, self.limits.trusted_proxies)
        player = await self._proven(request, address)
        body = await request.body()
        if len(body) > BODY_BYTES:
            raise HttpError(413, "message_too_large", limit=BODY_BYTES)
        message = parse_message(HistoryReport, body)
        text = self._checked_text(message.text)
        seats: list[PlayedSeat] = await self.store.read(self.report_store.played_seats, message.match)
        mine = [index for index, seat in enumerate(seats) if seat.profile == player]
        if not mine:  # only a match of one's own history: another's is as if it did not exist
            raise HttpError(404, "no_such_match")
        _reported(message.seat, [(s.name or "?", s.is_bot) for s in seats], mine[0])
        target, now = seats[message.seat], self.clock()
        chat = await self.store.read(
            self.report_store.chat_until,
            target.table_code,
            target.finished_at,
            now - CHAT_KEPT_SECONDS,
        )
        report = NewReport(
            at=now,
            reporter_profile=player,
            reporter_address=address[:64],
            reported_profile=target.profile,
            reported_name=target.name,
            reported_seat=message.seat,
            table_code=target.table_code,
            match_number=target.match_number,
            match_id=message.match,
            reason=message.reason,
            text=text,
            chat=chat,
        )
        with self.pace.reporting(player, report.reporter_address):
            await self._stored(report)
        return JSONResponse({"ok": True}, status_code=201, headers={"Cache-Control": "no-store"})

    async def _proven(self, request: Request, address: str) -> str:
        """The path's profile, once the request holds one of its secrets (else 401 ``bad_secret``)."""
        player = str(request.path_params["player"])
        self.refuse_banned(address, player)
        scheme, _, secret = request.headers.get("authorization", "").partition(" ")
        try:
            proof = ProfileProof(player=player, secret=secret.strip())
            if scheme.lower() == "bearer" and await self.linked_profile(proof) == player:
                return player
        except (ValueError, TableError):
            pass
        raise HttpError(401, "bad_secret")

    async def sweep(self) -> None:
        """Empty the chat lines kept with reports older than their retention."""
        cutoff = self.clock() - REPORT_CHAT_KEPT_SECONDS
        try:
            await self.store.db(self.report_store.forget_chat_before, cutoff)
        except StorageError as err:
            self.faults.failed("database", "reports_not_swept", err, "the old reports' chat was not emptied")
