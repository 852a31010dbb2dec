"""The kinds of message the fuzz benchmark sends by themselves, not as one probe about a table: legal
moves that keep its tables going, events named as the server's own handlers (from a seat, and as a
rate-limit reset), garbage frames, bursts, hint floods, a crowd of spectators, and odd HTTP requests."""

from __future__ import annotations

import argparse
import asyncio
import random
import string
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Protocol

import aiohttp
import yarl

from fuzzkit.checks import Checker
from fuzzkit.probes import ProbeMaker
from fuzzkit.tables import REPAIR_MARGIN, Holder, Honest, TargetTable
from fuzzkit.texts import UNKNOWN_NAMES, random_code, random_token
from fuzzkit.wire import (
    ACK_TIMEOUT,
    CLOSED,
    NO_ANSWER,
    PUSH_WAIT,
    RAW_WAIT,
    SHAPE_WAIT,
    Probe,
    Socket,
    dumps,
    outcome_of,
    short,
    wait_future,
)


class Fuzzing(Protocol):
    """What the kinds that send themselves use of the fuzzer (:class:`fuzzkit.run.Fuzzer`)."""

    args: argparse.Namespace
    url: str
    grace: float
    http: aiohttp.ClientSession
    tables: list[TargetTable]
    honest: Honest
    crowd: list[Socket]
    probes: ProbeMaker
    checker: Checker
    http_errors: Counter[str]
    internal_errors: Counter[str]
    findings: Counter[str]

    def spawn(self, coroutine: Awaitable[Any]) -> None: ...

    def reserve(self, count: int) -> int: ...

    def record(self, kind: str, label: str, count: int = 1, note: str = "") -> None: ...

    def note_internal(self, probe: Probe, label: str) -> None: ...

    def movable(self) -> list[TargetTable]: ...

    async def open_socket(
        self, role: str, on_push: Callable[[str, Any], None] | None = None
    ) -> Socket | None: ...

    async def deliver(self, socket: Socket, build: Callable[[], Probe], table: TargetTable | None) -> str: ...

    async def exchange(self, socket: Socket, probe: Probe) -> tuple[str, dict[str, Any] | None]: ...

    async def repair_holder(self, holder: Holder, delay: float) -> None: ...


FLOOD_TIMEOUT = 90.0  # the acks of a hint flood (hints queue behind each other)


