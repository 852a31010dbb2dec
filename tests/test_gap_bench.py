"""bench/gap.py: the share of the baseline-to-omniscient gap in points per hand a bot closes."""

from __future__ import annotations

from pathlib import Path

import gap as bench  # bench/ is on the tests' path (pyproject's pytest settings)
import pytest
from helpers import assert_refused, closing_figures, run_bench

from smear.arena import ArenaConfig, run_arena, team_lineup
from smear.bots.omniscient import SIGHTED_EXPERTS

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


def test_each_side_s_points_are_traced_to_its_bidding_and_defending_hands_and_to_each_point() -> None:
    config = ArenaConfig("house", 4, True, team_lineup("heuristic", "counting", 4), 3)
    report = run_arena(config, keep_records=True)
    traced: dict[str, bench.Sources] = {}
    for name in ("heuristic", "counting"):
        found = bench.sources(report, name)
        side = bench.side_against_baselines(report, name)
        # Each name holds one side of every match: its hands, bids and score changes are the arena's.
        assert found.hands == side.hands
        assert (found.bids, found.bids - found.sets) == (side.bids, side.made)
        assert found.bidding_change + found.defending_change == side.score_change
        # Six points in house; in a hand the side bid, each went to it, to the other side or nobody.
        assert sorted(found.taken) == ["big_joker", "game", "high", "jack", "little_joker", "low"]
        assert all(found.taken[point] + found.lost[point] <= found.bids for point in found.taken)
        assert found.taken["high"] + found.lost["high"] == found.bids  # High is always in play
        row = found.row(list(found.taken))
        assert row[:2] == [f"{found.bids / found.hands:.3f}", f"{found.sets / found.bids:.3f}"]
        assert row[4] == f"{found.taken['high'] / found.bids:.2f}/{found.lost['high'] / found.bids:.2f}"
        traced[name] = found
    heading, *lines = bench.sources_table(traced)
    assert heading.split() == ["side", "bid", "set", "bidding", "defending", *traced["heuristic"].taken]
    assert [line.split()[0] for line in lines] == ["heuristic", "counting"]
    assert len({len(line) for line in [heading, *lines]}) == 1  # the columns line up
    # A side that never bid, even listed first, gets a row of zeros under the others' points.
    same_heading, never_bid, _ = bench.sources_table(
        {"none": bench.Sources(hands=4), "heuristic": traced["heuristic"]}
    )
    assert same_heading.split() == heading.split()
    assert never_bid.split() == ["none", "0.000", "0.000", "+0.000", "+0.000", *["0.00/0.00"] * 6]
    # Without its records the arena cannot be traced.
    unrecorded = run_arena(ArenaConfig("house", 4, True, team_lineup("counting", "counting", 4), 1))
    with pytest.raises(ValueError, match="without its records"):
        bench.sources(unrecorded, "counting")


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


def test_sighted_the_bench_adds_the_expert_shown_the_cards_at_the_auction_and_the_trump() -> None:
    keys = [name.replace("-", "_") for name in SIGHTED_EXPERTS]
    # Matches to 7 points rather than the preset's 21: a few hands each, the same figures per hand.
    run = run_bench(
        BENCH,
        "--bot",
        "expert",
        "--sighted",
        "--matches",
        "1",
        "--target",
        "7",
        "--workers",
        "2",
        timeout=600,
    )
    assert "house, two teams, 1 matches per arena to 7 points from seed 0" in run.stdout
    figures = closing_figures(
        run,
        [
            "counting_points_per_hand",
            "expert_points_per_hand",
            "omniscient_points_per_hand",
            "gap_closed",
            "expert_bids_made",
            *(f"{key}_{figure}" for key in keys for figure in ("points_per_hand", "gap_closed")),
        ],
    )
    table = [line.split()[0] for line in run.stdout.splitlines() if line.split()]
    for name, key in zip(SIGHTED_EXPERTS, keys, strict=True):
        assert name in table  # its row in the table of where the points came from
        expected = bench.gap_closed(
            figures[f"{key}_points_per_hand"],
            figures["counting_points_per_hand"],
            figures["omniscient_points_per_hand"],
        )
        assert figures[f"{key}_gap_closed"] == pytest.approx(expected, abs=0.002)
    assert_refused(
        BENCH,
        [
            (["--bot", "heuristic", "--sighted"], "--sighted shows the cards to the expert"),
            (["--target", "0"], "the target must be positive, not 0"),
        ],
    )
