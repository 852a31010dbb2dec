"""A short run of the fuzz benchmark (bench/fuzz.py) against a real ``smear serve``: malformed, wrong
and hostile messages beside an honest table, and a flood of reviews, replays and records to replay
from the same address. The server must log no error and answer no request with ``internal_error``
or an HTTP 5xx (but ``server_busy``), the fuzzer's tables of people must move only when one of its
requests was accepted, and every hint the honest person asks for must be answered.

The run is seeded, so the same messages are drawn each time; which of them the rate limit refuses,
and when, depends on the machine. Nothing here depends on how fast the machine is: the timeout only
stops a run that hangs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parents[2] / "bench" / "fuzz.py"
MESSAGES = 3000


def final_value(output: str, name: str) -> str:
    found = re.findall(rf"^{name}: (\S+)$", output, re.MULTILINE)
    assert found, f"no '{name}:' line in the output:\n{output[-4000:]}"
    return found[-1]


def test_fuzz_run_finds_no_server_error_and_no_state_change_from_a_refused_request() -> None:
    command = [sys.executable, str(FUZZ), "--messages", str(MESSAGES), "--seed", "7"]
    command += ["--workers", "8", "--spectators", "8", "--max-seconds", "1500"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=1800, cwd=FUZZ.parent.parent)
    output = run.stdout + run.stderr
    tail = output[-6000:]
    assert final_value(output, "messages") == str(MESSAGES), tail
    assert final_value(output, "server_errors") == "0", tail
    assert final_value(output, "state_changes_from_refused") == "0", tail
    assert final_value(output, "honest_hints_busy") == "0", tail
    assert run.returncode == 0, tail
