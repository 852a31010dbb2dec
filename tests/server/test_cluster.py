"""Several server processes on one Redis and one database serve the same tables
(smear.server.cluster.coordination): a table's requests go to its owner from any process, its pushes reach
sockets on every process, and when its owner stops another process takes it over."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import signal
import time
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, create, free_port, http_json, join, running_server, server_process
from sqlalchemy import create_engine, text
from tablechecks import play_event
from test_restart import close_all, same_hand

from smear.server.app import SmearServer, Timing
from smear.server.cluster.coordination import PREFIX

SHORT_LEASE = dataclasses.replace(FAST, lease=1.0)
# No lease runs out while a test runs, however slow the machine: each table stays with the process
# that made it. With one second, a process whose event loop (shared here with the other process and
# the clients) stalled for most of a second lost its table in the middle of a test.
STEADY = dataclasses.replace(FAST, lease=60.0)


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
    action = state["game"]["legal"][0]["text"]
    reply = await actor.send("act", version=state["version"], action=action)
    assert reply["ok"], reply
    await settle(clients, reply["version"])
    after = await actor.wait_for(lambda s: s["version"] == reply["version"])
    return {"version": reply["version"], "event": play_event(seat, action, state, after)}


@contextlib.asynccontextmanager
async def two_servers(database: str, redis_url: str, timing: Timing = STEADY) -> Any:
    async with (
        running_server(database, timing, redis=redis_url) as (first, first_url),
        running_server(database, timing, redis=redis_url) as (second, second_url),
    ):
        yield (first, first_url), (second, second_url)


@contextlib.asynccontextmanager
async def two_server_processes(tmp_path: Path, database: str, redis_url: str) -> Any:
    """Two ``smear serve`` processes on one database and Redis, a short lease, and a grace long
    enough that no bot plays for a player who is reconnecting."""
    options = ("--redis", redis_url, "--lease", "1", "--grace", "120")
    async with (
        server_process(free_port(), database, tmp_path / "first.log", *options) as first,
        server_process(free_port(), database, tmp_path / "second.log", *options) as second,
    ):
        yield first, second


async def four_players(first_url: str, second_url: str) -> list[Client]:
    """A 4-seat table created on the first server (its owner), its seats taken in turn through
    each server: the host and Kemal on the first, Ayse and Sam on the second."""
    host = await create(first_url, "Host", players=4)
    clients = [host]
    for name, url in (("Ayse", second_url), ("Kemal", first_url), ("Sam", second_url)):
        clients.append(await join(url, host.table or "", name))
    return clients


def owner_of(code: str, *servers: SmearServer) -> SmearServer:
    [owner] = [server for server in servers if code in server.live.tables]
    return owner


def test_players_on_two_processes_play_one_table(tmp_path: Path, redis_url: str) -> None:
    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with two_servers(database, redis_url) as ((first, first_url), (second, second_url)):
            clients = await four_players(first_url, second_url)
            host, code = clients[0], clients[0].table or ""
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
            # Every state a player got, through either process, is its own seat's view, and the
            # hands dealt to the four are four different sets of cards.
            dealt: list[set[str]] = []
            for client in clients:
                games = [state["game"] for state in client.states if state["game"] is not None]
                assert games and all(game["seat"] == client.seat_now for game in games)
                dealt.append(set(games[0]["hand"]))
            assert all(len(hand) == 6 for hand in dealt)
            assert len(set().union(*dealt)) == 24, "a seat was sent another seat's hand"
            # Each process sent its own sockets their messages; no table lives in the second.
            assert code not in second.live.tables
        for client in clients:
            await client.close()

    run(scenario)


def stored_actions(database: str) -> int:
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            count: int = connection.execute(text("SELECT count(*) FROM actions")).scalar_one()
            return count
    finally:
        engine.dispose()


def test_the_owner_killed_mid_hand_the_other_process_carries_the_hand_on(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Two ``smear serve`` processes on PostgreSQL and Redis; four players, two on each; the owner of
    their table is killed (SIGKILL) in the middle of a hand. The other process takes the table over
    from the database: its own players get the same hand again without asking, the others resume
    there, and the hand is played to its end with every acknowledged action kept."""

    async def scenario() -> None:
        clients: list[Client] = []
        try:
            async with two_server_processes(tmp_path, postgres_url, redis_url) as (first, second):
                clients = await four_players(first.url, second.url)
                host, code = clients[0], clients[0].table or ""
                on_first, on_second = [clients[0], clients[2]], [clients[1], clients[3]]
                reply = await host.send("start")
                assert reply["ok"], reply
                await settle(clients, reply["version"])
                acted = 0
                while True:  # the auction, then one whole trick and the lead of the next
                    await play_one(clients)
                    acted += 1
                    public = host.state["game"]["public"]
                    if public["phase"] == "play" and len(public["tricks"]) == 1 and len(public["trick"]) == 1:
                        break
                before = {client.seat_now: client.state for client in clients}
                last_version = host.state["version"]
                first.kill()  # the owner: the table lives there since it was created there
                assert first.process.returncode == -signal.SIGKILL

                # The second process takes the table over and sends its own players the same hand.
                for client in on_second:
                    state = await client.wait_for(lambda s: s["version"] > last_version and s["resync"], 15)
                    same_hand(before[client.seat_now], state)
                # The first process's players come back through the second.
                for index, old in enumerate(on_first):
                    again = await Client(second.url).connect()
                    again.table, again.token = old.table, old.token
                    reply = await again.call(
                        "resume", {"table": code, "token": old.token, "version": last_version}
                    )
                    assert reply["ok"], reply
                    assert reply["version"] > last_version, "versions must only grow across owners"
                    assert reply["replayed"] == 0
                    state = await again.wait_for(lambda s: s["game"] and s["version"] > last_version)
                    same_hand(before[reply["seat"]], state)
                    clients[clients.index(old)] = again
                    with contextlib.suppress(Exception):
                        await old.close()
                    on_first[index] = again
                await settle(clients, max(client.state["version"] for client in clients))
                # Seats coming back change no version: wait for the state that shows them all back.
                for client in clients:
                    await client.wait_for(lambda s: all(seat["connected"] for seat in s["table"]["seats"]))
                while clients[0].state["game"]["public"]["phase"] == "play":
                    await play_one(clients)
                    acted += 1
                for client in clients:
                    public = client.state["game"]["public"]
                    assert public["phase"] == "hand_over" and public["hand_number"] == 1
                    cards = [card for trick in public["tricks"] for card in trick["cards"]]
                    assert len(set(cards)) == len(cards) == 4 * len(public["tricks"])
                assert stored_actions(postgres_url) == acted, "an acknowledged action was not stored"
        finally:
            await close_all(clients)

    run(scenario)


