"""Durable storage for the server: tables, their seats, matches and every action taken (SQLAlchemy).

Each method is one transaction, committed before the method returns. The server acknowledges an
action only after :meth:`Storage.append_action` (or :meth:`Storage.append_actions`, which stores
the actions of several tables at once) has returned, so an acknowledged action survives a crash of
the server process; after a restart, :meth:`Storage.unfinished_tables` gives back every
table still in its lobby or playing, with the actions of its current match in order to replay.
The rows it takes and gives back (seats, actions, matches, tables) are in
:mod:`smear.server.storage.rows`.

Any SQLAlchemy URL works; the default is a SQLite file. SQLite runs in WAL mode with
``synchronous=NORMAL``: a commit is in the operating system's hands when it returns, which is
durable against the process being killed (not against the machine losing power, which would need
``synchronous=FULL`` and an fsync per action).

>>> storage = Storage("sqlite:///:memory:")
>>> storage.create_table("ABCD", {"rules": "house"}, 0, [SeatRow(0, "Ayse", None, False)], 0.0)
>>> storage.start_match("ABCD", 1, seed=7, sides=[[0], [1], [2]], names=["Ayse", "Kemal", "Sam"])
>>> storage.append_action("ABCD", 1, 1, 1, "bid 2")
>>> stored = storage.table("ABCD")
>>> stored.status, stored.current_match.actions
('playing', [(1, 'bid 2')])
>>> storage.close()
"""

from __future__ import annotations

import enum
import logging
from collections import defaultdict
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Final

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    create_engine,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from smear.server.storage import dbdriver, migrate
from smear.server.storage.chatstore import ChatStore
from smear.server.storage.liststore import ListingStore
from smear.server.storage.moderationstore import ModerationStore
from smear.server.storage.ownpracticestore import OwnPracticeStore
from smear.server.storage.playerstore import MatchOutcome, PlayerStore, existing_profiles, note_left
from smear.server.storage.practicestore import PracticeStore
from smear.server.storage.quarantinestore import QuarantineStore
from smear.server.storage.relationstore import RelationStore
from smear.server.storage.reportstore import ReportStore
from smear.server.storage.rows import ActionRow, MatchRow, SeatRow, StoredTable
from smear.server.storage.schema import (
    STATUSES,
    ActionModel,
    MatchModel,
    QuarantineModel,
    RestModel,
    SeatModel,
    TableModel,
)
from smear.server.storage.transactions import StorageError, Transactions, reason

__all__ = [
    "MISSING",
    "STATUSES",
    "Missing",
    "Storage",
    "StorageError",
]

log = logging.getLogger("smear.server")

# SQLite and most other databases store integers in 64 bits.
_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1
_INT32_MAX: Final = 2**31 - 1  # match numbers are plain integers


class Missing(enum.Enum):
    """The type of :data:`MISSING`."""

    MISSING = enum.auto()


MISSING: Final = Missing.MISSING
"""The default of an argument that was not given, where ``None`` is a value the caller may give."""


