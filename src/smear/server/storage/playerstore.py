"""Players in the database: profiles and their secrets, the history of finished matches, statistics
and ratings. A part of :class:`smear.server.storage.database.Storage`, as the chat is.

Secrets and one-time codes are stored only as hashes. A deleted profile leaves its matches in the
others' history, its seats named "deleted player".
"""

from __future__ import annotations

import secrets
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from smear.bots import table_bots
from smear.server.players.ratings import BOT_PREFIX, BOT_START, NEW_PLAYER, Rating, bot_profile_id, rate_match
from smear.server.storage.schema import (
    Base,
    ChatLineModel,
    MatchLeftModel,
    MatchModel,
    PlayedMatchModel,
    PlayerModel,
    ProfileKeyModel,
    ProfileModel,
    RatingModel,
    SeatModel,
)
from smear.server.storage.transactions import Transactions

DELETED_NAME: Final = "deleted player"
BOARD_SIZE: Final = 100


@dataclass(frozen=True)
class MatchOutcome:
    """How a finished match went, worked out from its final state by the caller."""

    preset: str
    sides: list[list[int]]
    scores: list[int]
    winner: int | None
    ranks: list[int]  # per side, 1 = best
    stats: list[dict[str, Any]]  # per seat, as smear.server.players.playerstats.seat_stats
    names: list[str]


@dataclass(frozen=True)
class ProfileInfo:
    player: str
    name: str
    is_bot: bool
    since: float
    ratings: dict[str, tuple[Rating, int]]  # preset -> rating, matches rated
    stats: dict[str, list[dict[str, Any]]]  # preset -> the stats of each match, oldest first
    finishes: tuple[int, int] = (0, 0)  # matches finished, matches left


