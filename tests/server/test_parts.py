"""The server's parts: composed, not inherited, and each built and used alone with what it takes."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pkgutil
from typing import Any

import pydantic
import pytest
from serverkit import stopped_pace  # noqa: F401  (a fixture: the pace stands still)

import smear.server
from smear.server.limits import Timing
from smear.server.social.talk import TalkPace
from smear.server.storage.database import StorageError
from smear.server.tables.live import Connection, LiveTables
from smear.server.tables.presence import Presence
from smear.server.tables.table import Table, TableError, TableSettings


def project_ancestors(cls: type) -> list[type]:
    return [base for base in cls.__mro__[1:] if base.__module__.startswith("smear.")]


def test_no_class_of_the_server_has_more_than_one_ancestor_of_the_project() -> None:
    crowded = []
    for module_info in pkgutil.walk_packages(smear.server.__path__, "smear.server."):
        module = importlib.import_module(module_info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or issubclass(cls, (BaseException, pydantic.BaseModel)):
                continue  # exceptions and protocol models keep their bases
            name = f"{cls.__module__}.{cls.__qualname__}"
            if len(project_ancestors(cls)) > 1:
                crowded.append(name)
    assert crowded == []


class Outbox:
    """A sender that keeps what it is asked to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any, list[str]]] = []

    async def send(self, event: str, data: Any, sids: list[str]) -> None:
        self.sent.append((event, data, list(sids)))


def test_presence_alone_sends_each_follower_its_own_state() -> None:
    async def scenario() -> None:
        live, outbox = LiveTables(), Outbox()
        presence = Presence(live, Timing(), None, outbox)
        table, _token = Table.create(TableSettings(preset="house", players=4), "Host")
        live.tables[table.code] = table
        live.connections["host"] = Connection("10.0.0.1")
        live.connections["watcher"] = Connection("10.0.0.2")
        presence.follow("host", table, table.seats[0].token_hash)
        presence.follow("watcher", table, None)
        await presence.broadcast(table)
        you = {sids[0]: data["table"]["you"] for event, data, sids in outbox.sent if event == "state"}
        assert you == {"host": 0, "watcher": None}
        assert presence.connected(table, 0) and not presence.connected(table, 1)

    asyncio.run(scenario())


def test_a_pace_alone_refuses_past_its_burst_and_gives_back_what_was_not_stored() -> None:
    pace = TalkPace()
    for _ in range(2):
        pace.paced("reaction", "TABLE", "seat 0")
    with pytest.raises(StorageError), pace.paced_while("reaction", "TABLE", "seat 0"):
        raise StorageError("the line was not stored")
    pace.paced("reaction", "TABLE", "seat 0")  # the third of the burst, given back above
    with pytest.raises(TableError) as refused:
        pace.paced("reaction", "TABLE", "seat 0")
    assert refused.value.code == "rate_limited"
    pace.paced("reaction", "TABLE", "seat 1")  # another seat has its own allowance
