"""A stored action stands, and one broken table never stops the others.

The record of a finished match is stored after the action that ended it: if that fails, the action
stands, the players see the match over, and the record is tried again (at each sweep, at a
restart) until it lands or the table is put aside. A table whose stored match no longer replays is
put aside at the start; every other table is served. A table put aside is counted on ``/health``,
listed by ``smear db quarantined``, answered ``table_unavailable``, and brought back by
``smear db release`` once fixed.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from serverkit import (
    FAST,
    Client,
    Session,
    create,
    free_port,
    get_json,
    join,
    resume,
    running_server,
    server_process,
    session,
)

from smear.cli import cli
from smear.server.limits import Limits
from smear.server.storage.database import Storage
from smear.server.storage.playerstore import MatchOutcome, PlayerStore
from smear.server.storage.rows import StoredTable
from smear.server.tables.live import TableStore
from smear.server.tables.table import Table

LIMITS = Limits(tables_per_hour=0, connections_per_address=0)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


def finish_failing(monkeypatch: pytest.MonkeyPatch, times: int | None) -> list[int]:
    """``Storage.finish_match`` raises a RuntimeError (a fault in the ratings, say) its first
    ``times`` calls (every call for None); the list grows by one at each call."""
    real = Storage.finish_match
    calls: list[int] = []

    def finish_match(self: Storage, *args: Any, **kwargs: Any) -> None:
        calls.append(1)
        if times is None or len(calls) <= times:
            raise RuntimeError("a fault in the ratings")
        real(self, *args, **kwargs)

    monkeypatch.setattr(Storage, "finish_match", finish_match)
    return calls


def over(state: dict[str, Any]) -> bool:
    return bool(state["table"]["status"] == "finished")


async def play_to_the_end(host: Client) -> dict[str, Any]:
    """The host plays its first legal action at each of its turns (bots hold the other seats)
    until it is sent a state with the match over; returns that state."""
    after = (await host.send("start"))["version"] - 1
    while True:
        state = await host.wait_for(
            lambda st, a=after: st["version"] > a and (over(st) or bool(st["game"]["legal"])), timeout=60
        )
        if over(state):
            return state
        reply = await host.send("act", version=state["version"], action=state["game"]["legal"][0]["text"])
        assert reply["ok"], reply
        after = reply["version"] - 1  # the state it made may be this seat's turn again


def stored_match(storage: Storage, code: str) -> tuple[int, bool]:
    """How many actions the table's current match has in storage, and whether it is finished."""
    stored = storage.table(code)
    assert stored is not None and stored.current_match is not None
    return len(stored.current_match.actions), stored.current_match.finished


def quarantined_command(database: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["db", "quarantined", "--database", f"sqlite:///{database}"])
    return result.exit_code, result.output


def release_command(database: Path, code: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["db", "release", code, "--database", f"sqlite:///{database}"])
    return result.exit_code, result.output


def warnings_about(caplog: pytest.LogCaptureFixture, code: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and code in r.getMessage()]


def test_a_record_that_fails_leaves_the_last_action_standing_and_lands_at_the_next_sweep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls = finish_failing(monkeypatch, times=1)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            host = await s.with_bots("Host", players=3, target=11)
            code = host.table or ""
            final = await play_to_the_end(host)
            table = s.server.live.tables[code]
            # The last action stands, stored and shown: the players see the match over.
            assert final["game"]["public"]["phase"] == "match_over"
            assert table.status == "finished" and table.version == final["version"]
            assert stored_match(s.server.storage, code) == (table.action_count, False)
            # Nothing is retried at the table's pace: no move is due, and the record was tried once.
            assert code not in s.server.live.timers and calls == [1]
            assert await get_json(f"{s.url}/tables/{code}/matches/1/record.json") == (
                404,
                {"error": "no finished match there"},
            )

            await s.server.sweep()
            assert calls == [1, 1]
            assert stored_match(s.server.storage, code) == (table.action_count, True)
            status, record = await get_json(f"{s.url}/tables/{code}/matches/1/record.json")
            assert status == 200 and record["format"] == "smear-record/1"
            await s.server.sweep()
            assert calls == [1, 1]  # landed: not tried again
            # A rematch is played on, its start stored after the record.
            assert (await host.send("play_again"))["ok"]

    with caplog.at_level(logging.INFO, logger="smear.server"):
        run(scenario)
    # Said once, by the error's type: the record, with every card of the match, is never quoted.
    (warning,) = [m for m in warnings_about(caplog, "") if "record" in m]
    assert "RuntimeError" in warning and "a fault in the ratings" not in warning


