"""The metrics' names and labels: every limit that refuses is counted once under its own name,
whatever door the request came through; no label ever carries a table code, an address, a name or
a made-up event; an action the database did not take is a failed write; and docs/operations.md
lists exactly the metrics the server defines."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client import CollectorRegistry
from serverkit import FAST, Client, create, http_json, join, stopped_pace  # noqa: F401
from support.inprocess import served
from test_cluster import settle

from smear.rules import PRESETS
from smear.server.app import SmearServer, build_server
from smear.server.limits import Limits
from smear.server.metrics import FAILURES, Metrics
from smear.server.wire.errorcodes import ERROR_CODES

OPERATIONS = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
TIGHT = Limits(
    tables_per_hour=0,
    connections_per_address=3,
    profile_burst=1,
    profiles_per_hour=1,
    transfer_burst=2,
    transfer_tries_per_hour=1,
    transfer_code_tries=1,
    transfer_code_tries_per_hour=1,
    report_burst=1,
    reports_per_hour=1,
)


def limited(registry: CollectorRegistry, limit: str) -> float:
    return registry.get_sample_value("smear_rate_limited_total", {"limit": limit}) or 0.0


def samples(registry: CollectorRegistry) -> Iterator[tuple[str, dict[str, str]]]:
    for family in registry.collect():
        for sample in family.samples:
            yield sample.name, sample.labels


async def serving(limits: Limits, scenario: Any, tmp_path: Path) -> None:
    metrics = Metrics(enabled=True)
    server = build_server(f"sqlite:///{tmp_path / 'labels.db'}", FAST, limits, metrics=metrics)
    async with served(server.asgi_app()) as url:
        await scenario(server, url, metrics.registry)


async def three_at_a_table(url: str) -> list[Client]:
    host = await create(url, "Host", players=3)
    assert host.table is not None
    return [host, *[await join(url, host.table, name) for name in ("Rude", "Quiet")]]


async def engine_socket(http: aiohttp.ClientSession, url: str) -> aiohttp.ClientWebSocketResponse:
    """A WebSocket at the Engine.IO level, that never joins the namespace."""
    return await http.ws_connect(url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket")


def test_every_limit_that_refuses_is_counted_once_under_its_name(tmp_path: Path) -> None:
    async def scenario(server: SmearServer, url: str, registry: CollectorRegistry) -> None:
        # New profiles: one at once, then the second is refused.
        assert (await http_json("POST", f"{url}/api/players", {"name": "Ann"}))[0] == 201
        assert (await http_json("POST", f"{url}/api/players", {"name": "Bob"}))[0] == 429
        # Transfer codes: one try per code, two per address (a wrong try spends both).
        assert (await http_json("POST", f"{url}/api/transfer", {"code": "AAAA-BBBB"}))[0] == 404
        assert (await http_json("POST", f"{url}/api/transfer", {"code": "AAAA-BBBB"}))[0] == 429
        assert (await http_json("POST", f"{url}/api/transfer", {"code": "CCCC-DDDD"}))[0] == 404
        assert (await http_json("POST", f"{url}/api/transfer", {"code": "EEEE-FFFF"}))[0] == 429
        clients = await three_at_a_table(url)
        host, rude = clients[0], clients[1]
        # Reports: one from this address, then refused.
        assert (await host.send("report", seat=rude.seat, reason="abusive_chat"))["ok"]
        assert (await host.send("report", seat=rude.seat, reason="abusive_chat"))["error"]["code"] == (
            "rate_limited"
        )
        # Chat lines: five at once (the pace's clock stands still).
        codes = [(await rude.send("chat", text=f"line {n}")).get("error", {}).get("code") for n in range(6)]
        assert codes == [None] * 5 + ["rate_limited"]
        assert limited(registry, "profiles_per_hour") == 1
        assert limited(registry, "transfer_code_tries_per_hour") == 1
        assert limited(registry, "transfer_tries_per_hour") == 1
        assert limited(registry, "reports_per_hour") == 1
        assert limited(registry, "chat") == 1
        # Counted by the pace that refused, not again under the event's name.
        assert limited(registry, "report") == 0
        # Sockets: three an address (the seats'), and one more let in to hear it is refused; past
        # that, the transport refuses the WebSocket before it opens.
        async with aiohttp.ClientSession() as http:
            extra = await engine_socket(http, url)
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await engine_socket(http, url)
            assert limited(registry, "connections") == 1
            await extra.close()
        for client in clients:
            await client.close()

    asyncio.run(asyncio.wait_for(serving(TIGHT, scenario, tmp_path), 60))


def test_no_label_carries_a_table_code_an_address_a_name_or_a_made_up_event(tmp_path: Path) -> None:
    async def scenario(server: SmearServer, url: str, registry: CollectorRegistry) -> None:
        clients = await three_at_a_table(url)
        host = clients[0]
        assert host.table is not None
        table, odd = host.table, f"zz_{host.table}_Rude_127.0.0.1"
        # Made-up events (a table code, a name, an address in them), the server's own handlers'
        # names, payloads of the wrong shape, an unknown table.
        for event in (odd, "connect", "disconnect", "127.0.0.1", table, "Rude", "__init__", "x" * 300):
            assert not (await host.call(event, {"table": table}))["ok"]
        assert not (await host.call("join_table", {"table": "NoSuchTable", "name": "Quiet"}))["ok"]
        assert not (await host.call("act", {"table": table, "version": "Rude"}))["ok"]
        assert not (await host.call("chat", "not an object"))["ok"]
        assert not (await host.send("report", seat=host.seat, reason="other", text="Rude 127.0.0.1"))["ok"]
        start = await host.send("start")
        assert start["ok"], start
        # Every sample's labels come from the bounded sets the server defines.
        events = set(server.sharing.handlers) | {"unknown"}
        bounded = {
            "event": events,
            "outcome": {"ok", "refused", "failed"},
            "code": set(ERROR_CODES) | {""},
            "preset": set(PRESETS),
            "kind": {"read", "write"},
            "result": {"ok", "failed"},
            "queue": {"hint", "review", "replay", "upload"},
            "change": {"taken_over", "lost"},
            "limit": {
                "messages",
                "connections",
                "tables_per_hour",
                "chat",
                "reaction",
                "listing",
                "review",
                "replay",
                "upload",
                "profiles_per_hour",
                "transfer_tries_per_hour",
                "transfer_code_tries_per_hour",
                "reports_per_hour",
                "practice_per_hour",
            },
        }
        seen = set()
        for name, labels in samples(registry):
            for label, value in labels.items():
                if label == "le":  # a histogram's bucket bound
                    continue
                assert value in bounded[label], (name, label, value)
                assert table not in value and "Rude" not in value and "127.0.0.1" not in value
                seen.add((label, value))
        assert ("event", "unknown") in seen and ("code", "unknown_event") in seen
        assert set(ERROR_CODES) >= FAILURES  # the failures are codes the server sends
        for client in clients:
            await client.close()

    asyncio.run(asyncio.wait_for(serving(Limits(tables_per_hour=0), scenario, tmp_path), 60))


def documented_metrics() -> dict[str, str]:
    """The metrics the operations page's table lists: name (as scraped) and type."""
    section = OPERATIONS.read_text().split("### The metrics", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(smear_\w+)(?:\{[^}]*\})?` \| (\w+) \|", section, re.MULTILINE)
    return dict(rows)


def test_the_operations_page_lists_exactly_the_metrics_the_server_defines() -> None:
    defined = {
        family.name + ("_total" if family.type == "counter" else ""): family.type
        for family in Metrics().registry.collect()
    }
    assert documented_metrics() == defined


def test_an_action_the_database_does_not_take_is_a_failed_write(tmp_path: Path) -> None:
    async def scenario(server: SmearServer, url: str, registry: CollectorRegistry) -> None:
        clients = await three_at_a_table(url)
        start = await clients[0].send("start")
        assert start["ok"], start
        await settle(clients, start["version"])
        failed = {"kind": "write", "result": "failed"}
        assert registry.get_sample_value("smear_database_calls_total", failed) is None
        with sqlite3.connect(tmp_path / "labels.db") as database:  # the actions can no longer be stored
            database.execute("ALTER TABLE actions RENAME TO actions_away")
        latest = max((client.state for client in clients), key=lambda state: state["version"])
        actor = next(client for client in clients if client.seat_now == latest["game"]["public"]["to_act"])
        reply = await actor.send("act", version=latest["version"], action="pass")
        assert reply["error"]["code"] == "not_stored", reply
        assert (registry.get_sample_value("smear_database_calls_total", failed) or 0) >= 1
        assert registry.get_sample_value(
            "smear_requests_total", {"event": "act", "outcome": "failed", "code": "not_stored"}
        )
        for client in clients:
            await client.close()

    asyncio.run(asyncio.wait_for(serving(Limits(tables_per_hour=0), scenario, tmp_path), 60))
