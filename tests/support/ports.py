"""Ports for the servers the tests and benches start as processes of their own.

Such a server is given its port on its command line, so the port is picked before the server binds
it. A port the kernel picks (bind to port 0) is free only until the probe closes: another pytest-xdist
worker starting a server at the same moment may be given the same one. The first to bind it wins,
and the other's test then talks to the wrong server (its health check answered by the winner).
So under pytest-xdist each worker takes ports from a block of its own, below the kernel's range of
ports for connections, where no other worker and no connection's own port can take them.
"""

from __future__ import annotations

import itertools
import os
import socket

FIRST_BLOCK = 10_000  # ports 10000-32499: below Linux's default range for connections (32768-60999)
BLOCK = 500
BLOCKS = 45
_taken = itertools.count()


def _worker_block() -> int | None:
    """This process's block: its pytest-xdist worker's number (gw3 is 3), or None outside xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not (name.startswith("gw") and name[2:].isdigit()):
        return None
    return int(name[2:]) % BLOCKS


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now, and, under pytest-xdist, that no other
    worker will pick: the next free one of this worker's block. Outside xdist, the kernel's pick."""
    block = _worker_block()
    if block is None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])
    first = FIRST_BLOCK + block * BLOCK
    for _ in range(BLOCK):
        port = first + next(_taken) % BLOCK
        if _bindable(port):
            return port
    raise RuntimeError(f"no free port among {first}-{first + BLOCK - 1}")
