"""``GET /ready`` (smear.server.readiness): 200 while the process reaches its database and Redis,
503 naming the one it cannot reach (never its address or password) once it cannot, and 200 again
when it can; ``/health`` answers as before all along."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from serverkit import get_json, running_server
from sqlalchemy.engine import make_url
from support.dbservers import Redis

PASSWORD = "ready-redis-secret"
WAIT = 30.0  # seconds a change may take to show, however loaded the machine


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 120))


async def ready_until(url: str, wanted: int) -> dict[str, Any]:
    """``/ready``'s body, once it answers ``wanted``."""
    deadline = time.monotonic() + WAIT
    while True:
        status, body = await get_json(f"{url}/ready")
        if status == wanted:
            return dict(body)
        assert time.monotonic() < deadline, (status, body)
        await asyncio.sleep(0.05)


def test_a_server_on_sqlite_is_ready(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db") as (_, url):
            assert await get_json(f"{url}/ready") == (200, {"ok": True, "database": "ok"})

    run(scenario)


def allow_connections(database_url: str, allowed: bool) -> None:
    """Lets the server's database take connections or not; when not, ends those it has (as a
    database that went away would)."""
    parsed = make_url(database_url)
    host = parsed.query["host"]
    with psycopg.connect(host=host, user=parsed.username, dbname="postgres", autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{parsed.database}" ALLOW_CONNECTIONS {str(allowed).lower()}')
        if not allowed:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (parsed.database,),
            )


def test_a_server_that_cannot_reach_its_database_is_not_ready_until_it_can(postgres_url: str) -> None:
    async def scenario() -> None:
        async with running_server(postgres_url) as (_, url):
            assert await ready_until(url, 200) == {"ok": True, "database": "ok"}
            await asyncio.to_thread(allow_connections, postgres_url, False)
            try:
                body = await ready_until(url, 503)
                assert body == {"ok": False, "database": "unreachable"}
                assert (await get_json(f"{url}/health"))[0] == 200  # the event loop still runs
            finally:
                await asyncio.to_thread(allow_connections, postgres_url, True)
            assert await ready_until(url, 200) == {"ok": True, "database": "ok"}

    run(scenario)


@pytest.fixture
def own_redis() -> Any:
    """A Redis of this test's own (it is stopped), with a password."""
    server = Redis()
    try:
        with redis.Redis(unix_socket_path=str(server.socket)) as client:
            client.config_set("requirepass", PASSWORD)
        yield server
    finally:
        server.stop()


@pytest.mark.dbservers
@pytest.mark.cluster
def test_a_server_whose_redis_stopped_is_not_ready_and_says_which(tmp_path: Path, own_redis: Redis) -> None:
    shared = f"redis://:{PASSWORD}@127.0.0.1:{own_redis.port}/0"

    async def scenario() -> None:
        async with running_server(tmp_path / "smear.db", redis=shared) as (_, url):
            ready = await ready_until(url, 200)
            assert ready == {"ok": True, "database": "ok", "redis": "ok"}
            await asyncio.to_thread(own_redis.stop)
            status, body = await get_json(f"{url}/ready")
            assert (status, body) == (503, {"ok": False, "database": "ok", "redis": "unreachable"})
            assert (await get_json(f"{url}/health"))[0] == 200

    run(scenario)
