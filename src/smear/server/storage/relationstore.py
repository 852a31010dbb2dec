"""Friendships and blocks between profiles in the database (docs/players.md, "Friends" and
"Blocking"). A part of :class:`smear.server.storage.database.Storage` (its ``relations``).

A friendship is one row per pair of profiles: asked by one (``accepted`` false), accepted by the
other. A block is known to its blocker alone: it ends any friendship or request between the two, and
a request from a profile its addressee blocks is kept as any unanswered request, never shown to the
addressee (so the blocked profile cannot tell it apart from a request not answered yet).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from sqlalchemy import ColumnElement, and_, delete, or_, select
from sqlalchemy.orm import Session

from smear.server.storage.schema import BlockModel, FriendshipModel, ProfileModel
from smear.server.storage.transactions import Transactions

__all__ = ["RelationStore", "Relations"]


@dataclass(frozen=True)
class Relations:
    """One profile's relations, each a list of ``(id, name)``, by name."""

    friends: list[tuple[str, str]] = field(default_factory=list)
    incoming: list[tuple[str, str]] = field(default_factory=list)  # requests to accept or decline
    outgoing: list[tuple[str, str]] = field(default_factory=list)  # its requests not answered yet
    blocked: list[tuple[str, str]] = field(default_factory=list)


def _pair(one: str, other: str) -> ColumnElement[bool]:
    return or_(
        and_(FriendshipModel.requester_id == one, FriendshipModel.addressee_id == other),
        and_(FriendshipModel.requester_id == other, FriendshipModel.addressee_id == one),
    )


class RelationStore:
    """The friendships' and blocks' reads and writes; each method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    def person_name(self, player: str) -> str | None:
        """The name of ``player`` if it is a person's profile (None: no such profile, or a bot's)."""
        with self._transactions.read("read a profile") as session:
            profile = session.get(ProfileModel, player)
            return None if profile is None or profile.is_bot else profile.name

    def ask(self, player: str, other: str, now: float) -> bool:
        """``player`` asks ``other`` to be friends; a request ``other`` made first is accepted
        instead. Returns whether they are friends now. A block of ``player`` by ``other`` changes
        nothing ``player`` can see: the request is kept, never shown to ``other``."""
        with self._transactions.write("ask for a friendship") as session:
            if _blocks(session, player, other):
                session.execute(delete(BlockModel).where(_block_of(player, other)))
            row = session.scalars(select(FriendshipModel).where(_pair(player, other))).first()
            if row is None:
                session.add(
                    FriendshipModel(requester_id=player, addressee_id=other, accepted=False, created=now)
                )
                return False
            if not row.accepted and row.requester_id == other and not _blocks(session, other, player):
                row.accepted = True
            return row.accepted

    def accept(self, player: str, other: str) -> bool:
        """``player`` accepts ``other``'s request; False when there is none it can see."""
        with self._transactions.write("accept a friendship") as session:
            row = session.get(FriendshipModel, (other, player))
            if row is None or _blocks(session, player, other):
                return False
            row.accepted = True
            return True

    def end(self, player: str, other: str) -> None:
        """Ends the friendship or request between the two, whoever asked."""
        with self._transactions.write("end a friendship") as session:
            session.execute(delete(FriendshipModel).where(_pair(player, other)))

    def are_friends(self, player: str, other: str) -> bool:
        with self._transactions.read("read a friendship") as session:
            row = session.scalars(select(FriendshipModel).where(_pair(player, other))).first()
            return row is not None and row.accepted

    def block(self, player: str, other: str, now: float) -> None:
        """``player`` blocks ``other``: any friendship or request between them ends."""
        with self._transactions.write("block a profile") as session:
            session.execute(delete(FriendshipModel).where(_pair(player, other)))
            if not _blocks(session, player, other):
                session.add(BlockModel(blocker_id=player, blocked_id=other, created=now))

    def unblock(self, player: str, other: str) -> None:
        with self._transactions.write("unblock a profile") as session:
            session.execute(delete(BlockModel).where(_block_of(player, other)))

    def relations(self, player: str) -> Relations:
        """``player``'s friends, requests both ways (but those from profiles it blocks) and blocks."""
        with self._transactions.read("read friendships") as session:
            rows = [
                (row.requester_id, row.addressee_id, row.accepted)
                for row in session.scalars(
                    select(FriendshipModel).where(
                        or_(FriendshipModel.requester_id == player, FriendshipModel.addressee_id == player)
                    )
                )
            ]
            blocked = set(
                session.scalars(select(BlockModel.blocked_id).where(BlockModel.blocker_id == player))
            )
            others = {row[0] for row in rows} | {row[1] for row in rows} | blocked
            rows_named = session.execute(
                select(ProfileModel.id, ProfileModel.name).where(ProfileModel.id.in_(others))
            )
            names = {row.id: row.name for row in rows_named}
        found = Relations()
        for requester, addressee, accepted in rows:
            other = addressee if requester == player else requester
            if accepted:
                found.friends.append((other, names.get(other, "")))
            elif requester == player:
                found.outgoing.append((other, names.get(other, "")))
            elif other not in blocked:
                found.incoming.append((other, names.get(other, "")))
        found.blocked.extend((other, names.get(other, "")) for other in blocked)
        for kept in (found.friends, found.incoming, found.outgoing, found.blocked):
            kept.sort(key=lambda pair: (pair[1].casefold(), pair[0]))
        return found

    def blockers_of(self, player: str) -> set[str]:
        """The profiles that block ``player``."""
        with self._transactions.read("read blocks") as session:
            return set(session.scalars(select(BlockModel.blocker_id).where(BlockModel.blocked_id == player)))

    def blocked_pairs(self, players: Collection[str]) -> set[tuple[str, str]]:
        """Every ``(blocker, blocked)`` among ``players``."""
        if not players:
            return set()
        with self._transactions.read("read blocks") as session:
            rows = session.execute(
                select(BlockModel.blocker_id, BlockModel.blocked_id).where(
                    BlockModel.blocker_id.in_(set(players)), BlockModel.blocked_id.in_(set(players))
                )
            )
            return {(row.blocker_id, row.blocked_id) for row in rows}


def _block_of(blocker: str, blocked: str) -> ColumnElement[bool]:
    return and_(BlockModel.blocker_id == blocker, BlockModel.blocked_id == blocked)


def _blocks(session: Session, blocker: str, blocked: str) -> bool:
    return session.get(BlockModel, (blocker, blocked)) is not None
