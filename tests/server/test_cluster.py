"""Several server processes on one Redis and one database serve the same tables
(smear.server.cluster): a table's requests go to its owner from any process, its pushes reach
sockets on every process, and when its owner stops another process takes it over."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, create, join, running_server

from smear.server.app import SmearServer

SHORT_LEASE = dataclasses.replace(FAST, lease=1.0)


def run(scenario: Any) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 120))


async def settle(clients: list[Client], version: int) -> None:
    for client in clients:
        await client.wait_for(lambda state: state["version"] >= version)


async def play_one(clients: list[Client]) -> dict[str, Any]:
    """The seat to act takes its first legal action; returns the event, once every client has it."""
    latest = max((client.state for client in clients), key=lambda state: state["version"])
    seat = latest["game"]["public"]["to_act"]
    actor = next(client for client in clients if client.seat_now == seat)
    state = await actor.wait_for(lambda s: s["version"] == latest["version"])
    action = state["game"]["legal"][0]
    reply = await actor.send("act", version=state["version"], action=action)
    assert reply["ok"], reply
    await settle(clients, reply["version"])
    return {"version": reply["version"], "event": {"kind": "action", "seat": seat, "action": action}}


@contextlib.asynccontextmanager
async def two_servers(database: str, redis_url: str) -> Any:
    async with running_server(database, SHORT_LEASE, redis=redis_url) as (first, first_url):
        async with running_server(database, SHORT_LEASE, redis=redis_url) as (second, second_url):
            yield (first, first_url), (second, second_url)


def owner_of(code: str, *servers: SmearServer) -> SmearServer:
    [owner] = [server for server in servers if code in server.tables]
    return owner


def test_players_on_two_processes_play_one_table(tmp_path: Path, redis_url: str) -> None:
    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with two_servers(database, redis_url) as ((first, first_url), (second, second_url)):
            host = await create(first_url, "Host", players=4)
            code = host.table or ""
            clients = [host]
            for name, url in (("Ayse", second_url), ("Kemal", first_url), ("Sam", second_url)):
                clients.append(await join(url, code, name))
            assert owner_of(code, first, second) is first
            reply = await clients[1].send("start")  # Ayse is not the host: refused by the owner
            assert not reply["ok"] and reply["error"]["code"] == "not_host", reply
            reply = await host.send("start")
            assert reply["ok"], reply
            await settle(clients, reply["version"])
            events = [await play_one(clients) for _ in range(8)]
            for client in clients:
                assert [e for e in client.events if e["version"] > events[0]["version"] - 1] == events
                seen = client.state["table"]["seats"]
                assert all(seat["connected"] for seat in seen), seen
            # Each process sent its own sockets their messages; no table lives in the second.
            assert code not in second.tables
        for client in clients:
            await client.close()

    run(scenario)
