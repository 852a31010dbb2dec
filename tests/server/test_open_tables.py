"""Open tables: a host lists its lobby, anyone watching the list sees it come, change and go (full,
started, taken off), never a token; listing is paced per address and survives a restart."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, Session, session, stopped_pace  # noqa: F401  (a fixture, used by every test here)
from tablechecks import nothing_changes, refused
from test_players import host_with_profile, new_profile

from smear.server.limits import Limits
from smear.server.players.names import profile_mark
from smear.server.social.listing import OPEN_TABLES_SHOWN
from smear.server.storage.database import Storage
from smear.server.storage.rows import SeatRow
from smear.server.tables.table import TableSettings

LIMITS = Limits(tables_per_hour=0, connections_per_address=0)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def watcher(s: Session) -> tuple[Client, list[dict[str, Any]]]:
    client = await s.connect()
    reply = await client.call("open_tables", {"watch": True})
    assert reply["ok"], reply
    return client, reply["tables"]


async def shown(
    client: Client, codes: list[str | None], free: int | None = None, timeout: float = 10.0
) -> list[dict[str, Any]]:
    """The list of the latest ``open_tables`` push, once it shows the tables ``codes`` in order (and
    the first with ``free`` seats free); changes close together may come in one push."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        pushes = client.got("open_tables")
        if pushes:
            tables: list[dict[str, Any]] = pushes[-1]["tables"]
            if [entry["table"] for entry in tables] == codes and (free is None or tables[0]["free"] == free):
                return tables
        remaining = deadline - asyncio.get_running_loop().time()
        await client.wait_for_message("open_tables", len(pushes) + 1, remaining)


def test_a_listed_table_is_shown_until_it_is_full_started_or_taken_off_the_list(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", FAST, LIMITS) as s:
            looking, tables = await watcher(s)
            assert tables == []
            host = await s.create("Hosta", players=3, teams=False, target=31)
            code = host.table
            assert code is not None
            private = await s.create("Private", players=4, teams=False)  # never listed

            refused(
                await looking.call("list_table", {"table": code, "token": private.token, "listed": True}),
                "bad_token",
            )
            reply = await host.send("list_table", listed=True)
            assert reply["ok"], reply
            state = await host.wait_for(lambda st: st["version"] == reply["version"])
            assert state["table"]["listed"] is True
            assert state["event"] == {"kind": "listed", "listed": True}
            (entry,) = await shown(looking, [code])
            assert entry == {
                "table": code,
                "settings": host.state["table"]["settings"],
                "seats": 3,
                "free": 2,
                "bots": 0,
                "host": "Hosta",
                "host_mark": None,
            }
            assert entry["settings"]["target"] == 31

            guest = await s.join(code, "Guest")
            await shown(looking, [code], free=1)
            refused(await guest.send("list_table", listed=False), "not_host")
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            await shown(looking, [])  # full: nothing to join
            assert (await host.send("set_bot", seat=2, bot=False))["ok"]
            await shown(looking, [code])
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            await shown(looking, [])
            assert (await host.send("start"))["ok"]
            await host.wait_for(lambda st: st["table"]["status"] == "playing")
            assert host.state["table"]["listed"] is False
            refused(await host.send("list_table", listed=True), "not_in_lobby")
            reply = await looking.call("open_tables", {"watch": False})
            assert reply["tables"] == []

            # Another listed lobby, taken off the list by its host.
            other = await s.create("Otto", players=4, teams=False)
            assert (await other.send("list_table", listed=True))["ok"]
            looking_again, tables = await watcher(s)
            assert [e["table"] for e in tables] == [other.table]
            assert (await other.send("list_table", listed=False))["ok"]
            await shown(looking_again, [])

            # No push or answer ever carried a seat's token.
            seen = json.dumps([looking.received, looking_again.received])
            for client in (host, guest, private, other):
                assert client.token is not None and client.token not in seen

    run(scenario)


def test_listing_is_paced_per_address_and_a_refusal_changes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", FAST, LIMITS) as s:
            first = await s.create("One", players=4, teams=False)
            second = await s.create("Two", players=4, teams=False)
            for listed in (True, False, True):
                assert (await first.send("list_table", listed=listed))["ok"]
            for listed in (True, False):
                assert (await second.send("list_table", listed=listed))["ok"]
            # Five changes from this address, however many tables: the sixth waits.
            assert second.table is not None
            async with nothing_changes(s.server, second.table, [first, second]):
                refused(await second.send("list_table", listed=True), "rate_limited")
            # Asking for what is already so changes nothing and costs nothing.
            assert (await first.send("list_table", listed=True))["ok"]

    run(scenario)


def test_a_listed_table_is_still_listed_after_a_restart(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = tmp_path / "smear.db"
        async with session(database, FAST, LIMITS) as s:
            host = await s.create("Hosta", players=4, teams=False)
            assert (await host.send("list_table", listed=True))["ok"]
            code = host.table
        async with session(database, FAST, LIMITS) as s:
            _looking, tables = await watcher(s)
            assert [entry["table"] for entry in tables] == [code]
            assert s.server.live.tables[code or ""].listed

    run(scenario)


def test_open_tables_listed_before_full_ones_are_still_shown(tmp_path: Path) -> None:
    """Sixty open lobbies listed first, then sixty full ones: the landing page shows open ones (the
    most recently listed), not nothing because the newest entries are all full."""
    database = tmp_path / "smear.db"
    storage = Storage(f"sqlite:///{database}")
    settings = TableSettings(preset="house", players=3).to_json()
    for n in range(120):
        code, full = f"table-{n:03d}", n >= 60
        seats = [SeatRow(0, "Host", "hash", False)] + [
            SeatRow(seat, f"Guest {seat}" if full else None, "hash" if full else None, False)
            for seat in (1, 2)
        ]
        storage.create_table(code, settings, 0, seats, float(n))
        storage.listing.set_listed(code, True, float(n))
    storage.close()

    async def scenario() -> None:
        async with session(database, FAST, LIMITS) as s:
            _looking, tables = await watcher(s)
            expected = [f"table-{n:03d}" for n in range(59, 59 - OPEN_TABLES_SHOWN, -1)]
            assert [entry["table"] for entry in tables] == expected
            assert all(entry["free"] == 2 for entry in tables)

    run(scenario)


def test_a_host_named_like_a_bot_level_is_listed_with_the_mark(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=LIMITS) as s:
            looking, _ = await watcher(s)
            expert, lou = await new_profile(s.url, "Expert"), await new_profile(s.url, "Lou")
            codes = []
            for name, who in (("Expert", expert), ("Lou", lou)):
                host = await host_with_profile(s, name, who)
                assert (await host.send("list_table", listed=True))["ok"]
                codes.insert(0, host.table)
            entries = await shown(looking, codes)
            assert [(entry["host"], entry["host_mark"]) for entry in entries] == [
                ("Lou", None),
                ("Expert", profile_mark(expert["player"])),
            ]

    run(scenario)
