"""The game server refuses what it must, with a clear code, and a refused request changes nothing:
the lobby's requests, actions, an illegal card with the engine's reason, and a flood.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from serverkit import session
from tablechecks import (
    PATIENT,
    TOKEN_OF_NOBODY,
    next_turn,
    nothing_changes,
    people_table,
    refused,
    run,
)


def legal_texts(game: dict[str, object]) -> list[str]:
    """The text of each legal action in a seat's view."""
    legal = game["legal"]
    assert isinstance(legal, list)
    return [action["text"] for action in legal]


def test_lobby_refusals_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            server = s.server
            host = await s.create("Kemal", players=4)
            code = host.table
            assert code is not None
            guest = await s.join(code, "Ayse")
            everyone = [host, guest]

            async with nothing_changes(server, code, everyone):
                for request, fields in (("set_bot", {"seat": 2, "bot": True}), ("kick", {"seat": 0})):
                    refused(await guest.send(request, **fields), "not_host")
                refused(await guest.send("start"), "not_host")
                refused(await host.send("start"), "not_enough_players")
                refused(await host.send("take_seat", token=TOKEN_OF_NOBODY, seat=2), "bad_token")
                refused(await guest.send("take_seat", seat=0), "seat_taken")
                refused(await guest.send("take_seat", seat=4), "no_such_seat")
                refused(await host.send("act", version=2, action="pass"), "not_in_lobby")
                refused(
                    await guest.call("join_table", {"table": "no-such-table", "name": "Bo"}), "no_such_table"
                )
                refused(await guest.call("watch_table", {"table": "no-such-table"}), "no_such_table")
                refused(await host.send("start", table="no-such-table"), "no_such_table")
                # What the server cannot read at all.
                refused(
                    await guest.call("take_seat", '{"table": "' + code + '", "seat": 2'), "malformed_json"
                )
                refused(await guest.call("take_seat", "[1, 2, 3]"), "malformed_json")
                refused(await guest.call("take_seat", '{"seat": NaN}'), "malformed_json")
                big = {"table": code, "name": "x" * 5000}
                error = refused(await guest.call("join_table", big), "message_too_large")
                assert error["args"] == {"limit": 4096}
                refused(await guest.call("join_table", json.dumps(big)), "message_too_large")
                error = refused(await guest.send("take_seat", seat="2"), "invalid_message")
                assert error["args"]["field"] == "seat"
                error = refused(await guest.call("shuffle_deck", {"table": code}), "unknown_event")
                assert error["args"] == {"event": "shuffle_deck"}

            # A table with every seat taken turns a newcomer away.
            for name in ("Bo", "Cem"):
                await s.join(code, name)
            everyone = s.clients[:]
            async with nothing_changes(server, code, everyone):
                refused(await host.call("join_table", {"table": code, "name": "Dee"}), "table_full")

            # Settings the rules refuse open no table.
            tables = len(server.live.tables)
            newcomer = await s.connect()
            for players, teams in ((5, True), (3, True), (2, False)):
                settings = {"name": "Eli", "preset": "house", "players": players, "teams": teams}
                error = refused(await newcomer.call("create_table", settings), "rules_refused")
                assert str(players) in error["message"] and "reason" not in error["args"]
                # Structured too, so a client can say it in its own language.
                allowed = "4, 6, 8" if teams else "3, 4, 5, 6, 7, 8"
                assert error["args"]["reason_code"] == ("players_with_teams" if teams else "players")
                assert (error["args"]["players"], error["args"]["allowed"]) == (players, allowed)
                assert error["args"]["preset"] == "house"
            kitty = {"name": "Eli", "preset": "house", "players": 4, "teams": False, "kitty": True}
            error = refused(await newcomer.call("create_table", kitty), "rules_refused")
            assert error["args"]["reason_code"] == "option_not_offered"
            assert (error["args"]["option"], error["args"]["preset"]) == ("kitty", "house")
            settings = {
                "name": "Eli",
                "preset": "house",
                "players": 4,
                "teams": False,
                "bot_level": "grandmaster",
            }
            error = refused(await newcomer.call("create_table", settings), "rules_refused")
            assert error["args"]["reason_code"] == "unknown_bot"
            assert "heuristic" in error["args"]["bots"].split(", ")
            assert "grandmaster" not in str(error)  # what was sent is not repeated back
            assert len(server.live.tables) == tables and newcomer.received == []

    run(scenario)


