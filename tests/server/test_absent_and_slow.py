"""The host, kicks, and the server playing for absent and slow players: the host role passing on,
the grace and the turn timer, versions in order while players come and go, a silent socket, and
hints only where the host turned them on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, Session, create, running_server, session
from tablechecks import (
    is_playing,
    my_turn,
    play_event,
    refused,
    run,
)

from smear.server.wire.protocol import error_payload


def test_the_host_role_passes_on_when_the_host_leaves(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.create("Kemal", players=4)
            code = host.table
            assert code is not None
            ayse = await s.join(code, "Ayse")
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            bo = await s.join(code, "Bo")  # seat 3
            left = await host.send("leave")
            assert left["ok"], left
            state = await ayse.wait_for(lambda st: st["version"] == left["version"])
            assert state["table"]["host"] == 1  # the next person clockwise
            assert state["table"]["seats"][0]["open"] is True
            refused(await host.send("start"), "bad_token")
            refused(await bo.send("set_bot", seat=0, bot=True), "not_host")
            assert (await ayse.send("set_bot", seat=0, bot=True))["ok"]
            started = await ayse.send("start")
            assert started["ok"], started

            # In a match, the leaver's seat goes to a bot and the host role moves on again.
            left = await ayse.send("leave")
            assert left["ok"], left
            state = await bo.wait_for(lambda st: st["version"] >= left["version"])
            assert state["table"]["host"] == 3
            assert state["table"]["seats"][1]["bot"] is True
            assert state["table"]["seats"][1]["name"] == "Ayse"  # a bot plays on under the same name

    run(scenario)


def test_the_host_kicks_a_player_from_the_lobby(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.create("Kemal", players=4)
            code = host.table
            assert code is not None
            ayse = await s.join(code, "Ayse")
            bo = await s.join(code, "Bo")
            kicked = await host.send("kick", seat=1)
            assert kicked["ok"], kicked
            state = await bo.wait_for(lambda st: st["version"] == kicked["version"])
            assert state["table"]["seats"][1]["open"] is True
            assert bo.events[-1]["event"] == {"kind": "kicked", "seat": 1}
            # The kicked token holds nothing now; its connection only watches.
            seen = await ayse.wait_for(lambda st: st["version"] == kicked["version"])
            assert seen["table"]["you"] is None
            refused(await ayse.send("take_seat", seat=3), "bad_token")
            refused(await host.send("kick", seat=1), "no_such_seat")
            refused(await host.send("kick", seat=0), "no_such_seat")  # not oneself
            cem = await s.join(code, "Cem")
            assert cem.seat == 1

    run(scenario)


async def two_people_and_two_bots(s: Session) -> tuple[Client, Client, str]:
    """A four-seat table, not started: its host in seat 0, a guest in seat 1, bots in seats 2 and 3."""
    host = await s.create("Kemal", players=4)
    code = host.table
    assert code is not None
    guest = await s.join(code, "Ayse")  # seat 1
    for seat in (2, 3):
        assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
    return host, guest, code


def test_an_absent_players_turn_is_played_after_the_grace_and_the_seat_given_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:  # grace 0.3 s
            host, guest, code = await two_people_and_two_bots(s)
            last = (await host.send("start"))["version"] - 1

            async def host_plays_until_guests_turn(after: int) -> dict[str, Any]:
                while True:
                    state = await host.wait_for(
                        lambda st, after=after: (
                            st["version"] > after
                            and is_playing(st)
                            and st["game"]["public"]["to_act"] in (0, 1)
                        )
                    )
                    if state["game"]["public"]["to_act"] == 1:
                        return state
                    after = state["version"]
                    assert (await host.send("act", version=after, action=state["game"]["legal"][0]["text"]))[
                        "ok"
                    ]

            turn = await host_plays_until_guests_turn(last)
            version = turn["version"]
            await guest.wait_for(lambda st: st["version"] == version)
            gone = time.monotonic()
            await guest.close()
            absent = await host.wait_for(
                lambda st: st["version"] == version and st["table"]["seats"][1]["connected"] is False
            )
            assert absent["version"] == version  # a lost connection is no new version
            played = await host.wait_for(lambda st: st["version"] > version)
            waited = time.monotonic() - gone
            assert waited >= 0.25, waited
            event = next(e for e in host.events if e["version"] == version + 1)["event"]
            assert event["kind"] == "action" and event["seat"] == 1
            assert played["table"]["seats"][1]["connected"] is False

            back, reply = await s.resume(code, guest.token or "", version)
            assert reply["ok"] and reply["seat"] == 1 and reply["replayed"] >= 1
            await host.wait_for(
                lambda st: st["version"] >= reply["version"] and st["table"]["seats"][1]["connected"] is True
            )
            turn = await host_plays_until_guests_turn(reply["version"] - 1)
            await asyncio.sleep(0.5)  # longer than the grace: the seat is the guest's again
            assert s.server.live.tables[code].version == turn["version"]
            view = await back.wait_for(lambda st: st["version"] == turn["version"])
            reply = await back.send("act", version=turn["version"], action=view["game"]["legal"][0]["text"])
            assert reply == {"ok": True, "version": turn["version"] + 1}
            versions = host.event_versions()
            assert versions == sorted(set(versions))  # the comings and goings added no events

    run(scenario)


def test_the_turn_timer_plays_for_a_player_who_does_not_act(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            host = await s.create("Kemal", players=4, turn_timer=15)
            code = host.table
            assert code is not None
            assert host.state["table"]["settings"]["turn_timer"] == 15
            for seat in (1, 2, 3):
                assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
            # 15 s is the shortest timer a client may choose; the mechanism is the same at 0.3 s.
            table = s.server.live.tables[code]
            table.settings = dataclasses.replace(table.settings, turn_timer=0.3)
            last = (await host.send("start"))["version"] - 1

            turn = await my_turn(host, last)
            assert 0 <= turn["turn_left_ms"] <= 300  # the short timer is running, not 15 s
            played = await host.wait_for(lambda st: st["version"] > turn["version"])
            event = next(e for e in host.events if e["version"] == turn["version"] + 1)["event"]
            assert event["kind"] == "action" and event["seat"] == 0
            assert played["table"]["seats"][0]["connected"] is True  # there, just slow

            # Acting in time beats the timer.
            turn = await my_turn(host, played["version"])
            action = turn["game"]["legal"][0]["text"]
            reply = await host.send("act", version=turn["version"], action=action)
            assert reply == {"ok": True, "version": turn["version"] + 1}
            after = await host.wait_for(lambda st: st["version"] > turn["version"])
            event = next(e for e in host.events if e["version"] == turn["version"] + 1)["event"]
            # The action as taken, and the trick it won if it was a trick's last card.
            assert event == play_event(0, action, turn, after)

    run(scenario)


def test_a_turn_timer_of_15_seconds_is_set_when_the_turn_comes(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            loop = asyncio.get_running_loop()
            for timer in (15, 0):
                host = await s.create("Kemal", players=4, turn_timer=timer)
                code = host.table
                assert code is not None
                for seat in (1, 2, 3):
                    assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
                turn = await my_turn(host, (await host.send("start"))["version"] - 1)
                handle = s.server.live.timers.get(code)
                if timer:
                    assert handle is not None and 0 < handle.when() - loop.time() <= 15.0
                    # The state tells how long the turn has left, and later states count down the
                    # same clock (a spectator arriving later sees less time, not a fresh 15 s).
                    assert 14_000 < turn["turn_left_ms"] <= 15_000
                    await asyncio.sleep(0.3)
                    watcher = await s.watch(code)
                    later = watcher.state["turn_left_ms"]
                    assert later <= turn["turn_left_ms"] - 250, (later, turn["turn_left_ms"])
                    # The watcher's countdown was read from the timer's own clock, a moment ago.
                    left_by_timer = (handle.when() - loop.time()) * 1000
                    assert left_by_timer <= later + 1  # later is rounded to the millisecond
                    await watcher.close()
                else:
                    assert handle is None
                    assert turn["turn_left_ms"] is None
                reply = await host.send(
                    "act", version=turn["version"], action=turn["game"]["legal"][0]["text"]
                )
                assert reply["ok"], reply
                await host.close()

    run(scenario)


def test_every_client_gets_the_versions_in_order_while_players_come_and_go(tmp_path: Path) -> None:
    async def scenario() -> None:
        timing = dataclasses.replace(FAST, grace=0.05)
        async with session(tmp_path / "smear.db", timing) as s:
            host, guest, code = await two_people_and_two_bots(s)
            watchers = [await s.watch(code) for _ in range(4)]

            # A slow network: each send takes a few milliseconds, so the bots move while messages are
            # still going out.
            send = s.server.sio.send

            async def slow_send(*args: Any, **kwargs: Any) -> Any:
                await asyncio.sleep(0.003)
                return await send(*args, **kwargs)

            s.server.sio.send = slow_send
            assert (await host.send("start"))["ok"]
            assert (await host.send("leave"))["ok"]  # a bot plays seat 0 from now on

            token = guest.token or ""
            followers = [host, *watchers]
            for _ in range(8):
                seen = guest.state["version"]
                await guest.close()
                await asyncio.sleep(0.03)
                guest, reply = await s.resume(code, token, seen)
                assert reply["ok"], reply
                # The missed events, in order, and then the state they lead to.
                replayed = list(itertools.takewhile(lambda m: m[0] == "event", guest.received))
                assert [data["version"] for _, data in replayed] == list(
                    range(seen + 1, reply["version"] + 1)
                )
                assert guest.received[len(replayed)][1]["version"] == reply["version"]
                state = guest.state
                if state["game"]["legal"]:
                    await guest.send(
                        "act", version=state["version"], action=state["game"]["legal"][0]["text"]
                    )
                followers.append(guest)

            # Let the bots play on to the guest's turn, where the table waits for it.
            table = s.server.live.tables[code]
            deadline = time.monotonic() + 10
            while table.state is None or table.state.public.to_act != 1 or table.status != "playing":
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)
            # The table waits for the guest now; everyone following it gets to the same version (the last
            # broadcasts may still be on their way, each send slowed as above).
            for client in (guest, *watchers):
                await client.wait_for(lambda st: st["version"] >= table.version)
                assert client.states[-1]["version"] == table.version
            for client in followers:
                states = [st["version"] for st in client.states]
                assert states == sorted(states), states
                events = client.event_versions()
                assert events == sorted(set(events)), events

    run(scenario)


def test_a_socket_found_silent_while_its_table_broadcasts_does_not_stop_the_table(tmp_path: Path) -> None:
    # python-engineio closes a socket whose pings stopped when something is next sent to it, and
    # runs the disconnect handler inside that send: here, inside the broadcast of the start.
    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:  # grace 0.3 s
            host, guest, code = await two_people_and_two_bots(s)
            watcher = await s.watch(code)
            eio_sid = s.server.sio.manager.eio_sid_from_sid(guest.sio.get_sid(), "/")
            s.server.sio.eio.sockets[eio_sid].last_ping = time.time() - 3_600  # its pongs stopped long ago

            started = await host.send("start")
            assert started["ok"], started
            gone = await watcher.wait_for(lambda st: st["table"]["seats"][1]["connected"] is False)
            assert gone["version"] >= started["version"]

            # The table plays on: the host, the bots, and the server for the silent guest after the grace.
            def played_for_guest() -> bool:
                return any(e["event"]["kind"] == "action" and e["event"]["seat"] == 1 for e in host.events)

            def host_to_act_or_guest_played(after: int) -> Callable[[dict[str, Any]], bool]:
                return lambda st: (
                    st["version"] > after and (played_for_guest() or st["game"]["public"]["to_act"] == 0)
                )

            seen = started["version"] - 1
            while not played_for_guest():
                state = await host.wait_for(host_to_act_or_guest_played(seen))
                seen = state["version"]
                if not played_for_guest():
                    assert (await host.send("act", version=seen, action=state["game"]["legal"][0]["text"]))[
                        "ok"
                    ]
            assert watcher.states[-1]["table"]["seats"][1]["connected"] is False

    run(scenario)


def test_hint_gives_the_expert_choice_on_your_turn_only_where_hints_are_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(tmp_path / "t.db") as (_, url):
            for hints in (True, False):
                host = await create(url, players=3, hints=hints)
                for seat in (1, 2):
                    assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
                assert (await host.send("start"))["ok"]
                seat = host.seat
                state = await host.wait_for(lambda st, seat=seat: _my_turn(st, seat))
                reply = await host.send("hint")
                if hints:
                    assert reply["ok"], reply
                    assert reply["action"] in state["game"]["legal"]  # structured, as the legal actions
                    assert reply["version"] == state["version"]  # asking changes nothing
                    expected = reply["expected"]
                    if len(state["game"]["legal"]) == 1:
                        assert expected is None  # a forced move is not searched
                    else:
                        # The side's change this hand: at worst set by the highest bid, at best all points.
                        assert isinstance(expected, float) and -6 <= expected <= 6, expected
                else:
                    assert reply == {"ok": False, "error": error_payload("hints_off")}
                await host.close()

    run(scenario)


def _my_turn(state: dict[str, Any], seat: int | None) -> bool:
    game = state.get("game")
    return bool(game and game.get("public", {}).get("to_act") == seat and game.get("legal"))