def test_a_socket_that_leaves_or_closes_is_forgotten_by_the_owner(tmp_path: Path, redis_url: str) -> None:
    """A socket of the second process follows a table of the first, then watches one of its own
    process: the first stops sending to it. A seated player's socket closing on the second process
    shows the seat as away at the owner."""

    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with two_servers(database, redis_url) as ((first, first_url), (second, second_url)):
            host = await create(first_url, "Host", players=3)
            code = host.table or ""
            guest = await join(second_url, code, "Ayse")
            await host.wait_for(lambda s: sum(seat["name"] is not None for seat in s["table"]["seats"]) == 2)
            assert guest.sio.get_sid() in first.live.connections  # the owner keeps the remote socket

            other = await create(second_url, "Other", players=3)  # owned by the second process
            watcher = await Client(first_url).connect()
            assert (await watcher.call("watch_table", {"table": code}))["ok"]
            watcher_sid = watcher.sio.get_sid()
            assert watcher_sid in first.live.followers[code]
            assert (await watcher.call("watch_table", {"table": other.table}))["ok"]
            assert watcher_sid not in first.live.followers.get(code, set())
            assert watcher_sid in second.live.followers[other.table or ""]
            count = len(watcher.received)
            assert (await guest.send("take_seat", seat=2))["ok"]  # a change at the first table
            await host.wait_for(lambda s: s["table"]["seats"][2]["name"] == "Ayse")
            await other.send("take_seat", seat=1)  # a change at the other, which the watcher sees
            await watcher.wait_for(
                lambda s: s["table"]["code"] == other.table and s["table"]["seats"][1]["name"]
            )
            codes = {data["table"]["code"] for kind, data in watcher.received[count:] if kind == "state"}
            assert codes == {other.table}, "the first table's changes still reached the watcher"

            await guest.close()
            await host.wait_for(
                lambda s: s["table"]["seats"][2]["name"] == "Ayse" and not s["table"]["seats"][2]["connected"]
            )
            for _ in range(50):
                if guest.sio.get_sid() not in first.live.connections:
                    break
                await asyncio.sleep(0.05)
            assert all(c.home is None for c in first.live.connections.values()), (
                "a closed remote socket was kept"
            )
            for client in (host, other, watcher):
                await client.close()

    run(scenario)


