"""The costliest decisions of a finished match for the replay viewer: GET /api/matches/{match}/review
(smear.server.players.api), worked out in the reviews' own process (smear.server.players.background) by the
expert (smear.server.players.hints.judge_record) and paced per address."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from serverkit import (  # noqa: F401  (stopped_pace: a fixture, used by every test here)
    Session,
    get_json,
    play_out,
    session,
    stopped_pace,
)
from test_players import host_with_profile, new_profile

from smear.actionjson import record_action_json
from smear.record import Record, parse_record
from smear.review import Review, review_record
from smear.server.limits import Limits
from smear.server.players.hints import (
    REVIEW_SHOWN,
    MatchReview,
    match_review_samples,
    played_decision_json,
    played_review_seed,
)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def finished_match(s: Session) -> tuple[str, str]:
    """A match a new Ann played against two bots to the end: its id, from her history, and Ann's
    profile id. She bids the highest she may: bids she cannot make cost points, so the review has
    costly decisions to list (a player who always passed left, now and then, none worse than the
    expert's margin of error)."""
    ann = await new_profile(s.url, "Ann")
    host = await host_with_profile(s, "Ann", ann, players=3, target=11)
    for seat in (1, 2):
        assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
    assert (await host.send("start"))["ok"]
    await play_out([host], top_bid=True)
    history = (await get_json(f"{s.url}/api/players/{ann['player']}/matches"))[1]["matches"]
    assert len(history) == 1
    return str(history[0]["match"]), ann["player"]


def test_a_finished_match_answers_its_costliest_decisions_each_judged_from_its_seat(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            match, _ = await finished_match(s)
            record = (await get_json(f"{s.url}/api/matches/{match}"))[1]
            status, answer = await get_json(f"{s.url}/api/matches/{match}/review")
            assert status == 200, answer
            assert set(answer) == {"decisions", "players", "samples"}
            decisions = answer["decisions"]
            assert 0 < len(decisions) <= REVIEW_SHOWN
            losses = [decision["loss"] for decision in decisions]
            assert losses == sorted(losses, reverse=True) and all(loss > 0 for loss in losses)
            for decision in decisions:
                assert set(decision) == {
                    "hand",
                    "action_index",
                    "seat",
                    "action",
                    "best",
                    "expected_action",
                    "expected_best",
                    "loss",
                    "verdict",
                    "error",
                }
                assert decision["verdict"] == "worse" and decision["loss"] > decision["error"]
                assert 0 <= decision["hand"] < len(record["hands"])
                actions = record["hands"][decision["hand"]]["actions"]
                assert 0 <= decision["action_index"] < len(actions)
                assert decision["action"] == record_action_json(actions[decision["action_index"]])
                assert 0 <= decision["seat"] < len(record["players"])
                assert decision["best"] != decision["action"]
                assert decision["loss"] == round(decision["expected_best"] - decision["expected_action"], 2)
            assert [player["seat"] for player in answer["players"]] == [0, 1, 2]

            # Exactly what smear.review judges, each seat from its own view, with the sample budget of
            # a match's review and a seed from the match's public id.
            parsed = parse_record(record)
            judged = review_record(
                parsed,
                None,
                played_review_seed(match),
                match_review_samples(sum(len(hand.actions) for hand in parsed.hands)),
            )
            assert answer["samples"] == match_review_samples(len(judged.decisions))
            assert decisions == [played_decision_json(d) for d in judged.costliest()[:REVIEW_SHOWN]]
            assert answer["players"] == [player.to_json() for player in judged.players]
            assert sum(player["decisions"] for player in answer["players"]) == len(judged.decisions)

            # Asked again, the same answer: kept, not worked out again (not even looked up).
            reviews = s.server.background.reviews
            started = reviews.started
            for _ in range(2):
                assert await get_json(f"{s.url}/api/matches/{match}/review") == (200, answer)
            assert reviews.started == started
            assert reviews.working == 0 and s.server.hints.working == 0

    run(scenario)


def test_an_unknown_match_has_no_review(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            for match in ("nope", "a" * 60, "Qw3eRt5yUi8o", "%00"):
                status, answer = await get_json(f"{s.url}/api/matches/{match}/review")
                assert (status, answer["error"]["code"]) == (404, "no_such_match"), match

    run(scenario)


def test_reviews_are_paced_per_address_refused_when_their_queue_is_full_and_a_kept_one_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limits = Limits()
    assert (limits.review_pace, limits.review_burst) == (0.1, 5)  # five at once, then one every ten seconds
    judged: list[int] = []

    def judge(record: Record, seed: int) -> MatchReview:
        judged.append(seed)
        return MatchReview(Review((), ()), 4)

    # In a thread rather than a process, so that the stand-in judges.
    monkeypatch.setattr("smear.server.players.background.worker_pool", lambda *_: ThreadPoolExecutor(1))
    monkeypatch.setattr("smear.server.players.hints.judge_record", judge)

    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            match, _ = await finished_match(s)
            url = f"{s.url}/api/matches/{match}/review"
            reviews = s.server.background.reviews
            # The reviews' queue is full: refused with a time to come back, and not paced (nothing
            # was worked out).
            reviews.working += reviews.queue
            for _ in range(limits.review_burst + 1):
                status, headers, answer = await asyncio.to_thread(urllib_get(url))
                assert (status, answer["error"]["code"]) == (503, "server_busy")
                assert headers.get("retry-after") == "5"
            reviews.working -= reviews.queue
            first = await get_json(url)
            assert first[0] == 200 and len(judged) == 1
            # Kept: asked again, it is neither worked out again nor paced.
            for _ in range(limits.review_burst + 1):
                assert await get_json(url) == first
            assert len(judged) == 1
            # Not kept any more: worked out again, and paced: the burst is spent, then refused.
            for _ in range(limits.review_burst - 1):
                s.server.background.reviewed.clear()
                assert await get_json(url) == first
            s.server.background.reviewed.clear()
            status, answer = await get_json(url)
            assert (status, answer["error"]["code"]) == (429, "rate_limited")
            assert len(judged) == limits.review_burst
            # An unknown match is not paced (nothing is worked out for it).
            assert (await get_json(f"{s.url}/api/matches/nope/review"))[0] == 404
            assert (await get_json(f"{s.url}/api/matches/Qw3eRt5yUi8o/review"))[0] == 404
            assert reviews.working == 0

    run(scenario)


def urllib_get(url: str) -> Callable[[], tuple[int, dict[str, str], Any]]:
    """``GET url`` to run off the event loop: the status, the headers (named in lower case) and the
    decoded JSON."""

    def fetch() -> tuple[int, dict[str, str], Any]:
        try:
            response = urllib.request.urlopen(url, timeout=10)
        except urllib.error.HTTPError as err:
            response = err
        with response:
            headers = {name.lower(): value for name, value in response.headers.items()}
            return response.status, headers, json.loads(response.read())

    return fetch
