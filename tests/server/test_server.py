"""The game server end to end: real Socket.IO clients against the app running in-process (serverkit).

Each test plays one scenario through the protocol of docs/protocol.md. Here: the lobby, and whole
matches with bots. Beside it: refusals (``test_refusals``), teams and spectators
(``test_teams_and_spectators``), reconnection (``test_reconnecting``), and the host, absent and slow
players (``test_absent_and_slow``).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from serverkit import get_json, session
from tablechecks import (
    cards_in,
    my_turn,
    refused,
    run,
)

from smear.record import parse_record, replay

# --- the lobby ----------------------------------------------------------------------------------------


def test_create_join_take_seat_and_start_deal_each_seat_only_its_own_hand(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.create("Kemal", preset="house", players=4, teams=False)
            assert host.table is not None and host.seat == 0
            lobby = host.state
            assert lobby["table"]["status"] == "lobby" and lobby["game"] is None
            assert lobby["table"]["host"] == 0 and lobby["table"]["you"] == 0

            ayse = await s.join(host.table, "Ayse")
            assert ayse.seat == 1
            moved = await ayse.send("take_seat", seat=3)
            assert moved["ok"], moved
            ayse.seat = 3
            bo = await s.join(host.table, "Bo")
            cem = await s.join(host.table, "Cem")
            assert (bo.seat, cem.seat) == (1, 2)  # the seat Ayse left is the first free one again

            everyone = [host, bo, cem, ayse]  # by seat
            last = await host.wait_for(lambda st: st["version"] == cem.state["version"])
            assert [seat["name"] for seat in last["table"]["seats"]] == ["Kemal", "Bo", "Cem", "Ayse"]
            for seat in last["table"]["seats"]:
                assert seat["bot"] is False and seat["open"] is False and seat["connected"] is True
            assert last["table"]["host"] == 0

            started = await host.send("start")
            assert started["ok"], started
            hands = []
            for seat, client in enumerate(everyone):
                state = await client.wait_for(lambda st: st["version"] == started["version"])
                table, game = state["table"], state["game"]
                assert table["status"] == "playing" and table["you"] == seat and table["match_number"] == 1
                assert [entry["name"] for entry in table["seats"]] == ["Kemal", "Bo", "Cem", "Ayse"]
                assert game["seat"] == seat and len(game["hand"]) == 6
                assert game["public"]["hand_sizes"] == [6, 6, 6, 6]
                # Its own cards and nobody else's, anywhere in what it was sent.
                assert cards_in(state) == set(game["hand"])
                assert all(cards_in(received) <= set(game["hand"]) for _, received in client.received)
                hands.append(set(game["hand"]))
            assert len(set().union(*hands)) == 24  # four different hands

    run(scenario)


def test_the_lobby_shows_names_host_and_bots(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.create("Kemal", players=4)
            assert host.table is not None
            guest = await s.join(host.table, "Ayse")
            for seat in (2, 3):
                reply = await host.send("set_bot", seat=seat, bot=True)
                assert reply["ok"], reply
            for client, you in ((host, 0), (guest, 1)):
                state = await client.wait_for(lambda st: st["version"] == reply["version"])
                table = state["table"]
                assert table["you"] == you and table["host"] == 0 and table["status"] == "lobby"
                names = [seat["name"] for seat in table["seats"]]
                assert names[:2] == ["Kemal", "Ayse"]
                bot_names = {names[2], names[3]}
                assert len(bot_names) == 2 and None not in bot_names and not bot_names & {"Kemal", "Ayse"}
                assert [seat["bot"] for seat in table["seats"]] == [False, False, True, True]
                assert all(seat["connected"] for seat in table["seats"])
                # Bots are their level's profile, rated from the start; guests without a profile are not.
                assert [seat["player"] for seat in table["seats"]] == [
                    None,
                    None,
                    "bot-heuristic",
                    "bot-heuristic",
                ]
                ratings = [seat["rating"] for seat in table["seats"]]
                assert ratings[:2] == [None, None] and ratings[2] == ratings[3] and ratings[2] > 0
            # A bot is taken out again, and the seat is open.
            reply = await host.send("set_bot", seat=3, bot=False)
            assert reply["ok"], reply
            state = await guest.wait_for(lambda st: st["version"] == reply["version"])
            assert state["table"]["seats"][3] == {
                "seat": 3,
                "name": None,
                "bot": False,
                "open": True,
                "arriving": False,
                "connected": False,
                "bot_in_ms": None,  # in the lobby no bot plays for anyone
                "player": None,
                "rating": None,
                "mark": None,
                "finished": None,
                "left": None,
                "bot_level": None,
            }
            kinds = [event["event"]["kind"] for event in host.events]
            assert kinds == ["created", "joined", "bot", "bot", "bot"]
            assert host.event_versions() == [1, 2, 3, 4, 5]

    run(scenario)


# --- a whole match ------------------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A SQLite file, or the URL of a database on a real PostgreSQL server
    (``tests/support/dbservers.py``)."""
    if request.param == "sqlite":
        return tmp_path / "smear.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_a_match_with_bots_runs_to_its_end_its_record_replays_and_play_again_starts_the_next(
    database: Path | str,
) -> None:
    async def scenario() -> None:
        async with session(database) as s:
            host = await s.create("Kemal", players=4, teams=False)
            code = host.table
            assert code is not None
            for seat in (1, 2, 3):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            started = await host.send("start")
            assert started["ok"], started

            rng = random.Random(7)
            last, turns = started["version"] - 1, 0  # the host may be first to act
            while True:
                state = await my_turn(host, last)
                if state["table"]["status"] == "finished":
                    break
                last = state["version"]
                chosen = rng.choice(state["game"]["legal"])
                reply = await host.send("act", version=last, action=chosen["text"])
                assert reply == {"ok": True, "version": last + 1}
                turns += 1
            final = state
            public = final["game"]["public"]
            assert turns > 0 and public["phase"] == "match_over"
            assert public["winner"] is not None and max(public["scores"]) >= 21
            # Every version reached the host exactly once, as one event each.
            assert host.event_versions() == list(range(1, final["version"] + 1))

            status, record = await get_json(f"{s.url}/tables/{code}/matches/1/record.json")
            assert status == 200
            assert record["format"] == "smear-record/1"
            assert record["players"] == [seat["name"] for seat in final["table"]["seats"]]
            assert len(record["hands"]) == len(public["results"])
            replayed = replay(parse_record(record))
            assert replayed.summary["complete"] is True
            assert replayed.summary["scores"] == public["scores"]
            assert replayed.summary["winner"] == public["winner"]

            refused(await host.send("act", version=final["version"], action="pass"), "match_over")
            assert (await get_json(f"{s.url}/tables/{code}/matches/2/record.json"))[0] == 404

            again = await host.send("play_again")
            assert again == {"ok": True, "version": final["version"] + 1}
            second = await host.wait_for(lambda st: st["version"] == again["version"])
            assert second["table"]["status"] == "playing" and second["table"]["match_number"] == 2
            assert second["game"]["public"]["scores"] == [0, 0, 0, 0]
            assert second["game"]["public"]["results"] == []
            assert len(second["game"]["hand"]) == 6
            # Match 2 is under way: no record yet; match 1's is still there.
            assert (await get_json(f"{s.url}/tables/{code}/matches/2/record.json"))[0] == 404
            assert (await get_json(f"{s.url}/tables/{code}/matches/1/record.json")) == (200, record)

    run(scenario)


