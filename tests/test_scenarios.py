"""Scenario tests: hand-written match records, one folder per preset (see tests/scenarios/README.md).

Every ``tests/scenarios/<preset>/<name>.json`` is a plain ``smear-record/1`` file and has a sibling
``<name>.expect.json`` holding either ``{"summary": {...}}`` (a deep subset of what
``smear replay --json`` prints) or ``{"error": {"exit": 1 or 2, "message": "<the stderr line>"}}``.
Each record is replayed through :mod:`smear.record`; a few also go through the real command line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from smear import PRESETS
from smear.cli import cli
from smear.errors import RecordError
from smear.record import ReplayError, load_record, replay

SCENARIOS = Path(__file__).parent / "scenarios"
EXPECT_SUFFIX = ".expect.json"
RECORD_KEYS = {"format", "rules", "players", "teams", "start_scores", "hands"}
HAND_KEYS = {"dealer", "deal", "out", "actions"}
# `smear replay` prints an invalid record's RecordError after this prefix (exit 2).
INVALID_PREFIX = "invalid record: "
RECORDS = sorted(path for path in SCENARIOS.glob("*/*.json") if not path.name.endswith(EXPECT_SUFFIX))

# Run through `python -m smear replay FILE --json` as well: one of each kind of outcome.
CLI_SCENARIOS = [
    "house/worked_example",
    "house/tie_at_top_plays_on",
    "house/bids_rising_to_six",
    "house/trump_instead_of_following_refused",
    "house/card_dealt_twice_refused",
    "ten_point/eight_players_teams",
    "ten_point/jick_lead_is_trump_lead_refused",
    "five_point/four_players_hand",
    "no_jick/jack_of_the_colour_is_a_plain_card",
    "house/moon_made_wins_the_match",
    "cutthroat/four_players_refused",
    "mcleod/bidder_takes_the_stock",
    "widow/widow_refill_and_stock",
    "widow/scoring_trump_discarded_refused",
    "nine_card/trumps_only_and_players_drop_out",
]


def scenario_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def expect_path(path: Path) -> Path:
    return path.with_name(path.stem + EXPECT_SUFFIX)


def expectation(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(expect_path(path).read_text(encoding="utf-8"))
    return data


def mismatches(expected: Any, actual: Any, where: str = "summary") -> list[str]:
    """How ``actual`` fails to contain ``expected``: every key given must match, recursively;
    lists are compared element by element and must have exactly the elements given."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        found: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                found.append(f"{where}.{key}: missing")
            else:
                found += mismatches(value, actual[key], f"{where}.{key}")
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {expected!r}, got {actual!r}"]
        found = []
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            found += mismatches(want, got, f"{where}[{index}]")
        return found
    # bool is an int in Python: keep true/false apart from 1/0
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def test_mismatches_is_a_strict_subset_check() -> None:
    actual = {"hands": [{"bid": 3, "made": True}], "winner": None, "complete": True}
    assert mismatches({"hands": [{"bid": 3}], "complete": True}, actual) == []
    assert mismatches({"hands": [{"made": 1}]}, actual) == ["summary.hands[0].made: expected 1, got True"]
    assert mismatches({"hands": []}, actual) != []
    assert mismatches({"winner": 0}, actual) == ["summary.winner: expected 0, got None"]
    assert mismatches({"scores": [0]}, actual) == ["summary.scores: missing"]


def test_there_are_scenarios_for_every_preset() -> None:
    presets = {path.parent.name for path in RECORDS}
    assert set(PRESETS) <= presets
    assert len(RECORDS) >= 40


def test_every_expectation_has_its_record() -> None:
    for expect in SCENARIOS.glob(f"*/*{EXPECT_SUFFIX}"):
        record = expect.with_name(expect.name[: -len(EXPECT_SUFFIX)] + ".json")
        assert record.exists(), f"{expect} has no record beside it"


@pytest.mark.parametrize("path", RECORDS, ids=scenario_id)
def test_scenario_files_are_well_formed(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    assert set(record) == RECORD_KEYS, "a scenario record holds only the smear-record/1 keys"
    assert record["format"] == "smear-record/1"
    rules = record["rules"]
    preset = rules if isinstance(rules, str) else rules["preset"]
    assert preset == path.parent.name, "a scenario lives in the folder of its preset"
    for hand in record["hands"]:
        assert set(hand) <= HAND_KEYS
    expect = expectation(path)
    assert isinstance(expect.get("why"), str) and expect["why"], "say what the scenario shows"
    assert len(set(expect) & {"summary", "error"}) == 1
    assert set(expect) <= {"why", "summary", "error"}
    if "error" in expect:
        assert expect["error"]["exit"] in (1, 2)
        assert isinstance(expect["error"]["message"], str)


@pytest.mark.parametrize("path", RECORDS, ids=scenario_id)
def test_scenario(path: Path) -> None:
    expect = expectation(path)
    if "summary" in expect:
        result = replay(load_record(str(path)))
        problems = mismatches(expect["summary"], result.summary)
        assert not problems, "\n".join(problems)
        return
    exit_code = expect["error"]["exit"]
    message = expect["error"]["message"]
    if exit_code == 1:
        with pytest.raises(ReplayError) as refused:
            replay(load_record(str(path)))
        assert str(refused.value) == message
    else:
        with pytest.raises(RecordError) as invalid:
            replay(load_record(str(path)))
        assert f"{INVALID_PREFIX}{invalid.value}" == message


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "smear", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("name", CLI_SCENARIOS)
def test_scenario_through_the_command_line(name: str) -> None:
    # The command itself, in this process (a process each cost a second of the fast tier): the
    # tests below, and tests/test_cli.py, run it as a process of its own.
    path = SCENARIOS / f"{name}.json"
    expect = expectation(path)
    done = CliRunner().invoke(cli, ["replay", str(path), "--json"], prog_name="smear")
    if "summary" in expect:
        assert done.exit_code == 0, done.stderr
        problems = mismatches(expect["summary"], json.loads(done.stdout))
        assert not problems, "\n".join(problems)
    else:
        assert done.exit_code == expect["error"]["exit"], done.stderr
        assert done.stderr.strip().splitlines() == [expect["error"]["message"]]
        assert done.stdout == ""


def test_command_line_reads_a_scenario_from_standard_input() -> None:
    path = SCENARIOS / "house" / "worked_example.json"
    done = run_cli("replay", "-", "--json", stdin=path.read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stderr
    problems = mismatches(expectation(path)["summary"], json.loads(done.stdout))
    assert not problems, "\n".join(problems)


def test_command_line_summary_for_people() -> None:
    done = run_cli("replay", str(SCENARIOS / "house" / "worked_example.json"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
