"""What the server's network stack alone costs per action: the floor under ``server_cpu_ms_per_action``.

It runs the game server's transport with no game behind it: uvicorn (uvloop, the same WebSocket
implementation), python-socketio through the server's own door (:class:`GuardedServer`, orjson out),
and a table of four sockets per table. An ``act`` is answered the way the game server answers one:
an ack to the sender and one ``state`` to each of the four seats, each its own message of a game
state's size. There is no rule check, no storage and no view to build. The clients behave as in
``bench/load.py``: the seat to act waits its think time (+/- 50%) and acts.

The server's CPU time per acknowledged action is what any server built on this stack pays before
it does any work of its own; ``bench/load.py`` at the same table count gives the whole cost.

Usage: python bench/stackfloor.py [--tables 400] [--seconds 30] [--think 1.0] [--seed 1]

It prints the actions per second, the server's CPU share, and ends with::

    tables: N
    server_cpu_ms_per_action: C
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # support: what it starts

from benchtools import process_cpu
from support.serverproc import free_port, launch, stop_server, wait_healthy

SEATS = 4
# A state of a game in its fourth hand measures about this much as JSON.
STATE_BYTES = 3000


# --- the server (its own process) --------------------------------------------------------------------


def serve(port: int) -> None:
    """The transport of the game server with a table of four seats in place of the game."""
    import orjson
    import uvicorn

    from smear.server.wire.guard import GuardedServer, LogThrottle
    from smear.server.workers import UVICORN_SETTINGS

    tables: dict[str, list[str | None]] = {}
    versions: dict[str, int] = {}
    # The game server sends each view already encoded (an orjson fragment), so it is here too.
    results = [{"number": i, "scores": [i, -i], "out": ["Ah", "Kd", "3c"]} for i in range(STATE_BYTES // 50)]
    filler = orjson.Fragment(orjson.dumps({"public": {"results": results}}))
    server: GuardedServer

    async def dispatch(sid: str, data: Any) -> dict[str, Any]:
        name, message = data[0], data[1]
        seats = tables.setdefault(message["table"], [None] * SEATS)
        if name == "sit":
            seats[message["seat"]] = sid
            return {"ok": True, "version": versions.setdefault(message["table"], 0)}
        version = versions[message["table"]] = versions[message["table"]] + 1
        to_act = (message["seat"] + 1) % SEATS
        for seat, seat_sid in enumerate(seats):
            if seat_sid is not None:
                state = {"version": version, "you": seat, "to_act": to_act, "game": filler}
                await server.send("state", state, [seat_sid])
        return {"ok": True, "version": version}

    server = GuardedServer(dispatch, LogThrottle(logging.getLogger("floor")), async_mode="asgi")
    sio_app = __import__("socketio").ASGIApp(server)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/health":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b'{"ok":true}'})
            return
        await sio_app(scope, receive, send)

    uvicorn.run(app, host="127.0.0.1", port=port, **UVICORN_SETTINGS)


# --- the clients (this process) ----------------------------------------------------------------------


class Seat:
    def __init__(self, run: FloorRun, table: str, seat: int) -> None:
        import socketio

        self.run, self.table, self.seat = run, table, seat
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on("state", self.on_state)

    async def sit(self, url: str) -> None:
        await self.sio.connect(url, transports=["websocket"], wait_timeout=10)
        await self.sio.call("sit", {"table": self.table, "seat": self.seat}, timeout=10)

    async def on_state(self, data: dict[str, Any]) -> None:
        if data["to_act"] == self.seat:
            self.run.spawn(self.act())

    async def act(self) -> None:
        await asyncio.sleep(self.run.think * self.run.rng.uniform(0.5, 1.5))
        if not self.run.acting:
            return
        reply = await self.sio.call("act", {"table": self.table, "seat": self.seat}, timeout=10)
        if self.run.counting and reply.get("ok"):
            self.run.acked += 1


class FloorRun:
    def __init__(self, think: float, seed: int) -> None:
        self.think = think
        self.rng = random.Random(seed)
        self.acting = True
        self.counting = False
        self.acked = 0
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def drive(url: str, pid: int, tables: int, seconds: float, think: float, seed: int) -> None:
    run = FloorRun(think, seed)
    seats = [Seat(run, f"t{number}", seat) for number in range(tables) for seat in range(SEATS)]
    for start in range(0, len(seats), 64):
        await asyncio.gather(*(seat.sit(url) for seat in seats[start : start + 64]))
    print(f"{tables} tables seated; measuring {seconds:.0f} s", flush=True)
    for number in range(tables):  # each table's first seat starts
        run.spawn(seats[number * SEATS].act())
    await asyncio.sleep(min(5.0, seconds))  # every table under way
    run.counting = True
    began, cpu_began = time.monotonic(), process_cpu(pid)
    await asyncio.sleep(seconds)
    cpu_ended = process_cpu(pid)
    if cpu_began is None or cpu_ended is None:
        raise SystemExit("the server's CPU time could not be read from /proc")
    span, cpu = time.monotonic() - began, cpu_ended - cpu_began
    run.counting, run.acting = False, False
    acked = run.acked
    print(f"actions acknowledged: {acked} ({acked / span:.1f}/s)")
    print(f"server CPU in the window: {100 * cpu / span:.0f}% of one core")
    print(f"tables: {tables}")
    print(f"server_cpu_ms_per_action: {1000 * cpu / acked if acked else float('nan'):.2f}")
    await asyncio.gather(*(seat.sio.disconnect() for seat in seats), return_exceptions=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=400, help="tables of four sockets (400)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured window (30)")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a seat waits before acting (1.0)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the think times (1)")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the server's own run
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve)
        return 0
    if args.tables < 1 or args.seconds <= 0 or args.think < 0:
        parser.error("--tables must be at least 1, --seconds positive and --think at least 0")
    import uvloop

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="stackfloor-") as workdir:
        log_path = Path(workdir) / "server.log"
        process: subprocess.Popen[bytes] = launch([sys.executable, __file__, "--serve", str(port)], log_path)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_healthy(url, process)
            uvloop.run(drive(url, process.pid, args.tables, args.seconds, args.think, args.seed))
        finally:
            stop_server(process)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
