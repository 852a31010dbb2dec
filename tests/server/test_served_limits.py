"""The limits, reactions, code shapes and chat permissions a client is given (``GET /api/presets`` and
the table's ``chat.refused``) are the ones a real server enforces: each served value is tried on a
server, at the value (taken) and one past it (refused with the coded error a client shows)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serverkit import FAST, Client, Session, get_json, http_json, session, stopped_pace  # noqa: F401  (a fixture)
from tablechecks import people_table, refused

from smear.server.limits import Limits

LIMITS = Limits(tables_per_hour=0, connections_per_address=0, record_bytes=50_000)
# Nothing moves unless a test acts.
SLOW_DEAL = dataclasses.replace(FAST, grace=30.0, hand_pause=60.0)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


async def served(s: Session) -> dict[str, Any]:
    status, facts = await get_json(f"{s.url}/api/presets")
    assert status == 200
    answer: dict[str, Any] = facts
    return answer


def fits(shape: dict[str, Any], text: str) -> bool:
    """Whether ``text`` has a served shape, read the way the client reads it."""
    return bool(re.search(shape["pattern"], text)) and shape["min_length"] <= len(text) <= shape["max_length"]


def problem(reply: dict[str, Any]) -> str:
    return str(refused(reply, "invalid_message")["args"]["problem_code"])


def test_the_served_name_and_chat_lengths_are_where_a_server_refuses(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            limits = (await served(s))["limits"]
            most = limits["name_length"]
            # Counted in code points of the NFC form once trimmed: an accent typed apart is one, and
            # an emoji (two UTF-16 units) is one.
            host = await s.create(" " + "e\u0301" * most + " ", players=4, teams=False)
            assert host.state["table"]["seats"][0]["name"] == "\u00e9" * most
            assert host.table is not None
            guest = await s.join(host.table, "\U0001f600" * most)
            assert guest.state["table"]["seats"][1]["name"] == "\U0001f600" * most
            late = Client(s.url)
            await late.connect()
            s.clients.append(late)
            reply = await late.send("join_table", table=host.table, name="x" * (most + 1))
            assert problem(reply) == "name_too_long"

            longest = limits["chat_length"]
            assert (await host.send("chat", text="\U0001f600" * longest))["ok"]
            assert problem(await host.send("chat", text="y" * (longest + 1))) == "line_too_long"

    run(scenario)


def test_the_served_reactions_are_taken_and_no_other(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            reactions = (await served(s))["reactions"]
            clients = await people_table(s)
            assert reactions
            for client, reaction in zip(clients * len(reactions), reactions, strict=False):
                reply = await client.send("react", reaction=reaction)
                assert reply["ok"], (reaction, reply)
            refused(await clients[-1].send("react", reaction="applause"), "invalid_message")

    run(scenario)


def test_the_served_shapes_fit_every_code_the_server_makes_and_refuse_the_rest(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            shapes = (await served(s))["shapes"]
            host = await s.create("Ann", players=4)
            assert host.table is not None and fits(shapes["table_code"], host.table)
            short = host.table[: shapes["table_code"]["min_length"] - 1]
            assert not fits(shapes["table_code"], short)
            watcher = Client(s.url)
            await watcher.connect()
            s.clients.append(watcher)
            refused(await watcher.call("watch_table", {"table": short}), "invalid_message")

            status, ann = await http_json("POST", f"{s.url}/api/players", {"name": "Ann"})
            assert status == 201 and fits(shapes["player_id"], ann["player"])
            status, answer = await get_json(
                f"{s.url}/api/players/{'a' * (shapes['player_id']['max_length'] + 1)}"
            )
            assert (status, answer["error"]["code"]) == (404, "no_such_player")

            transfer = shapes["transfer_code"]
            url = f"{s.url}/api/players/{ann['player']}/transfer"
            status, made = await http_json("POST", url, secret=ann["secret"])
            assert status == 200
            groups = made["code"].split("-")
            assert all(len(group) == transfer["group"] for group in groups)
            letters = "".join(groups)
            assert len(letters) == transfer["length"] and set(letters) <= set(transfer["alphabet"])
            # Typed in lower case without the dash, as the client passes it on when it has no shape.
            status, claimed = await http_json("POST", f"{s.url}/api/transfer", {"code": letters.lower()})
            assert status == 200 and claimed["player"] == ann["player"]

    run(scenario)


def test_the_served_record_limit_is_this_servers_and_a_record_past_it_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            facts = await served(s)
            most = facts["limits"]["record_bytes"]
            assert most == LIMITS.record_bytes
            status, answer = await http_json("POST", f"{s.url}/api/replay", raw=b" " * (most + 1))
            assert (status, answer["error"]["code"]) == (413, "message_too_large")
            status, answer = await http_json("POST", f"{s.url}/api/replay", raw=b" " * most)
            assert (status, answer["error"]["code"]) == (400, "bad_record")
            assert facts["default_preset"] in [preset["name"] for preset in facts["presets"]]

    run(scenario)


async def refusals_match(s: Session, code: str, clients: list[Client], spectator: Client) -> None:
    """What every follower is shown of who may write is what the server answers each of them."""
    for client in [*clients, spectator]:
        shown = client.state["table"]["chat"]["refused"]
        seat = client.seat_now
        expected = shown["spectator"] if seat is None else shown["seats"][seat]
        extra = {"name": "Pat"} if seat is None else {}
        reply = await client.send("chat", text="hello", **extra)
        if expected is None:
            assert reply["ok"], reply
        else:
            refused(reply, expected)


def test_who_may_chat_is_shown_as_the_server_decides_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", SLOW_DEAL, LIMITS) as s:
            host = await s.create("Host", players=4, teams=False)
            assert host.table is not None
            clients = [host] + [await s.join(host.table, f"Guest {i}") for i in (1, 2)]
            spectator = await s.watch(host.table)
            reply = await host.send("mute", seat=1, muted=True)
            assert reply["ok"], reply
            for client in [*clients, spectator]:
                await client.wait_for(lambda st: st["version"] >= reply["version"])
            refusals = host.state["table"]["chat"]["refused"]
            assert refusals == {"seats": [None, "chat_muted", None, None], "spectator": "spectators_silent"}
            await refusals_match(s, host.table, clients, spectator)

            reply = await host.send("chat_settings", on=False, spectators=True)
            assert reply["ok"], reply
            for client in [*clients, spectator]:
                await client.wait_for(lambda st: st["version"] >= reply["version"])
            assert host.state["table"]["chat"]["refused"]["spectator"] == "chat_off"
            await refusals_match(s, host.table, clients, spectator)

    run(scenario)
