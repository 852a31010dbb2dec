"""The metrics as an operator reads them: Debian's Prometheus scrapes ``smear serve --workers 2
--metrics HOST:PORT`` and its own HTTP API shows what the test did; ``promtool`` accepts the alert
rules of docs/operations.md (docs/alerts.yml)."""

from __future__ import annotations

import asyncio
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

from serverkit import ServerProcess, create, free_port, join
from support.prometheus import Prometheus
from test_cluster import play_one, settle, stored_actions
from test_metrics import stale_act
from test_restart import close_all

ALERTS = Path(__file__).resolve().parents[2] / "docs" / "alerts.yml"
ACTS = 4


def test_promtool_accepts_the_documented_alert_rules() -> None:
    result = subprocess.run(
        ["promtool", "check", "rules", str(ALERTS)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout


def _public_metrics(url: str) -> str:
    try:
        with urllib.request.urlopen(f"{url}/metrics", timeout=10) as response:
            return str(response.read().decode(errors="replace"))
    except urllib.error.HTTPError as err:
        return str(err.code)


def test_prometheus_reads_what_two_workers_did(tmp_path: Path, redis_url: str) -> None:
    database = f"sqlite:///{tmp_path / 'shared.db'}"
    metrics_at = f"127.0.0.1:{free_port()}"
    options = ("--workers", "2", "--redis", redis_url, "--metrics", metrics_at)
    server = ServerProcess(free_port(), database, tmp_path / "serve.log", *options)
    try:
        server.wait_until_healthy()
        assert "smear_requests" not in _public_metrics(server.url)  # never on the public port
        with Prometheus(metrics_at, rules=ALERTS) as prometheus:
            prometheus.wait_for('up{job="smear"}', 1)
            rules = prometheus.api("rules")["groups"]
            assert sum(len(group["rules"]) for group in rules) >= 9
            asyncio.run(asyncio.wait_for(_play_and_read(server.url, database, prometheus), 180))
    finally:
        server.kill()
    assert "Traceback" not in server.log(), server.log()


async def _play_and_read(url: str, database: str, prometheus: Prometheus) -> None:
    host = await create(url, "Host", players=3)
    clients = [host, *[await join(url, host.table or "", name) for name in ("Ayse", "Kemal")]]
    start = await host.send("start")
    assert start["ok"], start
    await settle(clients, start["version"])
    for _ in range(ACTS):
        await play_one(clients)
    await stale_act(clients)

    async def expect(expression: str, value: float) -> None:
        await asyncio.to_thread(prometheus.wait_for, expression, value)

    # Whichever worker each socket reached, the numbers are the two workers' sum.
    await expect('sum(smear_requests_total{event="act",outcome="ok"})', ACTS)
    await expect('sum(smear_requests_total{event="act",outcome="refused",code="stale_version"})', 1)
    await expect('sum(smear_requests_total{event="join_table",outcome="ok"})', 2)
    await expect('sum(smear_requests_total{event="create_table",outcome="ok"})', 1)
    await expect("sum(smear_act_ack_seconds_count)", ACTS + 1)
    await expect('sum(smear_act_ack_seconds_bucket{le="+Inf"})', ACTS + 1)
    await expect("sum(smear_act_last_view_seconds_count)", ACTS)
    await expect("sum(smear_live_tables)", 1)
    await expect("sum(smear_sockets)", 3)
    # Every action stored (the deal's and the acts) went through a group commit, and none other.
    await expect("sum(smear_commit_actions_sum)", await asyncio.to_thread(stored_actions, database))
    quantile = await asyncio.to_thread(
        prometheus.value, "histogram_quantile(0.5, sum by (le) (smear_act_ack_seconds_bucket))"
    )
    assert quantile is not None and 0 < quantile <= 10
    await close_all(clients)
    await expect("sum(smear_sockets)", 0)
