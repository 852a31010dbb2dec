"""The restore steps of docs/deploy.md work: a database with a table, its match and actions, dumped
with ``pg_dump --format=custom``, comes back whole in a new database by the page's own commands (run
as written, the database names and the dump's file changed), and its check counts what was there."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url
from support.dbservers import Postgres, postgres_bin

from smear.server.storage.database import Storage
from smear.server.storage.rows import SeatRow

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
SEATS = [SeatRow(0, "Ayse", "hash-0", False), SeatRow(1, "Kemal", "hash-1", False)]


def documented_restore() -> str:
    text = DEPLOY.read_text()
    section = text[text.index("### Restoring a PostgreSQL backup") :]
    found = re.search(r"```sh\n(.*?)```", section, flags=re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_documented_restore_brings_the_tables_back_and_its_check_counts_them(
    tmp_path: Path, postgres: Postgres
) -> None:
    source_url = postgres.new_database()
    source = make_url(source_url).database
    restored = f"{source}_restored"
    with Storage(source_url) as storage:
        storage.create_table("ABCD", {"preset": "house", "players": 2}, 0, SEATS, 100.0)
        storage.start_match("ABCD", 1, seed=7, sides=[[0], [1]], names=["Ayse", "Kemal"])
        storage.append_action("ABCD", 1, 1, 0, "bid 2")
        storage.append_action("ABCD", 1, 2, 1, "pass")
        storage.players.ensure_bots(["heuristic"], ["house"], 1.0)
    address = {"host": str(postgres.directory), "user": "postgres", "dbname": "postgres"}
    with psycopg.connect(**address, autocommit=True) as db:
        if db.execute("SELECT 1 FROM pg_roles WHERE rolname = 'smear'").fetchone() is None:
            db.execute("CREATE ROLE smear LOGIN")

    environment = {
        **os.environ,
        "PGHOST": str(postgres.directory),
        "PGUSER": "postgres",
        "PATH": f"{Path(postgres_bin('pg_restore')).parent}:{os.environ['PATH']}",
    }
    dump = tmp_path / "smear.dump"
    with dump.open("wb") as out:
        subprocess.run(["pg_dump", "--format=custom", source], stdout=out, check=True, env=environment)

    steps = (
        documented_restore()
        .replace("sudo -u postgres ", "")  # the tests' server trusts its own socket
        .replace("smear_restored", restored)
        .replace("smear-2026-01-31.dump", str(dump))
    )
    done = subprocess.run(
        ["bash", "-e", "-c", steps], capture_output=True, text=True, env=environment, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    numbers = [line.strip() for line in done.stdout.splitlines() if re.fullmatch(r"\s*\w+\s*", line)]
    counts = [int(number) for number in numbers if number.isdigit()]
    assert counts == [1, 1, 2, 1]  # a table, its match, its two actions, the bot's profile

    with Storage(postgres.url(restored)) as copy:
        table = copy.table("ABCD")
        assert table is not None and table.current_match is not None
        assert table.current_match.actions == [(0, "bid 2"), (1, "pass")]
