"""The operator's tools in the database (``smear admin``): every action in the audit, the bans, the
orders the running servers carry out, the server processes, and the exports. A part of
:class:`smear.server.storage.database.Storage` (its ``moderation``), as the chat is.

Each operator's action and its audit row are written in one transaction: an action is never done
without its row, nor noted without being done.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.orm import Session

from smear.server.storage.schema import (
    AdminOrderModel,
    AuditModel,
    BanModel,
    ChatLineModel,
    PlayedMatchModel,
    PlayerModel,
    ProfileModel,
    QuarantineModel,
    RatingModel,
    ServerProcessModel,
    TableModel,
)
from smear.server.storage.transactions import Transactions

__all__ = [
    "CLOSED",
    "HEARTBEAT_EVERY",
    "STOPPED_AFTER",
    "Audit",
    "Ban",
    "ModerationStore",
    "Order",
    "ServerProcess",
    "banned_address",
]

# A running server notes it runs this often; ``smear admin tables`` calls one silent for longer than
# STOPPED_AFTER "stopped?" (stopped, or cut off from the database).
HEARTBEAT_EVERY: Final = 15.0
STOPPED_AFTER: Final = 4 * HEARTBEAT_EVERY
CLOSED: Final = "closed"  # the quarantine's reason for a table the operator closed
OPERATOR: Final = "operator"  # and its error's type
# The kinds of orders the servers carry out.
CLOSE: Final = "close"
CHAT_DELETE: Final = "chat_delete"
BANS_CHANGED: Final = "bans"


@dataclass(frozen=True)
class Audit:
    """Who did what, when, to what and why: one row of the audit."""

    at: float
    command: str
    target: str
    note: str
    by: str


@dataclass(frozen=True)
class Ban:
    """A profile (``kind`` ``profile``, ``target`` its id) or an address (``address``, ``target`` a
    network such as ``203.0.113.7/32``) kept out from ``since`` until ``until`` (None: no end)."""

    kind: str
    target: str
    since: float
    until: float | None
    reason: str


@dataclass(frozen=True)
class Order:
    """An order for the running servers: ``kind`` is ``close``, ``chat_delete`` or ``bans``."""

    id: int
    kind: str
    table_code: str | None
    detail: dict[str, Any]


@dataclass(frozen=True)
class ServerProcess:
    """A server process as it noted itself when it started, and when it last said it runs."""

    process: str
    host: str
    pid: int
    started_at: float
    seen_at: float | None = None

    def silent_for(self, now: float) -> float:
        """Seconds since it last said it runs."""
        return now - (self.started_at if self.seen_at is None else self.seen_at)


def banned_address(address: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    """Whether ``address`` (a client's IP) is in one of ``networks``; an unreadable one is not."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip.version == network.version and ip in network for network in networks)


class ModerationStore:
    """The operator's reads and writes; each method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    # --- the audit --------------------------------------------------------------------------------

    def audit(self, limit: int) -> list[Audit]:
        """The newest ``limit`` actions of the audit, the newest first."""
        with self._transactions.read("read the audit") as session:
            rows = session.scalars(select(AuditModel).order_by(AuditModel.id.desc()).limit(limit))
            return [Audit(r.at, r.command, r.target, r.note, r.by) for r in rows]

    @staticmethod
    def _note(session: Session, audit: Audit) -> None:
        session.add(
            AuditModel(at=audit.at, command=audit.command, target=audit.target, note=audit.note, by=audit.by)
        )

    @staticmethod
    def _order(session: Session, at: float, kind: str, code: str | None, detail: dict[str, Any]) -> None:
        session.add(AdminOrderModel(at=at, kind=kind, table_code=code, detail=detail))

    # --- bans -------------------------------------------------------------------------------------

    def ban(self, kind: str, target: str, until: float | None, audit: Audit) -> None:
        """Keeps ``target`` out (a ban already there gets the new end and reason)."""
        with self._transactions.write(f"ban a {kind}") as session:
            session.execute(delete(BanModel).where(BanModel.kind == kind, BanModel.target == target))
            session.add(BanModel(kind=kind, target=target, since=audit.at, until=until, reason=audit.note))
            self._note(session, audit)
            self._order(session, audit.at, BANS_CHANGED, None, {})

    def unban(self, kind: str, target: str, audit: Audit) -> bool:
        """Lets ``target`` in again; says whether it was banned (only then is it noted)."""
        with self._transactions.write(f"unban a {kind}") as session:
            result = session.execute(delete(BanModel).where(BanModel.kind == kind, BanModel.target == target))
            if not getattr(result, "rowcount", 0):
                return False
            self._note(session, audit)
            self._order(session, audit.at, BANS_CHANGED, None, {})
        return True

    def bans(self, now: float) -> list[Ban]:
        """The bans in force at ``now``, the oldest first."""
        with self._transactions.read("read the bans") as session:
            rows = session.scalars(
                select(BanModel)
                .where(or_(BanModel.until.is_(None), BanModel.until > now))
                .order_by(BanModel.since, BanModel.id)
            )
            return [Ban(r.kind, r.target, r.since, r.until, r.reason) for r in rows]

    def profile_ids(self, id_or_name: str) -> list[str]:
        """The profile whose id is ``id_or_name``, else every person's profile of that name."""
        with self._transactions.read("find a profile") as session:
            if session.get(ProfileModel, id_or_name) is not None:
                return [id_or_name]
            return list(
                session.scalars(
                    select(ProfileModel.id)
                    .where(ProfileModel.name == id_or_name, ProfileModel.is_bot.is_(False))
                    .order_by(ProfileModel.created_at)
                )
            )

    # --- tables -------------------------------------------------------------------------------------

    def close_table(self, code: str, audit: Audit) -> bool:
        """Puts table ``code`` aside as closed (its match is kept; no start brings it back) and orders
        its owner to tell its people; says whether there is such a table."""
        with self._transactions.write(f"close table {code!r}") as session:
            if session.get(TableModel, code) is None:
                return False
            session.merge(QuarantineModel(table_code=code, reason=CLOSED, error=OPERATOR, since=audit.at))
            self._note(session, audit)
            self._order(session, audit.at, CLOSE, code, {"note": audit.note})
        return True

    def closing_note(self, code: str) -> str | None:
        """The reason given when table ``code`` was closed, if it is put aside as closed (None if it
        is not, or is put aside for another cause)."""
        with self._transactions.read(f"read why table {code!r} was closed") as session:
            aside = session.get(QuarantineModel, code)
            if aside is None or aside.reason != CLOSED:
                return None
            detail = session.scalar(
                select(AdminOrderModel.detail)
                .where(AdminOrderModel.table_code == code, AdminOrderModel.kind == CLOSE)
                .order_by(AdminOrderModel.id.desc())
                .limit(1)
            )
            return str((detail or {}).get("note", ""))

    def delete_chat(self, code: str, profile: str | None, line: int | None, audit: Audit) -> list[int] | None:
        """Deletes table ``code``'s chat lines (those ``profile`` wrote, from whichever seat, or line
        ``line``, or all); returns their ids, or None if there is no such table. A line stored before
        lines noted their writer has none: ``profile`` does not reach it. A ``line`` not found
        (deleted already, or another table's) changes nothing and is not noted."""
        with self._transactions.write(f"delete chat lines of table {code!r}") as session:
            if session.get(TableModel, code) is None:
                return None
            which = [ChatLineModel.table_code == code]
            if profile is not None:
                which.append(ChatLineModel.profile_id == profile)
            if line is not None:
                which.append(ChatLineModel.id == line)
            ids = list(session.scalars(select(ChatLineModel.id).where(*which).order_by(ChatLineModel.id)))
            if line is not None and not ids:
                return ids
            if ids:
                session.execute(delete(ChatLineModel).where(ChatLineModel.id.in_(ids)))
            self._note(session, audit)
            self._order(session, audit.at, CHAT_DELETE, code, {"lines": ids})
            return ids

    # --- the orders -----------------------------------------------------------------------------------

    def last_order(self) -> int:
        """The id of the newest order (0: none yet)."""
        with self._transactions.read("read the newest order") as session:
            return session.scalar(select(func.max(AdminOrderModel.id))) or 0

    def orders_after(self, last: int) -> list[Order]:
        """The orders given after order ``last``, the oldest first."""
        with self._transactions.read("read the operator's orders") as session:
            rows = session.scalars(
                select(AdminOrderModel).where(AdminOrderModel.id > last).order_by(AdminOrderModel.id)
            )
            return [Order(r.id, r.kind, r.table_code, dict(r.detail)) for r in rows]

    # --- the processes ----------------------------------------------------------------------------------

    def note_process(self, process: ServerProcess) -> None:
        """Notes a server process as it starts."""
        with self._transactions.write("note a server process") as session:
            session.merge(
                ServerProcessModel(
                    process=process.process,
                    host=process.host,
                    pid=process.pid,
                    started_at=process.started_at,
                    seen_at=process.started_at,
                )
            )

    def heartbeat(self, process: str, at: float) -> None:
        """Notes that server process ``process`` runs at ``at``."""
        with self._transactions.write("note a server process runs") as session:
            row = session.get(ServerProcessModel, process)
            if row is not None:
                row.seen_at = at

    def processes(self) -> list[ServerProcess]:
        """Every server process noted, the newest first."""
        with self._transactions.read("read the server processes") as session:
            rows = session.scalars(select(ServerProcessModel).order_by(ServerProcessModel.started_at.desc()))
            return [ServerProcess(r.process, r.host, r.pid, r.started_at, r.seen_at) for r in rows]

    # --- exports ------------------------------------------------------------------------------------------

    def played_seats(self, since: float, until: float) -> list[dict[str, Any]]:
        """One row per seat of each match finished in ``[since, until)``, the oldest match first."""
        with self._transactions.read("read the finished matches") as session:
            rows = session.execute(
                select(PlayedMatchModel, PlayerModel)
                .join(PlayerModel, PlayerModel.match_id == PlayedMatchModel.id)
                .where(PlayedMatchModel.finished_at >= since, PlayedMatchModel.finished_at < until)
                .order_by(PlayedMatchModel.finished_at, PlayedMatchModel.id, PlayerModel.seat)
            ).all()
            return [
                {
                    "match_id": match.id,
                    "table": match.table_code,
                    "match_number": match.match_number,
                    "preset": match.preset,
                    "finished_at": match.finished_at,
                    "seat": player.seat,
                    "side": player.side,
                    "name": "" if player.deleted else player.name,
                    "profile_id": player.profile_id or "",
                    "is_bot": player.is_bot,
                    "won": player.won,
                    "side_score": match.scores[player.side] if player.side < len(match.scores) else "",
                }
                for match, player in rows
            ]

    def period_ratings(self, since: float, until: float) -> list[dict[str, Any]]:
        """The rating, in each preset, of every profile that finished a match in it in
        ``[since, until)``, with how many it finished then; by preset, the best first."""
        with self._transactions.read("read the ratings") as session:
            played = (
                select(
                    PlayerModel.profile_id.label("profile_id"),
                    PlayedMatchModel.preset.label("preset"),
                    func.count().label("in_period"),
                )
                .join(PlayedMatchModel, PlayerModel.match_id == PlayedMatchModel.id)
                .where(PlayedMatchModel.finished_at >= since, PlayedMatchModel.finished_at < until)
                .where(PlayerModel.profile_id.is_not(None))
                .group_by(PlayerModel.profile_id, PlayedMatchModel.preset)
                .subquery()
            )
            rows = session.execute(
                select(RatingModel, ProfileModel.name, ProfileModel.is_bot, played.c.in_period)
                .join(ProfileModel, ProfileModel.id == RatingModel.profile_id)
                .join(
                    played,
                    and_(
                        played.c.profile_id == RatingModel.profile_id, played.c.preset == RatingModel.preset
                    ),
                )
                .order_by(RatingModel.preset, RatingModel.ordinal.desc(), RatingModel.profile_id)
            ).all()
            return [
                {
                    "profile_id": rating.profile_id,
                    "name": name,
                    "is_bot": is_bot,
                    "preset": rating.preset,
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "ordinal": rating.ordinal,
                    "matches": rating.matches,
                    "matches_in_period": in_period,
                }
                for rating, name, is_bot, in_period in rows
            ]
