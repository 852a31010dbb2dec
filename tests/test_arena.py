"""The arena: seats rotated on shared deals, statistics on a tiny fixed run, the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from smear.arena import ArenaConfig, parse_lineup, play_match, run_arena, team_lineup, wilson_interval
from smear.cli import cli
from smear.record import parse_record, replay


def test_every_bot_sits_in_every_seat_on_the_same_deals() -> None:
    config = ArenaConfig("house", 4, False, ("heuristic", "random", "random", "random"), matches=8)
    seatings = [config.seating(i) for i in range(4)]
    for seat in range(4):
        assert sorted(s[seat] for s in seatings) == ["heuristic", "random", "random", "random"]
    assert [config.deal_seed(i) for i in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]
    teams = ArenaConfig("house", 4, True, team_lineup("heuristic", "random", 4), matches=4)
    assert teams.seating(0) == ("heuristic", "random", "heuristic", "random")
    assert teams.seating(1) == ("random", "heuristic", "random", "heuristic")
    assert teams.deal_seed(0) == teams.deal_seed(1)


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-3)
    assert high == pytest.approx(0.9433, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high


def test_a_tiny_arena_counts_every_match_and_replays_its_records() -> None:
    config = ArenaConfig("house", 4, True, team_lineup("heuristic", "random", 4), matches=4, seed=3)
    report = run_arena(config, workers=1, keep_records=True)
    data = report.as_json()
    rows = {row["bot"]: row for row in data["bots"]}
    assert rows["heuristic"]["matches"] == rows["random"]["matches"] == 4
    assert rows["heuristic"]["wins"] + rows["random"]["wins"] == 4  # one side wins each match
    assert (
        0 <= rows["heuristic"]["ci_low"] <= rows["heuristic"]["win_rate"] <= rows["heuristic"]["ci_high"] <= 1
    )
    assert rows["heuristic"]["bids_made"] + rows["heuristic"]["bids_set"] == rows["heuristic"]["bids"]
    for result in report.results:
        assert result.record is not None
        replayed = replay(parse_record(result.record))
        assert replayed.summary["winner"] == result.winner
        assert sum(result.score_change) == sum(replayed.state.public.scores)
    # The same arena plays the same matches.
    again = run_arena(config, workers=1)
    assert [r.winner for r in again.results] == [r.winner for r in report.results]


def test_one_match_is_deterministic() -> None:
    config = ArenaConfig("ten_point", 3, False, ("heuristic", "random", "random"), matches=3, seed=5)
    assert play_match(config, 1) == play_match(config, 1)


def test_lineups_are_checked() -> None:
    assert parse_lineup("heuristic,random", 4, True) == ("heuristic", "random", "heuristic", "random")
    assert parse_lineup("heuristic,random", 4, False) == ("heuristic", "random", "random", "random")
    with pytest.raises(ValueError, match="unknown bot"):
        parse_lineup("heuristic,oracle", 4, False)
    with pytest.raises(ValueError, match="one per side"):
        parse_lineup("heuristic", 4, True)


def test_the_command_prints_json_and_writes_records(tmp_path: Path) -> None:
    args = ["arena", "--teams", "--matches", "2", "--workers", "1", "--json", "--records", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {row["bot"] for row in data["bots"]} == {"heuristic", "random"}
    for row in data["bots"]:
        assert {"matches", "wins", "win_rate", "ci_low", "ci_high", "points_per_hand"} <= set(row)
    assert len(list(tmp_path.glob("match-*.json"))) == 2
    refused = CliRunner().invoke(cli, ["arena", "--players", "5", "--teams", "--matches", "1"])
    assert refused.exit_code == 2


def test_options_reach_the_matches_and_their_records(tmp_path: Path) -> None:
    args = ["arena", "--rules", "five_point", "--teams", "--matches", "2", "--workers", "1", "--json"]
    args += ["--target", "11", "--shoot-the-moon", "--elimination", "--records", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    options = {"preset": "five_point", "target": 11, "shoot_the_moon": True, "elimination": -21}
    assert json.loads(result.stdout)["rules"] == options
    for path in tmp_path.glob("match-*.json"):
        record = json.loads(path.read_text())
        assert record["rules"] == options
        assert record["teams"] == [[0, 2], [1, 3]]
        state = replay(parse_record(record)).state
        assert state.public.rules.target == 11 and state.public.rules.top_bid == 6
    assert CliRunner().invoke(cli, ["arena", "--target", "20", "--matches", "1"]).exit_code == 2
    no_kitty = CliRunner().invoke(cli, ["arena", "--kitty", "--matches", "1"])
    assert no_kitty.exit_code == 2 and "house has no kitty" in no_kitty.output


def test_the_kitty_option_reaches_the_records(tmp_path: Path) -> None:
    args = ["arena", "--rules", "five_point", "--teams", "--kitty", "--matches", "1", "--workers", "1"]
    result = CliRunner().invoke(cli, [*args, "--json", "--records", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rules"] == {"preset": "five_point", "kitty": 3}
    (path,) = tmp_path.glob("match-*.json")
    state = replay(parse_record(json.loads(path.read_text()))).state
    assert state.public.rules.kitty == 3
    assert any(any(result.discards) for result in state.public.results)  # the bidders exchanged
