"""What the server tests share: running a scenario, the checks that a refusal changes nothing and
that no card a client may not see reaches it, and the moves of a table of people (whose turn it is)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

from serverkit import FAST, Client, Session

from smear.actionjson import record_action_json
from smear.legal import legal_actions
from smear.server.app import SmearServer
from smear.server.tables.table import Table
from smear.state import Phase

# A grace long enough that the server never plays for a disconnected seat during the test.
PATIENT = dataclasses.replace(FAST, grace=5.0)

CARD = re.compile(r"^(?:[2-9TJQKA][cdhs]|LJ|BJ)$")
TOKEN_OF_NOBODY = "nobody-holds-this-token-0123456789"


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


def play_table(table: Table, before_action: Callable[[int], None] | None = None) -> int:
    """Plays ``table``'s match to its end, each seat its first legal action and each hand dealt when
    the last is shown, with ``before_action(n)`` called before action number ``n``; how many."""
    actions = 0
    while table.status == "playing":
        assert table.state is not None
        if table.state.public.phase is Phase.HAND_OVER:
            table.deal_next_hand()
            continue
        if before_action is not None:
            before_action(actions)
        seat = table.state.public.to_act
        assert seat is not None
        table.apply_action(seat, legal_actions(table.state)[0])
        actions += 1
    return actions


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


def played_cards(public: dict[str, Any]) -> set[str]:
    """The cards face up in this hand: the trick in progress and the finished tricks."""
    return {card for _, card in public["trick"]} | {c for trick in public["tricks"] for c in trick["cards"]}


def play_event(seat: int, action: str, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The event of ``seat`` taking ``action`` (no discard) at a house-like table, from the states
    before and after it: the action, and the trick it won, if any, as the log's one line."""
    event: dict[str, Any] = {"kind": "action", "seat": seat, "action": record_action_json(action)}
    tricks = after["game"]["public"]["tricks"]
    if len(tricks) > len(before["game"]["public"]["tricks"]):
        event["lines"] = [{"kind": "trick", "seat": tricks[-1]["winner"]}]
    return event


def refused(reply: dict[str, Any], code: str) -> dict[str, Any]:
    """The error of a refused request, checked to carry ``code``."""
    assert reply["ok"] is False, reply
    error: dict[str, Any] = reply["error"]
    assert error["code"] == code, error
    assert error["message"], error
    return error


@contextlib.asynccontextmanager
async def nothing_changes(server: SmearServer, code: str, clients: list[Client]) -> AsyncIterator[None]:
    """The requests made inside change nothing: same version, same seats, and no message to anyone."""
    table = server.live.tables[code]
    version, seats, host = table.version, [dataclasses.asdict(s) for s in table.seats], table.host_seat
    received = [len(client.received) for client in clients]
    yield
    await asyncio.sleep(0.05)  # a broadcast would have arrived by now
    assert table.version == version
    assert [dataclasses.asdict(s) for s in table.seats] == seats
    assert table.host_seat == host
    assert [len(client.received) for client in clients] == received


def is_playing(state: dict[str, Any]) -> bool:
    return state["game"] is not None and state["table"]["status"] == "playing"


async def people_table(s: Session, players: int = 4, **settings: Any) -> list[Client]:
    """A started table of people only (nothing moves unless a test acts), listed by seat."""
    host = await s.create("Host", players=players, teams=False, **settings)
    assert host.table is not None
    clients = [host] + [await s.join(host.table, f"Guest {i}") for i in range(1, players)]
    reply = await host.send("start")
    assert reply["ok"], reply
    for client in clients:
        await client.wait_for(lambda st: st["version"] == reply["version"] and is_playing(st))
    return clients


async def next_turn(clients: list[Client], after: int) -> tuple[Client, dict[str, Any]]:
    """The client whose turn it is after version ``after``, with its state at that turn."""
    turn = await clients[0].wait_for(
        lambda st: st["version"] > after and is_playing(st) and st["game"]["public"]["to_act"] is not None
    )
    actor = next(c for c in clients if c.seat_now == turn["game"]["public"]["to_act"])
    view = await actor.wait_for(lambda st: st["version"] == turn["version"])
    return actor, view


async def my_turn(client: Client, after: int) -> dict[str, Any]:
    """The next state after ``after`` in which ``client`` has to act, or the match is over."""
    return await client.wait_for(
        lambda st: (
            st["version"] > after
            and st["game"] is not None
            and (st["table"]["status"] == "finished" or bool(st["game"]["legal"]))
        )
    )
