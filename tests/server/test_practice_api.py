"""Practice over HTTP (``/api/practice/...`` and ``/api/players/{player}/practice/...``) on a real
server, with positions made here from the engine (a seat's view at a real moment of a match, its
legal actions as the choices, a made-up answer): the answer is never sent before an attempt, the
practice rating moves with first attempts only, the daily position is everyone's, themes filter,
refusals are coded, and importing positions twice stores them once."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from click.testing import CliRunner
from leakkit.practice import audit_practice, check_question, made_positions
from serverkit import http_json, running_server, stopped_pace  # noqa: F401
from support.dbservers import Postgres
from test_players import new_profile

from smear import apply, find_rules, legal_actions, new_match, player_view
from smear.cli import cli
from smear.practice.record import position_id, served_answer, served_question
from smear.server.limits import Limits
from smear.server.storage.database import Storage
from smear.server.storage.practicestore import BadPositionRecord, import_positions
from smear.server.wire.outbound import public_json, view_json

LIMITS = Limits(tables_per_hour=0, connections_per_address=0)
NOW = datetime.datetime(2026, 12, 6, 15, 0, tzinfo=datetime.UTC).timestamp()
THEMES = ("bid_the_hand", "moon", "lead")


def made_position(
    seed: int, moves: int = 1, rating: float = 1500.0, theme: str = "bid_the_hand"
) -> dict[str, Any]:
    """A bid at a real moment of a house match: the view of the seat to act after ``moves`` passes
    or lowest bids, its legal actions as the choices, and an answer made up (the last choice best),
    with a line holding every seat's cards."""
    state = new_match(find_rules("house"), 4, seed=seed)
    for _ in range(moves):
        state = apply(state, legal_actions(state)[0])
    seat = state.public.to_act
    assert seat is not None
    choices = [str(action) for action in legal_actions(state)]
    fields: dict[str, Any] = {
        "preset": "house",
        "players": 4,
        "seat": seat,
        "public": public_json(state.public),
        "you": view_json(player_view(state, seat)),
        "choices": choices,
    }
    fields = json.loads(json.dumps(fields))  # as a build's output line reads back
    values = {choice: round(-1.0 + index * 0.5, 2) for index, choice in enumerate(choices)}
    hands = [view_json(player_view(state, other))["hand"] for other in range(4)]
    return {
        "id": position_id(fields),
        **fields,
        "kind": "bid",
        "names": ["You" if other == seat else "Expert" for other in range(4)],
        "themes": [theme],
        "difficulty": 0.4,
        "rating": rating,
        "source": "selfplay",
        "answer": {
            "best": choices[-1],
            "values": values,
            "margin": 0.5,
            "error": 0.2,
            "deals": 400,
            "lines": [{"hands": hands, "actions": [{"seat": seat, "action": choices[-1]}]}],
        },
    }


def hidden_cards(position: dict[str, Any]) -> set[str]:
    """The cards of the other seats: never in what the position's seat is sent."""
    seat = position["seat"]
    [line] = position["answer"]["lines"]
    return {card for other, hand in enumerate(line["hands"]) if other != seat for card in hand}


async def raw_get(url: str, secret: str | None = None) -> tuple[int, bytes]:
    """``GET url``: the status and the body's bytes, as sent."""
    headers = {} if secret is None else {"Authorization": f"Bearer {secret}"}
    request = urllib.request.Request(url, headers=headers)

    def fetch() -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, bytes(response.read())
        except urllib.error.HTTPError as err:
            with err:
                return err.code, bytes(err.read())

    return await asyncio.to_thread(fetch)


def assert_no_answer(body: bytes, position: dict[str, Any]) -> None:
    text = body.decode()
    for word in ('"answer"', '"values"', '"best"', '"margin"', '"lines"', '"deals"'):
        assert word not in text, word
    for card in hidden_cards(position):
        assert f'"{card}"' not in text, card


def positions_db(tmp_path: Path, positions: list[dict[str, Any]]) -> str:
    url = f"sqlite:///{tmp_path / 'smear.db'}"
    assert import_positions(url, positions) == (len(positions), 0)
    return url


def run(scenario: Any) -> None:
    asyncio.run(scenario())


