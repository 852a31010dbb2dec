"""Practice in the database: the positions (a question and its answer, kept apart so that the
answer is read only for an attempt), the profiles' attempts at them and their practice ratings. A
part of :class:`smear.server.storage.database.Storage` (its ``practice``), as the reports are.

Positions come from ``smear practice build`` (docs/practice.md) through :func:`import_positions`,
which ``smear practice import`` and ``smear practice build --database`` call: a position already
stored is skipped, so importing a file twice stores it once. Nothing here searches: every question
and answer served is read as it was stored.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pydantic import ValidationError
from sqlalchemy import String, cast, func, select
from sqlalchemy.exc import IntegrityError

from smear.errors import SmearError
from smear.practice.record import PracticePosition
from smear.server.players.practiceratings import NEW_PRACTICE, position_rating, rate_attempt
from smear.server.players.ratings import Rating
from smear.server.storage.schema import PracticeAttemptModel, PracticePositionModel, PracticeRatingModel
from smear.server.storage.transactions import StorageError, Transactions

__all__ = [
    "Attempt",
    "BadPositionRecord",
    "PracticeStanding",
    "PracticeStore",
    "import_positions",
    "parse_position",
]

IMPORT_BATCH: Final = 500  # positions stored in one transaction
IMPORT_ATTEMPTS: Final = 3  # a batch looked at again when another process stored some of it meanwhile
CHOICE_LENGTH: Final = 120  # the longest choice an attempt stores


class BadPositionRecord(SmearError):
    """A position record that does not have the shape of a build's output, or is not sound."""


@dataclass(frozen=True)
class PracticeStanding:
    """A profile's practice rating, its rated attempts and its streak of best choices."""

    rating: Rating
    attempts: int
    streak: int


@dataclass(frozen=True)
class Attempt:
    """What an attempt did: whether the choice was the best, the answer, the profile's standing
    before and after (equal unless it was the profile's first attempt at the position)."""

    correct: bool
    answer: dict[str, Any]
    before: PracticeStanding
    after: PracticeStanding


def parse_position(record: Any) -> PracticePosition:
    """A position record checked (its shape, its id, and that it is sound: the best choice beats
    the next by at least the margin's error); :class:`BadPositionRecord` says what is wrong without
    quoting the record (it holds cards)."""
    try:
        position = PracticePosition.model_validate(record)
    except ValidationError as err:
        where = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'record'}: {e['type']}" for e in err.errors())
        raise BadPositionRecord(f"not a position record ({where})") from None
    if any(len(choice) > CHOICE_LENGTH for choice in position.choices):
        raise BadPositionRecord(f"position {position.id} has a choice longer than {CHOICE_LENGTH} characters")
    answer = position.answer
    if answer.margin <= 0 or answer.margin < answer.error:
        raise BadPositionRecord(f"position {position.id} is not sound: its margin is below its error")
    return position


def import_positions(
    database_url: str, records: Iterable[dict[str, Any] | PracticePosition]
) -> tuple[int, int]:
    """Stores the position records (each checked by :func:`parse_position`, all before any is
    stored) in the database at ``database_url``; returns how many were imported and how many
    skipped (already stored)."""
    from smear.server.storage.database import Storage  # the store is a part of it

    positions = []
    for number, record in enumerate(records, start=1):
        try:
            positions.append(parse_position(record))
        except BadPositionRecord as err:
            raise BadPositionRecord(f"record {number}: {err}") from None
    with Storage(database_url) as storage:
        return storage.practice.import_positions(positions, time.time())


# The positions a new server starts with (``smear practice build --selfplay 45 --seed 7``: house,
# ten_point and five_point), so that the Practice page has positions before an operator builds any.
STARTER = Path(__file__).resolve().parents[2] / "practice" / "starter.jsonl.gz"


def import_starter(database_url: str) -> int:
    """Stores the starter positions in a database that has no practice position yet; how many were
    stored (0 where there were positions already: an operator's own build is never mixed with them)."""
    from smear.server.storage.database import Storage

    with Storage(database_url) as storage:
        if storage.practice.theme_counts():
            return 0
        with gzip.open(STARTER, "rt", encoding="utf-8") as lines:
            positions = [parse_position(json.loads(line)) for line in lines if line.strip()]
        return storage.practice.import_positions(positions, time.time())[0]


