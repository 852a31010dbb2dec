"""A new server has practice positions at once: ``smear serve`` stores the bundled starter positions
in a database that has none (smear.server.storage.practicestore.import_starter), never in one that
has some, and not at all with ``--no-practice-starter``."""

from __future__ import annotations

import asyncio
import gzip
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from leakkit.practice import made_positions
from serverkit import get_json, server_process
from support.serverproc import free_port

from smear.server.storage.database import Storage
from smear.server.storage.practicestore import STARTER, import_positions, import_starter


def starter_count() -> int:
    with gzip.open(STARTER, "rt", encoding="utf-8") as lines:
        return sum(1 for line in lines if line.strip())


def test_a_new_database_gets_the_starter_positions_once(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'smear.db'}"
    count = starter_count()
    assert count >= 500
    assert import_starter(database) == count
    assert import_starter(database) == 0  # already there: nothing stored twice


def test_two_servers_starting_on_one_new_database_store_the_starter_positions_once(postgres_url: str) -> None:
    """Both look, both find none, both store: the second's batch meets the first's rows, looks again
    and stores nothing, without failing its start."""
    with Storage(postgres_url):  # the schema first, as smear serve's parent makes it
        pass
    start = threading.Barrier(2)

    def store() -> int:
        start.wait()
        return import_starter(postgres_url)

    with ThreadPoolExecutor(2) as pool:
        stored = sorted(pool.map(lambda _: store(), range(2)))
    assert sum(stored) == starter_count()
    with Storage(postgres_url) as storage:
        assert storage.practice.import_positions([], 0.0) == (0, 0)
        assert import_starter(postgres_url) == 0


def test_a_database_with_its_own_positions_is_left_as_it_is(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'smear.db'}"
    assert import_positions(database, made_positions(2, 5)) == (2, 0)
    assert import_starter(database) == 0


@pytest.mark.parametrize("starter", [True, False])
def test_smear_serve_starts_a_new_database_with_the_starter_positions_unless_told_not_to(
    tmp_path: Path, starter: bool
) -> None:
    async def scenario() -> None:
        options = ["--log-format", "json"] + ([] if starter else ["--no-practice-starter"])
        log = tmp_path / "serve.log"
        async with server_process(free_port(), tmp_path / "smear.db", log, *options) as server:
            status, themes = await get_json(f"{server.url}/api/practice/themes")
            assert status == 200
            stored = sum(theme["positions"] for theme in themes["themes"])
            events = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
            said = [event["positions"] for event in events if event.get("event") == "practice_starter"]
            if starter:
                assert stored >= starter_count()  # a position may have several themes
                assert said == [starter_count()]
            else:
                assert stored == 0 and said == []

    asyncio.run(scenario())
