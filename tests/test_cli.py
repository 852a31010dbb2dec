"""The ``smear`` command line (smear.cli): exit codes, the stderr line, --json, selfplay."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from test_record import EXAMPLE, EXAMPLE_SUMMARY

from smear.cli import cli
from smear.record import parse_record, replay

ILLEGAL_LINE = "hand 1, action 11: Ayse cannot play Kc: spades were led and Ayse holds a spade"


def run(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin, catch_exceptions=False)


def write(tmp_path: Path, data: Any, name: str = "match.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def illegal_record() -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    data["hands"][0]["actions"][10] = "Kc"  # Ayse must follow the Ks led with a spade
    return data


def dealt_twice_record() -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    data["hands"][0]["deal"][0][5] = "Ah"  # You hold the Ah as well
    return data


# --- smear replay -----------------------------------------------------------------------------------


def test_replay_json_prints_the_summary(tmp_path: Path) -> None:
    result = run("replay", write(tmp_path, EXAMPLE), "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert list(summary) == ["hands", "scores", "winner", "complete"]
    assert list(summary["hands"][0]) == [
        "bidder",
        "bid",
        "trump",
        "points",
        "game_points",
        "taken",
        "made",
        "scores",
    ]
    assert summary == EXAMPLE_SUMMARY
    assert result.stderr == ""


def test_replay_summary_for_people(tmp_path: Path) -> None:
    result = run("replay", write(tmp_path, EXAMPLE))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(line for line in lines if line.startswith("Hand"))
    assert header.split() == [
        *("Hand", "Dealer", "Bidder", "Bid", "Trump"),
        *("High", "Low", "Jack", "BJ", "LJ", "Game", "Result", "Scores"),
    ]
    row = next(line for line in lines if line.lstrip().startswith("1 "))
    assert row.split() == [
        *("1", "Sam", "You", "3", "hearts"),
        *("You", "Sam", "Sam", "-", "You", "You", "made", "0", "0", "3", "2"),
    ]
    assert "Scores: Ayse 0, Kemal 0, You 3, Sam 2" in lines
    assert lines[-1] == "No winner yet: the match goes on."


def test_replay_summary_names_teams_and_the_winner(tmp_path: Path) -> None:
    data = copy.deepcopy(EXAMPLE)
    data["teams"] = [[0, 2], [1, 3]]
    data["start_scores"] = [18, 0]
    result = run("replay", write(tmp_path, data))
    assert result.exit_code == 0, result.stderr
    assert "Team 1 (Ayse & You)" in result.stdout.splitlines()[0]
    assert result.stdout.splitlines()[-1] == "Winner: Team 1 (Ayse & You)"


def test_replay_summary_of_an_unfinished_hand(tmp_path: Path) -> None:
    data = copy.deepcopy(EXAMPLE)
    data["hands"][0]["actions"] = data["hands"][0]["actions"][:6]
    result = run("replay", write(tmp_path, data))
    assert result.exit_code == 0, result.stderr
    assert "in play" in result.stdout
    assert (
        result.stdout.splitlines()[-1]
        == "The record stops in hand 1 after 6 actions, with Ayse to play a card."
    )


def test_replay_reads_standard_input() -> None:
    result = run("replay", "-", "--json", stdin=json.dumps(EXAMPLE))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == EXAMPLE_SUMMARY


def test_illegal_action_exits_1_with_one_line(tmp_path: Path) -> None:
    for flags in ([], ["--json"]):
        result = run("replay", write(tmp_path, illegal_record()), *flags)
        assert result.exit_code == 1
        assert result.stderr == ILLEGAL_LINE + "\n"
        assert result.stdout == ""


def test_malformed_action_exits_1(tmp_path: Path) -> None:
    data = copy.deepcopy(EXAMPLE)
    data["hands"][0]["actions"][4] = "Xx"
    result = run("replay", write(tmp_path, data))
    assert result.exit_code == 1
    assert result.stderr.startswith("hand 1, action 5: ")
    assert "'Xx'" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (dealt_twice_record(), "invalid record: hand 1, seat 2 (You): Ah is dealt twice"),
        (
            {**EXAMPLE, "rules": "pinochle"},
            "invalid record: unknown preset: 'pinochle'"
            " (presets: house, ten_point, no_jick, cutthroat, five_point, mcleod, widow, nine_card)",
        ),
        ("{not json", None),
        ({**EXAMPLE, "format": "pgn"}, 'invalid record: "format" must be "smear-record/1", not "pgn"'),
    ],
    ids=["dealt twice", "unknown preset", "bad JSON", "wrong format"],
)
def test_invalid_record_exits_2_with_one_line(tmp_path: Path, data: Any, line: str | None) -> None:
    result = run("replay", write(tmp_path, data))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("invalid record: ")
    if line is not None:
        assert result.stderr == line + "\n"


def test_missing_file_exits_2(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nowhere.json"))
    assert result.exit_code == 2
    assert result.stderr.startswith("invalid record: cannot read ")
    assert "Traceback" not in result.output


# --- smear selfplay ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "house", "--players", "4", "--seed", "7"],
        ["--rules", "house", "--players", "6", "--teams", "--seed", "8"],
        ["--rules", "ten_point", "--players", "4", "--teams", "--seed", "9"],
        ["--rules", "ten_point", "--players", "3", "--seed", "1"],
    ],
)
def test_selfplay_writes_a_complete_record_to_stdout(args: list[str]) -> None:
    first = run("selfplay", *args, "--out", "-")
    assert first.exit_code == 0, first.stderr
    assert first.stdout_bytes == run("selfplay", *args, "--out", "-").stdout_bytes
    assert first.stderr == ""
    record = parse_record(first.stdout_bytes)
    assert record.rules.name == args[1]
    assert len(record.players) == int(args[3])
    assert record.players[0] == "Player 1"
    assert (record.teams is not None) == ("--teams" in args)
    summary = replay(record).summary
    assert summary["complete"] is True
    assert summary["winner"] is not None


def test_selfplay_to_a_file_matches_stdout_and_reports_one_line(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    args = ["selfplay", "--rules", "house", "--players", "5", "--seed", "3"]
    written = run(*args, "--out", str(path))
    assert written.exit_code == 0, written.stderr
    assert written.stdout == ""
    assert written.stderr.startswith(f"wrote {path}: house, 5 players, ")
    assert written.stderr.count("\n") == 1
    assert path.read_bytes() == run(*args, "--out", "-").stdout_bytes


def test_selfplay_seeds_differ() -> None:
    args = ["selfplay", "--rules", "house", "--players", "4", "--out", "-", "--seed"]
    assert run(*args, "1").stdout_bytes != run(*args, "2").stdout_bytes


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--rules", "pinochle", "--players", "4", "--seed", "1"], "pinochle"),
        (
            ["--rules", "house", "--players", "2", "--seed", "1"],
            "house is played by 3, 4, 5, 6, 7, 8 players",
        ),
        (["--rules", "house", "--players", "5", "--teams", "--seed", "1"], "with teams, not 5"),
        (["--rules", "house", "--players", "4"], "--seed"),
    ],
)
def test_selfplay_refuses_bad_arguments(args: list[str], complaint: str) -> None:
    result = run("selfplay", *args)
    assert result.exit_code == 2
    assert complaint in result.stderr
    assert result.stdout == ""


# --- the real process ---------------------------------------------------------------------------------


def smear(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "smear", *args], input=stdin, capture_output=True, timeout=60, check=False
    )


def test_process_exit_codes_and_stderr_lines(tmp_path: Path) -> None:
    ok = smear("replay", write(tmp_path, EXAMPLE, "ok.json"), "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == EXAMPLE_SUMMARY

    illegal = smear("replay", write(tmp_path, illegal_record(), "illegal.json"))
    assert illegal.returncode == 1
    assert illegal.stderr.decode() == ILLEGAL_LINE + "\n"
    assert illegal.stdout == b""

    invalid = smear("replay", "-", stdin=json.dumps(dealt_twice_record()).encode())
    assert invalid.returncode == 2
    assert invalid.stderr.decode() == "invalid record: hand 1, seat 2 (You): Ah is dealt twice\n"


def test_process_selfplay_to_stdout_is_reproducible() -> None:
    args = ("selfplay", "--rules", "ten_point", "--players", "4", "--seed", "21", "--out", "-")
    first, again = smear(*args), smear(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout
    assert replay(parse_record(first.stdout)).summary["complete"] is True
