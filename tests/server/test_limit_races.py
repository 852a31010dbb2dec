"""Limits hold against requests sent at once: each is counted before the request awaits anything
(storage, here slowed down so that every request is in before the first is stored), and given back
when what it counted could not be made."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import fire_concurrently, http_request, session, sockets, stopped_pace

from smear.server.limits import Limits
from smear.server.social.talk import TALK_PACE
from smear.server.storage.database import StorageError

__all__ = ["stopped_pace"]  # the pace stands still: an allowance spent stays spent

TABLE = {"name": "Ayse", "preset": "house", "players": 4, "teams": False}
ATTEMPTS = 10


def run(scenario: Any) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 120))


def slowed(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call``, after a short pause on the storage thread: every request fired at once is in
    before the first is stored."""

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.05)
        return call(*args, **kwargs)

    return slow


def failing_once(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call``, refused by the database the first time."""
    calls = 0

    def once(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise StorageError("the disk is full")
        return call(*args, **kwargs)

    return once


def codes(replies: list[dict[str, Any]]) -> list[str]:
    """Each reply's error code, or "ok"."""
    return sorted("ok" if reply["ok"] else reply["error"]["code"] for reply in replies)


async def create_at_once(url: str) -> list[dict[str, Any]]:
    """Ten tables asked for at once, each over a socket of its own (all from one address)."""
    clients = await sockets(url, ATTEMPTS)
    try:
        return await fire_concurrently(ATTEMPTS, lambda i: clients[i].call("create_table", TABLE))
    finally:
        for client in clients:
            await client.close()


@pytest.mark.parametrize(
    ("limits", "refusal"),
    [
        (Limits(tables_per_hour=3, max_tables=0), "too_many_tables"),  # the hourly limit of the address
        (Limits(tables_per_hour=0, max_tables=3), "server_full"),  # the server's limit
    ],
)
def test_tables_asked_for_at_once_stop_at_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limits: Limits, refusal: str
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=limits) as s:
            monkeypatch.setattr(s.server.storage, "create_table", slowed(s.server.storage.create_table))
            replies = await create_at_once(s.url)
            assert codes(replies) == ["ok"] * 3 + [refusal] * 7, replies
            assert len(s.server.live.tables) == 3

    run(scenario)


def test_a_table_that_could_not_be_stored_gives_its_place_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=Limits(tables_per_hour=2, max_tables=2)) as s:
            monkeypatch.setattr(s.server.storage, "create_table", failing_once(s.server.storage.create_table))
            client = await s.connect()
            replies = [await client.call("create_table", TABLE) for _ in range(4)]
            assert codes(replies[:1]) == ["not_stored"], replies
            assert codes(replies[1:3]) == ["ok", "ok"], replies
            assert codes(replies[3:]) == ["too_many_tables"], replies
            assert s.server.requests.table_quota.pending == 0

    run(scenario)


def test_spectators_arriving_at_once_stop_at_the_tables_limit(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=Limits(spectators_per_table=3)) as s:
            host = await s.create()
            watchers = await sockets(s.url, ATTEMPTS)
            try:
                replies = await fire_concurrently(
                    ATTEMPTS, lambda i: watchers[i].call("watch_table", {"table": host.table})
                )
            finally:
                for watcher in watchers:
                    await watcher.close()
            assert codes(replies) == ["ok"] * 3 + ["too_many_spectators"] * 7, replies

    run(scenario)


def test_profiles_asked_for_at_once_stop_at_the_pace_of_their_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    burst = ATTEMPTS // 2

    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=Limits(profile_burst=burst)) as s:
            storage = s.server.storage
            monkeypatch.setattr(
                storage.players, "create_profile", failing_once(slowed(storage.players.create_profile))
            )
            # Not stored: the allowance it took is given back.
            status, answer = await http_request("POST", f"{s.url}/api/players", {"name": "Ann"})
            assert (status, answer["error"]["code"]) == (503, "not_stored")
            answers = await fire_concurrently(
                ATTEMPTS, lambda i: http_request("POST", f"{s.url}/api/players", {"name": f"Ann {i}"})
            )
            statuses = sorted(status for status, _ in answers)
            assert statuses == [201] * burst + [429] * (ATTEMPTS - burst), answers
            refused = {answer["error"]["code"] for status, answer in answers if status == 429}
            assert refused == {"rate_limited"}

    run(scenario)


def test_a_chat_line_that_could_not_be_stored_costs_no_allowance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    burst = int(TALK_PACE["chat"][1])

    async def scenario() -> None:
        async with session(tmp_path / "smear.db") as s:
            storage = s.server.storage
            monkeypatch.setattr(storage.chat, "add_chat_line", failing_once(storage.chat.add_chat_line))
            host = await s.create()
            reply = await host.send("chat", text="hello?")
            assert reply["error"]["code"] == "not_stored", reply
            replies = [await host.send("chat", text=f"line {n}") for n in range(burst + 1)]
            assert codes(replies) == ["ok"] * burst + ["rate_limited"], replies

    run(scenario)