class Storage:
    """The server's database: its tables, matches and actions, and a part per other subject
    (``chat``, ``listing``, ``players``, ``quarantine``, ``moderation``, ``reports``, ``practice``,
    ``own_practice``, ``relations``), all opening their transactions with the same
    :class:`~smear.server.storage.transactions.Transactions`. Each method is one transaction,
    committed before it returns; writes are serialized by a lock, so the object may be shared
    between threads, and reads need not wait for writes."""

    def __init__(self, url: str = "sqlite:///smear.db") -> None:
        """Opens the database at the SQLAlchemy ``url``, creating it or bringing its schema up to date
        (:func:`smear.server.storage.migrate.upgrade`; what was done is in ``self.schema``)."""
        try:
            parsed = make_url(url)
        except ArgumentError:  # not quoted: a URL may hold a password
            raise StorageError(
                "the database URL cannot be read: expected dialect+driver://user:password@host:port/database"
            ) from None
        options: dict[str, Any] = {}
        is_sqlite = parsed.get_backend_name() == "sqlite"
        if is_sqlite:
            options["connect_args"] = dbdriver.sqlite_connect_args()
            if parsed.database in (None, "", ":memory:"):
                # Each connection to :memory: is a separate empty database: keep exactly one.
                options["poolclass"] = StaticPool
        try:
            self._engine = create_engine(parsed, **options)
            # Reads go through engines of their own where the database allows it: they neither wait
            # for the lock below nor for another connection's write (SQLite's WAL lets readers go on).
            self._shared = options.get("poolclass") is StaticPool
            self._read_engine = self._engine if self._shared else create_engine(parsed, **options)
        except (ArgumentError, ImportError) as err:  # an unknown dialect, a driver not installed
            raise StorageError(f"cannot open the database {parsed.render_as_string()!r}: {err}") from None
        if is_sqlite:
            dbdriver.tune_sqlite(self._engine, writes=True)
            if not self._shared:
                dbdriver.tune_sqlite(self._read_engine, writes=False)
        self._transactions = Transactions(
            sessionmaker(self._engine), sessionmaker(self._read_engine), self._shared
        )
        self.chat = ChatStore(self._transactions)
        self.listing = ListingStore(self._transactions)
        self.players = PlayerStore(self._transactions)
        self.quarantine = QuarantineStore(self._transactions)
        self.moderation = ModerationStore(self._transactions)
        self.reports = ReportStore(self._transactions)
        self.practice = PracticeStore(self._transactions)
        self.own_practice = OwnPracticeStore(self._transactions)
        self.relations = RelationStore(self._transactions)
        self._append_connection: Connection | None = None
        self._is_sqlite = is_sqlite
        self._action_insert = dbdriver.ActionInsert(self._engine.dialect)
        try:
            self.schema = migrate.upgrade(self._engine)
        except (SQLAlchemyError, migrate.MigrationError) as err:
            self._dispose()
            raise StorageError(f"cannot open the database {parsed.render_as_string()!r}: {err}") from err

    # -- writing --

    def create_table(
        self,
        code: str,
        settings: dict[str, Any],
        host_seat: int | None,
        seats: list[SeatRow],
        created_at: float,
    ) -> None:
        """Stores a new table, in the lobby, with its seats. A table ``code`` already stored is refused."""
        with self._transactions.write(f"create table {code!r}") as session:
            session.add(
                TableModel(
                    code=code, settings=settings, host_seat=host_seat, status="lobby", created_at=created_at
                )
            )
            session.flush()  # the table before its seats, whose foreign key needs it
            session.add_all(_seat_models(session, code, seats))

    def update_table(
        self,
        code: str,
        *,
        settings: dict[str, Any] | None = None,
        host_seat: int | Missing | None = MISSING,
        status: str | None = None,
    ) -> None:
        """Changes the given fields of a table and leaves the others. ``host_seat=None`` means the
        table has no host; leaving ``host_seat`` out keeps the current one."""
        if status is not None:
            _check_status(status)
        with self._transactions.write(f"update table {code!r}") as session:
            row = _get_table(session, code)
            if settings is not None:
                row.settings = settings
            if not isinstance(host_seat, Missing):
                row.host_seat = host_seat
            if status is not None:
                row.status = status

    def save_seats(self, code: str, seats: list[SeatRow]) -> None:
        """Replaces every seat of a table with ``seats``."""
        with self._transactions.write(f"save the seats of table {code!r}") as session:
            _get_table(session, code)
            session.execute(delete(SeatModel).where(SeatModel.table_code == code))
            session.add_all(_seat_models(session, code, seats))

    def save_lobby(
        self, code: str, seats: list[SeatRow], host_seat: int | None, left: tuple[str, int] | None = None
    ) -> None:
        """Replaces every seat of a table and sets its host, in one transaction; ``left``: the
        profile that gave up its seat in match number so-and-so, noted as a match left."""
        with self._transactions.write(f"save the lobby of table {code!r}") as session:
            row = _get_table(session, code)
            row.host_seat = host_seat
            session.execute(delete(SeatModel).where(SeatModel.table_code == code))
            session.add_all(_seat_models(session, code, seats))
            if left is not None:
                note_left(session, left[0], code, left[1])

    def start_match(
        self,
        code: str,
        number: int,
        seed: int,
        sides: list[list[int]],
        names: list[str],
        *,
        seats: list[SeatRow] | None = None,
        host_seat: int | Missing | None = MISSING,
    ) -> None:
        """Stores the start of match ``number`` (from 1) of a table, and marks the table as playing.
        ``seats`` and ``host_seat``, when given, are saved in the same transaction (a start may
        reseat everyone); the seats' profiles are then the players whose history the match is."""
        if not _INT64_MIN <= seed <= _INT64_MAX:
            raise StorageError(f"the seed {seed} does not fit in 64 bits")
        with self._transactions.write(f"start match {number} of table {code!r}") as session:
            row = _get_table(session, code)
            row.status = "playing"
            if not isinstance(host_seat, Missing):
                row.host_seat = host_seat
            if seats is not None:
                session.execute(delete(SeatModel).where(SeatModel.table_code == code))
                session.add_all(_seat_models(session, code, seats))
            session.add(
                MatchModel(
                    table_code=code,
                    number=number,
                    seed=seed,
                    sides=sides,
                    names=names,
                    finished=False,
                    profiles=None if seats is None else [row.profile for row in seats],
                )
            )

    def append_action(self, code: str, match_number: int, seq: int, seat: int, action: str) -> None:
        """Stores action number ``seq`` (from 1) of a match. It must be the next one: a ``seq`` already
        stored, or one that leaves a gap, is refused and nothing is changed. The very same action
        already stored as ``seq`` is stored: a commit that landed but was reported failed (the
        connection lost at that moment) is asked again, and must not be undone."""
        # The hot path: one INSERT on a plain connection, without the ORM's bookkeeping.
        params = ActionRow(code, match_number, seq, seat, action).params()
        what = f"store action {seq} ({action!r}) of match {match_number} of table {code!r}"
        with self._transactions.lock:
            self._transactions.check_open()
            try:
                self._insert_actions([params])
            except IntegrityError as err:
                if self._stored_action(code, match_number, seq) == (seat, action):
                    return
                raise StorageError(f"cannot {what}: {self._why_not_next(code, match_number, seq)}") from err
            except SQLAlchemyError as err:
                raise StorageError(f"cannot {what}: {reason(err)}") from err

    def append_actions(self, rows: Sequence[ActionRow]) -> None:
        """Stores the actions of several matches in one transaction: every one or, if any is refused
        (see :meth:`append_action`), none."""
        with self._transactions.lock:
            self._transactions.check_open()
            try:
                self._insert_actions([row.params() for row in rows])
            except SQLAlchemyError as err:
                raise StorageError(f"cannot store {len(rows)} actions together: {reason(err)}") from err

    def finish_match(
        self,
        code: str,
        number: int,
        record: dict[str, Any],
        outcome: MatchOutcome | None = None,
        *,
        now: float = 0.0,
    ) -> None:
        """Stores the ``smear-record/1`` document of a match that is over, marks the match finished and
        the table finished (unless a later match has started). With ``outcome``, the match also goes
        into its players' history (finished at ``now``) and rates them, in the same transaction.

        Any failure, a fault in this code's own work included, is a :class:`StorageError`."""
        what = f"finish match {number} of table {code!r}"
        try:
            self._finish_match(what, code, number, record, outcome, now)
        except StorageError:
            raise
        except Exception as err:  # the type only: the caller logs it, and a text may quote a card
            raise StorageError(f"cannot {what}: {type(err).__name__}") from err

    def _finish_match(
        self,
        what: str,
        code: str,
        number: int,
        record: dict[str, Any],
        outcome: MatchOutcome | None,
        now: float,
    ) -> None:
        with self._transactions.write(what) as session:
            match = session.get(MatchModel, (code, number))
            if match is None:
                raise StorageError(f"table {code!r} has no match {number}")
            if match.finished:
                raise StorageError(f"match {number} of table {code!r} is already finished")
            match.finished = True
            match.record = record
            if outcome is not None:
                # In a savepoint: a fault in the history leaves the match stored, and the action that
                # ended it acknowledged, without its place in the players' history.
                try:
                    with session.begin_nested():
                        self.players.record_played(session, match, outcome, record, now)
                except Exception as err:  # the database's or the ratings' and statistics' own
                    log.warning(
                        "match %d of table %s is not in the players' history (%s)",
                        number,
                        code,
                        type(err).__name__,
                        extra={
                            "event": "history_not_stored",
                            "table": code,
                            "match": number,
                            "error": type(err).__name__,
                        },
                    )
            latest = session.scalar(select(func.max(MatchModel.number)).where(MatchModel.table_code == code))
            if latest == number:
                session.execute(update(TableModel).where(TableModel.code == code).values(status="finished"))

    def delete_table(self, code: str) -> None:
        """Removes a table with its seats, matches and actions (a lobby closed for lack of players)."""
        with self._transactions.write(f"delete table {code!r}") as session:
            session.execute(delete(ActionModel).where(ActionModel.table_code == code))
            session.execute(delete(MatchModel).where(MatchModel.table_code == code))
            session.execute(delete(SeatModel).where(SeatModel.table_code == code))
            session.execute(delete(RestModel).where(RestModel.table_code == code))
            session.execute(delete(TableModel).where(TableModel.code == code))

    def set_idle(self, code: str, since: float | None, *, resting: bool = False) -> None:
        """Notes since when a table has had no person connected (``None``: someone is back), and
        whether it is put to rest. A table put to rest is left out of :meth:`unfinished_tables`."""
        with self._transactions.write(f"note the idleness of table {code!r}") as session:
            _get_table(session, code)
            row = session.get(RestModel, code)
            if row is None:
                session.add(RestModel(table_code=code, idle_since=since, resting=resting))
            else:
                row.idle_since = since
                row.resting = resting

    # -- reading --

    def unfinished_tables(self) -> list[StoredTable]:
        """Every table in its lobby or playing, neither put to rest nor quarantined (oldest first),
        with its seats and its latest match's actions in order: what a restarted server needs to put
        its tables back."""
        resting = select(RestModel.table_code).where(RestModel.resting)
        aside = select(QuarantineModel.table_code)
        live = TableModel.status.in_(("lobby", "playing"))
        with self._transactions.read("read the unfinished tables") as session:
            return _load_tables(
                session, and_(live, TableModel.code.not_in(resting), TableModel.code.not_in(aside))
            )

    def table(self, code: str) -> StoredTable | None:
        """One table with its seats and latest match, or ``None`` if there is no such table."""
        with self._transactions.read(f"read table {code!r}") as session:
            tables = _load_tables(session, TableModel.code == code)
        return tables[0] if tables else None

    def match_record(self, code: str, number: int) -> dict[str, Any] | None:
        """The ``smear-record/1`` document of a finished match, or ``None`` if it is not finished or
        does not exist."""
        if not 1 <= number <= _INT32_MAX:  # no such match, and the database could not compare it
            return None
        with self._transactions.read(f"read the record of match {number} of table {code!r}") as session:
            return session.scalar(
                select(MatchModel.record).where(
                    MatchModel.table_code == code, MatchModel.number == number, MatchModel.finished
                )
            )

    def finished_matches(self, code: str) -> list[int]:
        """The numbers of a table's finished matches, in order (empty for an unknown table)."""
        with self._transactions.read(f"list the finished matches of table {code!r}") as session:
            numbers = session.scalars(
                select(MatchModel.number)
                .where(MatchModel.table_code == code, MatchModel.finished)
                .order_by(MatchModel.number)
            )
            return list(numbers)

    def checkpoint(self) -> None:
        """Copies SQLite's write-ahead log into the database file, which its commits no longer do
        (see :mod:`smear.server.storage.dbdriver`); nothing on another database."""
        if not self._is_sqlite:
            return
        with self._transactions.lock:
            if self._transactions.closed:  # the last write was the close, which checkpoints
                return
            driver = self._appending().connection.driver_connection
            dbdriver.checkpoint(driver)

    # -- lifetime --

    def ping(self) -> None:
        """Asks the database for nothing, on a reading connection: a :class:`StorageError` if it
        cannot be reached (the readiness check, ``/ready``)."""
        with self._transactions.read("reach the database") as session:
            session.execute(select(1))

    def close(self) -> None:
        """Closes the database's connections. The object may not be used afterwards."""
        with self._transactions.lock:
            self._transactions.closed = True
            self._dispose()

    def _dispose(self) -> None:
        if self._append_connection is not None:
            self._append_connection.close()
            self._append_connection = None
        self._engine.dispose()
        if self._read_engine is not self._engine:
            self._read_engine.dispose()

    def __enter__(self) -> Storage:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    # -- internals --

    def _insert_actions(self, rows: list[dict[str, Any]]) -> None:
        """Inserts action rows in one transaction (the caller holds the lock), on a connection kept
        open for it rather than taken from the pool and given back for each one: the checkout and
        the pool's reset cost as much as the INSERT."""
        connection = self._appending()
        with connection.begin():
            self._action_insert(connection, rows)

    def _appending(self) -> Connection:
        """The connection the actions are appended on, opened at the first use."""
        if self._append_connection is None:
            self._append_connection = self._engine.connect()
        return self._append_connection

    def _stored_action(self, code: str, match_number: int, seq: int) -> tuple[int, str] | None:
        """The seat and action stored as ``seq`` of a match, if any (read only after a refusal)."""
        try:
            with self._transactions.sessions.begin() as session:
                row = session.get(ActionModel, (code, match_number, seq))
                return None if row is None else (row.seat, row.action)
        except SQLAlchemyError:
            return None

    def _why_not_next(self, code: str, match_number: int, seq: int) -> str:
        """Why action ``seq`` was refused; read only after a failure, to keep the hot path a bare INSERT."""
        try:
            with self._transactions.sessions.begin() as session:
                if session.get(MatchModel, (code, match_number)) is None:
                    return f"table {code!r} has no match {match_number}"
                last = session.scalar(
                    select(func.max(ActionModel.seq)).where(
                        ActionModel.table_code == code, ActionModel.match_number == match_number
                    )
                )
        except SQLAlchemyError as err:
            return reason(err)
        last = last or 0
        if seq < 1:
            return f"actions are numbered from 1, not {seq}"
        if seq <= last:
            return f"action {seq} is already stored (the last is {last})"
        return f"the next action is {last + 1}, not {seq}"


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise StorageError(f"unknown table status {status!r}: expected one of {', '.join(STATUSES)}")


