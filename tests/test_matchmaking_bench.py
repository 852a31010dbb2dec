"""bench/matchmaking.py: people arriving one after another find a game, play a few hands and leave."""

from __future__ import annotations

import math
import re
from pathlib import Path

import matchmaking as bench  # bench/ is on the tests' path (pyproject's pytest settings)
from helpers import assert_refused, run_bench

BENCH = Path(bench.__file__)
CLOSING = [
    "people",
    "seated_p50_ms",
    "seated_p99_ms",
    "people_per_table_mean",
    "bot_seats_taken_by_people",
    "errors",
]


def test_six_people_are_all_seated_without_an_error_and_the_bench_ends_with_its_lines() -> None:
    run = run_bench(BENCH, "--people", "6", "--seconds", "3", "--servers", "1", timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    figures = {}
    for line in lines[-len(CLOSING) :]:
        match = re.fullmatch(r"(\w+): (-?\d+(?:\.\d+)?|nan)", line)
        assert match, lines
        figures[match[1]] = float(match[2])
    assert list(figures) == CLOSING, lines
    assert figures["people"] == 6 and figures["errors"] == 0, run.stdout
    assert any(line.startswith("seated: 6 of 6 ") for line in lines), run.stdout  # everyone got a seat
    assert not math.isnan(figures["seated_p50_ms"])
    assert 0 < figures["seated_p50_ms"] <= figures["seated_p99_ms"]
    # The first person at each table opened it; every other took a bot's seat.
    assert 1 <= figures["people_per_table_mean"] <= 6
    assert figures["bot_seats_taken_by_people"] <= 5
    assert_refused(BENCH, [(["--people", "0"], "--people and --servers must be at least 1")])
