"""The load benchmarks' own arithmetic and closing lines (their figures are never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from benchtools import cpu_shares, machine_since

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_time_the_host_took_is_reported_apart_and_not_as_other_processes() -> None:
    # 10 s on 2 cores: 12 CPU-s busy, 4 idle, 4 taken by the host.
    machine = machine_since((112.0, 116.0, 4.0), (100.0, 100.0, 0.0))
    shares = cpu_shares(5.0, 4.0, machine, 10.0, 2)
    assert shares == (
        "server 50%, clients 40%, other processes 30%, machine 120% of 200%, stolen by the host 40%"
    )
    # Without steal the line is as it always was.
    assert cpu_shares(5.0, 4.0, (12.0, 20.0, 0.0), 10.0, 2) == (
        "server 50%, clients 40%, other processes 30%, machine 120% of 200%"
    )


def test_the_stack_floor_bench_plays_tables_and_ends_with_its_lines() -> None:
    command = [
        sys.executable,
        str(BENCH / "stackfloor.py"),
        "--tables",
        "2",
        "--seconds",
        "2",
        "--think",
        "0.05",
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    acked = re.fullmatch(r"actions acknowledged: (\d+) \(.*/s\)", lines[-4])
    assert acked is not None and int(acked.group(1)) > 0, lines
    assert lines[-2] == "tables: 2"
    cost = re.fullmatch(r"server_cpu_ms_per_action: (\d+\.\d\d)", lines[-1])
    assert cost is not None, lines
