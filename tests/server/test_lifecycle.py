"""Tables end: an abandoned lobby closes, an abandoned match is put to rest and comes back when one of
its players returns, a finished table leaves memory once nobody follows it, and a restart brings back
only what is live. The wall clock of idleness is the test's own; the server sweeps when told to.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverkit import Client, Clock, Session, session

from smear.server.limits import Limits

LIMITS = Limits(tables_per_hour=0, connections_per_address=0, lobby_idle=3_600, match_idle=86_400)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def gone(client: Client, s: Session) -> None:
    """Close a client and wait until the server has noticed."""
    sid = client.sio.get_sid()
    await client.close()
    while sid in s.server.live.connections:
        await asyncio.sleep(0.01)


def test_an_abandoned_lobby_closes_after_an_hour_and_a_watched_one_does_not(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        async with session(tmp_path / "smear.db", limits=LIMITS, clock=clock) as s:
            left = await s.create("Kemal")
            stays = await s.create("Ayse")
            code = left.table or ""
            await gone(left, s)
            await s.server.sweep()
            stored = s.server.storage.table(code)
            assert stored is not None and stored.idle_since == clock.now and not stored.resting
            clock.now += 3_599
            await s.server.sweep()
            assert code in s.server.live.tables  # not an hour yet
            clock.now += 1
            await s.server.sweep()
            assert code not in s.server.live.tables and s.server.storage.table(code) is None
            newcomer = await s.connect()
            reply = await newcomer.call("join_table", {"table": code, "name": "Sam"})
            assert reply["error"]["code"] == "no_such_table"
            # The lobby whose host is still there stays, however long.
            assert stays.table in s.server.live.tables

    run(scenario)


async def started_people_table(s: Session) -> list[Client]:
    host = await s.create("Host", players=3)
    code = host.table or ""
    clients = [host, await s.join(code, "Ayse"), await s.join(code, "Kemal")]
    reply = await host.send("start")
    assert reply["ok"], reply
    for client in clients:
        await client.wait_for(lambda st: st["version"] == reply["version"])
    return clients


def test_an_abandoned_match_rests_survives_a_restart_and_comes_back_when_a_player_returns(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        clock = Clock()
        database = tmp_path / "smear.db"
        async with session(database, limits=LIMITS, clock=clock) as s:
            clients = await started_people_table(s)
            code = clients[0].table or ""
            actor = next(c for c in clients if c.state["game"]["legal"])
            reply = await actor.send(
                "act", version=actor.state["version"], action=actor.state["game"]["legal"][0]["text"]
            )
            assert reply["ok"], reply
            for client in clients:
                await client.wait_for(lambda st: st["version"] == reply["version"])
            before = {client.token: client.state for client in clients}
            for client in clients:
                await gone(client, s)
            await s.server.sweep()
            clock.now += 86_400
            await s.server.sweep()
            assert code not in s.server.live.tables
            stored = s.server.storage.table(code)
            assert stored is not None and stored.resting and stored.status == "playing"

        # A restart brings back what is live only.
        async with session(database, limits=LIMITS, clock=clock) as s:
            assert code not in s.server.live.tables
            token = clients[1].token or ""
            back, reply = await s.resume(code, token, before[token]["version"])
            assert reply["ok"] and reply["seat"] == clients[1].seat, reply
            state = await back.wait_for(lambda st: st["game"] is not None)
            assert state["resync"] is True and state["version"] > before[token]["version"]
            assert state["game"] == before[token]["game"]  # the same hand, exactly as it was left
            stored = s.server.storage.table(code)
            assert stored is not None and not stored.resting
            # It plays on.
            others = [await s.resume(code, c.token or "", 0) for c in (clients[0], clients[2])]
            everyone = [back, *(client for client, _ in others)]
            for client in everyone:
                await client.wait_for(lambda st: st["version"] >= reply["version"])
            turn = next(c for c in everyone if c.state["game"]["legal"])
            act = await turn.send(
                "act", version=turn.state["version"], action=turn.state["game"]["legal"][0]["text"]
            )
            assert act["ok"], act

    run(scenario)


def test_a_table_moves_only_while_one_of_its_people_is_there(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            host = await s.with_bots("Host")
            code = host.table or ""
            started = await host.send("start")
            table = s.server.live.tables[code]
            await host.wait_for(lambda st: st["version"] >= started["version"])
            version = host.state["version"]
            await gone(host, s)
            # The table hears of it in a task of its own (its lock may be held): wait for it.
            while (code, host.seat) not in s.server.live.disconnected_at:
                await asyncio.sleep(0.01)
            # The bots had a move scheduled at most; with nobody there, nothing more is scheduled.
            assert code not in s.server.live.timers
            stopped = table.version
            assert stopped <= version + 4
            back, reply = await s.resume(code, host.token or "", version)
            assert reply["ok"], reply
            moved = await back.wait_for(lambda st: st["version"] > stopped or bool(st["game"]["legal"]))
            assert moved is not None

    run(scenario)


def test_a_finished_table_leaves_memory_once_nobody_follows_it_and_can_still_be_watched(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            host = await s.with_bots("Host", target=11)
            code = host.table or ""
            after = (await host.send("start"))["version"] - 1
            while True:
                state = await host.wait_for(
                    lambda st, a=after: (
                        st["version"] > a
                        and (st["table"]["status"] == "finished" or bool(st["game"]["legal"]))
                    )
                )
                if state["table"]["status"] == "finished":
                    break
                reply = await host.send(
                    "act", version=state["version"], action=state["game"]["legal"][0]["text"]
                )
                # The state the action made may be this seat's turn again (it won the trick).
                after = reply["version"] - 1 if reply["ok"] else state["version"]
            final = host.state
            watcher = await s.watch(code)
            await s.server.sweep()
            assert code in s.server.live.tables  # a spectator still follows it
            await gone(watcher, s)
            await gone(host, s)
            await s.server.sweep()
            assert code not in s.server.live.tables

            late = await s.watch(code)  # from storage, as it ended
            assert late.state["table"]["status"] == "finished"
            assert late.state["game"]["phase"] == "match_over"
            assert late.state["game"]["scores"] == final["game"]["public"]["scores"]

    run(scenario)


def test_a_restart_closes_a_lobby_that_was_abandoned_long_before(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        database = tmp_path / "smear.db"
        async with session(database, limits=LIMITS, clock=clock) as s:
            host = await s.create("Kemal")
            code = host.table or ""
            await gone(host, s)
            await s.server.sweep()
        clock.now += 7_200
        async with session(database, limits=LIMITS, clock=clock) as s:
            assert code not in s.server.live.tables
            assert s.server.storage.table(code) is None

    run(scenario)
