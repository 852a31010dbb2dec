"""Friends (``/api/players/{player}/friends...``): a request and its answer, the friends list with
who is online and at which table (told to friends alone), invitations to a friend's open page, and
the refusals of bad requests."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

from serverkit import Client, Session, http_json, running_server, session, stopped_pace  # noqa: F401
from test_players import host_with_profile, new_profile, proof, seat_with_profile

from smear.server.limits import Limits

LIMITS = Limits(tables_per_hour=0, connections_per_address=0)


def run(scenario: Any) -> None:
    asyncio.run(scenario())


async def call(s: Session, method: str, path: str, who: dict[str, str], body: Any = None) -> tuple[int, Any]:
    """A friends' request of profile ``who`` (``path`` after its own address)."""
    return await http_json(method, f"{s.url}/api/players/{who['player']}{path}", body, secret=who["secret"])


async def page(s: Session, who: dict[str, str]) -> Client:
    """An open page of ``who``: a socket that said whose it is."""
    client = await s.connect()
    client.sio.on("invitation", client._keeper("invitation"))
    reply = await client.call("hello", {"profile": proof(who)})
    assert reply == {"ok": True}, reply
    return client


async def friends(s: Session, ann: dict[str, str], bob: dict[str, str]) -> None:
    status, asked = await call(s, "POST", "/friends", ann, {"player": bob["player"]})
    assert (status, asked["status"]) == (201, "asked"), asked
    status, accepted = await call(s, "POST", f"/friends/{ann['player']}/accept", bob)
    assert (status, accepted["status"]) == (200, "friends"), accepted


