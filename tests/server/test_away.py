"""A player who is away during a match: each seat's ``bot_in_ms`` says when the server will play for
them (a countdown while the grace runs, 0 once it plays), and nothing for anyone else."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, Session, session

# Long enough that the server never plays for the absent seat while a test looks at the countdown.
PATIENT = dataclasses.replace(FAST, grace=30.0)
GRACE_MS = 30_000
# Short enough to wait for the server to play for the absent seat.
SHORT = dataclasses.replace(FAST, grace=0.3)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


def bot_in(state: dict[str, Any]) -> list[int | None]:
    return [seat["bot_in_ms"] for seat in state["table"]["seats"]]


def away(seat: int) -> Callable[[dict[str, Any]], bool]:
    """A state showing the person in ``seat`` not connected (an open seat is not connected either)."""
    return lambda st: (
        not st["table"]["seats"][seat]["open"] and st["table"]["seats"][seat]["connected"] is False
    )


async def host_guest_and_two_bots(s: Session) -> tuple[Client, Client, str]:
    """A four-seat table, not started: its host in seat 0, a guest in seat 1, bots in seats 2 and 3."""
    host = await s.create("Kemal", players=4)
    code = host.table
    assert code is not None
    guest = await s.join(code, "Ayse")
    for seat in (2, 3):
        assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
    return host, guest, code


async def newest_after(client: Client, count: int) -> dict[str, Any]:
    """The newest state once ``client`` holds more than ``count``."""
    return await client.wait_for(lambda st: len(client.states) > count and st is client.states[-1])


async def host_plays_until_guests_turn(host: Client, after: int) -> dict[str, Any]:
    """The host plays its own turns (the bots theirs) until the guest, in seat 1, is to act."""
    while True:
        state = await host.wait_for(
            lambda st, after=after: (
                st["version"] > after and st["game"] is not None and st["game"]["public"]["to_act"] in (0, 1)
            )
        )
        if state["game"]["public"]["to_act"] == 1:
            return state
        after = state["version"]
        assert (await host.send("act", version=after, action=state["game"]["legal"][0]["text"]))["ok"]


def test_nobody_is_away_in_the_lobby_or_while_everyone_is_connected(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            host, guest, code = await host_guest_and_two_bots(s)
            assert bot_in(host.state) == [None, None, None, None]
            # A guest gone from the lobby: no match, so nothing is played for the seat.
            await guest.close()
            lobby = await host.wait_for(away(1))
            assert bot_in(lobby) == [None, None, None, None]

            back, reply = await s.resume(code, guest.token or "", lobby["version"])
            assert reply["ok"], reply
            started = await host.send("start")
            assert started["ok"], started
            for client in (host, back):
                state = await client.wait_for(lambda st: st["version"] == started["version"])
                assert bot_in(state) == [None, None, None, None]  # people connected, bots are bots

    run(scenario)


def test_an_away_seat_counts_down_from_the_grace_and_a_return_stops_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            host, guest, code = await host_guest_and_two_bots(s)
            started = await host.send("start")
            assert started["ok"], started
            await guest.wait_for(lambda st: st["version"] == started["version"])
            await guest.close()
            gone = await host.wait_for(away(1))
            first = bot_in(gone)
            assert first[0] is None and first[2:] == [None, None]
            assert first[1] is not None and 0 < first[1] <= GRACE_MS

            # A state built later (the host's second tab) counts from the same moment, not anew.
            await asyncio.sleep(0.05)
            tab, reply = await s.resume(code, host.token or "", gone["version"])
            assert reply["ok"], reply
            later = bot_in(await tab.wait_for(lambda st: st["version"] == reply["version"]))[1]
            assert later is not None and 0 < later < first[1]

            # Back at the table: the seat is the guest's own again.
            count = len(host.states)
            back, reply = await s.resume(code, guest.token or "", gone["version"])
            assert reply["ok"], reply
            here = await newest_after(host, count)
            assert here["table"]["seats"][1]["connected"] is True
            assert bot_in(here) == [None, None, None, None]
            assert bot_in(back.state) == [None, None, None, None]

    run(scenario)


def test_the_seat_says_zero_once_the_server_plays_for_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SHORT) as s:
            host, guest, _ = await host_guest_and_two_bots(s)
            started = await host.send("start")
            assert started["ok"], started
            turn = await host_plays_until_guests_turn(host, started["version"] - 1)
            await guest.wait_for(lambda st: st["version"] == turn["version"])
            await guest.close()
            await host.wait_for(away(1))
            played = await host.wait_for(lambda st: st["version"] > turn["version"])
            event = next(e for e in host.events if e["version"] == turn["version"] + 1)["event"]
            assert event["kind"] == "action" and event["seat"] == 1  # the server played for the guest
            assert bot_in(played) == [None, 0, None, None]

    run(scenario)


def test_no_bot_is_announced_while_no_person_is_connected(tmp_path: Path) -> None:
    # With every person gone the table waits (docs/protocol.md): a spectator is told of no bot.
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", PATIENT) as s:
            host, guest, code = await host_guest_and_two_bots(s)
            watcher = await s.watch(code)
            started = await host.send("start")
            assert started["ok"], started
            await guest.close()
            one_gone = await watcher.wait_for(away(1))
            assert bot_in(one_gone)[1] is not None
            await host.close()
            both_gone = await watcher.wait_for(away(0))
            assert bot_in(both_gone) == [None, None, None, None]

    run(scenario)
