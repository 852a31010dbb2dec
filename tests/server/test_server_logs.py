"""The server's own log, read as an operator reads it from a real ``smear serve``: JSON lines
(``--log-format json``) with the fields docs/operations.md lists and no card, token, profile secret
or chat text; text lines with time, level and process; and a Redis restart told in one line when it
begins and one when it ends, by each process, never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from leakkit.audit import cards_in_text
from serverkit import Client, create, free_port, http_json, play_out, server_process
from support.dbservers import Postgres, Redis
from support.serverproc import serve_command, stop_server

from smear.server.faultlog import FaultLog

# Every JSON line has these; the events below add their own (docs/operations.md, "Logs").
EVERY_LINE = {"time", "level", "pid", "logger", "event", "message"}
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
FAST = ("--bot-pause", "0", "--hand-pause", "0")
CHAT_TEXT = "meet me behind the barn at noon"


def json_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of the log, each decoded (a line that is not a JSON object fails the test)."""
    lines = []
    for line in path.read_text().splitlines():
        decoded = json.loads(line)
        assert isinstance(decoded, dict), line
        lines.append(decoded)
    return lines


def wait_for_lines(
    path: Path, found: Callable[[list[dict[str, Any]]], bool], timeout: float = 60.0
) -> list[dict[str, Any]]:
    """The log's lines once ``found`` holds of them (fails after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while True:
        lines = json_lines(path)
        if found(lines):
            return lines
        assert time.monotonic() < deadline, f"not found in the log:\n{path.read_text()[-3000:]}"
        time.sleep(0.05)


def of(lines: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [line for line in lines if line["event"] == event]


async def play_a_match(url: str) -> tuple[list[str], str]:
    """A match with a profile, a chat line and a refused request; the secrets and tokens used."""
    status, profile = await http_json("POST", f"{url}/api/players", {"name": "Ann"})
    assert status == 201, profile
    proof = {"player": profile["player"], "secret": profile["secret"]}
    host = await create(url, "Ann", players=3, target=11, profile=proof)
    assert host.token is not None and host.table is not None
    for seat in (1, 2):
        assert (await host.send("set_bot", seat=seat, bot=True))["ok"]
    assert (await host.send("chat", text=CHAT_TEXT))["ok"]
    refused = await host.send("act", version=0, action="pass")  # before the match starts
    assert not refused["ok"], refused
    assert (await host.send("start"))["ok"]
    await play_out([host])
    await host.close()
    return [host.token, profile["secret"]], host.table


def test_the_json_log_of_a_match_and_a_refusal_has_its_fields_and_nothing_hidden(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"

    async def scenario() -> tuple[list[str], str]:
        async with server_process(
            free_port(), tmp_path / "smear.db", log, "--log-format", "json", *FAST
        ) as server:
            secrets, table = await play_a_match(server.url)
            stop_server(server.process)
            return secrets, table

    secrets, table = asyncio.run(scenario())
    lines = json_lines(log)
    for line in lines:
        assert line.keys() >= EVERY_LINE, line
        assert TIME.match(line["time"]) and line["level"] in {"DEBUG", "INFO", "WARNING", "ERROR"}, line
        assert isinstance(line["pid"], int), line
    events = {line["event"] for line in lines}
    assert {
        "server_ready",
        "tables_restored",
        "match_finished",
        "request_refused",
        "server_stopping",
    } <= events
    [finished] = of(lines, "match_finished")
    assert finished["table"] == table and finished["match"] == 1 and finished["preset"] == "house"
    assert finished["record_stored"] is True
    [refusal] = of(lines, "request_refused")
    assert refusal["request"] == "act" and refusal["table"] == table and refusal["code"]
    text = log.read_text()
    for secret in secrets:
        assert secret not in text
    assert CHAT_TEXT not in text and "barn" not in text
    assert not cards_in_text(text), cards_in_text(text)
    assert "Traceback" not in text


def test_the_text_log_has_time_level_process_and_event(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"

    async def scenario() -> None:
        async with server_process(free_port(), tmp_path / "smear.db", log) as server:
            client = await Client(server.url).connect()
            assert not (await client.call("join_table", {"table": "nope", "name": "Bo"}))["ok"]
            await client.close()
            stop_server(server.process)

    asyncio.run(scenario())
    lines = log.read_text().splitlines()
    shape = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARNING|ERROR) \d+ \S+ (\S+): ")
    found = [shape.match(line) for line in lines]
    assert all(found), lines
    assert {"server_ready", "request_refused", "server_stopping"} <= {m.group(2) for m in found if m}


def test_a_port_already_taken_is_an_error_and_the_server_never_says_it_is_ready(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        command = serve_command(port, f"sqlite:///{tmp_path / 'smear.db'}", ["--log-format", "json"])
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2, run
    assert f"the server cannot listen at 127.0.0.1:{port}: Address already in use\n" in run.stderr
    assert run.stderr.count(str(port)) == 1, "the address is named once"
    assert "server_ready" not in run.stdout + run.stderr and "Traceback" not in run.stderr


def test_a_redis_restart_is_one_line_when_it_begins_and_one_when_it_ends(
    tmp_path: Path, redis_server: Redis
) -> None:
    """Two workers; Redis stops until each has said so, then comes back: each worker writes the
    fault's first line and its end with the failures counted, and no traceback."""
    redis_server.flush()
    log = tmp_path / "serve.log"
    options = ("--log-format", "json", "--workers", "2", "--redis", redis_server.url(), "--lease", "1")

    async def scenario() -> list[dict[str, Any]]:
        async with server_process(free_port(), tmp_path / "smear.db", log, *options) as server:
            wait_for_lines(log, lambda lines: len(of(lines, "cluster_joined")) == 2)
            redis_server.halt()
            try:
                began = wait_for_lines(
                    log, lambda lines: {line.get("worker") for line in faults(lines)} == {0, 1}
                )
            finally:
                redis_server.resume()
            lines = wait_for_lines(log, lambda lines: len(of(lines, "fault_ended")) == 2)
            assert len(faults(began)) >= 2
            stop_server(server.process)
            return lines

    lines = asyncio.run(scenario())
    for worker in (0, 1):
        mine = [line for line in lines if line.get("worker") == worker and line.get("fault") == "redis"]
        began, ended = mine[0], mine[-1]
        assert len(mine) == 2, mine  # one when it began, one when it ended: the rest counted
        assert began["error"] == "ConnectionError" and began["event"] in (
            "channel_failed",
            "redis_unreachable",
        )
        assert ended["event"] == "fault_ended" and ended["failures"] >= 1 and ended["seconds"] >= 0
        assert sum(ended["by_event"].values()) == ended["failures"]
    assert "Traceback" not in log.read_text()


