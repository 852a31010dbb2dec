"""A bot is named the same way wherever it shows: its seat's name with its level (``bot_level``),
sent by the server at the table, in a history, with a replay's match and on the leaderboard."""

from __future__ import annotations

import asyncio
from pathlib import Path

from serverkit import (  # noqa: F401  (stopped_pace: a fixture, used by every test here)
    get_json,
    play_out,
    session,
    stopped_pace,
)
from test_players import host_with_profile, new_profile


def test_a_bot_carries_its_level_at_the_table_in_the_history_the_replay_and_the_leaderboard(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            url = s.url
            ann = await new_profile(url, "Ann")
            host = await host_with_profile(s, "Ann", ann, players=3, target=11, bot_level="expert")
            for seat in (1, 2):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            state = await host.wait_for(lambda st: st["table"]["seats"][2]["bot"])
            seats = state["table"]["seats"]
            assert [seat["bot_level"] for seat in seats] == [None, "expert", "expert"]
            assert seats[1]["name"]  # the seat's own name ("Bo") with the level beside it
            assert (await host.send("start"))["ok"]
            await play_out([host])

            status, answer = await get_json(f"{url}/api/players/{ann['player']}/matches")
            assert status == 200
            match = answer["matches"][0]
            players = {p["seat"]: p for p in match["players"]}
            assert [players[seat]["bot_level"] for seat in range(3)] == [None, "expert", "expert"]
            assert players[1]["name"] == seats[1]["name"]
            status, replayed = await get_json(f"{url}/api/matches/{match['match']}/replay")
            assert status == 200
            assert {p["seat"]: p["bot_level"] for p in replayed["match"]["players"]} == {
                0: None,
                1: "expert",
                2: "expert",
            }
            status, board = await get_json(f"{url}/api/leaderboard/house")
            levels = {entry["player"]: entry["bot_level"] for entry in board}
            assert levels["bot-expert"] == "expert" and levels[ann["player"]] is None
            status, profile = await get_json(f"{url}/api/players/bot-expert")
            assert status == 200 and profile["bot_level"] == "expert"

    asyncio.run(scenario())


def test_the_yardstick_bots_are_offered_to_no_table_and_left_off_the_leaderboard(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            # A database an older server kept, where the yardsticks had profiles and ratings.
            s.server.storage.players.ensure_bots(["pimc", "counting"], ["house"], 0.0)
            status, facts = await get_json(f"{s.url}/api/presets")
            assert status == 200
            assert facts["settings"]["bot_level"]["choices"] == ["random", "beginner", "heuristic", "expert"]
            host = await s.connect()
            payload = {"name": "Ann", "preset": "house", "players": 4, "teams": True}
            for yardstick in ("pimc", "counting"):
                reply = await host.call("create_table", {**payload, "bot_level": yardstick})
                assert reply["error"]["code"] == "rules_refused"
                assert reply["error"]["args"]["reason_code"] == "unknown_bot"
            assert not s.server.live.tables
            status, board = await get_json(f"{s.url}/api/leaderboard/house")
            assert status == 200
            assert {entry["bot_level"] for entry in board if entry["bot"]} == {
                "random",
                "beginner",
                "heuristic",
                "expert",
            }

    asyncio.run(scenario())
