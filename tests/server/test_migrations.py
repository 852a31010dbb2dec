"""The database's schema migrations (Alembic, ``src/smear/server/storage/migrations``).

``fixtures/before_migrations.db`` was written by the server of commit d924456, before the schema had
migrations (``fixtures/make_old_database.py`` says how and what it holds). Upgraded in place, it
keeps every row; the server starts on it, puts its unfinished tables back, and a returning player
plays on. The migrations, run from an empty database, give exactly the models' schema, on SQLite
and on a real PostgreSQL server.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner
from serverkit import Client, get_json, http_json, play_out, resume, running_server
from sqlalchemy import create_engine
from support.dbservers import Postgres

from smear.cli import cli
from smear.record import parse_record, replay
from smear.server.storage import migrate
from smear.server.storage.database import Storage, StorageError
from smear.server.storage.schema import Base

FIXTURES = Path(__file__).parent / "fixtures"
OLD_TABLES = ("card_tables", "seats", "matches", "actions")
# The columns of the old tables that later migrations added to (the sixth, the tenth).
OLD_COLUMNS = {
    "seats": ("table_code", "seat", "name", "token_hash", "is_bot"),
    "matches": ("table_code", "number", "seed", "sides", "names", "finished", "record"),
    "chat_lines": ("id", "table_code", "at", "seat", "name", "text"),
}
HEAD = migrate.head_revision()
# Every migration a database from before migrations runs (it is stamped at the first).
AFTER_FIRST = (
    "0002_table_rest, 0003_longer_actions, 0004_chat, 0005_open_tables, 0006_players, 0007_quarantine,"
    " 0008_moderation, 0009_reports, 0010_chat_writer_and_heartbeat, 0011_practice, 0012_own_practice,"
    " 0013_friends_and_blocks, 0014_matches_left"
)


@pytest.fixture
def old_database(tmp_path: Path) -> Path:
    """A copy of the database from before migrations (the kept file is never changed)."""
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "before_migrations.db", path)
    return path


def rows(path: Path, tables: tuple[str, ...] = OLD_TABLES) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of ``tables``, in the columns the old schema had (later migrations add columns)."""
    with sqlite3.connect(path) as connection:
        return {
            name: sorted(connection.execute(f"SELECT {', '.join(OLD_COLUMNS.get(name, ('*',)))} FROM {name}"))
            for name in tables
        }