def test_a_request_accepted_makes_friends_who_see_each_other_online_and_at_which_table(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob, eve = [await new_profile(s.url, name) for name in ("Ann", "Bob", "Eve")]
            status, asked = await call(s, "POST", "/friends", ann, {"player": bob["player"]})
            assert (status, asked) == (201, {"player": bob["player"], "name": "Bob", "status": "asked"})
            assert (await call(s, "GET", "/friends", ann))[1] == {
                "friends": [],
                "incoming": [],
                "outgoing": [{"player": bob["player"], "name": "Bob"}],
            }
            assert (await call(s, "GET", "/friends", bob))[1]["incoming"] == [
                {"player": ann["player"], "name": "Ann"}
            ]
            status, accepted = await call(s, "POST", f"/friends/{ann['player']}/accept", bob)
            assert (status, accepted["status"]) == (200, "friends")
            # Offline: no page of Bob's is open.
            listed = (await call(s, "GET", "/friends", ann))[1]
            assert listed["friends"] == [
                {"player": bob["player"], "name": "Bob", "online": False, "table": None}
            ]
            assert listed["incoming"] == listed["outgoing"] == []
            # Bob opens a page, then sits at a table: Ann sees where.
            await page(s, bob)
            listed = (await call(s, "GET", "/friends", ann))[1]
            assert listed["friends"][0] | {} == {
                "player": bob["player"],
                "name": "Bob",
                "online": True,
                "table": None,
            }
            host = await host_with_profile(s, "Bob", bob)
            await host.call("hello", {"profile": proof(bob)})
            listed = (await call(s, "GET", "/friends", ann))[1]
            assert listed["friends"][0]["table"] == host.table
            # Nobody else learns it: not Eve, and not the public profile.
            assert (await call(s, "GET", "/friends", eve))[1]["friends"] == []
            status, public = await http_json("GET", f"{s.url}/api/players/{bob['player']}")
            assert status == 200 and host.table not in str(public) and "online" not in public
            # Once Bob leaves the table (the socket follows none), the code is no longer told.
            await host.close()
            await wait_until(lambda: listed_place(s, ann), {"online": True, "table": None})

    run(scenario)


async def listed_place(s: Session, who: dict[str, str]) -> dict[str, Any]:
    [friend] = (await call(s, "GET", "/friends", who))[1]["friends"]
    return {"online": friend["online"], "table": friend["table"]}


async def wait_until(read: Any, expected: Any, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while (found := await read()) != expected:
        assert asyncio.get_running_loop().time() < deadline, found
        await asyncio.sleep(0.05)


def test_asking_back_accepts_and_either_side_ends_a_friendship(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob = await new_profile(s.url, "Ann"), await new_profile(s.url, "Bob")
            assert (await call(s, "POST", "/friends", ann, {"player": bob["player"]}))[1]["status"] == "asked"
            assert (await call(s, "POST", "/friends", bob, {"player": ann["player"]}))[1][
                "status"
            ] == "friends"
            assert (await call(s, "DELETE", f"/friends/{ann['player']}", bob)) == (200, {"ok": True})
            for who in (ann, bob):
                assert (await call(s, "GET", "/friends", who))[1]["friends"] == []
            # A request declined is gone for both.
            await call(s, "POST", "/friends", ann, {"player": bob["player"]})
            assert (await call(s, "DELETE", f"/friends/{ann['player']}", bob))[0] == 200
            assert (await call(s, "GET", "/friends", ann))[1]["outgoing"] == []
            status, refused = await call(s, "POST", f"/friends/{ann['player']}/accept", bob)
            assert (status, refused["error"]["code"]) == (404, "no_such_request")

    run(scenario)


def test_an_invitation_reaches_every_open_page_of_the_friend_and_nobody_else(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob, eve = [await new_profile(s.url, name) for name in ("Ann", "Bob", "Eve")]
            await friends(s, ann, bob)
            bob_pages = [await page(s, bob), await page(s, bob)]
            eve_page = await page(s, eve)
            status, refused = await call(s, "POST", f"/friends/{bob['player']}/invite", ann)
            assert (status, refused["error"]["code"]) == (409, "not_at_a_table")
            host = await host_with_profile(s, "Ann", ann)
            await host.call("hello", {"profile": proof(ann)})
            assert await call(s, "POST", f"/friends/{bob['player']}/invite", ann) == (200, {"ok": True})
            for bob_page in bob_pages:
                [invitation] = await bob_page.wait_for_message("invitation", 1)
                assert invitation == {"from": {"player": ann["player"], "name": "Ann"}, "table": host.table}
            # Eve is no friend of Ann's: she can invite nobody, and is invited by nobody.
            status, refused = await call(s, "POST", f"/friends/{ann['player']}/invite", eve)
            assert (status, refused["error"]["code"]) == (404, "no_such_friend")
            assert eve_page.got("invitation") == []
            # One click joins: the invitation's table takes a seat.
            reply = await bob_pages[0].call(
                "join_table", {"table": host.table, "name": "Bob", "profile": proof(bob)}
            )
            assert reply["ok"], reply

    run(scenario)


def test_bad_friends_requests_get_coded_errors_and_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob = await new_profile(s.url, "Ann"), await new_profile(s.url, "Bob")
            cases = [
                ("POST", "/friends", {"player": ann["player"]}, 400, "not_yourself"),
                ("POST", "/friends", {"player": "nobody-here"}, 404, "no_such_player"),
                ("POST", "/friends", {"player": "bot-expert"}, 404, "no_such_player"),
                ("POST", "/friends", {"player": "bad id!"}, 400, "invalid_message"),
                ("POST", "/friends", {"who": bob["player"]}, 400, "invalid_message"),
                ("POST", "/friends", [1], 400, "malformed_json"),
                ("POST", "/friends/bad%20id/accept", None, 404, "no_such_player"),
                ("DELETE", "/friends/nobody-here", None, 404, "no_such_player"),
                ("POST", f"/friends/{bob['player']}/invite", None, 404, "no_such_friend"),
            ]
            for method, path, body, status, code in cases:
                got_status, answer = await call(s, method, path, ann, body)
                assert (got_status, answer["error"]["code"]) == (status, code), (path, body, answer)
            wrong = {**ann, "secret": bob["secret"]}
            status, answer = await call(s, "GET", "/friends", wrong)
            assert (status, answer["error"]["code"]) == (401, "bad_secret")
            for who in (ann, bob):
                assert (await call(s, "GET", "/friends", who))[1] == {
                    "friends": [],
                    "incoming": [],
                    "outgoing": [],
                }
            # A socket's hello with a wrong secret is refused, and that page stays nobody's.
            client = await s.connect()
            reply = await client.call(
                "hello", {"profile": {"player": ann["player"], "secret": bob["secret"]}}
            )
            assert reply["error"]["code"] == "bad_profile"
            assert s.server.friends.whereabouts.profile_of(client.sio.get_sid()) is None

    run(scenario)


def test_friends_requests_are_paced_per_profile(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = dataclasses.replace(LIMITS, relations_burst=2, relations_per_hour=1)
        async with session(tmp_path / "smear.db", limits=limits) as s:
            ann, bob, cat = [await new_profile(s.url, name) for name in ("Ann", "Bob", "Cat")]
            assert (await call(s, "POST", "/friends", ann, {"player": bob["player"]}))[0] == 201
            assert (await call(s, "POST", "/blocks", ann, {"player": cat["player"]}))[0] == 201
            status, answer = await call(s, "POST", "/friends", ann, {"player": cat["player"]})
            assert (status, answer["error"]["code"]) == (429, "rate_limited")
            assert (await call(s, "GET", "/friends", ann))[1]["outgoing"] == [
                {"player": bob["player"], "name": "Bob"}
            ]

    run(scenario)


def test_across_processes_a_friend_is_seen_at_a_table_invited_and_a_blocked_players_chat_kept_away(
    tmp_path: Path, redis_url: str
) -> None:
    """Two processes on one Redis: the friends list at one names the table a friend's page follows
    at the other, an invitation sent at one reaches the friend's page at the other, and a seated
    blocker connected to the other process than the table's owner gets none of the blocked chat."""

    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with (
            running_server(database, redis=redis_url) as (first, first_url),
            running_server(database, redis=redis_url) as (second, second_url),
        ):
            one, two = Session(first, first_url), Session(second, second_url)
            try:
                ann, bob, cat = [await new_profile(first_url, name) for name in ("Ann", "Bob", "Cat")]
                await friends(one, ann, bob)
                bob_page = await page(two, bob)
                host = await host_with_profile(one, "Cat", cat, players=3)
                assert host.table is not None
                ann_seat = await seat_with_profile(two, host.table, "Ann", ann)
                await ann_seat.call("hello", {"profile": proof(ann)})
                rude = await seat_with_profile(one, host.table, "Bob", bob)

                async def ann_seen_by_bob() -> dict[str, Any]:
                    [friend] = (await call(two, "GET", "/friends", bob))[1]["friends"]
                    return {"online": friend["online"], "table": friend["table"]}

                await wait_until(ann_seen_by_bob, {"online": True, "table": host.table})
                assert await call(one, "POST", f"/friends/{bob['player']}/invite", ann) == (200, {"ok": True})
                [invitation] = await bob_page.wait_for_message("invitation", 1)
                assert invitation["table"] == host.table
                assert (await call(two, "POST", "/blocks", ann, {"player": bob["player"]}))[0] == 201
                assert (await rude.send("chat", text="from Bob"))["ok"]
                assert (await host.send("chat", text="from Cat"))["ok"]
                [line] = [data["lines"][0] for data in await ann_seat.wait_for_message("chat", 1)]
                assert line["text"] == "from Cat"
            finally:
                await one.close()
                await two.close()

    run(scenario)
