"""The server's doors, probed with the packets a stranger would send: reserved event names, malformed
packets and frames, requests without an ack, other origins, floods of connections, tables, spectators
and hints, a database that fails or holds its lock, and the HTTP side's headers and odd paths.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import socketio
from rawsocket import RawSocket
from serverkit import Client, Clock, get_json, running_server, session

from smear.server.limits import Limits
from smear.server.players.hints import HintService
from smear.server.storage.database import StorageError
from smear.server.tables.table import EVENT_HISTORY
from smear.server.wire.guard import ClientFaultsAsWarnings
from smear.views import PlayerView

ROOMY = Limits(tables_per_hour=0, connections_per_address=0, spectators_per_table=0)


def run(scenario: Callable[[], Any]) -> None:
    asyncio.run(scenario())


def server_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith(("smear", "uvicorn", "socketio", "engineio"))]


# --- reserved names and malformed packets --------------------------------------------------------------


def test_fake_connect_and_disconnect_events_neither_reset_the_rate_limit_nor_drop_the_socket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No refill while the burst is sent, however slowly a busy machine sends it: the allowance is
    # exactly 40 requests, and a reset by a fake event would show as more.
    monkeypatch.setattr("smear.server.app.RATE_PER_SECOND", 0.0)

    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", limits=ROOMY) as (server, url):
            raw = await RawSocket.open(url)
            answers = []
            for _ in range(60):
                answers.append(await raw.call("connect", {}))
                answers.append(await raw.call("disconnect", "client namespace disconnect"))
                answers.append(await raw.call("create_table", {"name": "x"}))
            codes = [answer["error"]["code"] for answer in answers]
            # 180 requests: the allowance of 40 runs out and stays out.
            assert codes[:2] == ["unknown_event", "unknown_event"]
            assert "rate_limited" not in codes[:40]
            assert codes[40:] == ["rate_limited"] * 140
            assert len(server.live.connections) == 1  # still the one socket, never replaced or dropped
            await raw.close()

    run(scenario)


def test_an_event_named_star_keeps_nothing_for_the_name_it_carries(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", limits=ROOMY) as (server, url):
            raw = await RawSocket.open(url)
            for index in range(50):
                answer = await raw.call("*", f"someone-{index}-" + "x" * 10_000)
                assert answer["ok"] is False
                assert answer["error"]["code"] in ("unknown_event", "rate_limited")
            assert len(server.live.connections) == 1
            await raw.close()
            while server.live.connections:  # the disconnect is handled soon after the close
                await asyncio.sleep(0.01)
            assert server.addresses.connections == {}

    run(scenario)


MALFORMED_ACKED = [
    ("42{id}[]", "malformed_json"),
    ('42{id}{"a": 1}', "malformed_json"),
    ('42{id}"text"', "malformed_json"),
    ("42{id}[17]", "malformed_json"),
    ('42{id}["watch_table", {}, {}]', "malformed_json"),
    ('42{id}["watch_table"]', "malformed_json"),
]


def test_malformed_packets_are_answered_or_dropped_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", limits=ROOMY) as (_server, url):
            raw = await RawSocket.open(url)
            for template, code in MALFORMED_ACKED:
                ack_id = raw.next_id
                raw.next_id += 1
                await raw.send(template.replace("{id}", str(ack_id)))
                frame = await raw.receive_until(lambda f, a=ack_id: f.startswith(f"43{a}["))
                assert json.loads(frame[len(f"43{ack_id}") :])[0]["error"]["code"] == code, template
            # Frames that are no packet at all, 200 of each, are dropped.
            nested = "[" * 5000 + "]" * 5000
            garbage: list[str | bytes] = ["", "zzz", "9", "4" + nested, "42" + nested, "42[", "4x"]
            garbage += [b"\xff\xfe\x00binary", "451-" + '["act",{"_placeholder":true,"num":0}]', b"attached"]
            # A placeholder with no attachment of that number: the packet is dropped, not left pending.
            garbage += ["451-" + '["act",{"_placeholder":true,"num":7}]', b"attached"]
            for _ in range(200):
                for frame in garbage:
                    await raw.send(frame)
            # The socket still works, and is answered in order.
            answer = await raw.call("watch_table", {"table": "no-such-table-here"})
            assert answer["error"]["code"] in ("no_such_table", "rate_limited")
            await raw.close()

    run(scenario)
    records = server_records(caplog)
    assert not [r for r in records if r.exc_info], [r.getMessage() for r in records if r.exc_info]
    assert "Traceback" not in caplog.text
    warnings = [r for r in records if r.levelno >= logging.WARNING]
    assert len(warnings) <= 6, [r.getMessage() for r in warnings]  # throttled, not one per packet


def test_frames_that_are_not_utf8_give_one_warning_line_per_ten_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [1000.0]
    monkeypatch.setattr("smear.server.wire.guard.time.monotonic", lambda: now[0])
    faults = ClientFaultsAsWarnings()

    def fault() -> logging.LogRecord:
        try:
            b"\xff".decode()
        except UnicodeDecodeError:
            exc_info = sys.exc_info()
        message = "Invalid UTF-8 sequence received from client."
        return logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, message, None, exc_info)

    first = fault()
    assert faults.filter(first) and first.levelno == logging.WARNING and first.exc_info is None
    assert first.getMessage() == "Invalid UTF-8 sequence received from client. (UnicodeDecodeError)"
    now[0] += 9.0
    assert not any(faults.filter(fault()) for _ in range(50))  # within the ten seconds: left out
    now[0] += 1.0
    later = fault()
    assert faults.filter(later)
    assert later.getMessage().endswith("(UnicodeDecodeError) (50 more since the last such line)")
    other = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "something else", None, None)
    assert faults.filter(other) and other.levelno == logging.ERROR  # other records pass as they are


def test_an_event_name_with_a_lone_surrogate_is_answered(tmp_path: Path) -> None:
    """The name is quoted back in the refusal: a lone surrogate in it, which UTF-8 cannot carry,
    must not leave the request unanswered (the reply's encoding refuses it)."""

    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", limits=ROOMY) as (_server, url):
            raw = await RawSocket.open(url)
            ack_id = raw.next_id
            raw.next_id += 1
            await raw.send(f'42{ack_id}["\\ud800deal_me_aces",{{}}]')
            frame = await raw.receive_until(lambda f: f.startswith(f"43{ack_id}["))
            error = json.loads(frame[len(f"43{ack_id}") :])[0]["error"]
            assert (error["code"], error["args"]) == ("unknown_event", {"event": "?deal_me_aces"})
            await raw.send('42["\\udfff",{}]')  # without an ack: the refusal comes as a push
            frame = await raw.receive_until(lambda f: f.startswith('42["error"'))
            assert json.loads(frame[2:])[1]["args"] == {"event": "?"}
            await raw.close()

    run(scenario)


def test_a_refused_request_without_an_ack_is_answered_with_an_error_push(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", limits=ROOMY) as (_server, url):
            raw = await RawSocket.open(url)
            await raw.send('42["join_table",{"table":"no-such-table-here","name":"Ayse"}]')
            frame = await raw.receive_until(lambda f: f.startswith('42["error"'))
            assert json.loads(frame[2:])[1]["code"] == "no_such_table"
            await raw.send('42["no_such_event",{}]')
            frame = await raw.receive_until(lambda f: f.startswith('42["error"'))
            assert json.loads(frame[2:])[1]["args"] == {"event": "no_such_event"}
            await raw.close()

    run(scenario)


# --- origins and addresses ------------------------------------------------------------------------------


def test_only_pages_of_the_server_and_configured_origins_may_open_a_socket(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = Limits(allowed_origins=("https://cards.example",))
        async with running_server(tmp_path / "smear.db", limits=limits) as (_server, url):
            own = url  # http://127.0.0.1:port
            for origin in (own, "https://cards.example"):
                raw = await RawSocket.open(url, headers={"Origin": origin})
                assert (await raw.call("watch_table", {"table": "no-such-table-here"}))["ok"] is False
                await raw.close()
            for origin in ("http://evil.example", "https://cards.example.evil.example", "null"):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await RawSocket.open(url, headers={"Origin": origin})
                assert refused.value.status == 403

    run(scenario)


async def refusal(url: str, headers: dict[str, str] | None = None) -> Any:
    """The data of a refused Socket.IO connection, or None when it was accepted (then closed)."""
    # The HTTP session is ours to close: the library leaves its own open after a refused
    # connection, and the garbage collector's warning would then fail whichever test runs next.
    async with aiohttp.ClientSession() as http:
        client = socketio.AsyncClient(reconnection=False, http_session=http)
        refused: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        client.on("connect_error", lambda data: refused.done() or refused.set_result(data))
        try:
            await client.connect(url, transports=["websocket"], headers=headers or {}, wait_timeout=10)
        except socketio.exceptions.ConnectionError:
            answer = await asyncio.wait_for(refused, 10)
            return answer["data"]  # the payload beside the refusal's message, as a browser's err.data
        await client.disconnect()
        return None


def test_connections_per_address_are_capped_and_counted_behind_a_trusted_proxy(tmp_path: Path) -> None:
    async def scenario() -> None:
        limits = Limits(connections_per_address=3)
        async with session(tmp_path / "a.db", limits=limits) as s:
            held = [await s.connect() for _ in range(3)]
            data = await refusal(s.url)
            assert data["code"] == "too_many_connections" and data["args"] == {"limit": 3}
            # The header means nothing from a peer that is not a trusted proxy.
            data = await refusal(s.url, {"X-Forwarded-For": "203.0.113.7"})
            assert data is not None and data["code"] == "too_many_connections"
            await held[0].close()
            while s.server.addresses.connections.get("127.0.0.1") != 2:
                await asyncio.sleep(0.01)
            assert await refusal(s.url) is None  # a place is free again

        proxied = Limits(connections_per_address=1, trusted_proxies=("127.0.0.0/8",))
        async with session(tmp_path / "b.db", limits=proxied) as s:
            first = Client(s.url)
            first.sio = socketio.AsyncClient(reconnection=False)
            first.sio.on("state", first._on_state)
            await first.sio.connect(
                s.url, transports=["websocket"], headers={"X-Forwarded-For": "203.0.113.1"}
            )
            # Another client behind the same proxy is another address; the same one is refused.
            assert await refusal(s.url, {"X-Forwarded-For": "203.0.113.2"}) is None
            data = await refusal(s.url, {"X-Forwarded-For": "198.51.100.9, 203.0.113.1"})
            assert data is not None and data["code"] == "too_many_connections"
            await first.sio.disconnect()

    run(scenario)


def test_tables_per_address_per_hour_live_tables_and_spectators_are_capped(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        limits = Limits(tables_per_hour=3, spectators_per_table=2, max_tables=5)
        async with session(tmp_path / "smear.db", limits=limits, clock=clock) as s:
            client = await s.connect()
            payload = {"name": "Ayse", "preset": "house", "players": 4, "teams": False}
            replies = [await client.call("create_table", payload) for _ in range(4)]
            assert [r["ok"] for r in replies] == [True, True, True, False], replies
            assert replies[3]["error"]["code"] == "too_many_tables" and replies[3]["error"]["args"] == {
                "limit": 3
            }
            # A refused request does not count: settings the rules refuse are not a table.
            clock.now += 3_601
            assert (await client.call("create_table", {**payload, "players": 9}))["ok"] is False
            assert (await client.call("create_table", payload))["ok"] is True
            assert (await client.call("create_table", payload))["ok"] is True
            full = await client.call("create_table", payload)
            assert full["error"]["code"] == "server_full"

            code = replies[0]["table"]
            watchers = [await s.watch(code) for _ in range(2)]
            extra = await s.connect()
            reply = await extra.call("watch_table", {"table": code})
            assert reply["error"] == {
                "code": "too_many_spectators",
                "args": {"limit": 2},
                "message": "this table already has 2 spectators",
            }
            # Seated players are not spectators: a player joins whatever the crowd.
            assert (await extra.call("join_table", {"table": code, "name": "Kemal"}))["ok"]
            await watchers[0].close()
            while len(s.server.live.followers[code]) > 3:
                await asyncio.sleep(0.01)
            other = await s.connect()
            assert (await other.call("watch_table", {"table": code}))["ok"]

    run(scenario)


# --- hints -----------------------------------------------------------------------------------------------


class SlowAdvice:
    """Stands for the expert: counts its calls and answers when the test lets it."""

    def __init__(self) -> None:
        self.calls = 0
        self.go = threading.Event()

    def advise(self, view: PlayerView, rng: Any) -> Any:
        self.calls += 1
        assert self.go.wait(10)
        return ("advice", view)


def test_a_hint_is_worked_out_once_per_turn_and_the_queue_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    slow = SlowAdvice()
    monkeypatch.setattr("smear.server.players.hints.ExpertBot", lambda: slow)

    async def scenario() -> None:
        hints = HintService(queue=2)
        view: Any = object()
        same_turn = [asyncio.ensure_future(hints.advise("T1", 5, 0, view)) for _ in range(20)]
        other_table = asyncio.ensure_future(hints.advise("T2", 9, 1, view))
        await asyncio.sleep(0)
        with pytest.raises(Exception, match="hints_busy"):
            await hints.advise("T3", 1, 0, view)  # two hints under way: the third is refused
        slow.go.set()
        answers = await asyncio.gather(*same_turn, other_table)
        assert slow.calls == 2 and all(answer == ("advice", view) for answer in answers)
        assert hints.working == 0
        # The next version is a new question; the old answer is not kept for it.
        assert await hints.advise("T1", 6, 0, view) == ("advice", view) and slow.calls == 3
        hints.close()

    run(scenario)


# --- a database that fails or is held ---------------------------------------------------------------


def failing(times: int = 1) -> Callable[..., None]:
    left = [times]

    def fail(*args: Any, **kwargs: Any) -> None:
        if left[0] > 0:
            left[0] -= 1
            raise StorageError("the disk is full")

    return fail


def test_every_kind_of_change_is_undone_when_it_cannot_be_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=ROOMY) as s:
            storage = s.server.storage
            outsider = await s.connect()
            with monkeypatch.context() as patch:
                patch.setattr(storage, "create_table", failing())
                payload = {"name": "Ayse", "preset": "house", "players": 4, "teams": False}
                reply = await outsider.call("create_table", payload)
                assert reply["error"]["code"] == "not_stored" and s.server.live.tables == {}

            host = await s.create("Kemal", players=4)
            code = host.table or ""
            table = s.server.live.tables[code]

            async def refused(name: str, call: Callable[[], Any], method: str = "save_lobby") -> None:
                seats, version, host_seat = list(table.seats), table.version, table.host_seat
                received = len(host.received)
                with monkeypatch.context() as patch:
                    patch.setattr(storage, method, failing())
                    reply = await call()
                assert reply["error"]["code"] == "not_stored", (name, reply)
                assert (table.seats, table.version, table.host_seat) == (seats, version, host_seat), name
                assert len(host.received) == received, name  # nobody was told of a change that did not happen
                assert table.events[-1][0] == table.version, name

            await refused("join", lambda: outsider.call("join_table", {"table": code, "name": "Ayse"}))
            joined = await outsider.call("join_table", {"table": code, "name": "Ayse"})
            assert joined["ok"], joined
            await refused("leave", lambda: outsider.call("leave", {"table": code, "token": joined["token"]}))
            await refused("set_bot", lambda: host.send("set_bot", seat=2, bot=True))
            assert (await host.send("set_bot", seat=2, bot=True))["ok"]
            await refused("take_seat", lambda: host.send("take_seat", seat=3))
            await refused("kick", lambda: host.send("kick", seat=2))
            assert (await host.send("set_bot", seat=3, bot=True))["ok"]
            await refused("start", lambda: host.send("start"), method="start_match")
            assert table.status == "lobby" and table.state is None and table.match_number == 0
            reply = await host.send("start")
            assert reply["ok"], reply

    run(scenario)


def test_a_held_database_delays_only_the_changes_that_need_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The join waits for the lock however long the test holds it (a loaded machine is slow).
    monkeypatch.setattr("smear.server.storage.dbdriver.BUSY_TIMEOUT_SECONDS", 120.0)

    async def scenario() -> None:
        database = tmp_path / "smear.db"
        async with session(database, limits=ROOMY) as s:
            host = await s.create("Kemal", players=4)
            other = await s.create("Ayse", players=4)
            code = host.table or ""
            holder = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
            holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            try:
                joining = asyncio.ensure_future(s.join(code, "Sam"))
                while not s.server.live.locks[code].locked() and not joining.done():
                    await asyncio.sleep(0.005)
                # While the join waits on the database, the event loop answers every other table.
                watcher = await s.watch(other.table or "")
                assert watcher.state["version"] == other.state["version"]
                assert (await watcher.call("watch_table", {"table": "no-such-table-here"}))["ok"] is False
                assert not joining.done()
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            guest = await joining
            assert guest.seat == 1

    run(scenario)


def test_a_failed_store_past_the_event_history_rolls_back_by_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=ROOMY) as s:
            host = await s.with_bots("Kemal")
            code = host.table or ""
            table = s.server.live.tables[code]
            while len(table.events) < EVENT_HISTORY:  # a long history, as after many hands
                table.bump({"kind": "seated", "seat": 0})
            before = [version for version, _ in table.events]
            with monkeypatch.context() as patch:
                patch.setattr(s.server.storage, "start_match", failing())
                assert (await host.send("start"))["error"]["code"] == "not_stored"
            after = [version for version, _ in table.events]
            # Undone by version: the start's event is gone, the history ends at the table's version.
            assert after[-1] == table.version == before[-1] and after == sorted(set(after))
            assert after == before[1:]  # the event the start pushed out is not put back
            assert table.events_since(before[0] - 1) is None  # a client that far behind resyncs

    run(scenario)


# --- HTTP ------------------------------------------------------------------------------------------------


def test_every_response_carries_the_security_headers_and_health_tells_no_counts(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=ROOMY) as s:
            await s.create("Kemal")

            def fetch(path: str) -> tuple[int, dict[str, str], bytes]:
                try:
                    with urllib.request.urlopen(s.url + path, timeout=10) as response:
                        return response.status, dict(response.headers), response.read()
                except urllib.error.HTTPError as err:
                    with err:
                        return err.code, dict(err.headers), err.read()

            paths = ["/health", "/tables/x/matches/1/record.json", "/socket.io/?EIO=4&transport=polling"]
            for path in paths:
                status, headers, _ = await asyncio.to_thread(fetch, path)
                assert status < 500, path
                policy = headers.get("content-security-policy", "")
                assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
                assert "unsafe-inline" not in policy, path
                assert headers.get("x-content-type-options") == "nosniff", path
                assert headers.get("x-frame-options") == "DENY", path
                assert headers.get("referrer-policy") == "no-referrer", path
            # Up, and how many tables are put aside for the operator: nothing of any player or table.
            assert await get_json(s.url + "/health") == (200, {"ok": True, "quarantined": 0})

    run(scenario)


ODD_NUMBERS = ["99999999999999999999999", "2147483648", "0", "9" * 5000, "%EF%BC%91", "x"]


@pytest.mark.parametrize("number", ODD_NUMBERS)
def test_odd_match_numbers_are_not_found_rather_than_a_server_error(tmp_path: Path, number: str) -> None:
    async def scenario() -> None:
        async with session(tmp_path / "smear.db", limits=ROOMY) as s:
            host = await s.create("Kemal")
            status, body = await get_json(f"{s.url}/tables/{host.table}/matches/{number}/record.json")
            assert status == 404 and body == {"error": "no finished match there"}

    run(scenario)


def test_a_binary_event_is_decoded_and_answered_in_text(tmp_path: Path) -> None:
    """The server sends JSON text only, yet a client's event with a binary attachment still
    decodes, reaches the request checks and gets its refusal as a text ack."""

    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", limits=ROOMY) as (_server, url):
            raw = await RawSocket.open(url)
            await raw.send('451-7["watch_table",{"table":{"_placeholder":true,"num":0}}]')
            await raw.send(b"\x00\x01 a table code in bytes")
            frame = await raw.receive_until(lambda f: f.startswith("437["))
            assert json.loads(frame[3:])[0]["error"]["code"] == "malformed_json"
            await raw.close()

    run(scenario)