@dataclass(frozen=True)
class SeatInMatch:
    seat: int
    name: str
    player: str | None
    is_bot: bool


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match as the history shows it."""

    match: str
    preset: str
    finished_at: float
    players: list[SeatInMatch]
    sides: list[list[int]]
    scores: list[int]
    winner: int | None


@dataclass(frozen=True)
class BoardEntry:
    player: str
    name: str
    rating: Rating
    matches: int
    is_bot: bool


class PlayerStore:
    """Reads and writes of players; each public method is one transaction."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    # -- profiles --

    def create_profile(self, player: str, name: str, secret_hash: str, now: float) -> None:
        with self._transactions.write("create a profile") as session:
            session.add(ProfileModel(id=player, name=name, is_bot=False, created_at=now))
            session.flush()
            session.add(ProfileKeyModel(key_hash=secret_hash, profile_id=player, expires_at=None))

    def holds_profile(self, player: str, secret_hash: str) -> bool:
        """Whether ``secret_hash`` is the hash of a secret of profile ``player``."""
        with self._transactions.read("check a profile's secret") as session:
            key = session.get(ProfileKeyModel, secret_hash)
            return key is not None and key.expires_at is None and key.profile_id == player

    def rename_profile(self, player: str, name: str) -> None:
        with self._transactions.write("rename a profile") as session:
            session.execute(update(ProfileModel).where(ProfileModel.id == player).values(name=name))

    def delete_profile(self, player: str) -> None:
        """Removes a profile, its secrets and ratings; its seats in played matches become "deleted
        player", and the seats it holds at tables keep playing without it."""
        with self._transactions.write("delete a profile") as session:
            session.execute(
                update(PlayerModel)
                .where(PlayerModel.profile_id == player)
                .values(profile_id=None, name=DELETED_NAME, deleted=True)
            )
            session.execute(update(SeatModel).where(SeatModel.profile_id == player).values(profile_id=None))
            session.execute(
                update(ChatLineModel).where(ChatLineModel.profile_id == player).values(profile_id=None)
            )
            session.execute(delete(RatingModel).where(RatingModel.profile_id == player))
            session.execute(delete(ProfileKeyModel).where(ProfileKeyModel.profile_id == player))
            session.execute(delete(ProfileModel).where(ProfileModel.id == player))

    def add_transfer_code(self, player: str, code_hash: str, expires_at: float) -> None:
        """A one-time code that gives a new secret of ``player`` to whoever claims it before
        ``expires_at``; the profile's earlier unused codes stop working."""
        with self._transactions.write("make a transfer code") as session:
            session.execute(
                delete(ProfileKeyModel).where(
                    ProfileKeyModel.profile_id == player, ProfileKeyModel.expires_at.is_not(None)
                )
            )
            session.add(ProfileKeyModel(key_hash=code_hash, profile_id=player, expires_at=expires_at))

    def claim_transfer(self, code_hash: str, secret_hash: str, now: float) -> tuple[str, str] | None:
        """Uses a one-time code: the profile gains ``secret_hash``. Returns its id and name, or None
        for a code unknown, used or expired."""
        with self._transactions.write("claim a transfer code") as session:
            code = session.get(ProfileKeyModel, code_hash)
            if code is None or code.expires_at is None:
                return None
            session.delete(code)
            if code.expires_at < now:
                return None
            profile = session.get(ProfileModel, code.profile_id)
            if profile is None:
                return None
            session.add(ProfileKeyModel(key_hash=secret_hash, profile_id=profile.id, expires_at=None))
            return profile.id, profile.name

    def profile_names(self, players: Sequence[str]) -> dict[str, str]:
        """The name of each of ``players`` that exists."""
        if not players:
            return {}
        with self._transactions.read("read profile names") as session:
            rows = session.execute(
                select(ProfileModel.id, ProfileModel.name).where(ProfileModel.id.in_(set(players)))
            )
            return {row.id: row.name for row in rows}

    def profile_info(self, player: str) -> ProfileInfo | None:
        with self._transactions.read("read a profile") as session:
            profile = session.get(ProfileModel, player)
            if profile is None:
                return None
            ratings = {
                row.preset: (Rating(row.mu, row.sigma), row.matches)
                for row in session.scalars(select(RatingModel).where(RatingModel.profile_id == player))
            }
            stats: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
            for preset, seat_stats in session.execute(
                select(PlayedMatchModel.preset, PlayerModel.stats)
                .join(PlayerModel, PlayerModel.match_id == PlayedMatchModel.id)
                .where(PlayerModel.profile_id == player)
                .order_by(PlayedMatchModel.finished_at)
            ):
                stats[preset].append(seat_stats)
            finishes = _finishes(session, [player]).get(player, (0, 0))
            return ProfileInfo(
                profile.id, profile.name, profile.is_bot, profile.created_at, ratings, dict(stats), finishes
            )

    # -- leaving counts --

    def finishes_of(self, players: Sequence[str]) -> dict[str, tuple[int, int]]:
        """The matches each of ``players`` (people's profiles) finished and left; those with neither
        are left out."""
        if not players:
            return {}
        with self._transactions.read("read leaving counts") as session:
            return _finishes(session, players)

    def ratings_of(self, players: Sequence[str], preset: str) -> dict[str, Rating]:
        """The rating in ``preset`` of each of ``players`` that has one."""
        if not players:
            return {}
        with self._transactions.read("read ratings") as session:
            rows = session.scalars(
                select(RatingModel).where(
                    RatingModel.preset == preset, RatingModel.profile_id.in_(set(players))
                )
            )
            return {row.profile_id: Rating(row.mu, row.sigma) for row in rows}

    def ensure_bots(self, levels: Sequence[str], presets: Sequence[str], now: float) -> None:
        """Gives every bot level its profile and a rating in every preset, where missing: the bots
        are on the leaderboards, rated, before anyone has played them. A level not yet rated in a
        preset starts again from :data:`BOT_START` (which a new measure may have moved)."""
        with self._transactions.write("give the bots their profiles") as session:
            for level in levels:
                player = bot_profile_id(level)
                _ensure_bot_profile(session, player, now)
                start = _start(player)
                session.execute(
                    update(RatingModel)
                    .where(RatingModel.profile_id == player, RatingModel.matches == 0)
                    .values(mu=start.mu, sigma=start.sigma, ordinal=start.ordinal)
                )
                rows = [_rating_values(player, preset, start) for preset in presets]
                _insert_missing(session, RatingModel, rows)

    # -- history --

    def player_matches(
        self, player: str, limit: int, before: str | None = None
    ) -> tuple[list[tuple[PlayedMatch, int]], bool]:
        """The finished matches of ``player``, newest first, with its seat in each; at most ``limit``,
        older than match ``before`` when given; and whether there are more."""
        with self._transactions.read("read a player's matches") as session:
            query = (
                select(PlayedMatchModel, func.min(PlayerModel.seat))
                .join(PlayerModel, PlayerModel.match_id == PlayedMatchModel.id)
                .where(PlayerModel.profile_id == player)
                .group_by(PlayedMatchModel.id)
                .order_by(PlayedMatchModel.finished_at.desc(), PlayedMatchModel.id.desc())
                .limit(limit + 1)
            )
            if before is not None:
                cursor = session.get(PlayedMatchModel, before)
                if cursor is not None:
                    query = query.where(
                        or_(
                            PlayedMatchModel.finished_at < cursor.finished_at,
                            (PlayedMatchModel.finished_at == cursor.finished_at)
                            & (PlayedMatchModel.id < cursor.id),
                        )
                    )
            rows = session.execute(query).all()
            seats = _seats_of(session, [row[0].id for row in rows[:limit]])
            found = [(_played(row[0], seats[row[0].id]), row[1]) for row in rows[:limit]]
            return found, len(rows) > limit

    def played_match(self, match: str) -> tuple[PlayedMatch, dict[str, Any]] | None:
        """A finished match and its record (the names of deleted players replaced), or None."""
        with self._transactions.read("read a played match") as session:
            row = session.get(PlayedMatchModel, match)
            if row is None:
                return None
            seats = _seats_of(session, [match])[match]
            gone = {seat.seat for seat in seats if seat.deleted}
            return _played(row, seats), mask_names(row.record, gone)

    def deleted_seats(self, code: str, number: int) -> list[int]:
        """The seats of match ``number`` of table ``code`` whose player has deleted their profile."""
        with self._transactions.read("read the deleted players of a match") as session:
            return list(
                session.scalars(
                    select(PlayerModel.seat)
                    .join(PlayedMatchModel, PlayedMatchModel.id == PlayerModel.match_id)
                    .where(
                        PlayedMatchModel.table_code == code,
                        PlayedMatchModel.match_number == number,
                        PlayerModel.deleted,
                    )
                )
            )

    # -- ratings --

    def leaderboard(self, preset: str, with_player: str | None = None) -> list[BoardEntry]:
        """The best rated in ``preset``, at most :data:`BOARD_SIZE`: everyone, or ``with_player`` and
        everyone who has shared a finished match with them. Of the bots, only those a table seats:
        a yardstick kept by an older server is nobody's opponent."""
        met_bots = [bot_profile_id(level) for level in table_bots()]
        with self._transactions.read("read a leaderboard") as session:
            query = (
                select(RatingModel, ProfileModel.name, ProfileModel.is_bot)
                .join(ProfileModel, ProfileModel.id == RatingModel.profile_id)
                .where(RatingModel.preset == preset)
                .where(or_(ProfileModel.is_bot.is_(False), ProfileModel.id.in_(met_bots)))
                .order_by(RatingModel.ordinal.desc(), RatingModel.matches.desc(), RatingModel.profile_id)
                .limit(BOARD_SIZE)
            )
            if with_player is not None:
                theirs = select(PlayerModel.match_id).where(PlayerModel.profile_id == with_player)
                met = select(PlayerModel.profile_id).where(
                    PlayerModel.match_id.in_(theirs), PlayerModel.profile_id.is_not(None)
                )
                query = query.where(RatingModel.profile_id.in_(met))
            return [
                BoardEntry(rating.profile_id, name, Rating(rating.mu, rating.sigma), rating.matches, is_bot)
                for rating, name, is_bot in session.execute(query)
            ]

    # -- a match finishes --

    def record_played(
        self,
        session: Session,
        match: MatchModel,
        outcome: MatchOutcome,
        record: dict[str, Any],
        now: float,
    ) -> None:
        """Adds a finished match to its players' history and rates them as
        :func:`smear.server.players.ratings.rate_match` says (in the caller's transaction). A match that no
        profile took part in is left out."""
        seats: list[str | None] = list(match.profiles or [None] * len(outcome.names))
        if not any(p is not None and not p.startswith(BOT_PREFIX) for p in seats):
            return  # bots alone (or guests alone): nobody's history, nobody's rating
        match_id = new_match_id()
        for bot in {p for p in seats if p is not None and p.startswith(BOT_PREFIX)}:
            _ensure_bot_profile(session, bot, now)  # a level added since the server started
        known = existing_profiles(session, seats)
        deleted = [p is not None and p not in known for p in seats]  # deleted while the match went on
        seats = [p if p in known else None for p in seats]
        session.add(
            PlayedMatchModel(
                id=match_id,
                table_code=match.table_code,
                match_number=match.number,
                preset=outcome.preset,
                finished_at=now,
                sides=outcome.sides,
                scores=outcome.scores,
                winner=outcome.winner,
                record=record,
            )
        )
        side_of = {seat: index for index, side in enumerate(outcome.sides) for seat in side}
        for seat, player in enumerate(seats):
            session.add(
                PlayerModel(
                    match_id=match_id,
                    seat=seat,
                    profile_id=player,
                    name=DELETED_NAME if deleted[seat] else outcome.names[seat],
                    is_bot=player is not None and player.startswith(BOT_PREFIX),
                    deleted=deleted[seat],
                    side=side_of[seat],
                    won=outcome.winner == side_of[seat],
                    stats=outcome.stats[seat],
                )
            )
        rated = sorted({p for p in seats if p is not None})
        # Locked for the update where the database can (PostgreSQL): two matches ending at once
        # must not both start from the same old rating.
        stored = {
            row.profile_id: row
            for row in session.scalars(
                select(RatingModel)
                .where(RatingModel.preset == outcome.preset, RatingModel.profile_id.in_(rated))
                .with_for_update()
            )
        }
        before = {
            player: Rating(row.mu, row.sigma) if (row := stored.get(player)) else _start(player)
            for player in rated
        }
        played = {player: row.matches for player, row in stored.items()}
        for player, after in rate_match(seats, before, outcome.sides, outcome.ranks, played).items():
            row = stored.get(player)
            if row is None:
                session.add(_rating_row(player, outcome.preset, after, matches=1))
            else:
                row.mu, row.sigma, row.ordinal, row.matches = (
                    after.mu,
                    after.sigma,
                    after.ordinal,
                    row.matches + 1,
                )


