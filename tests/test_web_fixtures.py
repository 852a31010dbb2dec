"""The engine output the browser client's unit tests read is what the engine makes now: the
replay viewer's tests (web/src/replay/steps.test.ts) run on the replay view the server sends."""

from __future__ import annotations

import difflib

from webfixtures import COMMAND, ENGINE_HANDS, engine_hands_ts


def test_the_engine_hands_of_the_replay_tests_are_what_the_engine_makes() -> None:
    made = engine_hands_ts()
    committed = ENGINE_HANDS.read_text(encoding="utf-8")
    lines = difflib.unified_diff(committed.splitlines(True), made.splitlines(True), "committed", "made", n=1)
    assert committed == made, f"{ENGINE_HANDS.name} is out of date: run {COMMAND}\n{''.join(lines)[:4000]}"
