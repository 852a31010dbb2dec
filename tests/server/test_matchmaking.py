"""Find a game (``find_game``, ``take_bot_seat``): a new matchmade table started with bots; the next
person takes a bot's seat from the next hand, watching until then; a person who leaves gives the
seat back to a bot at once; blocks keep people apart; a matchmade table survives a restart."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, Session, http_json, play_out, session
from test_players import new_profile, proof

from smear.server.limits import Limits

LIMITS = Limits(tables_per_hour=0, connections_per_address=0)
HOUSE = {"preset": "house", "players": 4, "teams": True}


def run(scenario: Any) -> None:
    asyncio.run(scenario())


async def find(
    s: Session, name: str, who: dict[str, str] | None = None, **game: Any
) -> tuple[Client, dict[str, Any]]:
    """A person who asks for a game (house, four in teams, unless ``game`` says otherwise)."""
    client = await s.connect()
    message: dict[str, Any] = {"name": name, **HOUSE, **game}
    if who is not None:
        message["profile"] = proof(who)
    reply = await client.call("find_game", message)
    assert reply["ok"], reply
    client.token, client.table, client.seat = reply["token"], reply["table"], reply["seat"]
    await client.wait_for(lambda state: state["version"] >= reply["version"])
    return client, reply


def hand_number(state: dict[str, Any]) -> int:
    """The hand under way, in a seat's view or a spectator's (which is the public part alone)."""
    game = state["game"]
    return int(game.get("public", game)["hand_number"]) if game else 0


def test_the_first_person_gets_a_new_table_with_bots_and_the_next_takes_a_bots_seat_at_the_next_hand(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, first = await find(s, "Ann")
            assert first["matched"] is False
            table = ann.state["table"]
            assert table["status"] == "playing" and table["host"] is None
            assert table["settings"]["matchmade"] is True and table["settings"]["turn_timer"] == 15
            assert [seat["bot"] for seat in table["seats"]].count(False) == 1
            assert table["you"] == first["seat"] and ann.state["game"]["hand"] is not None

            bob, second = await find(s, "Bob")
            assert second["matched"] is True and second["table"] == first["table"]
            seat = second["seat"]
            assert seat != first["seat"]
            shown = bob.state["table"]
            # Bob watches the hand under way: no seat's cards, the seat marked as his from the next.
            assert shown["you"] is None and shown["you_arrive"] == seat
            assert bob.state["game"].get("hand") is None
            assert (
                shown["seats"][seat] | {"name": "Bob", "bot": True, "arriving": True} == shown["seats"][seat]
            )
            hand = hand_number(bob.state)
            refused = await bob.send("act", version=bob.state["version"], action="pass")
            assert refused["error"]["code"] == "not_your_turn"
            hint = await bob.send("hint")
            assert hint["error"]["code"] == "not_your_turn"

            # Ann plays the hand out (the bots play Bob's seat); at the deal the seat is Bob's.
            await play_out([ann], lambda state: hand_number(state) > hand)
            dealt = await bob.wait_for(lambda state: hand_number(state) > hand)
            assert dealt["table"]["you"] == seat and dealt["table"]["you_arrive"] is None
            assert dealt["table"]["seats"][seat]["bot"] is False
            assert dealt["game"]["hand"] is not None
            took = [event["event"] for event in bob.events if event["event"]["kind"] == "deal"][-1]
            assert took["lines"] == [{"kind": "took_seat", "seat": seat}]

            # Bob leaves: a bot has the seat at once, and the next person may take it.
            assert (await bob.send("leave"))["ok"]
            left = await ann.wait_for(lambda state: state["table"]["seats"][seat]["bot"])
            assert left["table"]["seats"][seat]["arriving"] is False
            _, third = await find(s, "Cat")
            assert third["table"] == first["table"] and third["matched"] is True

    run(scenario)


def test_a_matchmade_table_never_waits_for_a_person_gone_who_keeps_the_seat(tmp_path: Path) -> None:
    patient = dataclasses.replace(FAST, grace=600.0)  # elsewhere a seat would wait ten minutes

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", timing=patient, limits=LIMITS) as s:
            ann, _ = await find(s, "Ann")
            bob, second = await find(s, "Bob")
            seat, hand = second["seat"], hand_number(bob.state)
            await play_out([ann], lambda state: hand_number(state) > hand)
            await bob.wait_for(lambda state: state["table"]["you"] == seat)
            await bob.close()
            # The bot plays Bob's turns at once (nothing to wait for), while his seat stays his.
            gone = await ann.wait_for(lambda state: not state["table"]["seats"][seat]["connected"])
            assert gone["table"]["seats"][seat]["bot_in_ms"] == 0
            await play_out([ann], lambda state: hand_number(state) > hand + 1)
            back, resumed = await s.resume(second["table"], second["token"], 0)
            assert resumed["ok"] and resumed["seat"] == seat
            assert back.state["table"]["you"] == seat

    run(scenario)


def test_after_a_match_the_next_starts_with_whoever_plays_again_and_whoever_arrived(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", timing=dataclasses.replace(FAST, match_pause=1.0)) as s:
            ann, first = await find(s, "Ann")
            bob, second = await find(s, "Bob")
            await play_out([ann, bob], top_bid=True)
            # Between two matches the table still takes people, for its next match.
            cat, third = await find(s, "Cat")
            assert third["table"] == first["table"] and cat.state["table"]["you_arrive"] == third["seat"]
            assert (await ann.send("rematch", ready=True, new_partners=False))["ok"]
            # Bob never says he plays again: the next match comes without him, Cat in his stead.
            started = await ann.wait_for(lambda state: state["table"]["match_number"] == 2)
            seats = started["table"]["seats"]
            assert started["table"]["status"] == "playing" and started["table"]["you"] == first["seat"]
            assert seats[second["seat"]]["bot"] is True and seats[second["seat"]]["name"] == "Bob"
            cats = seats[third["seat"]]
            assert (cats["name"], cats["bot"], cats["arriving"]) == ("Cat", False, False)
            assert (await cat.wait_for(lambda state: state["table"]["you"] == third["seat"]))["game"]["hand"]
            gone = await bob.wait_for(lambda state: state["table"]["match_number"] == 2)
            assert gone["table"]["you"] is None and gone["table"]["you_arrive"] is None

    run(scenario)


def test_another_game_or_a_full_table_opens_a_new_table(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            _, first = await find(s, "Ann")
            _, three = await find(s, "Bob", preset="ten_point", players=3, teams=False)
            assert three["table"] != first["table"] and three["matched"] is False
            seated = [(await find(s, name))[1] for name in ("Cat", "Dan", "Eve")]
            assert [reply["table"] for reply in seated] == [first["table"]] * 3
            _, fifth = await find(s, "Fay")
            assert fifth["table"] not in (first["table"], three["table"]) and fifth["matched"] is False

    run(scenario)


def test_a_block_keeps_two_people_apart_and_is_never_told(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            ann, bob = await new_profile(s.url, "Ann"), await new_profile(s.url, "Bob")
            status, _ = await http_json(
                "POST",
                f"{s.url}/api/players/{bob['player']}/blocks",
                {"player": ann["player"]},
                secret=bob["secret"],
            )
            assert status in (200, 201)
            _, first = await find(s, "Ann", ann)
            # Ann is blocked by Bob: she may not join his table, nor he hers.
            _, second = await find(s, "Bob", bob)
            assert second["table"] != first["table"] and second["matched"] is False
            client = await s.connect()
            refused = await client.call(
                "take_bot_seat", {"table": first["table"], "name": "Bob", "profile": proof(bob)}
            )
            assert refused["error"]["code"] == "table_full"  # as a full table: the block is not told
            # Someone else is matched as usual.
            _, third = await find(s, "Cat")
            assert third["matched"] is True

    run(scenario)


def test_bad_requests_are_refused_with_codes_and_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            client = await s.connect()
            for message, code in (
                ({"name": "A", "preset": "house", "players": 5, "teams": True}, "rules_refused"),
                ({"name": "A", "preset": "nope", "players": 4, "teams": True}, "invalid_message"),
                ({"name": "", **HOUSE}, "invalid_message"),
            ):
                reply = await client.call("find_game", message)
                assert reply["ok"] is False and reply["error"]["code"] == code, (message, reply)
            host = await s.create("Host")
            refused = await client.call("take_bot_seat", {"table": host.table, "name": "X"})
            assert refused["error"]["code"] == "table_full"  # a table not matchmade takes nobody so
            assert len(s.server.live.tables) == 1

    run(scenario)