def test_a_position_is_sent_without_its_answer_which_comes_only_with_the_attempt(tmp_path: Path) -> None:
    position = made_position(3, moves=2)
    url = positions_db(tmp_path, [position])

    async def scenario() -> None:
        async with running_server(url, limits=LIMITS, clock=lambda: NOW) as (_, base):
            ann = await new_profile(base, "Ann")
            status, body = await raw_get(f"{base}/api/players/{ann['player']}/practice/next", ann["secret"])
            assert status == 200
            assert_no_answer(body, position)
            served = json.loads(body)
            question = {key: value for key, value in position.items() if key != "answer"}
            # The seat's view exactly as the table sent it, and each choice as the table sends an action.
            assert served["position"] == served_question(question)
            seen_then = view_json(player_view(_replayed(3, 2), position["seat"]))
            assert served["position"]["you"] == json.loads(json.dumps(seen_then))
            assert served["rating"] == {"rating": 1500.0, "mu": 25.0, "sigma": 8.333, "attempts": 0}
            assert served["streak"] == 0
            status, body = await raw_get(f"{base}/api/practice/daily")
            assert status == 200
            assert_no_answer(body, position)
            assert json.loads(body) == {"position": served_question(question), "date": "2026-12-06"}
            status, answer = await http_json(
                "POST",
                f"{base}/api/players/{ann['player']}/practice/{position['id']}",
                {"choice": position["choices"][-1]},
                ann["secret"],
            )
            assert status == 200, answer
            assert answer["correct"] is True and answer["choice"] == position["choices"][-1]
            assert answer["answer"] == served_answer(position["answer"])
            assert answer["streak"] == 1

    run(scenario)


def _replayed(seed: int, moves: int) -> Any:
    state = new_match(find_rules("house"), 4, seed=seed)
    for _ in range(moves):
        state = apply(state, legal_actions(state)[0])
    return state


def test_a_wrong_then_a_right_attempt_move_the_rating_down_then_up_and_a_second_try_moves_nothing(
    tmp_path: Path,
) -> None:
    first, second = made_position(4), made_position(5)
    url = positions_db(tmp_path, [first, second])

    async def attempt(base: str, profile: dict[str, str], position: dict[str, Any], choice: str) -> Any:
        status, answer = await http_json(
            "POST",
            f"{base}/api/players/{profile['player']}/practice/{position['id']}",
            {"choice": choice},
            profile["secret"],
        )
        assert status == 200, answer
        return answer

    async def scenario() -> None:
        async with running_server(url, limits=LIMITS, clock=lambda: NOW) as (_, base):
            ann = await new_profile(base, "Ann")
            wrong = await attempt(base, ann, first, first["choices"][0])
            assert wrong["correct"] is False and wrong["streak"] == 0
            down = wrong["rating"]
            assert down["after"]["rating"] < down["before"]["rating"] == 1500.0
            assert (down["before"]["attempts"], down["after"]["attempts"]) == (0, 1)
            right = await attempt(base, ann, second, second["choices"][-1])
            assert right["correct"] is True and right["streak"] == 1
            assert right["rating"]["before"] == down["after"]
            assert right["rating"]["after"]["rating"] > right["rating"]["before"]["rating"]
            again = await attempt(base, ann, first, first["choices"][-1])  # right, but not the first try
            assert again["correct"] is True and again["answer"] == served_answer(first["answer"])
            assert again["rating"]["before"] == again["rating"]["after"] == right["rating"]["after"]
            assert again["streak"] == 1
            status, served = await http_json(
                "GET", f"{base}/api/players/{ann['player']}/practice/next", secret=ann["secret"]
            )
            assert status == 200
            assert served["rating"] == right["rating"]["after"] and served["streak"] == 1
            # Both tried: the one tried longest ago comes back first.
            assert served["position"]["id"] == second["id"]
            # The positions moved too: the one answered wrong rose, the one answered right fell.
            assert served["position"]["rating"] < 1500.0

    run(scenario)


