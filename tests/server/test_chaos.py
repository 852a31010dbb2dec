"""A short run of the chaos benchmark (bench/chaos.py): the server killed with SIGKILL a few times
under live tables of people and bots loses no acknowledged action, every table comes back and
finishes its match, every client's view after a resume is one the stored actions lead to, and every
finished match's record replays. With two server processes sharing the tables, one of them is
killed at a time and the same holds. Beside the kills, a record fails once, the database is slow for
seconds (and, with two processes, Redis is gone for seconds), and the one table made to refuse a
restore comes out quarantined, its people told so, and no other.

The run waits on what the clients see and has only generous deadlines as a safety net, so a loaded
machine makes it slower, not flaky.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from chaoskit.plan import TablePlan, choose_action
from chaoskit.run import run_chaos

from smear.actions import parse_action
from smear.bots import random_action
from smear.dealing import new_match, next_hand, team_sides
from smear.legal import legal_actions
from smear.rules import PRESETS
from smear.server.wire.protocol import view_json
from smear.state import Phase
from smear.transitions import apply
from smear.views import player_view


def test_kills_lose_nothing(tmp_path: Path) -> None:
    plan = TablePlan
    # Short matches of the presets whose hands differ most: a discard too large to list (mcleod's
    # bidder), a widow, players dropping out (nine_card), a kitty; people and bots at every table.
    plans = [
        plan("mcleod", 4, True, 2, "heuristic", False, True, False),
        plan("widow", 3, False, 2, "random", True, True, False),
        plan("nine_card", 3, False, 1, "heuristic", False, True, False),
        plan("five_point", 4, True, 3, "random", False, True, True),
    ]
    lines: list[str] = []
    report = run_chaos(kills=3, seed=7, workdir=tmp_path, log=lines.append, plans=plans)
    text = "\n".join([*lines, report.text()])
    assert report.kills == 3, text
    assert report.acknowledged_lost == 0, text
    assert report.stuck_tables == 0, text
    assert report.desyncs == 0, text
    assert report.replay_failures == 0, text
    faults_held(report, lines, text)


def faults_held(report: Any, lines: list[str], text: str) -> None:
    """Every fault was injected, and the table made to refuse a restore, alone, came out aside."""
    assert report.figures().endswith("\nquarantined: 1"), text
    assert report.wrongly_quarantined == 0 and not report.failed, text
    assert sum("is put aside: its people are told so" in line for line in lines) == 1, text
    injected = [line for line in report.details if line.startswith("faults injected: ")]
    assert len(injected) == 1 and "(it failed once)" in injected[0], text
    assert any("fault: the database is slow" in line for line in lines), text


def test_one_of_two_processes_killed_loses_nothing(tmp_path: Path, postgres_url: str, redis_url: str) -> None:
    """Two processes share the tables through Redis and PostgreSQL; one of them at a time is killed
    while the other serves on: its clients resume on the other, its tables are taken over, and the
    same checks hold."""
    plan = TablePlan
    plans = [
        plan("five_point", 4, True, 2, "random", False, True, False),
        # Widow with 3 players: its bidder's discard runs to 88 characters, past the VARCHAR(64)
        # that PostgreSQL once refused.
        plan("widow", 3, False, 2, "random", True, True, False),
        plan("cutthroat", 3, False, 2, "heuristic", False, True, False),
    ]
    lines: list[str] = []
    report = run_chaos(
        kills=3,
        seed=5,
        database=postgres_url,
        workdir=tmp_path,
        log=lines.append,
        plans=plans,
        servers=2,
        redis=redis_url,
    )
    text = "\n".join([*lines, report.text()])
    assert report.servers == 2, text
    assert report.kills == 3, text
    assert report.acknowledged_lost == 0, text
    assert report.stuck_tables == 0, text
    assert report.desyncs == 0, text
    assert report.replay_failures == 0, text
    assert sum("] kill " in line and ": server " in line for line in lines) == 3, text
    faults_held(report, lines, text)
    assert any("fault: Redis is gone" in line for line in lines), text


def test_a_discard_too_large_to_list_is_built_legal() -> None:
    """McLeod's bidder gets no ``legal`` list for its discard: the one built from ``discard`` is legal."""
    rules = PRESETS["mcleod"]
    rng = random.Random(1)
    built = 0
    for seed in range(100):
        state = new_match(rules, 4, team_sides(4, rules.alternate_teams), seed=seed)
        while state.public.phase is not Phase.MATCH_OVER and built < 3:
            if state.public.phase is Phase.HAND_OVER:
                state = next_hand(state)
                continue
            game = view_json(player_view(state, state.public.to_act))
            if not game["legal"] and game["discard"]:
                state = apply(state, parse_action(choose_action(game, rng)))  # raises if illegal
                built += 1
            else:
                state = apply(state, random_action(legal_actions(state), rng))
        if built >= 3:
            break
    assert built >= 3
