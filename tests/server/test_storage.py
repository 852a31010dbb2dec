"""The server's storage (smear.server.storage.database): round trips, the action sequence, crash durability.

Every test that takes ``url`` (or ``storage``) runs twice: on a SQLite file and on a database of a
real PostgreSQL server that the tests start themselves (``tests/support/dbservers.py``)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from smear.server.storage.database import Storage, StorageError
from smear.server.storage.rows import MatchRow, SeatRow, StoredTable

SETTINGS: dict[str, Any] = {"preset": "house", "players": 4, "teams": True, "target": 21, "hints": False}
SEATS = [
    SeatRow(0, "Ayse", "hash-0", False),
    SeatRow(1, None, None, False),
    SeatRow(2, "Bot 1", None, True),
    SeatRow(3, "Sam", "hash-3", False),
]
SIDES = [[0, 2], [1, 3]]
NAMES = ["Ayse", "Kemal", "Bot 1", "Sam"]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'smear.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest) -> str:
    found: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    return found


@pytest.fixture
def storage(url: str) -> Iterator[Storage]:
    with Storage(url) as opened:
        yield opened


def new_table(storage: Storage, code: str = "ABCD", created_at: float = 100.0) -> None:
    storage.create_table(code, SETTINGS, 0, SEATS, created_at)


def stored(storage: Storage, code: str = "ABCD") -> StoredTable:
    table = storage.table(code)
    assert table is not None
    return table


def actions_of(storage: Storage, code: str = "ABCD") -> list[tuple[int, str]]:
    match = stored(storage, code).current_match
    assert match is not None
    return match.actions


def test_create_table_round_trips(storage: Storage) -> None:
    new_table(storage)
    assert storage.table("ABCD") == StoredTable(
        code="ABCD",
        settings=SETTINGS,
        host_seat=0,
        status="lobby",
        created_at=100.0,
        seats=SEATS,
        current_match=None,
    )
    assert storage.table("ZZZZ") is None


def test_create_table_refuses_a_code_already_stored(storage: Storage) -> None:
    new_table(storage)
    with pytest.raises(StorageError, match="create table 'ABCD'"):
        storage.create_table("ABCD", {}, None, [], 200.0)
    assert stored(storage).settings == SETTINGS


def test_update_table_changes_only_the_fields_given(storage: Storage) -> None:
    new_table(storage)
    storage.update_table("ABCD", status="playing")
    table = stored(storage)
    assert (table.status, table.host_seat, table.settings) == ("playing", 0, SETTINGS)

    storage.update_table("ABCD", host_seat=None)
    table = stored(storage)
    assert (table.status, table.host_seat, table.settings) == ("playing", None, SETTINGS)

    storage.update_table("ABCD", settings={"preset": "ten_point"}, host_seat=3)
    table = stored(storage)
    assert (table.status, table.host_seat, table.settings) == ("playing", 3, {"preset": "ten_point"})

    storage.update_table("ABCD")  # nothing given: nothing changes
    assert stored(storage) == table


def test_update_table_refuses_an_unknown_table_or_status(storage: Storage) -> None:
    new_table(storage)
    with pytest.raises(StorageError, match="no table 'ZZZZ'"):
        storage.update_table("ZZZZ", status="playing")
    with pytest.raises(StorageError, match="unknown table status 'over'"):
        storage.update_table("ABCD", status="over")
    assert stored(storage).status == "lobby"


def test_save_seats_replaces_every_seat(storage: Storage) -> None:
    new_table(storage)
    seats = [SeatRow(0, "Ayse", "hash-0", False), SeatRow(1, "Kemal", "hash-1", False)]
    storage.save_seats("ABCD", seats)
    assert stored(storage).seats == seats
    storage.save_seats("ABCD", [])
    assert stored(storage).seats == []
    with pytest.raises(StorageError, match="no table 'ZZZZ'"):
        storage.save_seats("ZZZZ", seats)


def test_start_match_stores_the_match_and_marks_the_table_playing(storage: Storage) -> None:
    new_table(storage)
    storage.start_match("ABCD", 1, seed=2**62 - 1, sides=SIDES, names=NAMES)
    table = stored(storage)
    assert table.status == "playing"
    assert table.current_match == MatchRow(
        number=1, seed=2**62 - 1, sides=SIDES, names=NAMES, actions=[], finished=False
    )


def test_start_match_refuses_a_repeated_number_an_unknown_table_and_a_huge_seed(storage: Storage) -> None:
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    with pytest.raises(StorageError, match="start match 1 of table 'ABCD'"):
        storage.start_match("ABCD", 1, 6, SIDES, NAMES)
    with pytest.raises(StorageError, match="no table 'ZZZZ'"):
        storage.start_match("ZZZZ", 1, 5, SIDES, NAMES)
    with pytest.raises(StorageError, match="64 bits"):
        storage.start_match("ABCD", 2, 2**64, SIDES, NAMES)
    match = stored(storage).current_match
    assert match is not None and (match.number, match.seed) == (1, 5)


def test_append_action_keeps_the_actions_in_order(storage: Storage) -> None:
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    taken = [(1, "bid 2"), (2, "pass"), (3, "bid 3"), (0, "pass"), (3, "Ah"), (0, "BJ")]
    for seq, (seat, action) in enumerate(taken, start=1):
        storage.append_action("ABCD", 1, seq, seat, action)
    assert actions_of(storage) == taken


def test_a_long_discard_is_stored_whole(storage: Storage) -> None:
    """A widow bidder's discard runs past 64 characters (PostgreSQL refused it in a VARCHAR(64))."""
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    discard = "discard " + " ".join(f"{rank}{suit}" for suit in "cdhs" for rank in "23456789TJQKA")
    assert len(discard) > 150
    storage.append_action("ABCD", 1, 1, 0, discard)
    assert actions_of(storage) == [(0, discard)]