def test_next_serves_an_untried_position_nearest_the_profiles_rating(tmp_path: Path) -> None:
    far, near, middle = (
        made_position(6, rating=1900.0),
        made_position(7, rating=1480.0),
        made_position(8, rating=1600.0),
    )
    url = positions_db(tmp_path, [far, near, middle])

    async def scenario() -> None:
        async with running_server(url, limits=LIMITS, clock=lambda: NOW) as (_, base):
            ann = await new_profile(base, "Ann")
            served = []
            for _ in range(3):
                status, got = await http_json(
                    "GET", f"{base}/api/players/{ann['player']}/practice/next", secret=ann["secret"]
                )
                assert status == 200, got
                position = got["position"]
                served.append(position["id"])
                status, _ = await http_json(
                    "POST",
                    f"{base}/api/players/{ann['player']}/practice/{position['id']}",
                    {"choice": position["choices"][0]},  # wrong: the rating goes down each time
                    ann["secret"],
                )
                assert status == 200
            assert served == [near["id"], middle["id"], far["id"]]

    run(scenario)


def test_the_daily_position_is_the_same_for_everyone(tmp_path: Path) -> None:
    positions = [made_position(seed) for seed in range(10, 16)]
    url = positions_db(tmp_path, positions)

    async def scenario() -> None:
        async with running_server(url, limits=LIMITS, clock=lambda: NOW) as (_, base):
            ann, bob = await new_profile(base, "Ann"), await new_profile(base, "Bob")
            seen = set()
            for profile in (ann, bob, None):
                # Whoever asks, with whatever practice history.
                if profile is not None:
                    status, _ = await http_json(
                        "POST",
                        f"{base}/api/players/{profile['player']}/practice/{positions[0]['id']}",
                        {"choice": positions[0]["choices"][0]},
                        profile["secret"],
                    )
                    assert status == 200
                status, daily = await http_json("GET", f"{base}/api/practice/daily")
                assert status == 200 and daily["date"] == "2026-12-06"
                seen.add(daily["position"]["id"])
            assert len(seen) == 1 and seen <= {position["id"] for position in positions}

    run(scenario)


def test_themes_are_counted_and_next_keeps_to_the_theme_asked(tmp_path: Path) -> None:
    moon = made_position(20, theme="moon")
    bids = [made_position(seed) for seed in (21, 22)]
    url = positions_db(tmp_path, [moon, *bids])

    async def scenario() -> None:
        async with running_server(url, limits=LIMITS, clock=lambda: NOW) as (_, base):
            status, themes = await http_json("GET", f"{base}/api/practice/themes")
            assert status == 200
            assert themes == {
                "themes": [{"id": "bid_the_hand", "positions": 2}, {"id": "moon", "positions": 1}]
            }
            ann = await new_profile(base, "Ann")
            next_url = f"{base}/api/players/{ann['player']}/practice/next"
            for _ in range(2):  # the only moon position, even once tried
                status, got = await http_json("GET", f"{next_url}?theme=moon", secret=ann["secret"])
                assert status == 200 and got["position"]["id"] == moon["id"]
                status, _ = await http_json(
                    "POST",
                    f"{base}/api/players/{ann['player']}/practice/{moon['id']}",
                    {"choice": moon["choices"][1]},
                    ann["secret"],
                )
                assert status == 200
            status, got = await http_json("GET", f"{next_url}?theme=lead", secret=ann["secret"])
            assert (status, got["error"]["code"]) == (404, "no_practice_positions")
            status, got = await http_json("GET", f"{next_url}?theme=nonsense", secret=ann["secret"])
            assert (status, got["error"]["code"]) == (400, "no_such_theme")

    run(scenario)


