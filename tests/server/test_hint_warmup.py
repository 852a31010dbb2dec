"""The hints' search is loaded as the server starts, not on the first hint: loading numba and the
search's compiled code takes about 0.3 s on an idle core and seconds on a busy one, which the first
hint would otherwise spend out of its budget (and answer from a handful of deals)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from serverkit import running_server

from smear.server.players import hints

FRESH_PROCESS = """
import sys
from smear.server.players.hints import HintService
assert "smear.search.alphabeta" not in sys.modules, "the search was loaded before the warm-up"
HintService(4).warm().result(timeout=120)
from smear.search.alphabeta import solve_root
assert solve_root.signatures, "the solver's code was not loaded"
print("warmed")
"""


def test_warming_loads_the_search_in_a_fresh_process() -> None:
    run = subprocess.run([sys.executable, "-c", FRESH_PROCESS], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "warmed"


def test_the_server_warms_the_hints_as_it_starts(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db") as (server, _url):
            warmed = server.hints.warmed
            assert warmed is not None
            await asyncio.wrap_future(warmed)
            assert warmed.exception() is None

    asyncio.run(scenario())


def test_a_second_warm_up_in_the_same_process_searches_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's code stays loaded for the process: a second server started in it (tests start
    hundreds) has nothing to load, and searches nothing."""
    hints.warm_search()  # loads the search, or finds it loaded by an earlier test
    searched: list[object] = []

    class Counting:
        def __init__(self, **settings: object) -> None:
            searched.append(settings)

        def advise(self, *args: object) -> None:
            searched.append(args)

    monkeypatch.setattr(hints, "ExpertBot", Counting)
    hints.warm_search()
    assert searched == []