def faults(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in lines if line.get("fault") == "redis" and line["event"] != "fault_ended"]


def test_a_fault_is_a_line_when_it_begins_a_count_every_minute_and_a_line_when_it_ends() -> None:
    now = [100.0]
    logger = logging.getLogger("test_server_logs.faults")
    logger.propagate = False
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    logger.addHandler(handler)
    faults = FaultLog(logger, clock=lambda: now[0], every=60.0)
    try:
        for _ in range(3):
            faults.failed(
                "database",
                "change_not_stored",
                OSError("4c in hand"),
                "table %s: not stored",
                "T1",
                table="T1",
            )
        faults.failed("database", "chat_not_stored", OSError("said: hello"), "a chat line was not stored")
        assert [r.event for r in records] == ["change_not_stored"]
        assert records[0].getMessage() == "table T1: not stored (OSError)"
        now[0] += 61
        faults.failed("database", "change_not_stored", OSError("x"), "table %s: not stored", "T2", table="T2")
        assert records[-1].event == "fault_continues" and records[-1].failures == 5
        faults.worked("redis")  # another fault, which was not failing: nothing to say
        faults.worked("database")
        faults.worked("database")
    finally:
        logger.removeHandler(handler)
    ended = records[-1]
    assert len(records) == 3 and ended.event == "fault_ended"
    assert ended.by_event == {"change_not_stored": 4, "chat_not_stored": 1}
    assert ended.failures == 5 and ended.seconds == 61.0
    assert not any("4c" in r.getMessage() or "hello" in r.getMessage() for r in records)


def test_a_database_restart_is_one_line_when_it_begins_and_one_when_it_ends(
    tmp_path: Path, postgres: Postgres
) -> None:
    """PostgreSQL stops under a server: the chat lines sent meanwhile are refused ``not_stored``,
    the log says so once with the first failure's event, and once the database is back the first
    success writes ``fault_ended`` with the failures counted. No traceback, no chat text."""
    log = tmp_path / "serve.log"

    async def scenario() -> list[dict[str, Any]]:
        async with server_process(
            free_port(), postgres.new_database(), log, "--log-format", "json", *FAST
        ) as server:
            host = await create(server.url, "Ann", players=3)
            postgres.halt()
            try:
                for _ in range(2):
                    refused = await host.send("chat", text=CHAT_TEXT)
                    assert refused["error"]["code"] == "not_stored", refused
            finally:
                postgres.resume()
            deadline = time.monotonic() + 30
            while not (await host.send("chat", text=CHAT_TEXT))["ok"]:  # a stale connection may fail once
                assert time.monotonic() < deadline
            lines = wait_for_lines(log, lambda lines: bool(of(lines, "fault_ended")))
            await host.close()
            stop_server(server.process)
            return lines

    lines = asyncio.run(scenario())
    faulted = [line for line in lines if line.get("fault") == "database"]
    assert [line["event"] for line in faulted] == ["chat_not_stored", "fault_ended"], faulted
    assert faulted[0]["table"] and faulted[0]["error"]
    assert faulted[1]["by_event"].get("chat_not_stored", 0) >= 2
    text = log.read_text()
    assert "Traceback" not in text and CHAT_TEXT not in text


# An event name as the server's code gives it: in extra=, set on a record, or to the throttle and
# the fault log (their second argument; the throttle's line() takes a level first).
EVENT_IN_CODE = re.compile(
    r"""["']event["']: ["']([a-z_]+)["']|record\.event = ["']([a-z_]+)["']"""
    r"""|\.(?:warn|failed)\(\s*["'][a-z]+["'],\s*["']([a-z_]+)["']"""
    r"""|\.line\(\s*logging\.[A-Z]+,\s*[^,]+,\s*["']([a-z_]+)["']"""
)


def test_every_event_the_server_logs_is_named_in_the_operations_page() -> None:
    source = Path(__file__).resolve().parents[2] / "src" / "smear"
    events = {
        name
        for path in source.rglob("*.py")
        for found in EVENT_IN_CODE.findall(path.read_text())
        for name in found
        if name
    }
    assert {"match_finished", "request_refused", "change_not_stored", "fault_ended"} <= events
    page = (source.parents[1] / "docs" / "operations.md").read_text()
    assert [event for event in sorted(events) if f"`{event}`" not in page] == []