def test_refusals_are_coded_and_change_nothing(tmp_path: Path) -> None:
    position = made_position(30)
    url = positions_db(tmp_path, [position])

    async def scenario() -> None:
        async with running_server(url, limits=LIMITS, clock=lambda: NOW) as (server, base):
            ann = await new_profile(base, "Ann")
            mine = f"{base}/api/players/{ann['player']}/practice"
            cases: list[tuple[str, str, Any, str | None, int, str]] = [
                ("GET", f"{mine}/next", None, None, 401, "bad_secret"),
                ("GET", f"{mine}/next", None, "not-her-secret", 401, "bad_secret"),
                (
                    "POST",
                    f"{mine}/{position['id']}",
                    {"choice": "bid 99"},
                    ann["secret"],
                    400,
                    "bad_practice_choice",
                ),
                ("POST", f"{mine}/{position['id']}", {"pick": "pass"}, ann["secret"], 400, "invalid_message"),
                ("POST", f"{mine}/{position['id']}", None, ann["secret"], 400, "malformed_json"),
                ("POST", f"{mine}/{'0' * 16}", {"choice": "pass"}, ann["secret"], 404, "no_such_position"),
                (
                    "POST",
                    f"{mine}/not-a-position",
                    {"choice": "pass"},
                    ann["secret"],
                    404,
                    "no_such_position",
                ),
                (
                    "POST",
                    f"{base}/api/players/nobody/practice/{position['id']}",
                    {"choice": "pass"},
                    "x" * 32,
                    401,
                    "bad_secret",
                ),
            ]
            for method, where, body, secret, status, code in cases:
                got_status, got = await http_json(method, where, body, secret)
                assert (got_status, got["error"]["code"]) == (status, code), (where, body)
                assert "bid 99" not in json.dumps(got)  # the refused choice is not echoed
            standing = server.storage.practice.standing(ann["player"])
            assert (standing.attempts, standing.streak) == (0, 0)

    run(scenario)


def test_with_no_positions_stored_every_route_says_so(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", limits=LIMITS, clock=lambda: NOW) as (_, base):
            ann = await new_profile(base, "Ann")
            status, got = await http_json("GET", f"{base}/api/practice/daily")
            assert (status, got["error"]["code"]) == (404, "no_practice_positions")
            status, got = await http_json(
                "GET", f"{base}/api/players/{ann['player']}/practice/next", secret=ann["secret"]
            )
            assert (status, got["error"]["code"]) == (404, "no_practice_positions")
            assert await http_json("GET", f"{base}/api/practice/themes") == (200, {"themes": []})

    run(scenario)


def test_practice_is_paced_per_address_and_per_profile(tmp_path: Path) -> None:
    position = made_position(40)
    url = positions_db(tmp_path, [position])
    limits = dataclasses.replace(LIMITS, practice_burst=2, practice_per_hour=1)

    async def scenario() -> None:
        async with running_server(url, limits=limits, clock=lambda: NOW) as (_, base):
            ann = await new_profile(base, "Ann")
            for _ in range(2):
                status, _ = await http_json(
                    "GET", f"{base}/api/players/{ann['player']}/practice/next", secret=ann["secret"]
                )
                assert status == 200
            status, got = await http_json(
                "POST",
                f"{base}/api/players/{ann['player']}/practice/{position['id']}",
                {"choice": position["choices"][-1]},
                ann["secret"],
            )
            assert (status, got["error"]["code"]) == (429, "rate_limited")
            assert await http_json("GET", f"{base}/api/practice/themes") == (429, got)

    run(scenario)


def test_importing_positions_twice_stores_them_once_and_a_bad_record_stores_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'smear.db'}"
    positions = [made_position(seed) for seed in (50, 51)]
    assert import_positions(url, positions) == (2, 0)
    assert import_positions(url, [*positions, made_position(52), made_position(52)]) == (1, 3)
    tampered = made_position(53) | {"preset": "ten_point"}  # its id no longer fits
    unsound = made_position(54)
    unsound["answer"]["error"] = 0.9
    for bad in (tampered, unsound, {"id": "x"}):
        with pytest.raises(BadPositionRecord, match="record 2: "):
            import_positions(url, [made_position(55), bad])
    with Storage(url) as storage:
        assert storage.practice.theme_counts() == {"bid_the_hand": 3}


def test_smear_practice_import_reads_a_builds_lines(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'smear.db'}"
    lines = tmp_path / "positions.jsonl"
    lines.write_text("".join(json.dumps(made_position(seed)) + "\n" for seed in (60, 61)))
    runner = CliRunner()
    result = runner.invoke(cli, ["practice", "import", str(lines), "--database", url])
    assert (result.exit_code, result.output) == (0, "imported: 2\nskipped: 0\n")
    result = runner.invoke(cli, ["practice", "import", str(lines), "--database", url])
    assert (result.exit_code, result.output) == (0, "imported: 0\nskipped: 2\n")
    lines.write_text('{"id": "not a position"}\n')
    result = runner.invoke(cli, ["practice", "import", str(lines), "--database", url])
    assert result.exit_code == 2 and "line 1" in result.output and "Traceback" not in result.output