@pytest.mark.parametrize(
    ("seq", "reason"),
    [
        (2, "action 2 is already stored"),
        (1, "action 1 is already stored"),
        (4, "the next action is 3, not 4"),
        (0, "numbered from 1, not 0"),
        (-1, "numbered from 1, not -1"),
    ],
)
def test_append_action_refuses_a_duplicate_or_a_gap(storage: Storage, seq: int, reason: str) -> None:
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    storage.append_action("ABCD", 1, 1, 1, "pass")
    storage.append_action("ABCD", 1, 2, 2, "pass")
    with pytest.raises(StorageError, match=reason):
        storage.append_action("ABCD", 1, seq, 3, "bid 4")
    assert actions_of(storage) == [(1, "pass"), (2, "pass")]
    storage.append_action("ABCD", 1, 3, 3, "bid 4")  # the refusal left nothing half done
    assert actions_of(storage) == [(1, "pass"), (2, "pass"), (3, "bid 4")]


def test_append_action_refuses_a_gap_before_the_first_action(storage: Storage) -> None:
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    with pytest.raises(StorageError, match="the next action is 1, not 2"):
        storage.append_action("ABCD", 1, 2, 1, "pass")
    assert actions_of(storage) == []


def test_append_action_refuses_an_unknown_match(storage: Storage) -> None:
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    with pytest.raises(StorageError, match="table 'ABCD' has no match 2"):
        storage.append_action("ABCD", 2, 1, 1, "pass")
    with pytest.raises(StorageError, match="table 'ZZZZ' has no match 1"):
        storage.append_action("ZZZZ", 1, 1, 1, "pass")


def test_each_match_has_its_own_actions_and_the_latest_is_current(storage: Storage) -> None:
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    storage.append_action("ABCD", 1, 1, 1, "bid 2")
    storage.finish_match("ABCD", 1, {"format": "smear-record/1"})
    storage.update_table("ABCD", status="lobby")
    storage.start_match("ABCD", 2, 6, SIDES, NAMES)
    storage.append_action("ABCD", 2, 1, 2, "pass")
    storage.append_action("ABCD", 2, 2, 3, "bid 3")
    match = stored(storage).current_match
    assert match == MatchRow(2, 6, SIDES, NAMES, [(2, "pass"), (3, "bid 3")], finished=False)


def test_finish_match_stores_the_record(storage: Storage) -> None:
    record: dict[str, Any] = {
        "format": "smear-record/1",
        "rules": {"preset": "house", "target": 11},
        "players": NAMES,
        "teams": SIDES,
        "start_scores": None,
        "hands": [{"dealer": 3, "deal": [["Ah", "BJ"], [], [], []], "actions": ["pass", "bid 2"]}],
        "note": "Ünïcode ♠ and a float 0.5",
    }
    new_table(storage)
    storage.start_match("ABCD", 1, 5, SIDES, NAMES)
    assert storage.match_record("ABCD", 1) is None  # not finished yet
    assert storage.finished_matches("ABCD") == []

    storage.finish_match("ABCD", 1, record)
    assert storage.match_record("ABCD", 1) == record
    assert storage.finished_matches("ABCD") == [1]
    table = stored(storage)
    assert table.status == "finished"
    assert table.current_match is not None and table.current_match.finished

    with pytest.raises(StorageError, match="already finished"):
        storage.finish_match("ABCD", 1, {})
    with pytest.raises(StorageError, match="table 'ABCD' has no match 2"):
        storage.finish_match("ABCD", 2, record)
    assert storage.match_record("ABCD", 1) == record
    assert storage.match_record("ABCD", 2) is None
    assert storage.match_record("ZZZZ", 1) is None
    assert storage.finished_matches("ZZZZ") == []


