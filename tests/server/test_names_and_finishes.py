"""Names people can tell apart (a mark tied to the profile, decided by the server) and leaving counts
(matches finished and left per profile), issue 50 items 4 and 5."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
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
from test_players import database, host_with_profile, new_profile, seat_with_profile

from smear.server.players.names import Named, bot_like, marks, profile_mark
from smear.server.players.playerstats import finish_rate


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


def test_a_mark_is_shown_for_a_name_taken_twice_or_like_a_bot_level_and_never_on_a_bot() -> None:
    for name in ("Expert", "experto", "Esperto", "Especialista", "Débutant", "Expert bot", "robô normal"):
        assert bot_like(name), name
    assert not bot_like("Sam") and not bot_like("Ada")
    shown = marks(
        [
            Named("Sam", "p-one"),
            Named(" SAM", "p-two"),
            Named("Experto", "p-three"),
            Named("Expert", "bot-expert", bot=True),
            Named("Sam", None),  # a guest: no profile to mark
            Named("Bo", "p-four"),
        ]
    )
    assert shown == [profile_mark("p-one"), profile_mark("p-two"), profile_mark("p-three"), None, None, None]
    assert len({profile_mark(f"profile-{n}") for n in range(1000)}) > 990  # profiles told apart
    assert profile_mark("p-one") == profile_mark("p-one") and len(profile_mark("p-one")) == 4


async def _two_sams(s: Session) -> tuple[Any, Any, dict[str, str], dict[str, str]]:
    one, two = await new_profile(s.url, "Sam"), await new_profile(s.url, "Sam")
    host = await host_with_profile(s, "Sam", one, target=11)
    assert host.table is not None
    guest = await seat_with_profile(s, host.table, "Sam", two)
    for seat in (2, 3):
        assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
    return host, guest, one, two


def test_two_people_of_one_name_get_their_profiles_marks_at_the_table_in_chat_and_in_history(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host, guest, one, two = await _two_sams(s)
            state = await host.wait_for(lambda st: st["table"]["seats"][3]["bot"])
            seats = state["table"]["seats"]
            assert [seat["mark"] for seat in seats] == [
                profile_mark(one["player"]),
                profile_mark(two["player"]),
                None,
                None,
            ]
            assert seats[0]["mark"] != seats[1]["mark"]
            assert (await guest.send("chat", text="hello"))["ok"]
            [line] = (await host.wait_for_message("chat", 1))[0]["lines"]
            assert (line["name"], line["mark"]) == ("Sam", profile_mark(two["player"]))
            # A later reader of the chat gets the line with its mark as it was written.
            history = await host.call("chat_history", {"table": host.table})
            assert [one_line["mark"] for one_line in history["lines"]] == [profile_mark(two["player"])]
            assert (await host.send("start"))["ok"]
            await play_out([host, guest])
            status, played = await get_json(f"{s.url}/api/players/{one['player']}/matches")
            assert status == 200
            by_player = {seat["player"]: seat["mark"] for seat in played["matches"][0]["players"]}
            assert by_player[one["player"]] == profile_mark(one["player"])  # the same mark everywhere
            assert by_player[two["player"]] == profile_mark(two["player"])
            assert by_player["bot-heuristic"] is None
            status, board = await get_json(f"{s.url}/api/leaderboard/house")
            sams = {entry["player"]: entry["mark"] for entry in board if entry["name"] == "Sam"}
            assert sams == {p["player"]: profile_mark(p["player"]) for p in (one, two)}
            assert all(entry["mark"] is None for entry in board if entry["bot"])

    run(scenario)


def test_a_person_named_like_a_bot_level_is_marked_and_the_bots_are_not(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            expert = await new_profile(s.url, "Experto")
            host = await host_with_profile(s, "Experto", expert, bot_level="expert")
            for seat in (1, 2, 3):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            state = await host.wait_for(lambda st: st["table"]["seats"][3]["bot"])
            assert [seat["mark"] for seat in state["table"]["seats"]] == [
                profile_mark(expert["player"]),
                None,
                None,
                None,
            ]
            plain = await new_profile(s.url, "Lou")
            other = await host_with_profile(s, "Lou", plain)
            lou = await other.wait_for(lambda st: st["table"]["seats"][0]["name"] == "Lou")
            assert lou["table"]["seats"][0]["mark"] is None  # nobody to tell Lou from
            # Their own pages show the same: Experto marked, Lou and the expert bot not.
            pages = [await get_json(f"{s.url}/api/players/{who['player']}") for who in (expert, plain)]
            assert [(status, page["mark"]) for status, page in pages] == [
                (200, profile_mark(expert["player"])),
                (200, None),
            ]
            assert (await get_json(f"{s.url}/api/players/bot-expert"))[1]["mark"] is None

    run(scenario)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_finished_match_counts_finished_and_one_left_in_progress_counts_left(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async def scenario() -> None:
        async with session(database(kind, tmp_path, request)) as s:
            host, guest, one, two = await _two_sams(s)
            state = await host.wait_for(lambda st: st["table"]["seats"][3]["bot"])
            assert [(seat["finished"], seat["left"]) for seat in state["table"]["seats"]] == [
                (0, 0),
                (0, 0),
                (None, None),
                (None, None),
            ]
            assert (await host.send("start"))["ok"]
            await play_out([host, guest])
            for profile in (one, two):
                status, shown = await get_json(f"{s.url}/api/players/{profile['player']}")
                assert status == 200 and (shown["finished"], shown["left"]) == (1, 0)
            # The next match: the guest leaves while it is played.
            for client in (host, guest):
                assert (await client.send("rematch", ready=True))["ok"]
            await host.wait_for(lambda st: st["table"]["match_number"] == 2)
            assert (await guest.send("leave"))["ok"]
            status, shown = await get_json(f"{s.url}/api/players/{two['player']}")
            assert (shown["finished"], shown["left"]) == (1, 1)
            await play_out([host])
            final = await host.wait_for(
                lambda st: st["table"]["status"] == "finished" and st["table"]["seats"][0]["finished"] == 2
            )
            mine = next(seat for seat in final["table"]["seats"] if seat["player"] == one["player"])
            assert (mine["finished"], mine["left"]) == (2, 0)
            status, shown = await get_json(f"{s.url}/api/players/{two['player']}")
            assert (shown["finished"], shown["left"]) == (1, 1)  # the match it left is not finished
            refused = await guest.send("leave")  # its token holds no seat now: nothing more counted
            assert not refused["ok"]
            status, shown = await get_json(f"{s.url}/api/players/{two['player']}")
            assert (shown["finished"], shown["left"]) == (1, 1)

    run(scenario)


def test_the_finish_rate_prefers_players_who_finish() -> None:
    assert finish_rate(0, 0) == 1.0
    assert finish_rate(10, 0) > finish_rate(10, 1) > finish_rate(10, 5)
    assert 0 < finish_rate(0, 50) < 0.1