def table_names(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        return {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def revision(path: Path) -> str | None:
    with sqlite3.connect(path) as connection:
        found = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    return found[0][0] if found else None


def schema_sql(path: Path) -> list[str]:
    """Every table's and index's definition, blanks evened out, names unquoted and a table's columns
    and constraints in sorted order (a table that SQLite copied to change a column lists them in
    another order, under a quoted name)."""
    with sqlite3.connect(path) as connection:
        found = connection.execute(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name != 'alembic_version' ORDER BY name"
        )
        return [sorted_parts(" ".join(sql.replace('"', "").split())) for (sql,) in found]


def sorted_parts(sql: str) -> str:
    start, end = sql.find("("), sql.rfind(")")
    if start < 0:
        return sql
    parts, depth, part = [], 0, ""
    for char in sql[start + 1 : end]:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(part.strip())
            part = ""
        else:
            part += char
    parts.append(part.strip())
    return f"{sql[:start]}( {', '.join(sorted(parts))} ){sql[end + 1 :]}"


def upgrade_command(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["db", "upgrade", "--database", f"sqlite:///{path}"])
    return result.exit_code, result.output


def differences_after_every_migration(url: str) -> list[Any]:
    """Runs every migration from the first on the empty database at ``url``; returns how the
    schema it gives differs from the models (Alembic's autogenerate comparison)."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            command.upgrade(migrate.alembic_config(connection), "head")
            found: list[Any] = compare_metadata(MigrationContext.configure(connection), Base.metadata)
            return found
    finally:
        engine.dispose()


def test_every_migration_from_an_empty_database_gives_exactly_the_models_schema(tmp_path: Path) -> None:
    migrated = tmp_path / "migrated.db"
    assert differences_after_every_migration(f"sqlite:///{migrated}") == []
    created = tmp_path / "created.db"
    Storage(f"sqlite:///{created}").close()  # an empty database gets the models' schema at once
    assert schema_sql(migrated) == schema_sql(created)
    assert revision(migrated) == revision(created) == HEAD


def test_on_postgresql_the_migrations_and_the_models_give_the_same_schema(postgres: Postgres) -> None:
    assert differences_after_every_migration(postgres.new_database()) == []
    created_url = postgres.new_database()
    with Storage(created_url) as storage:
        assert storage.schema.describe() == f"created the schema at revision {HEAD}"
    with Storage(created_url) as storage:
        assert storage.schema.describe() == f"already at revision {HEAD}"
    created = create_engine(created_url)
    with created.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    created.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_servers_starting_together_on_a_new_database_take_turns(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    ready = threading.Barrier(6)
    done: list[str] = []
    failures: list[BaseException] = []

    def open_storage() -> None:
        ready.wait()
        try:
            with Storage(url) as storage:
                done.append(storage.schema.describe())
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=open_storage) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sorted(done) == [f"already at revision {HEAD}"] * 5 + [f"created the schema at revision {HEAD}"]


def test_a_database_from_before_migrations_is_upgraded_in_place_and_keeps_every_row(
    old_database: Path,
) -> None:
    before = rows(old_database)
    assert "alembic_version" not in table_names(old_database)
    status, output = upgrade_command(old_database)
    assert (status, output) == (0, f"upgraded from before migrations to {HEAD}: {AFTER_FIRST}\n")
    assert rows(old_database) == before
    assert revision(old_database) == HEAD
    assert upgrade_command(old_database) == (0, f"already at revision {HEAD}\n")

    with Storage(f"sqlite:///{old_database}") as storage:
        unfinished = {table.code: table for table in storage.unfinished_tables()}
        assert sorted(unfinished) == ["HOUSE001", "KITTY004", "LOBBY002"]
        house = unfinished["HOUSE001"]
        assert house.status == "playing"
        assert [(s.name, s.is_bot) for s in house.seats] == [
            ("Ayse", False),
            ("Ada", True),
            ("Bo", True),
            ("Cy", True),
        ]
        assert house.current_match is not None
        assert (house.current_match.number, len(house.current_match.actions)) == (2, 37)
        lobby = unfinished["LOBBY002"]
        assert (lobby.status, [s.name for s in lobby.seats]) == ("lobby", ["Kemal", "Sam", None, None])
        kitty = unfinished["KITTY004"]
        assert kitty.current_match is not None and len(kitty.current_match.actions) == 40
        assert kitty.settings["kitty"] is True and kitty.settings["teams"] is True
        # The finished matches' records are whole and replay through the engine.
        assert storage.finished_matches("HOUSE001") == [1]
        assert storage.finished_matches("CUT00003") == [1]
        for code in ("HOUSE001", "CUT00003"):
            record = storage.match_record(code, 1)
            assert record is not None
            replay(parse_record(record))


def test_the_server_starts_on_an_upgraded_database_and_a_returning_player_plays_on(
    old_database: Path,
) -> None:
    tokens = json.loads((FIXTURES / "before_migrations.tokens.json").read_text())

    async def scenario() -> None:
        async with running_server(old_database) as (server, url):
            assert {"HOUSE001", "KITTY004", "LOBBY002"} <= set(server.live.tables)
            assert "CUT00003" not in server.live.tables  # finished: its record is all that is asked of it
            status, record = await get_json(f"{url}/tables/CUT00003/matches/1/record.json")
            assert status == 200
            replay(parse_record(record))
            house = server.live.tables["HOUSE001"]
            assert house.match_number == 2 and house.action_count >= 37

            ayse, reply = await resume(url, "HOUSE001", tokens["HOUSE001"]["Ayse"], 0)
            assert reply["ok"], reply
            state = await ayse.wait_for(
                lambda s: s["game"] is not None and s["game"]["public"]["to_act"] == ayse.seat, timeout=30
            )
            answer = await ayse.call(
                "act",
                {
                    "table": "HOUSE001",
                    "token": tokens["HOUSE001"]["Ayse"],
                    "version": state["version"],
                    "action": state["game"]["legal"][0]["text"],
                },
            )
            assert answer["ok"], answer
            await ayse.close()

            kemal, reply = await resume(url, "LOBBY002", tokens["LOBBY002"]["Kemal"], 0)
            assert reply["ok"] and reply["seat"] == 0, reply
            await kemal.close()

    asyncio.run(scenario())


def test_a_database_of_the_server_with_rest_but_no_migrations_is_upgraded_too(old_database: Path) -> None:
    """Servers between the table of rest and migrations made that table themselves: it is kept."""
    with Storage(f"sqlite:///{old_database}") as storage:
        storage.set_idle("LOBBY002", 1_000.0, resting=True)
    with sqlite3.connect(old_database) as connection:
        connection.execute("DROP TABLE alembic_version")
        # Those servers had no chat nor open tables: their tables came with their migrations.
        connection.execute("DROP TABLE chat_lines")
        connection.execute("DROP TABLE chat_controls")
        connection.execute("DROP TABLE open_tables")
        # Nor players, nor practice.
        for name in (
            "matches_left",
            "blocks",
            "friendships",
            "own_practice_positions",
            "practice_attempts",
            "practice_ratings",
            "practice_positions",
            "match_players",
            "played_matches",
            "ratings",
            "profile_keys",
            "profiles",
        ):
            connection.execute(f"DROP TABLE {name}")
        connection.execute("ALTER TABLE seats DROP COLUMN profile_id")
        connection.execute("ALTER TABLE matches DROP COLUMN profiles")
        connection.execute("DROP TABLE quarantined_tables")  # nor a quarantine
        # Nor the operator's tools, nor reports.
        for name in ("admin_audit", "bans", "admin_orders", "server_processes", "reports"):
            connection.execute(f"DROP TABLE {name}")
    before = rows(old_database, (*OLD_TABLES, "table_rest"))
    status, output = upgrade_command(old_database)
    assert (status, output) == (0, f"upgraded from before migrations to {HEAD}: {AFTER_FIRST}\n")
    assert rows(old_database, (*OLD_TABLES, "table_rest")) == before
    with Storage(f"sqlite:///{old_database}") as storage:
        assert sorted(t.code for t in storage.unfinished_tables()) == ["HOUSE001", "KITTY004"]


def test_an_empty_database_is_created_at_the_newest_revision(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    assert upgrade_command(path) == (0, f"created the schema at revision {HEAD}\n")
    assert table_names(path) == {
        *OLD_TABLES,
        "table_rest",
        "chat_controls",
        "chat_lines",
        "open_tables",
        "profiles",
        "profile_keys",
        "played_matches",
        "match_players",
        "ratings",
        "quarantined_tables",
        "admin_audit",
        "bans",
        "admin_orders",
        "server_processes",
        "reports",
        "practice_positions",
        "practice_attempts",
        "practice_ratings",
        "own_practice_positions",
        "friendships",
        "blocks",
        "matches_left",
        "alembic_version",
    }
    assert upgrade_command(path) == (0, f"already at revision {HEAD}\n")


def test_a_database_of_a_newer_version_is_refused_and_left_alone(old_database: Path) -> None:
    Storage(f"sqlite:///{old_database}").close()
    with sqlite3.connect(old_database) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    before = rows(old_database)
    with pytest.raises(StorageError, match=r"0099_from_the_future.*newer version"):
        Storage(f"sqlite:///{old_database}")
    status, output = upgrade_command(old_database)
    assert status == 2 and "newer version" in output
    assert rows(old_database) == before and revision(old_database) == "0099_from_the_future"


def test_a_failing_upgrade_changes_nothing(old_database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_upgrade = command.upgrade

    def upgrade_then_fail(config: Config, target: str) -> None:
        real_upgrade(config, target)
        raise migrate.MigrationError("a migration failed after its changes were made")

    monkeypatch.setattr(migrate.command, "upgrade", upgrade_then_fail)
    with pytest.raises(StorageError, match="a migration failed"):
        Storage(f"sqlite:///{old_database}")
    # The first revision's mark and the new table were made in the same transaction: both are gone.
    assert table_names(old_database) == set(OLD_TABLES)


def test_a_database_of_the_server_before_players_keeps_its_rows_and_plays_on_with_profiles(
    tmp_path: Path,
) -> None:
    """``fixtures/before_players.db`` is what the server of commit a64b838 (the schema at
    0005_open_tables, before players) stored, by ``fixtures/make_old_database.py``. Upgraded, it keeps
    every row; the match under way plays to its end (it is nobody's history: it began before
    profiles), and a new table's players get their history and ratings."""
    path = tmp_path / "players.db"
    shutil.copy(FIXTURES / "before_players.db", path)
    tokens = json.loads((FIXTURES / "before_players.tokens.json").read_text())
    assert revision(path) == "0005_open_tables"
    before = rows(path, (*OLD_TABLES, "open_tables", "chat_lines"))
    assert upgrade_command(path) == (
        0,
        f"upgraded from revision 0005_open_tables to {HEAD}: 0006_players, 0007_quarantine,"
        " 0008_moderation, 0009_reports, 0010_chat_writer_and_heartbeat, 0011_practice, 0012_own_practice,"
        " 0013_friends_and_blocks, 0014_matches_left\n",
    )
    assert rows(path, (*OLD_TABLES, "open_tables", "chat_lines")) == before

    async def scenario() -> None:
        async with running_server(path) as (server, url):
            house = server.live.tables["HOUSE001"]
            assert [seat.profile for seat in house.seats] == [None, *["bot-heuristic"] * 3]
            ayse, reply = await resume(url, "HOUSE001", tokens["HOUSE001"]["Ayse"], 0)
            assert reply["ok"], reply
            await play_out([ayse])
            status, record = await get_json(f"{url}/tables/HOUSE001/matches/2/record.json")
            assert status == 200
            replay(parse_record(record))

            status, ann = await http_json("POST", f"{url}/api/players", {"name": "Ann"})
            assert status == 201
            host = await Client(url).connect()
            settings = {"name": "Ann", "preset": "cutthroat", "players": 3, "teams": False, "target": 11}
            reply = await host.call(
                "create_table", {**settings, "profile": {k: ann[k] for k in ("player", "secret")}}
            )
            assert reply["ok"], reply
            host.token, host.table, host.seat = reply["token"], reply["table"], reply["seat"]
            for seat in (1, 2):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            assert (await host.send("start"))["ok"]
            await play_out([host])
            status, history = await get_json(f"{url}/api/players/{ann['player']}/matches")
            assert status == 200 and [m["preset"] for m in history["matches"]] == ["cutthroat"]
            status, profile = await get_json(f"{url}/api/players/{ann['player']}")
            assert profile["ratings"]["cutthroat"]["matches"] == 1
            await host.close()
            await ayse.close()

    asyncio.run(scenario())