def test_finished_matches_lists_every_finished_match_in_order(storage: Storage) -> None:
    new_table(storage)
    for number in (1, 2, 3):
        storage.start_match("ABCD", number, number, SIDES, NAMES)
        if number < 3:
            storage.finish_match("ABCD", number, {"match": number})
    assert storage.finished_matches("ABCD") == [1, 2]
    assert storage.match_record("ABCD", 2) == {"match": 2}


def test_unfinished_tables_gives_lobby_and_playing_tables_with_their_latest_actions(storage: Storage) -> None:
    new_table(storage, "LOBB", created_at=30.0)
    new_table(storage, "PLAY", created_at=10.0)
    new_table(storage, "DONE", created_at=20.0)
    new_table(storage, "AGIN", created_at=40.0)

    storage.start_match("PLAY", 1, 11, SIDES, NAMES)
    for seq in range(1, 13):
        storage.append_action("PLAY", 1, seq, seq % 4, f"bid {seq}")

    storage.start_match("DONE", 1, 12, SIDES, NAMES)
    storage.append_action("DONE", 1, 1, 1, "pass")
    storage.finish_match("DONE", 1, {"done": True})

    # A table that finished a match and started another: only the new match's actions come back.
    storage.start_match("AGIN", 1, 13, SIDES, NAMES)
    storage.append_action("AGIN", 1, 1, 1, "old")
    storage.finish_match("AGIN", 1, {})
    storage.start_match("AGIN", 2, 14, SIDES, NAMES)
    storage.append_action("AGIN", 2, 1, 2, "new 1")
    storage.append_action("AGIN", 2, 2, 3, "new 2")

    tables = storage.unfinished_tables()
    assert [t.code for t in tables] == ["PLAY", "LOBB", "AGIN"]  # oldest first
    play, lobby, again = tables
    assert play.status == "playing" and play.seats == SEATS and play.settings == SETTINGS
    assert play.current_match == MatchRow(
        1, 11, SIDES, NAMES, [(seq % 4, f"bid {seq}") for seq in range(1, 13)], finished=False
    )
    assert lobby == StoredTable("LOBB", SETTINGS, 0, "lobby", 30.0, SEATS, None)
    assert again.current_match == MatchRow(2, 14, SIDES, NAMES, [(2, "new 1"), (3, "new 2")], False)


def test_unfinished_tables_is_empty_without_tables(storage: Storage) -> None:
    assert storage.unfinished_tables() == []


def test_a_second_storage_on_the_same_file_sees_everything(url: str) -> None:
    with Storage(url) as first:
        new_table(first)
        first.start_match("ABCD", 1, 5, SIDES, NAMES)
        first.append_action("ABCD", 1, 1, 1, "pass")
    with Storage(url) as second:
        assert actions_of(second) == [(1, "pass")]
        assert [t.code for t in second.unfinished_tables()] == ["ABCD"]


def test_sqlite_files_use_write_ahead_logging(sqlite_url: str, tmp_path: Path) -> None:
    with Storage(sqlite_url):
        pass
    connection = sqlite3.connect(tmp_path / "smear.db")
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        connection.close()