def test_a_table_with_a_preset_and_options_plays_them_and_records_them(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            options = {"preset": "five_point", "players": 6, "teams": True, "target": 11, "kitty": True}
            host = await s.create("Kemal", **options, shoot_the_moon=True, elimination=True)
            code = host.table
            assert code is not None
            settings = host.state["table"]["settings"]
            assert settings["shoot_the_moon"] is True and settings["elimination"] is True
            for seat in range(1, 6):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            started = await host.send("start")
            assert started["ok"], started
            state = await my_turn(host, started["version"] - 1)
            public = state["game"]["public"]
            # Two teams of three, alternating seats; one joker; bids up to the moon (6).
            assert public["sides"] == [[0, 2, 4], [1, 3, 5]]
            rules = public["rules"]
            assert (rules["name"], rules["target"], rules["max_bid"], rules["top_bid"]) == (
                "five_point",
                11,
                5,
                6,
            )
            assert rules["shoot_the_moon"] is True and rules["elimination"] == -21 and rules["kitty"] == 3
            assert rules["points"] == ["high", "low", "jack", "big_joker", "game"]

            rng = random.Random(3)
            while state["table"]["status"] != "finished":
                reply = await host.send(
                    "act", version=state["version"], action=rng.choice(state["game"]["legal"])["text"]
                )
                assert reply["ok"], reply
                state = await my_turn(host, state["version"])
            final = state["game"]["public"]
            status, record = await get_json(f"{s.url}/tables/{code}/matches/1/record.json")
            assert status == 200
            assert record["rules"] == {
                "preset": "five_point",
                "target": 11,
                "shoot_the_moon": True,
                "elimination": -21,
                "kitty": 3,
            }
            assert record["teams"] == [[0, 2, 4], [1, 3, 5]]
            replayed = replay(parse_record(record))
            assert replayed.summary["winner"] == final["winner"] is not None

    run(scenario)
