"""Find a game (``find_game``, ``take_bot_seat``): a new matchmade table started with bots; the next
person takes a bot's seat from the next hand, watching until then; a person who leaves gives the
seat back to a bot at once (one cut off by a restart has the turn limit to come back); blocks keep
people apart; a matchmade table survives a restart."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest
from serverkit import FAST, Client, Session, http_json, play_out, session
from tablechecks import play_table
from test_players import new_profile, proof

from smear.server.limits import Limits, Timing
from smear.server.tables.table import Table, TableError, TableSettings

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


def test_a_person_cut_off_by_a_restart_has_the_turn_limit_to_come_back(tmp_path: Path) -> None:
    """Nobody saw Ann leave: her socket went with the server. The restored table gives her its turn
    limit to come back (the one she would have had connected), where one seen leaving gets none."""
    timing = dataclasses.replace(FAST, matchmade_turn=600)
    database = tmp_path / "smear.db"

    def anns_turn(state: dict[str, Any], seat: int, hand: int) -> bool:
        public = state["game"] and state["game"].get("public")
        return (
            bool(public)
            and public["hand_number"] == hand
            and public["to_act"] == seat
            and public["phase"] != "hand_over"
        )

    async def scenario() -> None:
        async with session(database, timing=timing, limits=LIMITS) as s:
            ann, first = await find(s, "Ann")
            bob, second = await find(s, "Bob")
            seat, hand = first["seat"], hand_number(bob.state)
            await play_out([ann], lambda state: hand_number(state) > hand)
            await bob.wait_for(lambda state: state["table"]["you"] == second["seat"])
            hand += 1
            # Both play until it is Ann's turn in the hand Bob is seated for.
            await play_out([ann, bob], lambda state: anns_turn(state, seat, hand))
            before = await ann.wait_for(
                lambda state: (
                    state is ann.states[-1] and bool(state["game"]["legal"]) and anns_turn(state, seat, hand)
                )
            )
        async with session(database, timing=timing, limits=LIMITS) as s:
            # Bob is back first: the table moves again, but Ann's turn waits for her.
            bob, resumed = await s.resume(first["table"], second["token"], 0)
            assert resumed["ok"], resumed
            waiting = await bob.wait_for(lambda state: anns_turn(state, seat, hand))
            shown = waiting["table"]["seats"][seat]
            assert shown["connected"] is False and shown["bot_in_ms"] > 500_000, shown
            ann, back = await s.resume(first["table"], first["token"], 0)
            assert back["ok"] and back["seat"] == seat, back
            mine = await ann.wait_for(
                lambda state: state["table"]["you"] == seat and anns_turn(state, seat, hand)
            )
            assert mine["game"]["hand"] == before["game"]["hand"]
            assert mine["game"]["legal"] == before["game"]["legal"]

    run(scenario)


def matchmade_match(seed: int, arrive_before: int | None = None) -> tuple[Table, str, str | None, int]:
    """A matchmade table of Ann and bots played to its end with the first legal actions; Cat takes a
    bot's seat before action number ``arrive_before``. Returns the table, both tokens, the actions."""
    settings = TableSettings(preset="house", players=4, teams=True, target=11, turn_timer=15, matchmade=True)
    table, ann = Table.create_matchmade(settings, "Ann", seed=seed)
    tokens: list[str] = []

    def arrive(action: int) -> None:
        if action == arrive_before:
            tokens.append(table.take_bot_seat("Cat")[1])

    actions = play_table(table, arrive)
    return table, ann, tokens[0] if tokens else None, actions


