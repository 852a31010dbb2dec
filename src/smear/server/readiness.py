"""``GET /ready``: whether this process can reach what it serves from, its database and (with
``--redis``) Redis, for load balancers and supervisors. ``/health`` says only that the event loop
runs.

Each check answers within :data:`READY_TIMEOUT` seconds. The database is asked on a thread of its
own, off the event loop; a check still under way (a database host that does not answer) is shared
by the next requests rather than started again, so a probe every second never piles up threads.
The body names what is not reachable, never its address or password.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from redis.exceptions import RedisError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.server.storage.transactions import StorageError

READY_TIMEOUT: Final = 1.0  # seconds each check may take before it counts as unreachable


class Readiness:
    """Answers ``/ready``: asks the database (``ping_database``, blocking, raising
    :class:`StorageError`) and Redis (``ping_redis``, awaited; None without Redis)."""

    def __init__(
        self,
        ping_database: Callable[[], None],
        ping_redis: Callable[[], Awaitable[Any]] | None,
        timeout: float = READY_TIMEOUT,
    ) -> None:
        self._ping_database = ping_database
        self._ping_redis = ping_redis
        self._timeout = timeout
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="smear-ready")
        self._database_check: asyncio.Future[None] | None = None

    def routes(self) -> list[BaseRoute]:
        return [Route("/ready", self.ready)]

    async def ready(self, request: Request) -> Response:
        database, redis = await asyncio.gather(self.database_reachable(), self.redis_reachable())
        body: dict[str, Any] = {"ok": database and redis, "database": _word(database)}
        if self._ping_redis is not None:
            body["redis"] = _word(redis)
        return JSONResponse(body, status_code=200 if body["ok"] else 503)

    async def database_reachable(self) -> bool:
        check = self._database_check
        if check is None or check.done():
            check = asyncio.get_running_loop().run_in_executor(self._thread, self._ping_database)
            check.add_done_callback(_retrieve)
            self._database_check = check
        try:
            await asyncio.wait_for(asyncio.shield(check), self._timeout)
        except (StorageError, TimeoutError):
            return False
        return True

    async def redis_reachable(self) -> bool:
        if self._ping_redis is None:
            return True
        try:
            await asyncio.wait_for(self._ping_redis(), self._timeout)
        except (RedisError, OSError, TimeoutError):
            return False
        return True

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)


def _word(reachable: bool) -> str:
    return "ok" if reachable else "unreachable"


def _retrieve(check: asyncio.Future[None]) -> None:
    """Takes a finished check's error, so one nobody awaited any more (it timed out) is not
    reported as never retrieved."""
    with contextlib.suppress(asyncio.CancelledError):
        check.exception()
