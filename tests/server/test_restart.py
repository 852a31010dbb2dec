"""The server killed with SIGKILL in the middle of a hand and started again on the same database loses
no acknowledged action: every player takes its seat back with ``resume`` and finds the hand exactly
as it was, then plays it to the end.

The server runs as a real process (``python -m smear serve``); the players are real Socket.IO
clients. There are no bots and no turn timer, so nothing moves unless a client acts. A restart reads
what it brings back off the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from serverkit import Client, create, free_port, join, server_process, session
from tablechecks import play_event

from smear.server.storage.chatstore import ChatStore
from smear.server.storage.liststore import ListingStore

# What a player sees of a hand; all of it must survive the restart.
HAND_FIELDS = ("hand_number", "dealer", "phase", "to_act", "bids", "bidder", "bid", "trump", "leader")
TABLE_FIELDS = ("trick", "tricks", "scores", "hand_sizes", "results")


async def close_all(clients: list[Client]) -> None:
    for client in clients:
        with contextlib.suppress(Exception):
            if client.sio.connected:
                await client.close()
            else:
                await asyncio.wait_for(client.sio.wait(), 5)


async def settle(clients: list[Client], version: int) -> None:
    """Wait until every client has the state of ``version``."""
    for client in clients:
        await client.wait_for(lambda state: state["version"] == version)


async def start_three(url: str, clients: list[Client]) -> Client:
    """A house match of three people without teams started at ``url`` and seen by all three, who
    join ``clients`` as they come (so that the caller closes them whatever happens); its host."""
    host = await create(url, "Host", preset="house", players=3, teams=False)
    clients.append(host)
    for name in ("Ayse", "Kemal"):
        clients.append(await join(url, host.table or "", name))
    reply = await host.send("start")
    assert reply["ok"], reply
    await settle(clients, reply["version"])
    return host


async def step(clients: list[Client]) -> tuple[int, dict[str, Any]]:
    """The seat to act takes its first legal action. Once everyone has the new state, returns its
    version and the event everyone should have had for it."""
    latest = clients[0].state
    seat = latest["game"]["public"]["to_act"]
    actor = next(client for client in clients if client.seat == seat)
    state = actor.state
    assert state["version"] == latest["version"]
    action = state["game"]["legal"][0]["text"]
    reply = await actor.send("act", version=state["version"], action=action)
    assert reply["ok"], reply
    await settle(clients, reply["version"])
    after = await clients[0].wait_for(lambda st: st["version"] == reply["version"])
    return reply["version"], play_event(seat, action, state, after)


def stored_actions(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        count: int = db.execute("SELECT count(*) FROM actions").fetchone()[0]
        return count


def same_hand(before: dict[str, Any], after: dict[str, Any]) -> None:
    """``after`` shows the seat exactly what ``before`` showed it."""
    old, new = before["game"], after["game"]
    assert new["seat"] == old["seat"]
    assert new["hand"] == old["hand"], "the seat's cards changed"
    assert new["discards"] == old["discards"]
    assert new["legal"] == old["legal"]
    for key in HAND_FIELDS + TABLE_FIELDS:
        assert new["public"][key] == old["public"][key], key
    assert new == old


async def restart_mid_hand(tmp_path: Path) -> None:
    database = tmp_path / "smear.db"
    port = free_port()
    clients: list[Client] = []
    try:
        async with server_process(port, database, tmp_path / "first.log") as first:
            host = await start_three(first.url, clients)
            acted = 0
            while True:  # the auction, then four cards: one whole trick and the lead of the next
                await step(clients)
                acted += 1
                public = host.state["game"]["public"]
                if public["phase"] == "play" and len(public["tricks"]) == 1 and len(public["trick"]) == 1:
                    break
            assert public["bids"] and public["bidder"] is not None and public["trump"] is not None
            before = {client.seat: client.state for client in clients}
            assert len({state["version"] for state in before.values()}) == 1
            first.kill()  # SIGKILL, just after the last acknowledgement
            assert first.process.returncode == -signal.SIGKILL
        await close_all(clients)
        assert stored_actions(database) == acted, "an acknowledged action was not stored"

        async with server_process(port, database, tmp_path / "second.log") as second:
            old = clients
            clients = []
            for client in old:
                assert client.seat is not None
                last = before[client.seat]
                again = await Client(second.url).connect()
                clients.append(again)
                again.table, again.token = client.table, client.token
                reply = await again.call(
                    "resume", {"table": client.table, "token": client.token, "version": last["version"]}
                )
                assert reply["ok"], reply
                assert reply["seat"] == client.seat
                assert reply["version"] > last["version"], "versions must only grow"
                assert reply["replayed"] == 0, "nothing happened since the client's version"
                again.seat = reply["seat"]
                state = await again.wait_for(lambda s: s["game"] is not None)
                assert state["table"]["you"] == client.seat
                same_hand(last, state)
            version = max(client.state["version"] for client in clients)
            await settle(clients, version)

            # The same hand goes on to its end.
            events = []
            while clients[0].state["game"]["public"]["phase"] == "play":
                version, event = await step(clients)
                events.append({"version": version, "event": event})
                acted += 1
            # Since the restart, each client had one event per action, and nothing else: no action
            # from before the restart was sent again.
            for client in clients:
                assert client.events == events, f"seat {client.seat} had other events since the restart"
            for client in clients:
                public = client.state["game"]["public"]
                assert public["phase"] == "hand_over", public["phase"]
                assert public["hand_number"] == 1
                assert len(public["tricks"]) == 6
                cards = [card for trick in public["tricks"] for card in trick["cards"]]
                assert len(set(cards)) == len(cards) == 18
                [result] = public["results"]
                assert result["number"] == 1 and result["bidder"] == before[0]["game"]["public"]["bidder"]
                assert result["scores"] == public["scores"]
            assert stored_actions(database) == acted
    finally:
        await close_all(clients)


def test_a_killed_server_loses_no_acknowledged_action(tmp_path: Path) -> None:
    asyncio.run(restart_mid_hand(tmp_path))


async def restart_with_a_client_behind(tmp_path: Path) -> None:
    """A client that lost its connection before the last actions resumes after the restart: it gets
    a ``state`` marked ``resync`` that holds what it missed."""
    database = tmp_path / "smear.db"
    port = free_port()
    clients: list[Client] = []
    try:
        async with server_process(port, database, tmp_path / "first.log") as first:
            host = await start_three(first.url, clients)
            # The first bidder bids, then leaves; the two others bid after it.
            first_bidder = host.state["game"]["public"]["to_act"]
            await step(clients)
            behind = next(client for client in clients if client.seat == first_bidder)
            seen = behind.state
            await behind.close()
            others = [client for client in clients if client is not behind]
            missed = [(await step(others))[0] for _ in range(2)]
            first.kill()
        await close_all(clients)

        async with server_process(port, database, tmp_path / "second.log") as second:
            again = await Client(second.url).connect()
            clients = [again]
            reply = await again.call(
                "resume", {"table": behind.table, "token": behind.token, "version": seen["version"]}
            )
            assert reply["ok"], reply
            assert reply["seat"] == first_bidder
            state = await again.wait_for(lambda s: s["game"] is not None)
            assert state["game"]["public"]["bids"] == others[0].state["game"]["public"]["bids"]
            assert len(state["game"]["public"]["bids"]) == 3
            # A restarted server keeps no event history (its versions start anew above the old
            # ones), so the client is sent its whole state, marked resync, and no events.
            assert state["resync"] is True
            assert reply["replayed"] == 0 and again.events == []
            assert state["version"] > max(seen["version"], *missed)
    finally:
        await close_all(clients)


def test_a_client_behind_at_the_restart_gets_what_it_missed(tmp_path: Path) -> None:
    asyncio.run(restart_with_a_client_behind(tmp_path))


def test_a_restart_reads_each_table_s_chat_and_listing_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Restoring reads storage on the reading threads, as every request does, never on the loop."""
    database = tmp_path / "smear.db"
    threads: list[str] = []

    def noting(read: Any) -> Any:
        def noted(self: Any, *args: Any) -> Any:
            threads.append(threading.current_thread().name)
            return read(self, *args)

        return noted

    async def scenario() -> None:
        async with session(database) as s:
            lobby = await s.create("Ann")
            assert (await lobby.send("list_table", listed=True))["ok"]
            playing = await s.with_bots("Bo", players=3)
            assert (await playing.send("start"))["ok"]
        monkeypatch.setattr(ChatStore, "chat", noting(ChatStore.chat))
        monkeypatch.setattr(ListingStore, "is_listed", noting(ListingStore.is_listed))
        async with session(database) as s:
            assert {lobby.table, playing.table} <= set(s.server.live.tables)
            assert s.server.live.tables[lobby.table or ""].listed

    asyncio.run(scenario())
    assert len(threads) == 3  # two chats and one listing
    assert all(name.startswith("smear-reading") for name in threads), threads