def test_one_who_arrives_in_a_matchs_last_hand_plays_the_next_match_from_its_first_hand() -> None:
    *_, actions = matchmade_match(seed=5)
    table, ann, cat, _ = matchmade_match(seed=5, arrive_before=actions - 1)
    assert cat is not None and table.status == "finished"
    seat = table.seat_of(cat)
    assert table.seats[seat].arriving and table.bot_seats_free() == 0
    with pytest.raises(TableError, match="match_over"):  # between matches a newcomer goes elsewhere
        table.take_bot_seat("Dan")
    # Ann says she plays again: everyone has (Cat's seat is still the bot's), so it starts at once.
    assert table.rematch(ann, ready=True, new_partners=False) is True
    assert table.match_number == 2 and not table.seats[seat].is_bot and table.seat_of(cat) == seat
    # After that match nobody says anything: when the pause is over the bots take their seats.
    play_table(table)
    table.next_matchmade_match()
    assert table.match_number == 3 and all(chair.is_bot for chair in table.seats)
    assert {chair.name for chair in table.seats} >= {"Ann", "Cat"}  # bots in their seats, their names kept


def test_after_a_match_the_next_starts_with_whoever_plays_again(tmp_path: Path) -> None:
    async def scenario() -> None:
        # The pause is long enough for Ann to say she plays again, short enough to wait for.
        async with session(tmp_path / "smear.db", timing=dataclasses.replace(FAST, match_pause=5.0)) as s:
            ann, first = await find(s, "Ann")
            bob, second = await find(s, "Bob")
            await play_out([ann, bob], top_bid=True)
            # (Ann sent her moves as fast as she could: her socket may have to wait its allowance.)
            ready = await ann.send("rematch", ready=True, new_partners=False)
            while not ready["ok"] and ready["error"]["code"] == "rate_limited":
                await asyncio.sleep(0.1)
                ready = await ann.send("rematch", ready=True, new_partners=False)
            assert ready["ok"], ready
            # Between two matches a newcomer is not made to wait: a new table.
            _, third = await find(s, "Cat")
            assert third["table"] != first["table"] and third["matched"] is False
            # Bob never says he plays again: the next match comes without him when the pause is over.
            started = await ann.wait_for(lambda state: state["table"]["match_number"] == 2, timeout=30)
            seats = started["table"]["seats"]
            assert started["table"]["status"] == "playing" and started["table"]["you"] == first["seat"]
            assert seats[second["seat"]]["bot"] is True and seats[second["seat"]]["name"] == "Bob"
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


def test_the_turn_limit_of_the_tables_find_a_game_makes_is_the_operator_s(tmp_path: Path) -> None:
    async def scenario() -> None:
        timing = dataclasses.replace(FAST, matchmade_turn=30)
        async with session(tmp_path / "smear.db", timing=timing, limits=LIMITS) as s:
            ann, _ = await find(s, "Ann")
            assert ann.state["table"]["settings"]["turn_timer"] == 30

    run(scenario)


def test_serve_takes_the_matchmade_turn_and_the_pause_between_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    from click.testing import CliRunner

    from smear.cli import cli
    from smear.server import app, logs, workers

    built: list[Timing] = []
    monkeypatch.setattr(app, "create_app", lambda database, timing, *args, **kwargs: built.append(timing))
    monkeypatch.setattr(workers, "listen", lambda host, port: None)  # no port of this machine taken
    monkeypatch.setattr(workers, "serve", lambda *args, **kwargs: None)
    monkeypatch.setattr(logs, "configure_logging", lambda *args: None)
    monkeypatch.setattr(gc, "set_threshold", lambda *args: None)  # this process's own stays
    serve = ["serve", "--database", "sqlite:///unused.db", "--no-practice-starter"]
    result = CliRunner().invoke(cli, [*serve, "--matchmade-turn", "45", "--match-pause", "3.5"])
    assert result.exit_code == 0, result.output
    assert [(timing.matchmade_turn, timing.match_pause) for timing in built] == [(45, 3.5)]
    assert (Timing().matchmade_turn, Timing().match_pause) == (15, 20.0)
    for refused in (["--matchmade-turn", "0"], ["--match-pause", "-1"], ["--matchmade-turn", "1.5"]):
        result = CliRunner().invoke(cli, [*serve, *refused])
        assert result.exit_code == 2 and refused[0] in result.output, result.output
    assert len(built) == 1