def test_a_record_that_keeps_failing_puts_its_table_aside_until_the_operator_releases_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "smear.db"
    calls = finish_failing(monkeypatch, times=None)

    async def scenario() -> None:
        async with session(database, limits=Limits(tables_per_hour=0, finish_attempts=3)) as s:
            host = await s.with_bots("Host", players=3, target=11)
            other = await s.with_bots("Other", players=3)
            code = host.table or ""
            errors: list[Any] = []
            host.sio.on("error", errors.append)
            await play_to_the_end(host)
            # The next match waits for the record: it is tried first, and the start is refused.
            assert (await host.send("play_again"))["error"]["code"] == "not_stored"
            await s.server.sweep()
            assert code in s.server.live.tables and len(calls) == 3
            await s.server.sweep()  # the third failure: put aside
            assert len(calls) == 4
            assert code not in s.server.live.tables
            assert (await host.send("play_again"))["error"]["code"] == "table_unavailable"
            # Told as it happened, in a push that came before that answer on the same socket.
            assert [error["code"] for error in errors] == ["table_unavailable"]
            assert await get_json(f"{s.url}/health") == (200, {"ok": True, "quarantined": 1})
            status, listing = quarantined_command(database)
            assert status == 0 and listing.startswith(f"{code}\tfinish\tRuntimeError\t")
            # Every other table plays on.
            assert (await other.send("start"))["ok"]

            # Fixed and released: the table comes back to whoever opens it, its record stored.
            monkeypatch.undo()
            assert release_command(database, code) == (0, f"released table {code}\n")
            assert release_command(database, code)[0] != 0  # released already
            watcher = await s.watch(code)
            assert over(watcher.state)
            assert stored_match(s.server.storage, code)[1] is True
            await s.server.sweep()
            assert await get_json(f"{s.url}/health") == (200, {"ok": True, "quarantined": 0})

    with caplog.at_level(logging.INFO, logger="smear.server"):
        run(scenario)
    aside = [m for m in warnings_about(caplog, "") if "put aside" in m]
    assert len(aside) == 1 and "finish" in aside[0] and "RuntimeError" in aside[0]


def test_a_record_that_fails_at_a_restart_does_not_stop_it_and_lands_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = tmp_path / "smear.db"
    finish_failing(monkeypatch, times=None)

    async def scenario() -> None:
        async with session(database, limits=LIMITS) as s:
            host = await s.with_bots("Host", players=3, target=11)
            other = await s.with_bots("Other", players=3)
            assert (await other.send("start"))["ok"]
            code, token = host.table or "", host.token or ""
            await play_to_the_end(host)
        # Stopped with the record not stored; it fails again as the server starts, which serves on.
        async with session(database, limits=LIMITS) as s:
            assert code in s.server.live.tables and other.table in s.server.live.tables
            back, reply = await s.resume(code, token, 0)
            assert reply["ok"] and over(back.state)
            assert stored_match(s.server.storage, code)[1] is False
            monkeypatch.undo()
            await s.server.sweep()
            assert stored_match(s.server.storage, code)[1] is True

    run(scenario)


async def a_table_under_way(s: Session, name: str) -> Client:
    """A started table of one person and two bots, at the person's turn."""
    host = await s.with_bots(name, players=3)
    after = (await host.send("start"))["version"] - 1
    await host.wait_for(lambda st: st["version"] > after and bool(st["game"]["legal"]))
    return host


def add_action(database: Path, code: str, action: str) -> None:
    """Stores ``action`` after the last action of the table's match, by hand."""
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        (last,) = db.execute("SELECT max(seq) FROM actions WHERE table_code = ?", (code,)).fetchone()
        db.execute(
            "INSERT INTO actions (table_code, match_number, seq, prev_seq, seat, action) "
            "VALUES (?, 1, ?, ?, 0, ?)",
            (code, (last or 0) + 1, last, action),
        )


def remove_last_action(database: Path, code: str) -> None:
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute(
            "DELETE FROM actions WHERE table_code = ? "
            "AND seq = (SELECT max(seq) FROM actions WHERE table_code = ?)",
            (code, code),
        )