def test_an_owner_that_stops_gives_its_tables_up_at_once(tmp_path: Path, redis_url: str) -> None:
    """An owner stopped cleanly (SIGTERM, a deploy) releases its leases: the table's players on the
    other process find it there at their next request, without waiting for a lease to run out."""

    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with running_server(database, STEADY, redis=redis_url) as (second, second_url):
            async with running_server(database, STEADY, redis=redis_url) as (first, first_url):
                host = await create(first_url, "Host", players=3)
                code = host.table or ""
                assert code in first.live.tables
                guests = [await join(second_url, code, name) for name in ("Ayse", "Kemal")]
            # The first server has stopped; its host's socket is gone with it. The second takes the
            # table over when it hears of the release or at the next request, whichever comes first
            # (both run in this event loop, so either may): never after a lease runs out.
            reply = await guests[0].send("take_seat", seat=0)  # the host's seat is still the host's
            assert not reply["ok"] and reply["error"]["code"] == "seat_taken", reply
            assert code in second.live.tables, "the table did not move to the process still running"
            await guests[1].wait_for(lambda s: s["table"]["seats"][0]["connected"] is False)
            for client in guests:
                await client.close()

    run(scenario)


def test_serve_with_two_workers_shares_the_port_and_stops_whole(tmp_path: Path, redis_url: str) -> None:
    """``smear serve --workers 2 --redis URL``: two processes answer on one port, both in the
    cluster; players play there; SIGTERM stops the parent and both workers."""
    import redis
    from serverkit import ServerProcess

    database = f"sqlite:///{tmp_path / 'shared.db'}"
    server = ServerProcess(
        free_port(), database, tmp_path / "serve.log", "--workers", "2", "--redis", redis_url
    )
    try:
        server.wait_until_healthy()
        children = [
            int(pid)
            for pid in Path(f"/proc/{server.process.pid}/task").glob("*/children")
            for pid in pid.read_text().split()
        ]
        assert len(children) == 2, children
        client = redis.Redis.from_url(redis_url)
        for _ in range(100):  # both workers joined the cluster (each says it is alive)
            if len(list(client.scan_iter(f"{PREFIX}alive:*"))) == 2:
                break
            time.sleep(0.05)
        assert len(list(client.scan_iter(f"{PREFIX}alive:*"))) == 2
        client.close()

        async def play() -> None:
            host = await create(server.url, "Host", players=3)
            guests = [await join(server.url, host.table or "", name) for name in ("Ayse", "Kemal")]
            reply = await host.send("start")
            assert reply["ok"], reply
            clients = [host, *guests]
            await settle(clients, reply["version"])
            for _ in range(6):
                await play_one(clients)
            await close_all(clients)

        run(play)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0, server.log()
        for pid in children:  # stopped, and reaped by the parent
            assert not Path(f"/proc/{pid}").exists(), f"worker {pid} still runs"
    finally:
        server.kill()


def test_a_redis_that_forgets_everything_loses_no_table(tmp_path: Path, redis_url: str) -> None:
    """Redis restarted empty (FLUSHALL): every lease and every process's mark are gone at once. The
    processes take the table back from the database, no socket is dropped as if its process had
    died, and the players play on."""
    import redis

    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with two_servers(database, redis_url, SHORT_LEASE) as (
            (first, first_url),
            (second, second_url),
        ):
            clients = await four_players(first_url, second_url)
            host, code = clients[0], clients[0].table or ""
            reply = await host.send("start")
            assert reply["ok"], reply
            await settle(clients, reply["version"])
            for _ in range(3):
                await play_one(clients)
            version = host.state["version"]
            client = redis.Redis.from_url(redis_url)
            client.flushall()
            client.close()
            for player in clients:  # taken back from the database: a full state, a newer version
                await player.wait_for(lambda s: s["version"] > version and s["resync"], 15)
            await asyncio.sleep(2 * SHORT_LEASE.lease)  # longer than a process may be missing
            for _ in range(6):
                await play_one(clients)
            for player in clients:
                await player.wait_for(lambda s: all(seat["connected"] for seat in s["table"]["seats"]))
            assert (code in first.live.tables) != (code in second.live.tables)
            await close_all(clients)

    run(scenario)