class PracticeStore:
    """The practice positions' and ratings' reads and writes; each method is one transaction (the
    import one per batch)."""

    def __init__(self, transactions: Transactions) -> None:
        self._transactions = transactions

    def import_positions(self, positions: Iterable[PracticePosition], now: float) -> tuple[int, int]:
        """Stores the positions not stored yet (noted as made at ``now``); returns (imported, skipped)."""
        imported = skipped = 0
        batch: dict[str, PracticePosition] = {}
        for position in positions:
            if position.id in batch:
                skipped += 1
                continue
            batch[position.id] = position
            if len(batch) >= IMPORT_BATCH:
                done = self._store_new(list(batch.values()), now)
                imported, skipped, batch = imported + done, skipped + len(batch) - done, {}
        if batch:
            done = self._store_new(list(batch.values()), now)
            imported, skipped = imported + done, skipped + len(batch) - done
        return imported, skipped

    def _store_new(self, positions: list[PracticePosition], now: float) -> int:
        """Stores those of ``positions`` not stored yet; another process storing some of them at the
        same moment (two servers starting on a new database) makes this one look again."""
        for attempt in range(IMPORT_ATTEMPTS):
            try:
                return self._store_unseen(positions, now)
            except StorageError as err:
                if not isinstance(err.__cause__, IntegrityError) or attempt + 1 == IMPORT_ATTEMPTS:
                    raise
        raise AssertionError("not reached")

    def _store_unseen(self, positions: list[PracticePosition], now: float) -> int:
        with self._transactions.write("store practice positions") as session:
            ids = [position.id for position in positions]
            stored = set(
                session.scalars(select(PracticePositionModel.id).where(PracticePositionModel.id.in_(ids)))
            )
            new = [position for position in positions if position.id not in stored]
            for position in new:
                start = position_rating(position.rating)
                session.add(
                    PracticePositionModel(
                        id=position.id,
                        preset=position.preset,
                        kind=position.kind,
                        themes=list(position.themes),
                        mu=start.mu,
                        sigma=start.sigma,
                        question=position.question(),
                        answer=position.answer.model_dump(),
                        source=position.source[:80],
                        created=now,
                    )
                )
            return len(new)

    def theme_counts(self) -> dict[str, int]:
        """How many positions each theme has (only themes that have some)."""
        with self._transactions.read("read the practice themes") as session:
            counts: Counter[str] = Counter()
            for themes in session.scalars(select(PracticePositionModel.themes)):
                counts.update(themes)
            return dict(counts)

    def daily(self, day: str) -> tuple[dict[str, Any], Rating] | None:
        """The position of the UTC day ``day`` (``2026-12-06``): the same for everyone that day,
        picked from the positions in id order by a hash of the day (None: no position)."""
        with self._transactions.read("read the daily practice position") as session:
            count = session.scalar(select(func.count()).select_from(PracticePositionModel)) or 0
            if not count:
                return None
            index = int.from_bytes(hashlib.sha256(day.encode()).digest()[:8], "big") % count
            row = session.execute(
                select(PracticePositionModel.question, PracticePositionModel.mu, PracticePositionModel.sigma)
                .order_by(PracticePositionModel.id)
                .offset(index)
                .limit(1)
            ).one()
            return row.question, Rating(row.mu, row.sigma)

    def next_position(self, profile: str, theme: str | None) -> tuple[dict[str, Any], Rating] | None:
        """A position for ``profile`` (of ``theme``, if given): one it has not tried, its rating
        nearest the profile's; else the one it tried longest ago (None: no position)."""
        with self._transactions.read("read a practice position") as session:
            mine = session.get(PracticeRatingModel, profile)
            mu = NEW_PRACTICE.mu if mine is None else mine.mu
            tried = (
                select(
                    PracticeAttemptModel.position_id.label("position_id"),
                    # The latest attempt's id: ids grow with time, and two never tie.
                    func.max(PracticeAttemptModel.id).label("last_attempt"),
                )
                .where(PracticeAttemptModel.profile_id == profile)
                .group_by(PracticeAttemptModel.position_id)
                .subquery()
            )
            position = PracticePositionModel
            query = (
                select(position.question, position.mu, position.sigma)
                .outerjoin(tried, tried.c.position_id == position.id)
                .order_by(
                    tried.c.last_attempt.is_not(None),
                    tried.c.last_attempt,
                    func.abs(position.mu - mu),
                    position.id,
                )
                .limit(1)
            )
            if theme is not None:  # a theme is one of the known ids (checked by the caller)
                query = query.where(cast(position.themes, String).like(f'%"{theme}"%'))
            row = session.execute(query).first()
            return None if row is None else (row.question, Rating(row.mu, row.sigma))

    def position_choices(self, position_id: str) -> list[str] | None:
        """The choices of position ``position_id`` (None: no such position)."""
        with self._transactions.read("read a practice position") as session:
            question = session.scalar(
                select(PracticePositionModel.question).where(PracticePositionModel.id == position_id)
            )
            return None if question is None else list(question["choices"])

    def standing(self, profile: str) -> PracticeStanding:
        """``profile``'s practice rating (a new one's if it never tried a position)."""
        with self._transactions.read("read a practice rating") as session:
            return _standing(session.get(PracticeRatingModel, profile))

    def attempt(self, profile: str, position_id: str, choice: str, at: float) -> Attempt | None:
        """Records ``profile``'s ``choice`` at position ``position_id`` (a choice it offers); the
        profile's first attempt there moves both ratings and the streak. None: no such position."""
        with self._transactions.write("record a practice attempt") as session:
            position = session.get(PracticePositionModel, position_id)
            if position is None:
                return None
            correct = choice == position.answer["best"]
            # Locked where the database can (PostgreSQL): two servers' attempts of one profile take turns.
            mine = session.get(PracticeRatingModel, profile, with_for_update=True)
            before = _standing(mine)
            first = (
                session.scalar(
                    select(PracticeAttemptModel.id)
                    .where(
                        PracticeAttemptModel.profile_id == profile,
                        PracticeAttemptModel.position_id == position_id,
                    )
                    .limit(1)
                )
                is None
            )
            session.add(
                PracticeAttemptModel(
                    profile_id=profile,
                    position_id=position_id,
                    choice=choice,
                    correct=correct,
                    rated=first,
                    at=at,
                )
            )
            if not first:
                return Attempt(correct, position.answer, before, before)
            rated, puzzle = rate_attempt(before.rating, Rating(position.mu, position.sigma), correct)
            position.mu, position.sigma = puzzle.mu, puzzle.sigma
            after = PracticeStanding(rated, before.attempts + 1, before.streak + 1 if correct else 0)
            if mine is None:
                mine = PracticeRatingModel(profile_id=profile)
                session.add(mine)
            mine.mu, mine.sigma = rated.mu, rated.sigma
            mine.attempts, mine.streak = after.attempts, after.streak
            return Attempt(correct, position.answer, before, after)


def _standing(row: PracticeRatingModel | None) -> PracticeStanding:
    if row is None:
        return PracticeStanding(NEW_PRACTICE, 0, 0)
    return PracticeStanding(Rating(row.mu, row.sigma), row.attempts, row.streak)
