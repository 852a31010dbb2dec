"""``smear serve --workers N``: N server processes on one machine, sharing one listening socket.

The parent binds the port, then forks the workers; the kernel hands each new connection to one of
them. They share the tables through Redis (:mod:`smear.server.cluster.coordination`), so any
worker may take any client. A worker that dies is started again after a pause (its tables are
taken over by the others meanwhile); SIGINT or SIGTERM stops them all.

Every server process, one or several, runs uvicorn through :func:`serve`: told to stop, it first
lets the application end its sessions (:class:`Stoppable`), then gives the requests still under way
``stop_grace`` seconds before it cuts them, and stores and hands over its tables.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable
from typing import Any, Final, Protocol, runtime_checkable

import uvicorn

log = logging.getLogger("smear.server")

RESTART_PAUSE: Final = 1.0  # seconds before a worker that died is started again
# Seconds the workers have to stop, beyond their grace for requests, before they are killed.
STOP_WAIT: Final = 10.0

# How every server process runs uvicorn. The server reads forwarding headers itself, and only from
# --trusted-proxy addresses. Engine.IO's heartbeat (a ping every 25 s, answered within 20 s) already
# finds a dead peer, so WebSocket-level pings would only add frames to every socket.
# Its loggers are left to the server's own set-up (smear.server.logs), not given handlers of uvicorn's.
UVICORN_SETTINGS: Final[dict[str, Any]] = {
    "log_config": None,
    "log_level": "warning",
    "proxy_headers": False,
    "ws_ping_interval": None,
}


@runtime_checkable
class Stoppable(Protocol):
    """An application with sessions that would outlast a stop (long polls, WebSockets)."""

    async def stop(self) -> None:
        """The server is stopping: end every session now."""


def freeze_what_started() -> None:
    """Collect once, then keep every object alive now out of the cycle collector's sight.

    A started server holds about 200,000 objects that live as long as it does (the modules, the
    search's compiled code, the restored tables), and each full pass of the collector walked them
    all: about 0.1 s during which no table moved. Frozen, they are never walked again.
    """
    gc.collect()
    gc.freeze()


class StoppingServer(uvicorn.Server):
    """uvicorn's server, which freezes what its start made (:func:`freeze_what_started`), says it is
    stopping and lets the application end its sessions before it waits for the requests under way
    (a long poll would otherwise hold it 45 s)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        freeze_what_started()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        grace = self.config.timeout_graceful_shutdown
        log.warning(
            "stopping: sockets are closed, requests under way have %s s to finish",
            grace,
            extra={"event": "server_stopping", "grace_seconds": grace},
        )
        app = self.config.app
        if isinstance(app, Stoppable):
            try:
                async with asyncio.timeout(grace):
                    await app.stop()
            except Exception as error:  # the stop goes on: uvicorn closes what is left
                log.warning(
                    "stopping: not every session was closed (%s)",
                    type(error).__name__,
                    extra={"event": "sessions_not_closed", "error": type(error).__name__},
                )
        await super().shutdown(sockets)


def listen(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound at ``host:port`` (an IPv6 address takes its own family);
    OSError when it cannot be (the port taken, an address not of this machine)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family, backlog=2048)
    listener.set_inheritable(True)  # with several processes, each worker serves on it
    return listener


def serve(app: Any, stop_grace: int, sockets: list[socket.socket] | None = None, **where: Any) -> None:
    """Run ``app`` under uvicorn (on ``sockets``, or at ``host`` and ``port``) until SIGINT or SIGTERM."""
    config = uvicorn.Config(app, timeout_graceful_shutdown=stop_grace, **where, **UVICORN_SETTINGS)
    StoppingServer(config).run(sockets=sockets)


def _worker(
    build_app: Callable[[], Any],
    listener: socket.socket,
    stop_grace: int,
    index: int,
    setup: Callable[[int], None] | None,
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent says when to stop (SIGTERM)
    if setup is not None:
        setup(index)
    serve(build_app(), stop_grace, sockets=[listener])


def run_workers(
    build_app: Callable[[], Any],
    listener: socket.socket,
    workers: int,
    stop_grace: int = 5,
    gone: Callable[[int], None] | None = None,
    setup: Callable[[int], None] | None = None,
) -> None:
    """Serve on ``listener`` (see :func:`listen`) with ``workers`` processes, each running
    ``build_app()``'s application; ``gone(pid)`` is told of each worker that stopped (its metrics
    leave the sums); ``setup(index)`` runs first in each worker (its log lines name it)."""
    context = multiprocessing.get_context("fork")  # the workers inherit the bound socket
    stopping = False

    def start(index: int) -> multiprocessing.process.BaseProcess:
        arguments = (build_app, listener, stop_grace, index, setup)
        process = context.Process(target=_worker, args=arguments, daemon=False)
        process.start()
        return process

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    running = [start(index) for index in range(workers)]
    try:
        while not stopping:
            time.sleep(0.2)
            for index, process in enumerate(running):
                if not process.is_alive() and not stopping:
                    log.warning(
                        "worker %d (pid %s) stopped with %s; starting it again",
                        index,
                        process.pid,
                        process.exitcode,
                        extra={
                            "event": "worker_restarted",
                            "worker_index": index,
                            "worker_pid": process.pid,
                            "exit_code": process.exitcode,
                        },
                    )
                    if gone is not None and process.pid is not None:
                        gone(process.pid)
                    time.sleep(RESTART_PAUSE)
                    running[index] = start(index)
    finally:
        for process in running:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + stop_grace + STOP_WAIT
        for process in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
        listener.close()
