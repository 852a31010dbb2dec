"""The storage thread's group commit: actions waiting together share one transaction, each caller
hears of its own write only, and every write keeps the order it was asked in. Each test runs on a
SQLite file and on a real PostgreSQL database (``tests/support/dbservers.py``)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from smear.server.storage.database import Storage, StorageError
from smear.server.storage.rows import ActionRow, SeatRow
from smear.server.storage.writer import StorageWriter

TABLES = ["T0", "T1", "T2", "T3", "T4"]


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'smear.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    storage = Storage(url)
    for code in TABLES:
        storage.create_table(code, {"rules": "house"}, 0, [SeatRow(0, "Ann", None, False)], 0.0)
        storage.start_match(code, 1, seed=7, sides=[[0], [1], [2]], names=["Ann", "Bo", "Cy"])
    yield storage
    storage.close()


def commits(storage: Storage) -> list[int]:
    """A list that grows by one at each commit of a write."""
    seen: list[int] = []
    event.listen(storage._engine, "commit", lambda _connection: seen.append(1))
    return seen


def actions(storage: Storage, code: str) -> list[tuple[int, str]]:
    stored = storage.table(code)
    assert stored is not None and stored.current_match is not None
    return stored.current_match.actions


async def held(writer: StorageWriter) -> tuple[threading.Event, asyncio.Future[Any]]:
    """Keeps the storage thread busy until the event is set, so that the writes asked meanwhile
    wait together."""
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        entered.set()
        release.wait(10)

    busy = asyncio.ensure_future(writer.call(hold))
    while not entered.is_set():
        await asyncio.sleep(0.001)
    return release, busy


async def until_queued(writer: StorageWriter, count: int) -> None:
    while writer._jobs.qsize() < count:
        await asyncio.sleep(0.001)


async def together(writer: StorageWriter, work: list[Awaitable[Any]]) -> list[Any]:
    """Asks for every write of ``work`` while the thread is busy, then lets it go: the outcomes (an
    exception for a write that failed), in order."""
    release, busy = await held(writer)
    futures = [asyncio.ensure_future(write) for write in work]
    await until_queued(writer, len(work))
    release.set()
    outcomes = await asyncio.gather(busy, *futures, return_exceptions=True)
    return outcomes[1:]


def test_actions_waiting_together_are_stored_in_one_transaction(storage: Storage) -> None:
    async def scenario() -> None:
        writer = StorageWriter(storage)
        counted = commits(storage)
        work = [writer.append(ActionRow(code, 1, 1, 1, "bid 2")) for code in TABLES]
        outcomes = await together(writer, work)
        assert outcomes == [None] * len(TABLES)
        assert len(counted) == 1
        for code in TABLES:
            assert actions(storage, code) == [(1, "bid 2")]
        # Alone, an action is a transaction of its own.
        await writer.append(ActionRow("T0", 1, 2, 2, "pass"))
        assert len(counted) == 2 and actions(storage, "T0") == [(1, "bid 2"), (2, "pass")]
        await writer.close()

    asyncio.run(scenario())


def test_a_refused_action_fails_its_own_caller_and_the_others_are_stored(storage: Storage) -> None:
    async def scenario() -> None:
        writer = StorageWriter(storage)
        rows = [ActionRow(code, 1, 1, 1, "bid 2") for code in TABLES]
        rows[2] = ActionRow("T2", 1, 5, 1, "bid 2")  # a gap: actions 1 to 4 are missing
        rows.append(ActionRow("T4", 1, 1, 2, "pass"))  # action 1 of T4 again
        outcomes = await together(writer, [writer.append(row) for row in rows])
        assert [type(outcome) for outcome in outcomes] == [
            type(None),
            type(None),
            StorageError,
            type(None),
            type(None),
            StorageError,
        ]
        assert "action 5" in str(outcomes[2]) and "action 1" in str(outcomes[5])
        assert actions(storage, "T2") == []
        for code in ("T0", "T1", "T3", "T4"):
            assert actions(storage, code) == [(1, "bid 2")]
        await writer.close()

    asyncio.run(scenario())


def test_writes_keep_the_order_they_were_asked_in(storage: Storage) -> None:
    async def scenario() -> None:
        writer = StorageWriter(storage)
        order: list[str] = []

        def note(name: str) -> Callable[[], None]:
            return lambda: order.append(name)

        work = [
            writer.append(ActionRow("T0", 1, 1, 1, "pass"), after=note("after T0")),
            writer.call(note("call 1")),
            writer.append(ActionRow("T1", 1, 1, 1, "pass"), after=note("after T1")),
            writer.append(ActionRow("T2", 1, 1, 1, "pass"), after=note("after T2")),
            writer.call(note("call 2")),
        ]
        assert await together(writer, work) == [None] * len(work)
        assert order == ["after T0", "call 1", "after T1", "after T2", "call 2"]
        await writer.close()

    asyncio.run(scenario())


def test_what_follows_an_action_runs_only_once_it_is_stored_and_its_failure_leaves_the_action_stored(
    storage: Storage,
) -> None:
    async def scenario() -> None:
        writer = StorageWriter(storage)
        ran: list[str] = []
        with pytest.raises(StorageError):
            await writer.append(ActionRow("T0", 1, 3, 1, "pass"), after=lambda: ran.append("T0"))
        assert ran == []

        def fails() -> None:
            raise StorageError("the record could not be written")

        def breaks() -> None:
            raise RuntimeError("a fault in the ratings")

        # The action is committed, so the caller is told it stands, with what went wrong after it.
        failed = await writer.append(ActionRow("T1", 1, 1, 1, "pass"), after=fails)
        assert isinstance(failed, StorageError) and "record" in str(failed)
        assert actions(storage, "T1") == [(1, "pass")]
        # Any fault, in a group too: the other actions and what follows them are not disturbed.
        work = [
            writer.append(ActionRow("T2", 1, 1, 1, "pass"), after=breaks),
            writer.append(ActionRow("T3", 1, 1, 1, "pass"), after=lambda: ran.append("T3")),
        ]
        outcomes = await together(writer, work)
        assert isinstance(outcomes[0], RuntimeError) and outcomes[1] is None
        assert ran == ["T3"]
        for code in ("T2", "T3"):
            assert actions(storage, code) == [(1, "pass")]
        await writer.close()

    asyncio.run(scenario())


def test_a_group_committed_but_reported_failed_stands_and_is_not_refused_as_stored_already(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit of a group lands, then the driver reports an error (a connection lost at that
    moment): each action, asked again alone, finds itself stored and stands; a different action at a
    number already taken is still refused."""
    commit_group = storage.append_actions

    def landed_but_failed(rows: list[ActionRow]) -> None:
        commit_group(rows)
        raise StorageError("the connection was lost")

    monkeypatch.setattr(storage, "append_actions", landed_but_failed)

    async def scenario() -> None:
        writer = StorageWriter(storage)
        rows = [ActionRow(code, 1, 1, 1, "bid 2") for code in TABLES]
        outcomes = await together(writer, [writer.append(row) for row in rows])
        assert outcomes == [None] * len(TABLES)
        for code in TABLES:
            assert actions(storage, code) == [(1, "bid 2")]
        with pytest.raises(StorageError, match="already stored"):
            await writer.append(ActionRow("T0", 1, 1, 2, "pass"))
        await writer.close()

    asyncio.run(scenario())


