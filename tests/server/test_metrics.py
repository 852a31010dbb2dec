"""The metrics part (:mod:`smear.server.metrics`): off it records nothing, on it counts what a
served table does, and worker processes' numbers are summed by the parent."""

from __future__ import annotations

import asyncio
import multiprocessing
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry
from serverkit import FAST, Client, create, join
from support.inprocess import served
from test_cluster import play_one, settle, stored_actions
from test_restart import close_all

from smear.server.app import build_server
from smear.server.metrics import (
    Metrics,
    aggregated_registry,
    parse_address,
    share_between_processes,
    worker_gone,
)


async def stale_act(clients: list[Client]) -> None:
    """The seat to act acts at version 0: refused with ``stale_version``."""
    latest = max((client.state for client in clients), key=lambda state: state["version"])
    actor = next(client for client in clients if client.seat_now == latest["game"]["public"]["to_act"])
    reply = await actor.send("act", version=0, action="pass")
    assert reply["error"]["code"] == "stale_version", reply


def value(registry: CollectorRegistry, name: str, **labels: str) -> float:
    found = registry.get_sample_value(name, labels)
    return 0.0 if found is None else found


def test_off_nothing_is_recorded() -> None:
    metrics = Metrics()
    metrics.request("act", None)
    metrics.act_acked(0.01)
    metrics.committed(3, 0.002)
    metrics.sample(5, 7, 1, {"hint": 2})
    registry = metrics.registry
    assert value(registry, "smear_requests_total", event="act", outcome="ok", code="") == 0
    assert value(registry, "smear_act_ack_seconds_count") == 0
    assert value(registry, "smear_commit_actions_sum") == 0
    assert value(registry, "smear_live_tables") == 0


def test_on_each_outcome_has_its_label_and_failures_are_the_server_s() -> None:
    metrics = Metrics(enabled=True)
    metrics.request("act", None)
    metrics.request("act", "stale_version")
    metrics.request("act", "internal_error")
    metrics.request("chat", "not_stored")
    metrics.committed(4, 0.003)
    metrics.committed(1, 0.001)
    metrics.rate_limited("chat")
    metrics.match_finished("house")
    metrics.sample(3, 9, 2, {"hint": 1, "review": 0})
    registry = metrics.registry
    assert value(registry, "smear_requests_total", event="act", outcome="ok", code="") == 1
    assert value(registry, "smear_requests_total", event="act", outcome="refused", code="stale_version") == 1
    assert value(registry, "smear_requests_total", event="act", outcome="failed", code="internal_error") == 1
    assert value(registry, "smear_requests_total", event="chat", outcome="failed", code="not_stored") == 1
    assert value(registry, "smear_commit_actions_count") == 2
    assert value(registry, "smear_commit_actions_sum") == 5
    assert value(registry, "smear_rate_limited_total", limit="chat") == 1
    assert value(registry, "smear_matches_finished_total", preset="house") == 1
    assert value(registry, "smear_live_tables") == 3
    assert value(registry, "smear_sockets") == 9
    assert value(registry, "smear_queue_depth", queue="hint") == 1


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("127.0.0.1:9100", ("127.0.0.1", 9100)),
        ("[::1]:9100", ("::1", 9100)),
        ("localhost:1", ("localhost", 1)),
    ],
)
def test_an_address_is_host_and_port(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address


@pytest.mark.parametrize("text", ["9100", ":9100", "host:", "host:0", "host:70000", "host:x"])
def test_a_wrong_address_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_address(text)


def _worker(tables: int, acts: int) -> None:
    metrics = Metrics(enabled=True)
    for _ in range(acts):
        metrics.request("act", None)
        metrics.act_acked(0.004)
    metrics.sample(tables, 0, 0, {})


def test_the_numbers_of_worker_processes_are_summed_and_a_gone_worker_leaves_the_gauges() -> None:
    context = multiprocessing.get_context("fork")
    with share_between_processes() as directory:
        workers = [context.Process(target=_worker, args=(tables, acts)) for tables, acts in ((2, 3), (5, 4))]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
            assert worker.exitcode == 0
        registry = aggregated_registry(directory)
        assert value(registry, "smear_requests_total", event="act", outcome="ok", code="") == 7
        assert value(registry, "smear_act_ack_seconds_count") == 7
        assert value(registry, "smear_live_tables") == 7
        assert workers[0].pid is not None
        worker_gone(directory, workers[0].pid)
        registry = aggregated_registry(directory)
        assert value(registry, "smear_live_tables") == 5  # the gauge of the workers alive
        assert value(registry, "smear_requests_total", event="act", outcome="ok", code="") == 7
    assert not Path(directory).exists()


def test_a_served_table_counts_its_requests_latency_commits_and_gauges(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'metrics.db'}"

    async def scenario() -> None:
        metrics = Metrics(enabled=True)
        server = build_server(database, FAST, metrics=metrics)
        async with served(server.asgi_app()) as url:
            host = await create(url, "Host", players=3)
            clients = [host, *[await join(url, host.table or "", name) for name in ("Ayse", "Kemal")]]
            start = await host.send("start")
            assert start["ok"], start
            await settle(clients, start["version"])
            for _ in range(3):
                await play_one(clients)
            await stale_act(clients)
            registry = metrics.registry
            assert value(registry, "smear_requests_total", event="act", outcome="ok", code="") == 3
            refused = {"event": "act", "outcome": "refused", "code": "stale_version"}
            assert value(registry, "smear_requests_total", **refused) == 1
            assert value(registry, "smear_requests_total", event="join_table", outcome="ok", code="") == 2
            assert value(registry, "smear_act_ack_seconds_count") == 4
            assert value(registry, "smear_act_last_view_seconds_count") == 3
            # Every action stored went through a commit: the deal and the three acts.
            assert value(registry, "smear_commit_actions_sum") == stored_actions(database)
            assert value(registry, "smear_database_calls_total", kind="write", result="ok") >= 1
            deadline = asyncio.get_running_loop().time() + 10
            while value(registry, "smear_sockets") != 3:  # the gauges are read every second
                assert asyncio.get_running_loop().time() < deadline, "the gauges were never read"
                await asyncio.sleep(0.05)
            assert value(registry, "smear_live_tables") == 1
            await close_all(clients)

    asyncio.run(asyncio.wait_for(scenario(), 60))