def test_a_stored_match_the_rules_refuse_is_put_aside_and_every_other_table_is_served(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "smear.db"

    async def scenario() -> None:
        async with session(database, limits=LIMITS) as s:
            bad = await a_table_under_way(s, "Ann")
            good = await a_table_under_way(s, "Bo")
            bad_code, good_code = bad.table or "", good.table or ""
            version = good.state["version"]
        add_action(database, bad_code, "bid 99")

        # A real server process starts, serves the good table and refuses the bad one with a code.
        output = tmp_path / "server.log"
        async with server_process(free_port(), database, output) as server:
            assert await get_json(f"{server.url}/health") == (200, {"ok": True, "quarantined": 1})
            client, reply = await resume(server.url, good_code, good.token or "", version)
            assert reply["ok"], reply
            state = client.state
            acted = await client.send(
                "act", version=state["version"], action=state["game"]["legal"][0]["text"]
            )
            assert acted["ok"], acted
            refused, reply = await resume(server.url, bad_code, bad.token or "", 0)
            assert reply["error"]["code"] == "table_unavailable"
            for opened in (client, refused):
                await opened.close()
        log = output.read_text()
        (line,) = [line for line in log.splitlines() if bad_code in line]
        assert "put aside" in line and "restore" in line and "TableError" in line
        assert "bid 99" not in log and "Traceback" not in log and good_code not in log

        status, listing = quarantined_command(database)
        assert status == 0 and listing.startswith(f"{bad_code}\trestore\tTableError\t")
        assert [line for line in listing.splitlines() if "\t" in line] == [listing.splitlines()[0]]

        # A later start leaves it aside without a word; once fixed and released, it is back.
        async with session(database, limits=LIMITS) as s:
            assert bad_code not in s.server.live.tables and good_code in s.server.live.tables
        assert warnings_about(caplog, bad_code) == []
        remove_last_action(database, bad_code)
        assert release_command(database, bad_code) == (0, f"released table {bad_code}\n")
        async with session(database, limits=LIMITS) as s:
            assert bad_code in s.server.live.tables
            back, reply = await s.resume(bad_code, bad.token or "", 0)
            assert reply["ok"] and back.state["game"]["legal"]

    with caplog.at_level(logging.INFO, logger="smear.server"):
        run(scenario)


async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``condition()`` holds (it is looked at every few milliseconds)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the condition never held"
        await asyncio.sleep(0.01)


def test_a_table_put_aside_as_another_process_takes_it_over_tells_the_sockets_following_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    """Two processes on one Redis: the owner stops, the other takes its table over for the sockets
    it holds there, finds the stored match refused, puts the table aside and tells those sockets."""
    database = f"sqlite:///{tmp_path / 'shared.db'}"
    lease = dataclasses.replace(FAST, lease=60.0)

    async def scenario() -> None:
        async with running_server(database, lease, redis=redis_url) as (second, second_url):
            async with running_server(database, lease, redis=redis_url) as (first, first_url):
                host = await create(first_url, "Host", players=3)
                code = host.table or ""
                guests = [await join(second_url, code, name) for name in ("Ayse", "Kemal")]
                errors: list[Any] = []
                for guest in guests:
                    guest.sio.on("error", errors.append)
                assert (await host.send("start"))["ok"]
                assert code in first.live.tables
                refuse_to_rebuild(monkeypatch, code)
            # The owner has stopped and given the table up: the other process takes it over.
            await until(lambda: len(errors) == 2)
            assert [error["code"] for error in errors] == ["table_unavailable"] * 2
            assert code not in second.live.tables
            assert [table.code for table in second.storage.quarantine.quarantined()] == [code]
            assert (await guests[0].send("resume", version=0))["error"]["code"] == "table_unavailable"
            for guest in guests:
                await guest.close()

    run(scenario)


def refuse_to_rebuild(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    """The server refuses to rebuild table ``code`` from storage, as after a rules fix."""
    rebuilt = TableStore._rebuilt

    def refusing(self: TableStore, stored: StoredTable, *args: Any) -> Table:
        if stored.code == code:
            raise ValueError("its match no longer replays")
        return rebuilt(self, stored, *args)

    monkeypatch.setattr(TableStore, "_rebuilt", refusing)


def test_a_fault_in_the_ratings_leaves_the_match_finished_without_its_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A bug in the history or the ratings must not keep a match from being finished: it would be
    tried again, fail again, and put its table aside."""

    def broken(*args: Any) -> None:
        raise RuntimeError("a fault in the ratings")

    monkeypatch.setattr(PlayerStore, "record_played", broken)
    with Storage(f"sqlite:///{tmp_path / 'smear.db'}") as storage:
        storage.create_table("ABCD", {"preset": "house", "players": 2}, 0, [], 0.0)
        storage.start_match("ABCD", 1, seed=7, sides=[[0], [1]], names=["Ann", "Bo"])
        outcome = MatchOutcome("house", [[0], [1]], [11, 3], 0, [1, 2], [{}, {}], ["Ann", "Bo"])
        with caplog.at_level(logging.WARNING, logger="smear.server"):
            storage.finish_match("ABCD", 1, {"format": "smear-record/1"}, outcome, now=1.0)
        assert storage.match_record("ABCD", 1) == {"format": "smear-record/1"}
        stored = storage.table("ABCD")
        assert stored is not None and stored.status == "finished"
    (line,) = [r.getMessage() for r in caplog.records if "history" in r.getMessage()]
    assert "RuntimeError" in line and "a fault in the ratings" not in line


def test_a_code_that_begins_with_a_dash_is_released_as_a_code_not_read_as_an_option(tmp_path: Path) -> None:
    database = tmp_path / "smear.db"
    Storage(f"sqlite:///{database}").close()
    exit_code, output = release_command(database, "-3OUs83CaAiq3zJC")
    assert (exit_code, output.strip()) == (2, "table '-3OUs83CaAiq3zJC' is not quarantined")
