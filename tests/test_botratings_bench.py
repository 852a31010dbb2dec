"""bench/botratings.py: where each bot level stands on the players' rating scale."""

from __future__ import annotations

import re
from pathlib import Path

import botratings as bench  # bench/ is on the tests' path (pyproject's pytest settings)
from helpers import assert_refused, run_bench

BENCH = Path(bench.__file__)


def test_the_levels_named_are_rated_against_each_other_and_bad_levels_are_refused() -> None:
    run = run_bench(BENCH, "--levels", "random,heuristic", "--matches", "4", "--workers", "1", timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[-3] == "random v heuristic: random won 0 of 4"
    rated = {}
    for line in lines[-2:]:
        match = re.fullmatch(r"(\w+): mu (-?\d+\.\d) sigma (\d+\.\d) rating (-?\d+\.\d)", line)
        assert match, line
        rated[match[1]] = float(match[2])
    assert list(rated) == ["random", "heuristic"]
    assert rated["heuristic"] > 25.0 > rated["random"]  # both start where a new player does
    assert_refused(
        BENCH,
        [
            (["--levels", "random,nobody"], "unknown bot: 'nobody'"),
            (["--levels", "expert"], "--levels names at least two different bots"),
            (["--levels", "random,random"], "--levels names at least two different bots"),
            (["--matches", "0"], "--matches and --workers must be at least 1"),
        ],
    )
