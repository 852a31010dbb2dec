"""Reactions and the table chat: who may say what and when, the host's controls, the pace, text kept
as text, and chat lines kept with the table for a day only."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, Clock, Session, session, stopped_pace  # noqa: F401  (a fixture, used by every test here)
from tablechecks import cards_in, next_turn, nothing_changes, people_table, refused

from smear.server.limits import Limits
from smear.server.social.chat import CHAT_KEPT_SECONDS
from smear.server.storage.database import Storage
from smear.server.wire.protocol import CHAT_LENGTH, REACTIONS
from smear.state import Phase

LIMITS = Limits(tables_per_hour=0, connections_per_address=0)
# Nothing moves unless a test acts, and a finished hand stays on show long enough to chat.
SLOW_DEAL = dataclasses.replace(FAST, grace=30.0, hand_pause=60.0)
TRICKY = '<img src=x onerror="alert(1)"> & <b>bold</b> {{x}}'


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def lobby(s: Session, guests: int = 2) -> list[Client]:
    host = await s.create("Host", players=4, teams=False)
    assert host.table is not None
    return [host] + [await s.join(host.table, f"Guest {i}") for i in range(1, guests + 1)]


async def said(client: Client, text: str, **extra: Any) -> dict[str, Any]:
    reply = await client.send("chat", text=text, **extra)
    assert reply["ok"], reply
    return reply


def test_a_reaction_reaches_everyone_at_the_table_and_changes_no_version(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            clients = await people_table(s)
            code = clients[0].table
            assert code is not None
            spectator = await s.watch(code)
            version = s.server.live.tables[code].version
            sender = clients[1]
            for reaction in REACTIONS[:3]:
                reply = await sender.send("react", reaction=reaction)
                assert reply["ok"], reply
            expected = [{"seat": sender.seat_now, "reaction": r} for r in REACTIONS[:3]]
            for client in [*clients, spectator]:
                assert await client.wait_for_message("reaction", 3) == expected
            assert s.server.live.tables[code].version == version  # shown, not a change of the table

            # Three at once, then one every two seconds: a fourth now is refused, also from a
            # second socket of the same seat.
            async with nothing_changes(s.server, code, [*clients, spectator]):
                refused(await sender.send("react", reaction="oops"), "rate_limited")
            again, reply = await s.resume(code, sender.token or "", version)
            assert reply["ok"], reply
            refused(await again.send("react", reaction="oops"), "rate_limited")
            refused(await clients[2].send("react", reaction="boo"), "invalid_message")
            # Only a seat reacts: a spectator has no token to send.
            refused(await spectator.call("react", {"table": code, "reaction": "oops"}), "invalid_message")
            assert (await clients[2].send("react", reaction="thanks"))["ok"]

    run(scenario)


def test_chat_is_open_in_the_lobby_and_between_hands_and_closed_while_a_hand_is_played(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            clients = await lobby(s, guests=3)
            host = clients[0]
            code = host.table
            assert code is not None
            spectator = await s.watch(code)
            first = await said(host, TRICKY)
            line = {"id": first["id"], "seat": 0, "name": "Host", "mark": None, "text": TRICKY}
            for client in (host, spectator):
                (pushed,) = await client.wait_for_message("chat", 1)
                assert [{k: v for k, v in got.items() if k != "at"} for got in pushed["lines"]] == [line]

            reply = await host.send("start")
            assert reply["ok"], reply
            await spectator.wait_for(lambda st: st["version"] == reply["version"])
            async with nothing_changes(s.server, code, [*clients, spectator]):
                refused(await host.send("chat", text="I hold the jack"), "chat_closed")
            # The hand is played out (each seat plays its first legal action); its result then
            # stays on show, and the chat opens.
            after = reply["version"]
            table = s.server.live.tables[code]
            while table.state is not None and table.state.public.phase is not Phase.HAND_OVER:
                actor, view = await next_turn(clients, after - 1)  # the turn of version ``after``
                acted = await actor.send(
                    "act", version=view["version"], action=view["game"]["legal"][0]["text"]
                )
                assert acted["ok"], acted
                after = acted["version"]
            second = await said(host, "well played, all")
            assert second["id"] > first["id"]
            history = await spectator.send("chat_history")
            assert [entry["text"] for entry in history["lines"]] == [TRICKY, "well played, all"]
            assert history["kept_hours"] == CHAT_KEPT_SECONDS / 3_600

    run(scenario)


def test_the_host_mutes_a_seat_turns_the_chat_off_and_lets_spectators_write(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", FAST, LIMITS) as s:
            host, guest, other = await lobby(s)
            code = host.table
            assert code is not None
            spectator = await s.watch(code)
            everyone = [host, guest, other, spectator]
            assert host.state["table"]["chat"] == {
                "on": True,
                "spectators": False,
                "muted": [],
                "refused": {"seats": [None, None, None, None], "spectator": "spectators_silent"},
            }

            refused(await guest.send("mute", seat=2, muted=True), "not_host")
            refused(await host.send("mute", seat=0, muted=True), "no_such_seat")
            before = host.state["version"]
            reply = await host.send("mute", seat=1, muted=True)
            assert reply["ok"], reply
            # Told to the host and the muted seat alone: the other seats and the spectators see no mute.
            for client in (host, guest):
                state = await client.wait_for(lambda st: st["version"] == reply["version"])
                assert state["table"]["chat"]["muted"] == [1]
                assert state["event"] == {"kind": "muted", "seat": 1, "muted": True}
            assert guest.state["table"]["chat"]["refused"]["seats"][1] == "chat_muted"
            for client in (other, spectator):
                state = await client.wait_for(lambda st: st["version"] == reply["version"])
                assert state["table"]["chat"]["muted"] == []
                assert state["table"]["chat"]["refused"]["seats"] == [None, None, None, None]
                assert state["event"] is None
            back, answer = await s.resume(code, str(other.token), before)
            assert answer["ok"] and answer["replayed"] == 0, answer
            assert back.state["table"]["chat"]["muted"] == []
            async with nothing_changes(s.server, code, everyone):
                refused(await guest.send("chat", text="let me speak"), "chat_muted")
                # A spectator reads but may not write until the host allows it.
                refused(await spectator.send("chat", name="Pat", text="hello"), "spectators_silent")
                refused(await spectator.send("chat", text="hello"), "invalid_message")
            await said(other, "guest 2 here")

            reply = await host.send("chat_settings", on=True, spectators=True)
            assert reply["ok"], reply
            await spectator.wait_for(lambda st: st["table"]["chat"]["spectators"])
            from_spectator = await said(spectator, "hello from the rail", name="Pat")
            (line,) = (await host.wait_for_message("chat", 2))[1]["lines"]
            assert line["id"] == from_spectator["id"]
            assert (line["seat"], line["name"], line["text"]) == (None, "Pat", "hello from the rail")

            reply = await host.send("chat_settings", on=False, spectators=True)
            assert reply["ok"], reply
            await spectator.wait_for(lambda st: not st["table"]["chat"]["on"])
            async with nothing_changes(s.server, code, everyone):
                for client, extra in ((host, {}), (other, {}), (spectator, {"name": "Pat"})):
                    refused(await client.send("chat", text="anyone?", **extra), "chat_off")
            reply = await host.send("mute", seat=1, muted=False)
            assert reply["ok"], reply
            assert (await host.send("chat_settings", on=True, spectators=False))["ok"]
            await said(guest, "thanks")

    run(scenario)


def test_chat_lines_are_paced_checked_and_kept_as_plain_text(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", FAST, LIMITS) as s:
            host, guest = await lobby(s, guests=1)
            code = host.table
            assert code is not None
            for number in range(5):
                await said(guest, f"line {number}")
            async with nothing_changes(s.server, code, [host, guest]):
                refused(await guest.send("chat", text="one too many"), "rate_limited")
                refused(await host.send("chat", text="x" * (CHAT_LENGTH + 1)), "invalid_message")
                refused(await host.send("chat", text="two\nlines"), "invalid_message")
                refused(await host.send("chat", text="   "), "invalid_message")
                refused(await host.send("chat", text="\u202eevil"), "invalid_message")
            await said(host, "  " + TRICKY + "  ")  # the host has its own allowance
            lines = [push["lines"][0] for push in await guest.wait_for_message("chat", 6)]
            assert [line["text"] for line in lines] == [*(f"line {n}" for n in range(5)), TRICKY]
            assert not cards_in(lines)

            # Only a socket that follows the table reads its chat.
            stranger = await s.connect()
            refused(await stranger.call("chat_history", {"table": code}), "not_following")
            refused(
                await stranger.call("chat", {"table": code, "name": "Eve", "text": "hi"}), "not_following"
            )

    run(scenario)


def test_chat_comes_back_after_a_restart_and_is_deleted_after_a_day(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = tmp_path / "smear.db"
        clock = Clock()
        async with session(database, FAST, LIMITS, clock) as s:
            host, guest = await lobby(s, guests=1)
            code, token = host.table, guest.token
            assert code is not None and token is not None
            await said(host, "first")
            clock.now += 3_600
            await said(guest, "an hour later")
            assert (await host.send("mute", seat=1, muted=True))["ok"]
            version = host.state["version"]

        async with session(database, FAST, LIMITS, clock) as s:
            back, reply = await s.resume(code, token, version)
            assert reply["ok"], reply
            state = await back.wait_for(lambda st: st["version"] >= version)
            assert state["table"]["chat"]["muted"] == [1]
            history = await back.call("chat_history", {"table": code})
            assert history["ok"], history
            assert [line["text"] for line in history["lines"]] == ["first", "an hour later"]

            # A day after the first line, the sweep deletes it, in memory and in the database.
            clock.now += CHAT_KEPT_SECONDS - 3_600 + 1
            await s.server.sweep()
            history = await back.call("chat_history", {"table": code})
            assert [line["text"] for line in history["lines"]] == ["an hour later"]
        with Storage(f"sqlite:///{database}") as storage:
            assert [line.text for line in storage.chat.chat(code, 0.0).lines] == ["an hour later"]

    run(scenario)
