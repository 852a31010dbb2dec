"""bench/calibration.py: each bid a searching bot wins, beside the chance its search gave."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import calibration as bench  # bench/ is on the tests' path (pyproject's pytest settings)
import pytest

from smear.arena import ArenaConfig, team_lineup
from smear.rules import find_rules

BENCH = Path(bench.__file__)


def test_a_match_gives_the_searching_side_s_won_bids_with_chances_and_outcomes() -> None:
    config = ArenaConfig("house", 4, True, team_lineup("pimc", "heuristic", 4), 2)
    rules = find_rules("house")
    won = bench.play((config, 0)) + bench.play((config, 1))
    assert won, "pimc wins bids against the heuristic in two matches"
    for bid in won:
        assert bid.bot == "pimc"  # the heuristic does not search, so it is not reported
        assert rules.min_bid <= bid.bid <= rules.top_bid
        assert 0.0 <= bid.searched <= 1.0
        assert isinstance(bid.made, bool)


def test_the_report_puts_each_band_beside_what_happened(capsys: pytest.CaptureFixture[str]) -> None:
    bids = [
        bench.WonBid("expert", 4, 0.5, False),
        bench.WonBid("expert", 4, 0.55, True),
        bench.WonBid("expert", 3, 0.97, True),
        bench.WonBid("expert", 2, 1.0, True),
    ]
    bench.report(bids)
    out = capsys.readouterr().out
    assert re.search(r"under 0\.6\s+2\s+0\.500\s+0\.525", out), out
    assert re.search(r"0\.95 and over\s+2\s+1\.000\s+0\.985", out), out
    assert out.strip().splitlines()[-2:] == ["expert_made: 0.750", "expert_searched: 0.755"]


def test_the_bench_ends_with_its_lines_and_refuses_an_unknown_bot() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--matches", "2", "--workers", "1", "--bots", "pimc,heuristic"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert re.fullmatch(r"pimc_made: [01]\.\d{3}", lines[-2]), lines
    assert re.fullmatch(r"pimc_searched: [01]\.\d{3}", lines[-1]), lines
    refused = subprocess.run(
        [sys.executable, str(BENCH), "--bots", "expert,nobody"], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2
    assert "unknown bot: 'nobody'" in refused.stderr