def _get_table(session: Session, code: str) -> TableModel:
    row = session.get(TableModel, code)
    if row is None:
        raise StorageError(f"no table {code!r}")
    return row


def _seat_models(session: Session, code: str, seats: list[SeatRow]) -> list[SeatModel]:
    """The rows of ``seats``. A profile deleted since the seat was taken is not written back (a
    process that had not heard of the deletion yet may still hold it): its seat is stored without."""
    known = existing_profiles(session, (s.profile for s in seats))
    return [
        SeatModel(
            table_code=code,
            seat=s.seat,
            name=s.name,
            token_hash=s.token_hash,
            is_bot=s.is_bot,
            profile_id=s.profile if s.profile in known else None,
        )
        for s in seats
    ]


def _load_tables(session: Session, which: ColumnElement[bool]) -> list[StoredTable]:
    """The tables matching ``which``, each with its seats, latest match, idleness and quarantine:
    six queries however many tables there are."""
    tables = session.scalars(
        select(TableModel).where(which).order_by(TableModel.created_at, TableModel.code)
    ).all()
    if not tables:
        return []

    seats: defaultdict[str, list[SeatRow]] = defaultdict(list)
    for seat in session.scalars(
        select(SeatModel).join(TableModel).where(which).order_by(SeatModel.table_code, SeatModel.seat)
    ):
        seats[seat.table_code].append(
            SeatRow(seat.seat, seat.name, seat.token_hash, seat.is_bot, seat.profile_id)
        )

    latest = (
        select(MatchModel.table_code, func.max(MatchModel.number).label("number"))
        .join(TableModel)
        .where(which)
        .group_by(MatchModel.table_code)
        .subquery()
    )
    matches = {
        match.table_code: match
        for match in session.scalars(
            select(MatchModel).join(
                latest,
                and_(MatchModel.table_code == latest.c.table_code, MatchModel.number == latest.c.number),
            )
        )
    }
    rests = {
        rest.table_code: rest for rest in session.scalars(select(RestModel).join(TableModel).where(which))
    }
    aside = set(session.scalars(select(QuarantineModel.table_code).join(TableModel).where(which)))
    actions: defaultdict[str, list[tuple[int, str]]] = defaultdict(list)
    for table_code, seat_number, action in session.execute(
        select(ActionModel.table_code, ActionModel.seat, ActionModel.action)
        .join(
            latest,
            and_(
                ActionModel.table_code == latest.c.table_code,
                ActionModel.match_number == latest.c.number,
            ),
        )
        .order_by(ActionModel.table_code, ActionModel.seq)
    ):
        actions[table_code].append((seat_number, action))

    result = []
    for table in tables:
        match = matches.get(table.code)
        current = None
        if match is not None:
            current = MatchRow(
                number=match.number,
                seed=match.seed,
                sides=match.sides,
                names=match.names,
                actions=actions[table.code],
                finished=match.finished,
            )
        result.append(
            StoredTable(
                code=table.code,
                settings=table.settings,
                host_seat=table.host_seat,
                status=table.status,
                created_at=table.created_at,
                seats=seats[table.code],
                current_match=current,
                idle_since=rests[table.code].idle_since if table.code in rests else None,
                resting=rests[table.code].resting if table.code in rests else False,
                quarantined=table.code in aside,
            )
        )
    return result
