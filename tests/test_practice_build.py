"""smear practice build: records hold exactly the seat's view, their ids are stable, only sound
positions are kept, and the command writes records the import accepts."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import MOON_HANDS, MOON_OUT, act, start

from smear.actions import parse_action
from smear.cli import cli
from smear.practice.build import (
    Candidate,
    candidates_of,
    position_record,
    selfplay_config,
    selfplay_match,
    solve_candidate,
)
from smear.practice.record import PracticePosition, position_id
from smear.practice.solve import Solution, solve
from smear.record import Record, replay
from smear.rules import find_rules
from smear.server.wire.outbound import view_json
from smear.state import State
from smear.views import player_view


def _state_at(record: Record, hand: int, index: int) -> State:
    """The state of the match just before action ``index`` of hand ``hand``."""
    found: list[State] = []
    counter = {"hand": -1, "index": 0}

    def observe(before: State, action: object, after: State) -> None:
        number = before.public.hand_number - 1
        if number != counter["hand"]:
            counter["hand"], counter["index"] = number, 0
        if (number, counter["index"]) == (hand, index):
            found.append(before)
        counter["index"] += 1

    replay(record, observe)
    return found[0]


def _first_solved(record: Record, seating: tuple[str, ...]) -> tuple[Candidate, Solution]:
    for candidate in candidates_of(record, seating, "house", 0, 0):
        solution = solve_candidate(candidate, 8, 0)
        if solution is not None:
            return candidate, solution
    raise AssertionError("no unforced decision in the match")


@pytest.mark.slow
def test_a_position_shows_the_seat_s_view_at_that_moment_and_its_id_is_stable() -> None:
    played, seating = selfplay_match("house", 0, 0)
    candidate, solution = _first_solved(played, seating)
    state = _state_at(played, candidate.position.hand, candidate.position.action_index)
    position = candidate.position
    record = position_record(candidate, solution, 0)
    # As the table sends it: JSON.
    assert record["you"] == json.loads(json.dumps(view_json(player_view(state, position.seat))))
    assert record["public"] == record["you"]["public"]
    assert record["names"][position.seat] == "You"
    again = position_record(candidate, solution, 0)
    assert again["id"] == record["id"] == position_id(record)
    assert position_id({**record, "choices": record["choices"][::-1]}) != record["id"]
    PracticePosition.model_validate(record)
    assert "answer" not in PracticePosition.model_validate(record).question()


def _solution(margin: float, error: float) -> Solution:
    bid2, bid3 = parse_action("bid 2"), parse_action("bid 3")
    return Solution((bid2, bid3), {"bid 2": 0.0, "bid 3": margin}, bid3, margin, error, 100, ())


def test_every_other_self_play_match_allows_the_moon_so_that_moon_decisions_are_found() -> None:
    for preset in ("house", "ten_point", "five_point"):
        assert not find_rules(preset).shoot_the_moon  # no preset has it on: the build turns it on
        assert [selfplay_config(preset, match, 0).rules.shoot_the_moon for match in range(4)] == [
            False,
            True,
            False,
            True,
        ]


def test_the_soundness_filter_keeps_a_clear_lead_and_drops_a_close_or_noisy_one() -> None:
    assert _solution(1.0, 0.3).sound()
    assert not _solution(0.1, 0.05).sound()  # under the least margin
    assert not _solution(0.6, 0.9).sound()  # within its error


def test_a_hand_that_takes_every_point_whatever_it_leads_is_not_sound() -> None:
    rules = find_rules("house")
    state = act(start(rules, MOON_HANDS, teams=True, out=MOON_OUT), "bid 2", "pass", "pass", "pass")
    close = solve(player_view(state, 0), random.Random(0), 16)
    assert close is not None and close.margin == 0 and not close.sound()


@pytest.mark.slow
def test_build_writes_valid_json_lines_and_refuses_bad_arguments(tmp_path: Path) -> None:
    out = tmp_path / "positions.jsonl"
    runner = CliRunner()
    args = ["practice", "build", "--selfplay", "1", "--rules", "house", "--workers", "1", "--deals", "16"]
    result = runner.invoke(cli, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    # Self-play is not repeatable (the expert searches by time) and 16 deals keep few positions:
    # whatever the match, the file holds exactly the positions the build says it kept, each valid.
    progress = re.findall(r"solved (\d+), kept (\d+)", result.output)
    kept = re.findall(r"^positions: (\d+)$", result.output, re.M)
    assert len(progress) == 1 and int(progress[0][0]) > 0, result.output
    lines = out.read_text().splitlines()
    assert [len(lines)] == [int(kept[0])] == [int(progress[0][1])], result.output
    for line in lines:
        PracticePosition.model_validate(json.loads(line))
    bad = runner.invoke(cli, ["practice", "build", "--rules", "nope", "--out", str(out)])
    assert bad.exit_code == 2 and "nope" in bad.output and "Traceback" not in bad.output
    nowhere = runner.invoke(cli, ["practice", "build"])
    assert nowhere.exit_code == 2 and "--out" in nowhere.output