def test_a_table_taken_over_by_a_request_brings_its_followers_along(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """The owner is killed and the first news of it is a request (a spectator's) that the second
    process answers by taking the table over itself: its own players there, who followed the table
    at the dead owner, follow it there at once, get the state again, and everyone sees them back."""

    async def scenario() -> None:
        clients: list[Client] = []
        try:
            async with two_server_processes(tmp_path, postgres_url, redis_url) as (first, second):
                host = await create(first.url, "Host", players=3)
                code = host.table or ""
                guests = [await join(second.url, code, name) for name in ("Ayse", "Kemal")]
                clients = [host, *guests]
                reply = await host.send("start")
                assert reply["ok"], reply
                await settle(clients, reply["version"])
                version = host.state["version"]
                first.kill()
                spectator = await Client(second.url).connect()
                clients.append(spectator)
                for _ in range(40):  # refused (not_stored) until the dead owner's lease runs out
                    reply = await spectator.call("watch_table", {"table": code})
                    if reply["ok"]:
                        break
                    assert reply["error"]["code"] == "not_stored", reply
                assert reply["ok"], reply
                for guest in guests:
                    state = await guest.wait_for(lambda s: s["version"] > version and s["resync"], 10)
                    assert state["game"]["hand"], "the seat's own hand again"
                await spectator.wait_for(
                    lambda s: [seat["connected"] for seat in s["table"]["seats"]] == [False, True, True]
                )
        finally:
            await close_all(clients)

    run(scenario)


def test_a_table_listed_at_one_process_shows_on_the_landing_pages_of_another(
    tmp_path: Path, redis_url: str
) -> None:
    """The open tables are read from the database: a page connected to another process sees a table
    listed, joined and filled there (at that process's next look, every few seconds)."""

    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with (
            running_server(database, redis=redis_url) as (_first, first_url),
            running_server(database, redis=redis_url) as (_second, second_url),
        ):
            looking = await Client(second_url).connect()
            assert (await looking.call("open_tables", {"watch": True}))["tables"] == []
            host = await create(first_url, "Hosta", players=3)
            assert (await host.send("list_table", listed=True))["ok"]

            async def shown(free: int | None) -> None:
                while True:
                    pushes = looking.got("open_tables")
                    tables = pushes[-1]["tables"] if pushes else []
                    if [entry["free"] for entry in tables] == ([] if free is None else [free]):
                        return
                    await looking.wait_for_message("open_tables", len(pushes) + 1, timeout=30)

            await shown(2)
            guest = await join(second_url, host.table or "", "Guest")
            await shown(1)
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            await shown(None)  # full: off the list
            for client in (looking, host, guest):
                await client.close()

    run(scenario)


async def until(condition: Any, what: str, timeout: float = 10.0) -> None:
    """Wait until ``condition()`` holds (checked every few milliseconds), or fail saying ``what``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.02)


def test_a_process_forgets_the_owner_of_a_table_none_of_its_sockets_follow(
    tmp_path: Path, redis_url: str
) -> None:
    """The second process remembers who owns a table its sockets follow at the first, and forgets
    it once none does: the socket watches a table of its own process, or closes."""

    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with two_servers(database, redis_url) as ((first, first_url), (second, second_url)):
            hosts = [await create(first_url, name, players=3) for name in ("Host", "Hosta")]
            codes = [host.table or "" for host in hosts]
            guest = await join(second_url, codes[0], "Ayse")
            guest_sid = guest.sio.get_sid()
            watcher = await Client(second_url).connect()
            assert (await watcher.call("watch_table", {"table": codes[1]}))["ok"]
            assert second.sharing.told_owner == dict.fromkeys(codes, first.cluster.process)

            own = await create(second_url, "Local", players=3)
            assert (await watcher.call("watch_table", {"table": own.table}))["ok"]
            await second.sharing.look_around()
            assert codes[1] not in second.sharing.told_owner, "the unwatched table's owner is kept"
            assert codes[0] in second.sharing.told_owner, "a table still followed lost its owner"
            await guest.close()
            await until(lambda: guest_sid not in second.live.connections, "the closed socket is kept")
            await second.sharing.look_around()
            assert second.sharing.told_owner == {}, "a closed socket's table's owner is kept"
            for client in (*hosts, watcher, own):
                await client.close()

    run(scenario)


def test_a_profile_deleted_at_one_process_leaves_the_seats_of_every_process(
    tmp_path: Path, redis_url: str
) -> None:
    """Ann hosts a table owned by the first process and deletes her profile through the second: the
    owner's seat drops it at once (its people see so), and the owner's next save of the seats does
    not write it back."""

    async def scenario() -> None:
        database = f"sqlite:///{tmp_path / 'shared.db'}"
        async with two_servers(database, redis_url) as ((first, first_url), (_second, second_url)):
            status, ann = await http_json("POST", f"{second_url}/api/players", {"name": "Ann"})
            assert status == 201, ann
            host = await Client(first_url).connect()
            proof = {"player": ann["player"], "secret": ann["secret"]}
            table = {"name": "Ann", "preset": "house", "players": 3, "teams": False, "profile": proof}
            reply = await host.call("create_table", table)
            assert reply["ok"], reply
            host.table, host.token, code = reply["table"], reply["token"], reply["table"]
            await host.wait_for(lambda s: s["table"]["seats"][0]["player"] == ann["player"])
            assert all(state["table"]["seats"][0]["player"] == ann["player"] for state in host.states)

            status, _ = await http_json(
                "DELETE", f"{second_url}/api/players/{ann['player']}", secret=ann["secret"]
            )
            assert status == 200
            await host.wait_for(lambda s: s["table"]["seats"][0]["player"] is None)
            assert first.live.tables[code].seats[0].profile is None
            assert (await host.send("set_bot", seat=1, bot=True))["ok"]  # the owner saves the seats
            stored = first.storage.table(code)
            assert stored is not None and stored.seats[0].profile is None
            await host.close()

    run(scenario)
