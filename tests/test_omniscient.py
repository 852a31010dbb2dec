"""The omniscient bot (arena only, for measuring): legal actions from the whole State, never at a table."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import smear.bots
from smear import Phase, apply, find_rules, new_match, player_view
from smear.arena import ArenaConfig, parse_lineup, run_arena, team_lineup
from smear.bots import HeuristicBot, bot_names
from smear.bots.omniscient import OmniscientBot
from smear.cli import cli

CONFIGS = [
    ("house", 4, True),
    ("house", 3, False),
    ("house", 6, True),
    ("ten_point", 4, True),
    ("ten_point", 5, False),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}{'-teams' if c[2] else ''}")
def test_the_omniscient_bot_plays_only_legal_actions(config: tuple[str, int, bool]) -> None:
    preset, players, teams = config
    rules = find_rules(preset)
    rng = random.Random(3)
    omniscient = OmniscientBot(playouts=1)
    others = HeuristicBot()
    for seed in range(2):
        state = new_match(rules, players, teams, seed=seed)
        while state.public.to_act is not None:  # one whole hand, the omniscient bot in seats 0 and 1
            seat = state.public.to_act
            view = player_view(state, seat)
            chosen = omniscient.choose_with_state(state, seat, rng) if seat < 2 else None
            action = chosen or others.choose(view, rng)
            assert action in view.legal_actions, (str(action), [str(a) for a in view.legal_actions])
            state = apply(state, action, seat)
        assert state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)


def test_the_omniscient_bot_is_never_offered_at_a_table() -> None:
    assert "omniscient" not in bot_names()
    with pytest.raises(ValueError):
        smear.bots.make_bot("omniscient")
    assert not hasattr(OmniscientBot(), "choose")  # it cannot play from a PlayerView


def test_a_tiny_arena_with_the_omniscient_bot() -> None:
    assert parse_lineup("omniscient,heuristic", 4, True) == team_lineup("omniscient", "heuristic", 4)
    config = ArenaConfig("house", 4, True, team_lineup("omniscient", "heuristic", 4), matches=2, seed=1)
    report = run_arena(config, workers=1)
    rows = {row["bot"]: row for row in report.as_json()["bots"]}
    assert rows["omniscient"]["matches"] == rows["heuristic"]["matches"] == 2
    assert rows["omniscient"]["wins"] + rows["heuristic"]["wins"] == 2
    assert "omniscient" not in bot_names()


def test_the_arena_command_takes_the_omniscient_bot() -> None:
    result = CliRunner().invoke(
        cli,
        ["arena", "--teams", "--bots", "omniscient,heuristic", "--matches", "2", "--workers", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    assert '"omniscient"' in result.output