def test_the_leak_audit_asks_for_every_kind_of_position_and_catches_an_answer_or_a_hidden_card(
    tmp_path: Path,
) -> None:
    limits = dataclasses.replace(LIMITS, practice_per_hour=0)

    async def scenario() -> None:
        async with (
            running_server(tmp_path / "smear.db", limits=limits) as (server, base),
            aiohttp.ClientSession() as http,
        ):
            checked, leaks = await audit_practice(http, base, server.storage, 20, 3)
        assert [str(leak) for leak in leaks] == []
        assert checked == 2 * 20 + 1

    run(scenario)
    position = made_positions(1, 5)[0]
    question = {key: value for key, value in position.items() if key != "answer"}
    assert check_question(json.dumps({"position": question}).encode(), position, "here") == []
    told = check_question(json.dumps({"position": position}).encode(), position, "here")
    assert [leak.detail for leak in told][:1] == [
        'the answer\'s "answer", "values", "best", "margin", "lines", "deals" sent before the attempt'
    ]
    assert any(leak.cards for leak in told)  # the searched deal's hands name the other seats' cards
    peeked = json.loads(json.dumps(question))
    peeked["you"]["hand"] = sorted(hidden_cards(position))[:1] + peeked["you"]["hand"][1:]
    assert {
        leak.detail for leak in check_question(json.dumps({"position": peeked}).encode(), position, "")
    } == {
        "a position is not exactly its seat's view",
        "a position names cards its seat does not see",
    }


def test_the_practice_store_reads_and_writes_the_same_on_postgresql(postgres: Postgres) -> None:
    url = postgres.new_database()
    moon, plain, strong = made_position(70, theme="moon"), made_position(71), made_position(72, rating=1700.0)
    assert import_positions(url, [moon, plain, strong]) == (3, 0)
    assert import_positions(url, [moon, plain, strong]) == (0, 3)
    with Storage(url) as storage:
        store = storage.practice
        storage.players.create_profile("ann", "Ann", "a-hash", 0.0)
        assert store.theme_counts() == {"moon": 1, "bid_the_hand": 2}
        found = store.next_position("ann", "moon")
        assert found is not None and found[0]["id"] == moon["id"] and "answer" not in found[0]
        wrong = store.attempt("ann", moon["id"], moon["choices"][0], 1.0)
        assert wrong is not None and not wrong.correct and wrong.answer == moon["answer"]
        assert wrong.after.rating.mu < wrong.before.rating.mu and wrong.after.attempts == 1
        again = store.attempt("ann", moon["id"], moon["choices"][-1], 2.0)
        assert again is not None and again.correct and again.after == again.before == wrong.after
        found = store.next_position("ann", None)  # untried, the nearer the profile's rating
        assert found is not None and found[0]["id"] == plain["id"]
        assert store.daily("2026-12-06") == store.daily("2026-12-06") is not None
        assert store.attempt("ann", "0" * 16, "pass", 3.0) is None
        assert store.standing("ann") == wrong.after


def test_a_deleted_profiles_attempts_and_practice_rating_go_with_it(tmp_path: Path) -> None:
    position = made_position(90)
    url = positions_db(tmp_path, [position])

    async def scenario() -> None:
        async with running_server(url, limits=LIMITS, clock=lambda: NOW) as (server, base):
            ann = await new_profile(base, "Ann")
            mine = f"{base}/api/players/{ann['player']}"
            choice = {"choice": position["choices"][0]}
            assert (await http_json("POST", f"{mine}/practice/{position['id']}", choice, ann["secret"]))[
                0
            ] == 200
            assert server.storage.practice.standing(ann["player"]).attempts == 1
            assert (await http_json("DELETE", mine, secret=ann["secret"]))[0] == 200
            assert server.storage.practice.standing(ann["player"]).attempts == 0
            # The position stays, with what the attempt taught it.
            status, daily = await http_json("GET", f"{base}/api/practice/daily")
            assert status == 200 and daily["position"]["rating"] > 1500.0

    run(scenario)
