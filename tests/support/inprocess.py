"""An ASGI app served by uvicorn inside this process, on a free port of 127.0.0.1.

Shared by the server tests (``serverkit.running_server``) and the leak benchmark
(``leakkit.run.running_server``), which build their own server and talk to it over real sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn


@contextlib.asynccontextmanager
async def served(app: Any) -> AsyncIterator[str]:
    """``app`` served until the block ends; yields its base URL (``http://127.0.0.1:PORT``).

    It runs uvicorn's start and stop itself, not ``Server.serve``: that one checks for an exit every
    0.1 s and sleeps 0.1 s more while it stops, 0.15 s of waiting on average for each of the
    hundreds of servers the tests start."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", lifespan="on", proxy_headers=False
    )
    config.load()
    uv = uvicorn.Server(config)
    uv.lifespan = config.lifespan_class(config)
    await uv.startup()
    if not uv.started:  # the app refused to start: uvicorn logged why
        raise RuntimeError("the server stopped before it started")
    port = uv.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await _stop(uv)


async def _stop(uv: uvicorn.Server) -> None:
    """What ``Server.shutdown`` does, waiting for the connections and tasks to end as soon as they
    do rather than in steps of 0.1 s."""
    for server in uv.servers:
        server.close()
    for connection in list(uv.server_state.connections):
        connection.shutdown()
    while uv.server_state.connections or uv.server_state.tasks:
        await asyncio.sleep(0.002)
    for server in uv.servers:
        await server.wait_closed()
    await uv.lifespan.shutdown()