def note_left(session: Session, player: str, code: str, number: int) -> None:
    """``player`` left match ``number`` of table ``code`` while it was played (in the caller's
    transaction, the one that stores the seat given up; a deleted profile is not noted)."""
    if player in existing_profiles(session, [player]):
        _insert_missing(
            session, MatchLeftModel, [{"profile_id": player, "table_code": code, "match_number": number}]
        )


def _finishes(session: Session, players: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Matches finished (in the history, not left) and left, of each of ``players`` with any."""
    wanted = set(players)
    left_rows = session.execute(
        select(MatchLeftModel.profile_id, MatchLeftModel.table_code, MatchLeftModel.match_number).where(
            MatchLeftModel.profile_id.in_(wanted)
        )
    )
    left = {(row.profile_id, row.table_code, row.match_number) for row in left_rows}
    played = session.execute(
        select(PlayerModel.profile_id, PlayedMatchModel.table_code, PlayedMatchModel.match_number)
        .join(PlayedMatchModel, PlayerModel.match_id == PlayedMatchModel.id)
        .where(PlayerModel.profile_id.in_(wanted), PlayerModel.is_bot.is_(False))
    )
    finished = Counter(row.profile_id for row in played if tuple(row) not in left)
    left_counts = Counter(player for player, _, _ in left)
    return {
        player: (finished[player], left_counts[player])
        for player in wanted
        if finished[player] or left_counts[player]
    }


def _rating_row(player: str, preset: str, rating: Rating, matches: int) -> RatingModel:
    return RatingModel(
        profile_id=player,
        preset=preset,
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=rating.ordinal,
        matches=matches,
    )


def existing_profiles(session: Session, players: Iterable[str | None]) -> set[str]:
    """Those of ``players`` whose profile exists (not deleted)."""
    wanted = {player for player in players if player is not None}
    if not wanted:
        return set()
    return set(session.scalars(select(ProfileModel.id).where(ProfileModel.id.in_(wanted))))


def _ensure_bot_profile(session: Session, player: str, now: float) -> None:
    if session.get(ProfileModel, player) is None:
        level = player.removeprefix(BOT_PREFIX)
        row = {"id": player, "name": f"{level} bot", "is_bot": True, "created_at": now}
        _insert_missing(session, ProfileModel, [row])


def _rating_values(player: str, preset: str, rating: Rating) -> dict[str, Any]:
    return {
        "profile_id": player,
        "preset": preset,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "matches": 0,
    }


def _insert_missing(session: Session, model: type[Base], rows: list[dict[str, Any]]) -> None:
    """INSERT ... ON CONFLICT DO NOTHING: a row another process stored meanwhile (processes starting
    together each give the bots their profiles) is kept as it is, not a duplicate key."""
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(postgresql.insert(model).on_conflict_do_nothing(), rows)
    elif dialect == "sqlite":
        session.execute(sqlite.insert(model).on_conflict_do_nothing(), rows)
    else:  # another database: its own duplicate keys are refused as before
        session.execute(insert(model), rows)


def new_match_id() -> str:
    """The public id of a played match: unguessable, and not its table's code (which would let anyone
    who sees a history into that table)."""
    return secrets.token_urlsafe(9)


def _start(player: str) -> Rating:
    if player.startswith(BOT_PREFIX):
        return BOT_START.get(player.removeprefix(BOT_PREFIX), NEW_PLAYER)
    return NEW_PLAYER


def _seats_of(session: Session, matches: Sequence[str]) -> dict[str, list[PlayerModel]]:
    seats: defaultdict[str, list[PlayerModel]] = defaultdict(list)
    if matches:
        for row in session.scalars(
            select(PlayerModel).where(PlayerModel.match_id.in_(matches)).order_by(PlayerModel.seat)
        ):
            seats[row.match_id].append(row)
    return seats


def _played(row: PlayedMatchModel, seats: list[PlayerModel]) -> PlayedMatch:
    return PlayedMatch(
        match=row.id,
        preset=row.preset,
        finished_at=row.finished_at,
        players=[SeatInMatch(s.seat, s.name, s.profile_id, s.is_bot) for s in seats],
        sides=row.sides,
        scores=row.scores,
        winner=row.winner,
    )


def mask_names(record: dict[str, Any], gone: Collection[int]) -> dict[str, Any]:
    """``record`` with the names of the seats ``gone`` (deleted players) replaced."""
    if not gone:
        return record
    names = [DELETED_NAME if index in gone else name for index, name in enumerate(record["players"])]
    return {**record, "players": names}