def test_a_caller_that_stops_waiting_leaves_the_others_their_results(storage: Storage) -> None:
    async def scenario() -> None:
        writer = StorageWriter(storage)
        release, busy = await held(writer)
        gone = asyncio.ensure_future(writer.append(ActionRow("T0", 1, 1, 1, "pass")))
        kept = asyncio.ensure_future(writer.append(ActionRow("T1", 1, 1, 1, "pass")))
        await until_queued(writer, 2)
        gone.cancel()
        release.set()
        await asyncio.gather(busy, kept)
        assert gone.cancelled()
        assert actions(storage, "T0") == [(1, "pass")]  # asked for, so written all the same
        assert actions(storage, "T1") == [(1, "pass")]
        await writer.close()

    asyncio.run(scenario())


def test_closing_finishes_the_writes_asked_for_then_closes_the_storage(storage: Storage) -> None:
    async def scenario() -> None:
        writer = StorageWriter(storage)
        release, busy = await held(writer)
        pending = [asyncio.ensure_future(writer.append(ActionRow(code, 1, 1, 1, "pass"))) for code in TABLES]
        await until_queued(writer, len(TABLES))
        closing = asyncio.ensure_future(writer.close())
        await until_queued(writer, len(TABLES) + 1)
        release.set()
        await asyncio.gather(busy, closing, *pending)
        assert not writer._thread.is_alive()
        with pytest.raises(StorageError):
            storage.append_action("T0", 1, 2, 1, "pass")

    asyncio.run(scenario())
    reopened = Storage(storage._engine.url.render_as_string(hide_password=False))
    try:
        for code in TABLES:
            assert actions(reopened, code) == [(1, "pass")]
    finally:
        reopened.close()


def stored_in_the_file_itself(storage: Storage, path: Path, copy: Path) -> int:
    """The actions the database file holds without its write-ahead log (a copy of the file alone,
    taken under the storage's lock so that no checkpoint is writing the file meanwhile)."""
    with storage._transactions.lock:
        copy.write_bytes(path.read_bytes())
    connection = sqlite3.connect(copy)
    try:
        if connection.execute("SELECT count(*) FROM sqlite_master WHERE name = 'actions'").fetchone()[0] == 0:
            return 0  # the schema itself is still in the log only
        return int(connection.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        connection.close()


def test_sqlite_s_log_reaches_the_database_between_writes_never_inside_a_commit(tmp_path: Path) -> None:
    path = tmp_path / "smear.db"
    storage = Storage(f"sqlite:///{path}")
    storage.create_table("T0", {"rules": "house"}, 0, [SeatRow(0, "Ann", None, False)], 0.0)
    storage.start_match("T0", 1, seed=7, sides=[[0], [1], [2]], names=["Ann", "Bo", "Cy"])
    before = stored_in_the_file_itself(storage, path, tmp_path / "before.db")
    # Far more pages than SQLite's automatic checkpoint lets a commit write (1000): no commit copied them.
    for seq in range(1, 1501):
        storage.append_action("T0", 1, seq, seq % 3, "pass")
    assert stored_in_the_file_itself(storage, path, tmp_path / "during.db") == before

    async def scenario() -> None:
        writer = StorageWriter(storage, checkpoint_pause=0.0)
        await writer.append(ActionRow("T0", 1, 1501, 0, "pass"))
        # The checkpoint follows the answer to the write, once no other write waits.
        deadline = asyncio.get_running_loop().time() + 30
        while stored_in_the_file_itself(storage, path, tmp_path / "after.db") != before + 1501:
            assert asyncio.get_running_loop().time() < deadline, "the log was never copied"
            await asyncio.sleep(0.01)
        await writer.close()

    asyncio.run(scenario())
