"""bench/gap.py: the share of the baseline-to-omniscient gap in points per hand a bot closes."""

from __future__ import annotations

from pathlib import Path

import gap as bench  # bench/ is on the tests' path (pyproject's pytest settings)
import pytest
from helpers import assert_refused, closing_figures, run_bench

from smear.arena import ArenaConfig, run_arena, team_lineup

BENCH = Path(bench.__file__)


def test_the_gap_closed_is_the_bot_s_share_of_the_way_from_the_baseline_to_the_omniscient() -> None:
    assert bench.gap_closed(bot=3.67, baseline=2.61, omniscient=4.55) == pytest.approx(1.06 / 1.94)
    assert bench.gap_closed(bot=2.61, baseline=2.61, omniscient=4.55) == 0.0
    assert bench.gap_closed(bot=4.55, baseline=2.61, omniscient=4.55) == 1.0
    assert bench.gap_closed(bot=1.0, baseline=2.0, omniscient=4.0) == -0.5
    with pytest.raises(ValueError, match="no gap"):
        bench.gap_closed(bot=3.0, baseline=2.0, omniscient=2.0)


def test_with_baselines_on_both_sides_the_two_sides_are_averaged() -> None:
    report = run_arena(ArenaConfig("house", 4, True, team_lineup("counting", "counting", 4), 2))
    side = bench.side_against_baselines(report, "counting")
    changes = [change for result in report.results for change in result.score_change]
    hands = sum(result.hands for result in report.results)
    assert side.score_change / side.hands == pytest.approx(sum(changes) / (2 * hands))


def test_the_bench_ends_with_its_lines_and_refuses_what_it_cannot_measure() -> None:
    # The baseline is the counting heuristic unless another is named.
    figures = closing_figures(
        run_bench(BENCH, "--bot", "random", "--matches", "2", "--workers", "1", timeout=300),
        [
            "counting_points_per_hand",
            "random_points_per_hand",
            "omniscient_points_per_hand",
            "gap_closed",
            "random_bids_made",
        ],
    )
    # Random play scores below the heuristic, which scores below a bot that sees every card.
    assert figures["random_points_per_hand"] < figures["counting_points_per_hand"]
    assert figures["counting_points_per_hand"] < figures["omniscient_points_per_hand"]
    expected = bench.gap_closed(
        figures["random_points_per_hand"],
        figures["counting_points_per_hand"],
        figures["omniscient_points_per_hand"],
    )
    assert figures["gap_closed"] == pytest.approx(expected, abs=0.002)
    assert 0.0 <= figures["random_bids_made"] <= 1.0
    assert_refused(
        BENCH,
        [
            (["--bot", "nobody"], "unknown bot: 'nobody'"),
            (["--bot", "omniscient"], "the omniscient bot is the ceiling"),
            (["--baseline", "omniscient"], "the omniscient bot is the ceiling"),
            (["--baseline", "nobody"], "unknown bot: 'nobody'"),
            (["--bot", "counting"], "counting is the baseline"),
            (["--bot", "heuristic", "--baseline", "heuristic"], "heuristic is the baseline"),
            (["--rules", "cutthroat"], "cutthroat is not played in two teams of two"),
            (["--rules", "nosuch"], "unknown preset: 'nosuch'"),
            (["--matches", "0"], "--matches and --workers must be at least 1"),
        ],
    )