def test_a_write_refused_while_another_process_holds_the_file_is_a_storage_error_and_later_writes_go_on(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("smear.server.storage.dbdriver.BUSY_TIMEOUT_SECONDS", 0.05)
    with Storage(sqlite_url) as storage:
        new_table(storage)
        storage.start_match("ABCD", 1, 5, SIDES, NAMES)
        storage.append_action("ABCD", 1, 1, 1, "pass")
        other = sqlite3.connect(tmp_path / "smear.db", isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the busy timeout
            with pytest.raises(StorageError, match="locked"):
                storage.append_action("ABCD", 1, 2, 2, "pass")
            with pytest.raises(StorageError, match="locked"):
                storage.update_table("ABCD", status="finished")
            other.execute("ROLLBACK")
        finally:
            other.close()
        storage.append_action("ABCD", 1, 2, 2, "pass")
        assert actions_of(storage) == [(1, "pass"), (2, "pass")]
        assert stored(storage).status == "playing"


# The child stores a table and a match, then kills itself the instant the last append_action
# returns: no close(), no interpreter shutdown, no chance to flush anything later.
CRASHING_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from smear.server.storage.database import Storage
    from smear.server.storage.rows import SeatRow

    storage = Storage(sys.argv[1])
    count = int(sys.argv[2])
    storage.create_table("KILL", {"preset": "house"}, 0, [SeatRow(0, "Ayse", "h", False)], 1.0)
    storage.start_match("KILL", 1, 99, [[0], [1], [2]], ["Ayse", "Kemal", "Sam"])
    for seq in range(1, count + 1):
        storage.append_action("KILL", 1, seq, seq % 3, f"action {seq}")
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_every_acknowledged_action_survives_the_process_being_killed(url: str) -> None:
    count = 300
    child = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, url, str(count)], capture_output=True, text=True, timeout=120
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    with Storage(url) as storage:
        [table] = storage.unfinished_tables()
        assert table.code == "KILL" and table.status == "playing"
        assert table.current_match is not None
        assert table.current_match.actions == [(seq % 3, f"action {seq}") for seq in range(1, count + 1)]
        storage.append_action("KILL", 1, count + 1, 0, "after the crash")  # the sequence goes on


def test_an_in_memory_database_works_for_one_storage() -> None:
    with Storage("sqlite:///:memory:") as storage:
        new_table(storage)
        storage.start_match("ABCD", 1, 5, SIDES, NAMES)
        storage.append_action("ABCD", 1, 1, 1, "pass")
        storage.finish_match("ABCD", 1, {"format": "smear-record/1"})
        assert storage.finished_matches("ABCD") == [1]
        assert storage.match_record("ABCD", 1) == {"format": "smear-record/1"}
        assert stored(storage).status == "finished"


def test_calls_from_several_threads_are_kept_apart() -> None:
    with Storage("sqlite:///:memory:") as storage:
        codes = [f"T{n}" for n in range(4)]
        for code in codes:
            new_table(storage, code)
            storage.start_match(code, 1, 5, SIDES, NAMES)
        errors: list[BaseException] = []

        def write(code: str) -> None:
            try:
                for seq in range(1, 101):
                    storage.append_action(code, 1, seq, seq % 4, str(seq))
                    storage.table(code)
            except BaseException as err:  # reported by the main thread
                errors.append(err)

        threads = [threading.Thread(target=write, args=(code,)) for code in codes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        for code in codes:
            assert actions_of(storage, code) == [(seq % 4, str(seq)) for seq in range(1, 101)]


def test_a_closed_storage_refuses_calls(url: str) -> None:
    storage = Storage(url)
    storage.close()
    with pytest.raises(StorageError, match="closed"):
        storage.table("ABCD")
    with pytest.raises(StorageError, match="closed"):
        storage.append_action("ABCD", 1, 1, 0, "pass")


def test_a_deleted_profile_is_not_written_back_to_a_seat(storage: Storage) -> None:
    """A process that had not heard of a deletion saves the seat with the profile it held: the seat
    is stored without it, in every write of seats."""
    storage.players.create_profile("ann-profile", "Ann", "secret-hash", 1.0)
    storage.players.create_profile("ben-profile", "Ben", "secret-hash-2", 1.0)
    seats = [
        SeatRow(0, "Ann", "hash-0", False, "ann-profile"),
        SeatRow(1, "Ben", "hash-1", False, "ben-profile"),
    ]
    storage.create_table("ABCD", SETTINGS, 0, seats, 100.0)

    def profiles(code: str = "ABCD") -> list[str | None]:
        return [seat.profile for seat in stored(storage, code).seats]

    assert profiles() == ["ann-profile", "ben-profile"]
    storage.players.delete_profile("ann-profile")
    assert profiles() == [None, "ben-profile"]
    storage.save_lobby("ABCD", seats, 0)
    assert profiles() == [None, "ben-profile"]
    storage.save_seats("ABCD", seats)
    assert profiles() == [None, "ben-profile"]
    storage.start_match("ABCD", 1, 5, [[0], [1]], ["Ann", "Ben"], seats=seats)
    assert profiles() == [None, "ben-profile"]
    storage.create_table("EFGH", SETTINGS, 0, seats, 100.0)
    assert profiles("EFGH") == [None, "ben-profile"]
