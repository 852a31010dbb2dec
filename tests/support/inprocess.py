"""An ASGI app served by uvicorn inside this process, on a free port of 127.0.0.1.

Shared by the server tests (``serverkit.running_server``) and the leak benchmark
(``leakkit.run.running_server``), which build their own server and talk to it over real sockets.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn


@contextlib.asynccontextmanager
async def served(app: Any) -> AsyncIterator[str]:
    """``app`` served until the block ends; yields its base URL (``http://127.0.0.1:PORT``).

    It runs uvicorn's start and stop itself, not ``Server.serve``, which between the two checks
    every 0.1 s whether it should stop (0.05 s of waiting on average, for each of the hundreds of
    servers the tests start)."""
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
        # uvicorn's own stop, its pauses included: without them, in a loaded CI run, a Redis
        # connection of a server's was still open when its test's event loop closed.
        await uv.shutdown()
