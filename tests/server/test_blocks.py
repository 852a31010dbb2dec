"""Blocking (``/api/players/{player}/blocks``): a blocked player's chat lines and reactions never
reach the blocker (seated, or watching from a page that said whose it is); a block ends a friendship
and is never revealed to the blocked player, whose requests are answered as anyone's who is not a
friend; and the interface matchmaking uses (:meth:`smear.server.social.blocks.Blocks.any_blocked`)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from serverkit import Client, http_json, session, stopped_pace  # noqa: F401
from test_cluster import two_servers
from test_friends import LIMITS, call, friends, page
from test_players import host_with_profile, new_profile, proof, seat_with_profile


def run(scenario: Any) -> None:
    asyncio.run(scenario())


def test_a_blocked_players_chat_and_reactions_never_reach_the_blocker(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob, cat, dan = [await new_profile(s.url, name) for name in ("Ann", "Bob", "Cat", "Dan")]
            host = await host_with_profile(s, "Ann", ann, players=3)
            assert host.table is not None
            rude = await seat_with_profile(s, host.table, "Bob", bob)
            other = await seat_with_profile(s, host.table, "Cat", cat)
            watcher = await s.watch(host.table)
            assert (await watcher.call("hello", {"profile": proof(dan)}))["ok"]
            for blocker in (ann, dan):
                status, _ = await call(s, "POST", "/blocks", blocker, {"player": bob["player"]})
                assert status == 201
            assert (await rude.send("chat", text="hello all"))["ok"]
            assert (await rude.send("react", reaction="thanks"))["ok"]
            assert (await other.send("chat", text="hi Bob"))["ok"]
            # Cat's line comes after Bob's: once the blocker has it, Bob's would have come first.
            for blocker in (host, watcher):
                [line] = [data["lines"][0] for data in await blocker.wait_for_message("chat", 1)]
                assert line["text"] == "hi Bob" and blocker.got("reaction") == []
            assert [data["lines"][0]["text"] for data in await other.wait_for_message("chat", 2)] == [
                "hello all",
                "hi Bob",
            ]
            await other.wait_for_message("reaction", 1)
            history = await host.call("chat_history", {"table": host.table})
            assert [line["text"] for line in history["lines"]] == ["hi Bob"]
            # Unblocked from the profile page: Bob is heard again.
            assert await call(s, "DELETE", f"/blocks/{bob['player']}", ann) == (200, {"ok": True})
            assert (await call(s, "GET", "/blocks", ann))[1] == {"blocked": []}
            assert (await rude.send("chat", text="thanks"))["ok"]
            lines = await host.wait_for_message("chat", 2)
            assert lines[1]["lines"][0]["text"] == "thanks"

    run(scenario)


def test_a_block_ends_a_friendship_and_the_blocked_player_cannot_tell_it_from_a_stranger(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob, eve = [await new_profile(s.url, name) for name in ("Ann", "Bob", "Eve")]
            await friends(s, ann, bob)
            ann_page = await page(s, ann)
            host = await host_with_profile(s, "Ann", ann)
            await host.call("hello", {"profile": proof(ann)})
            status, blocked = await call(s, "POST", "/blocks", ann, {"player": bob["player"]})
            assert (status, blocked) == (201, {"player": bob["player"], "name": "Bob"})
            assert (await call(s, "GET", "/blocks", ann))[1] == {
                "blocked": [{"player": bob["player"], "name": "Bob"}]
            }
            # Bob sees Ann as he sees Eve, a stranger who is online at a table too.
            eve_host = await host_with_profile(s, "Eve", eve)
            await eve_host.call("hello", {"profile": proof(eve)})
            assert (await call(s, "GET", "/friends", bob))[1] == {
                "friends": [],
                "incoming": [],
                "outgoing": [],
            }
            for stranger in (ann, eve):
                status, asked = await call(s, "POST", "/friends", bob, {"player": stranger["player"]})
                assert (status, asked["status"]) == (201, "asked")
                status, refused = await call(s, "POST", f"/friends/{stranger['player']}/invite", bob)
                assert (status, refused) == (
                    404,
                    {
                        "error": {
                            "code": "no_such_friend",
                            "args": {},
                            "message": "that player is not among your friends",
                        }
                    },
                )
            mine = (await call(s, "GET", "/friends", bob))[1]
            assert mine["outgoing"] == sorted(
                [{"player": ann["player"], "name": "Ann"}, {"player": eve["player"], "name": "Eve"}],
                key=lambda person: person["name"],
            )
            assert "online" not in str(mine) and host.table not in str(mine)
            # Ann is never shown Bob's request, nor any invitation from him.
            assert (await call(s, "GET", "/friends", ann))[1]["incoming"] == []
            status, refused = await call(s, "POST", f"/friends/{bob['player']}/accept", ann)
            assert (status, refused["error"]["code"]) == (404, "no_such_request")
            assert ann_page.got("invitation") == []
            # Eve, not blocking, sees Bob's request.
            assert (await call(s, "GET", "/friends", eve))[1]["incoming"] == [
                {"player": bob["player"], "name": "Bob"}
            ]

    run(scenario)


def test_matchmaking_asks_whether_any_of_some_profiles_blocks_another(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob, cat = [await new_profile(s.url, name) for name in ("Ann", "Bob", "Cat")]
            await call(s, "POST", "/blocks", ann, {"player": bob["player"]})
            blocks = s.server.friends.blocks
            ids = [ann["player"], bob["player"], cat["player"]]
            assert await blocks.blocked_pairs(ids) == {(ann["player"], bob["player"])}
            assert await blocks.any_blocked(ids)
            assert not await blocks.any_blocked([bob["player"], cat["player"]])
            assert not await blocks.any_blocked([])

    run(scenario)


def test_a_blocker_watching_through_another_process_never_hears_the_blocked_player(
    tmp_path: Path, redis_url: str
) -> None:
    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'smear.db'}"
        async with two_servers(database, redis_url) as ((_, first_url), (_, second_url)):
            ann, bob, dan, eve = [await new_profile(first_url, name) for name in ("Ann", "Bob", "Dan", "Eve")]
            host = await Client(first_url).connect()
            created = await host.call(
                "create_table",
                {"name": "Ann", "preset": "house", "players": 3, "teams": False, "profile": proof(ann)},
            )
            assert created["ok"], created
            host.token, host.table = created["token"], created["table"]
            rude = await Client(first_url).connect()
            joined = await rude.call(
                "join_table", {"table": host.table, "name": "Bob", "profile": proof(bob)}
            )
            rude.token, rude.table = joined["token"], joined["table"]
            # Dan and Eve watch from pages on the other process, each having said whose page it is.
            watchers = []
            for who in (dan, eve):
                watcher = await Client(second_url).connect()
                assert (await watcher.call("hello", {"profile": proof(who)}))["ok"]
                assert (await watcher.call("watch_table", {"table": host.table}))["ok"]
                watchers.append(watcher)
            status, _ = await http_json(
                "POST",
                f"{second_url}/api/players/{dan['player']}/blocks",
                {"player": bob["player"]},
                secret=dan["secret"],
            )
            assert status == 201
            assert (await rude.send("chat", text="hello all"))["ok"]
            assert (await host.send("chat", text="hi Bob"))["ok"]
            # Ann's line comes after Bob's: once Dan has it, Bob's would have come first.
            blocker, other = watchers
            [line] = [data["lines"][0] for data in await blocker.wait_for_message("chat", 1)]
            assert line["text"] == "hi Bob"
            texts = [data["lines"][0]["text"] for data in await other.wait_for_message("chat", 2)]
            assert texts == ["hello all", "hi Bob"]

    run(scenario)
