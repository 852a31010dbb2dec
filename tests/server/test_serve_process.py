"""The server process as `smear serve` runs it (smear.server.workers)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import uvicorn

from smear.server.workers import StoppingServer


async def _plain_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})


def test_a_started_server_keeps_what_its_start_made_out_of_the_collectors_full_passes() -> None:
    async def scenario() -> int:
        config = uvicorn.Config(_plain_app, host="127.0.0.1", port=0, log_level="warning")
        server = StoppingServer(config)
        gc.unfreeze()
        assert gc.get_freeze_count() == 0
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        frozen = gc.get_freeze_count()
        server.should_exit = True
        await serving
        return frozen

    try:
        frozen = asyncio.run(scenario())
    finally:
        gc.unfreeze()
    # Every module this test process imported is alive, so there are thousands of them.
    assert frozen > 10_000
