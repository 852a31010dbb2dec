"""``smear serve --workers N``: N server processes on one machine, sharing one listening socket.

The parent binds the port, then forks the workers; the kernel hands each new connection to one of
them. They share the tables through Redis (:mod:`smear.server.cluster`), so any worker may take any
client. A worker that dies is started again after a pause (its tables are taken over by the others
meanwhile); SIGINT or SIGTERM stops them all.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable
from typing import Any, Final

log = logging.getLogger("smear.server")

RESTART_PAUSE: Final = 1.0  # seconds before a worker that died is started again
STOP_WAIT: Final = 10.0  # seconds the workers have to stop before they are killed

# How every server process runs uvicorn. The server reads forwarding headers itself, and only from
# --trusted-proxy addresses. Engine.IO's heartbeat (a ping every 25 s, answered within 20 s) already
# finds a dead peer, so WebSocket-level pings would only add frames to every socket.
UVICORN_SETTINGS: Final[dict[str, Any]] = {
    "log_level": "warning",
    "proxy_headers": False,
    "ws_ping_interval": None,
}


def _worker(build_app: Callable[[], Any], listener: socket.socket) -> None:
    import uvicorn

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent says when to stop (SIGTERM)
    config = uvicorn.Config(build_app(), **UVICORN_SETTINGS)
    uvicorn.Server(config).run(sockets=[listener])


def run_workers(build_app: Callable[[], Any], host: str, port: int, workers: int) -> None:
    """Serve on ``host:port`` with ``workers`` processes, each running ``build_app()``'s application."""
    listener = socket.create_server((host, port), reuse_port=False, backlog=2048)
    listener.set_inheritable(True)
    context = multiprocessing.get_context("fork")  # the workers inherit the bound socket
    stopping = False

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(target=_worker, args=(build_app, listener), daemon=False)
        process.start()
        return process

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    running = [start() for _ in range(workers)]
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
                    )
                    time.sleep(RESTART_PAUSE)
                    running[index] = start()
    finally:
        for process in running:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_WAIT
        for process in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
        listener.close()