def test_act_refusals_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            server = s.server
            clients = await people_table(s)
            code = clients[0].table
            assert code is not None
            actor, view = await next_turn(clients, 0)
            version = view["version"]
            other = next(c for c in clients[1:] if c is not actor)  # a guest, not the host
            legal = [a["text"] for a in view["game"]["legal"]]

            async with nothing_changes(server, code, clients):
                refused(
                    await actor.send("act", token=TOKEN_OF_NOBODY, version=version, action=legal[0]),
                    "bad_token",
                )
                refused(await other.send("act", version=version, action="pass"), "not_your_turn")
                for stale in (version - 1, version + 1, 0):
                    error = refused(await actor.send("act", version=stale, action=legal[0]), "stale_version")
                    assert error["args"] == {"version": version}
                    assert str(version) in error["message"]
                for text in ("bid three", "play the ace", "Zz"):
                    error = refused(await actor.send("act", version=version, action=text), "bad_action")
                    assert error["args"] == {"reason_code": "not_an_action"}
                    assert error["message"].startswith(("not an action: ", "not a bid: ")), error
                error = refused(await actor.send("act", version=version, action="bid 9"), "illegal_action")
                assert error["args"]["reason_code"] == "bid_out_of_range"
                refused(await other.send("take_seat", seat=0), "not_in_lobby")
                refused(await other.call("join_table", {"table": code, "name": "Late"}), "not_in_lobby")
                refused(await other.send("set_bot", seat=1, bot=True), "not_host")

            # The same turn is still open after all that.
            reply = await actor.send("act", version=version, action=legal[0])
            assert reply == {"ok": True, "version": version + 1}

    run(scenario)


def test_an_illegal_card_is_refused_with_the_engines_reason_and_changes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            server = s.server
            clients = await people_table(s)
            code = clients[0].table
            assert code is not None
            rng = random.Random(3)
            seen: set[str] = set()
            last = 0
            for _ in range(600):  # until someone holds a card of the suit led and tries another
                actor, view = await next_turn(clients, last)
                game, last = view["game"], view["version"]
                illegal = [card for card in game["hand"] if card not in legal_texts(game)]
                if game["public"]["phase"] == "play" and illegal:
                    card = rng.choice(illegal)
                    async with nothing_changes(server, code, clients):
                        error = refused(await actor.send("act", version=last, action=card), "illegal_action")
                    args = error["args"]
                    seen.add(args["reason_code"])
                    assert args["action"] == card
                    assert error["message"].startswith(f"you cannot play {card}: ")
                    assert "reason" not in args
                    if args["reason_code"] == "must_follow":
                        led = game["public"]["trick"][0][1]
                        assert args["led_suit"] == led[-1]
                        assert not {"led", "led_one"} & set(args)  # codes only, no English words
                        plural, singular = (
                            {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}[led[-1]],
                            {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}[led[-1]],
                        )
                        assert error["message"] == (
                            f"you cannot play {card}: {plural} were led and you hold a {singular}"
                        )
                        assert any(c[-1] == led[-1] for c in legal_texts(game))
                        break
                reply = await actor.send("act", version=last, action=rng.choice(game["legal"])["text"])
                assert reply["ok"], reply
            assert "must_follow" in seen, seen

    run(scenario)


def test_a_flood_is_rate_limited_and_the_refused_messages_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import smear.server.app as app_module

    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.create("Kemal", players=4)
            code = host.table
            assert code is not None
            guest = await s.join(code, "Ayse")  # its connection has spent 1 of its 40
            # No refill during the flood, however slowly a loaded machine sends it.
            monkeypatch.setattr(app_module, "RATE_PER_SECOND", 0.0)
            async with nothing_changes(s.server, code, [host, guest]):
                flood = [guest.send("start") for _ in range(60)] + [guest.send("take_seat", seat=3)]
                replies = await asyncio.gather(*flood)
            monkeypatch.setattr(app_module, "RATE_PER_SECOND", 20.0)
            codes = [reply["error"]["code"] for reply in replies]
            assert codes[:39] == ["not_host"] * 39
            assert codes[-1] == "rate_limited"  # the seat change was dropped
            assert codes.count("rate_limited") == 61 - 39
            assert set(codes) == {"not_host", "rate_limited"}
            # Another connection is not held back, and the bucket refills (20 a second).
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            await asyncio.sleep(0.2)
            moved = await guest.send("take_seat", seat=3)
            assert moved["ok"], moved

    run(scenario)