async def send_valid(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    """A legal move at one of the fuzzer's tables (or the host starting the next match)."""
    tables = [t for t in fuzzer.movable() if t.spec.started]
    if not tables:
        return
    table = rng.choice(tables)
    async with table.lock:
        made = fuzzer.probes.valid_request(rng, table)
        if made is None or not fuzzer.reserve(1):
            return
        holder, event, payload = made
        assert holder.socket is not None
        await holder.socket.pace()
        probe = Probe(
            "valid", f"{event} {payload.get('action', '')}".strip(), dumps([event, payload]), event=event
        )
        label, reply = await fuzzer.exchange(holder.socket, probe)
        fuzzer.record("valid", label, note=probe.note)
        fuzzer.note_internal(probe, label)
        if label == "ok" and reply is not None and isinstance(reply.get("version"), int):
            table.accepted[reply["version"]] = event
        table.recent.append(f"valid {probe.note} -> {label}")
        await fuzzer.checker.check(table, lost_ack=label in (NO_ANSWER, CLOSED))
        if label == CLOSED:
            fuzzer.spawn(fuzzer.repair_holder(holder, 0.0))


async def send_reserved(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    """Events named as the server's own handlers: from a seat holder (which must not lose its
    seat by it), as a rate-limit reset, or from any connection."""
    roll = rng.random()
    if roll < 0.2:
        await reserved_from_seat(fuzzer, rng)
        return
    if roll < 0.28:
        await rate_reset(fuzzer, socket, rng)
        return
    table = rng.choice(fuzzer.tables)
    await fuzzer.deliver(socket, partial(fuzzer.probes.probe_reserved, rng, table), table)


async def reserved_from_seat(fuzzer: Fuzzing, rng: random.Random) -> None:
    """`disconnect` or `connect` from the connection of the seat to act. If the server took the
    seat for gone, it would play for it after the grace period: a change nobody asked for."""
    tables = [t for t in fuzzer.movable() if t.status == "playing"]
    if not tables:
        return
    table = rng.choice(tables)
    async with table.lock:
        holder = table.holder_at(table.to_act) or rng.choice(table.holders)
        if holder.impaired or holder.socket is None or holder.socket.is_closed or not fuzzer.reserve(1):
            return
        body = dumps(
            rng.choice([["disconnect"], ["disconnect", "transport close"], ["connect"], ["connect", {}]])
        )
        ack = rng.random() < 0.5
        probe = Probe(
            "reserved", f"from a seat: {body}", body, ack=ack, wait=SHAPE_WAIT if ack else PUSH_WAIT
        )
        await holder.socket.pace()
        label, _ = await fuzzer.exchange(holder.socket, probe)
        fuzzer.record("reserved", label, note=probe.note)
        table.recent.append(f"reserved {probe.note} -> {label}")
        table.seat_events.append((time.monotonic(), f"seat {holder.seat} sent {body} -> {label}"))
        holder.impaired = True
        await fuzzer.checker.check(table)
    # Resume only once the grace period is over, so a seat wrongly taken for gone shows.
    fuzzer.spawn(fuzzer.repair_holder(holder, fuzzer.grace + REPAIR_MARGIN))


async def rate_reset(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    """45 messages at once, then `connect`, then 5 more: if the 5 are answered, `connect`
    reset the rate limit (a finding, not a server error)."""
    count = fuzzer.reserve(51)
    if count < 51:
        fuzzer.record("reserved", "not sent (budget)", count)
        return
    body = dumps(["no_such_event", {}])
    first = [await socket.start("42", body) for _ in range(45)]
    await socket.send_frames([("text", '42["connect",{}]')])
    await asyncio.sleep(0.02)
    after = [await socket.start("42", body) for _ in range(5)]
    labels = [outcome_of(await wait_future(f, ACK_TIMEOUT))[0] for f in [*first, *after]]
    for label in labels:
        fuzzer.record("reserved", label)
    fuzzer.record("reserved", "connect sent without an ack id")
    if labels[-5:] and all(label == "refused: unknown_event" for label in labels[-5:]):
        fuzzer.findings["rate limit reset by a `connect` event (45 sent, then connect, then 5 answered)"] += 1
    await socket.pace(51)


async def send_garbage(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    frames = [
        "",
        "x",
        "4",
        "42",
        "42[",
        "42]",
        '42["act"',
        '42"act"',
        "4{}",
        "9",
        "7",
        "5",
        "6",
        "8",
        "0",
        "0{}",
        "2",
        "3",
        "2probe",
        "3probe",
        "40",
        "43",
        "43[]",
        "4399[{}]",
        "44{}",
        "47",
        "48[]",
        "49",
        "4" + "9" * 120 + '["act",{}]',
        "42" + "9" * 120 + '["act",{}]',
        "4-1[]",
        "42-5[]",
        "45-[]",
        "4512345678901-[]",
        '42/nsp,["act",{}]',
        '42/,["act"]',
        "40/admin,",
        "41/admin,",
        '42?x,["act"]',
        '42["act",{"table":"x",}]',
        '42["act",{"version":' + "1" + "0" * 5000 + "}]",
        '42["act",{"version":NaN}]',
        "42" + "\u0000" * 20,
        "".join(rng.choice(string.printable) for _ in range(rng.randint(1, 200))),
        "4" + "".join(chr(rng.randint(0x80, 0x2FFF)) for _ in range(rng.randint(1, 50))),
        "1",
        "41",
    ]
    frame = rng.choice(frames)
    probe = Probe("garbage", short(frame or "(empty)", 50), frames=[("text", frame)], wait=RAW_WAIT)
    probe.poison = frame in ("1", "41")  # the client itself closed, or left the namespace
    await fuzzer.deliver(socket, lambda: probe, None)


async def send_burst(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    """Many requests at once on one connection: past the burst, `rate_limited`."""
    count = fuzzer.reserve(rng.randint(30, 60))
    bodies = []
    for _ in range(count):
        if rng.random() < 0.5:
            bodies.append(dumps([rng.choice(UNKNOWN_NAMES[:6]), {}]))
        else:  # wrong acts at tables that are not the fuzzer's own (they need no check)
            code = rng.choice([fuzzer.honest.code, random_code(rng)])
            act = {
                "table": code,
                "token": random_token(rng),
                "version": rng.randint(0, 99),
                "action": "Ah",
            }
            bodies.append(dumps(["act", act]))
    futures = [await socket.start("42", body) for body in bodies]
    for future in futures:
        label, _ = outcome_of(await wait_future(future, ACK_TIMEOUT))
        fuzzer.record("burst", label)
    await socket.pace(count)


async def send_hint_flood(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    """Many `hint` requests at once for the seat to act at a table with hints on."""
    tables = [t for t in fuzzer.tables if t.hints and t.to_act is not None]
    if not tables:
        return
    table = rng.choice(tables)
    holder = table.holder_at(table.to_act)
    if holder is None:
        return
    count = fuzzer.reserve(rng.randint(8, 24))
    body = dumps(["hint", {"table": table.code, "token": holder.token}])
    futures = [await socket.start("42", body) for _ in range(count)]
    for future in futures:
        label, _ = outcome_of(await wait_future(future, FLOOD_TIMEOUT))
        fuzzer.record("hint_flood", label)
        if label.endswith("internal_error"):
            fuzzer.internal_errors["hint_flood: hint"] += 1
    await socket.pace(count)


async def send_crowd(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    """Spectators that stay: most watch the honest table, the others the table of hints."""
    frozen = [t for t in fuzzer.tables if t.spec.frozen]
    code = fuzzer.honest.code if rng.random() < 0.75 or not frozen else frozen[0].code
    fuzzer.crowd = [s for s in fuzzer.crowd if not s.is_closed]
    if len(fuzzer.crowd) < fuzzer.args.spectators:
        spectator = await fuzzer.open_socket("spectator")
        if spectator is None:
            return
        fuzzer.crowd.append(spectator)
    else:
        spectator = rng.choice(fuzzer.crowd)
    # Not locked: watching changes nothing, and a check would only wait behind the crowd.
    probe = Probe("crowd", "watch_table", dumps(["watch_table", {"table": code}]))
    await fuzzer.deliver(spectator, lambda: probe, None)


async def send_http(fuzzer: Fuzzing, socket: Socket, rng: random.Random) -> None:
    if not fuzzer.reserve(1):
        return
    codes = [t.code for t in fuzzer.tables] + [fuzzer.honest.code]
    code = rng.choice(
        [
            *codes,
            random_code(rng),
            "x",
            "A" * 3000,
            "%00",
            "%FF%FE",
            "..%2F..",
            "%E2%80%AE" + random_code(rng),
            "%D0%BA%D1%83%D1%85%D0%BD%D1%8F",
        ]
    )
    number = rng.choice(["0", "1", "2", "99999", str(2**31), str(2**63 - 1), str(2**63), str(2**64)])
    if rng.random() < 0.15:
        number = rng.choice([str(10**30), "1" * 400, "1" * 5000, "01", "-1", "1e3", "%31"])
    paths = [
        f"/tables/{code}/matches/{number}/record.json",
        f"/tables/{code}/matches/{number}/record.json",
        f"/tables/{code}/matches/{number}/record.json",
        "/health",
        "/health?x=" + "A" * 5000,
        "/",
        f"/t/{code}",
        "/nope",
        "/static/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/" + "a" * 10_000,
        "/socket.io/",
        "/socket.io/?EIO=3&transport=websocket",
        "/socket.io/?EIO=4&transport=polling&sid=bogus",
        "/socket.io/?EIO=4&transport=bogus",
        "/tables/",
        f"/tables/{code}/matches/1/record.json/extra",
        "/api/practice/themes",
        "/api/practice/daily",
        f"/api/players/{code}/practice/next?theme={code}",
        f"/api/players/{code}/practice/{code}",
        f"/api/players/{code}/practice/{number}",
        f"/api/players/{code}/friends",
        f"/api/players/{code}/friends/{code}/accept",
        f"/api/players/{code}/friends/{code}/invite",
        f"/api/players/{code}/friends/{code}",
        f"/api/players/{code}/blocks",
        f"/api/players/{code}/blocks/{code}",
    ]
    path = rng.choice(paths)
    method = "GET" if rng.random() < 0.85 else rng.choice(["POST", "PUT", "DELETE", "HEAD", "OPTIONS"])
    try:
        async with fuzzer.http.request(
            method, yarl.URL(fuzzer.url + path, encoded=True), allow_redirects=False
        ) as response:
            await response.read()
            status = response.status
    except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
        fuzzer.record("http", f"http: {type(error).__name__}")
        return
    fuzzer.record("http", f"http {status}")
    if status >= 500:
        fuzzer.http_errors[f"{method} {short(path, 100)} -> {status}"] += 1


# Each kind of message that sends itself (the others are made by ``ProbeMaker``), by name.
SENDERS: dict[str, Callable[[Fuzzing, Socket, random.Random], Awaitable[None]]] = {
    "valid": send_valid,
    "reserved": send_reserved,
    "garbage": send_garbage,
    "burst": send_burst,
    "hint_flood": send_hint_flood,
    "crowd": send_crowd,
    "http": send_http,
}
