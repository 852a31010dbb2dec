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
    """``app`` served until the block ends; yields its base URL (``http://127.0.0.1:PORT``)."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", lifespan="on", proxy_headers=False
    )
    uv = uvicorn.Server(config)
    task = asyncio.create_task(uv.serve())
    while not uv.started:
        if task.done():  # it failed to start: say so rather than wait for ever
            task.result()
            raise RuntimeError("the server stopped before it started")
        await asyncio.sleep(0.01)
    port = uv.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        uv.should_exit = True
        await task
