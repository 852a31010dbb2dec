"""A process that has left the cluster sends nothing more to Redis (smear.server.cluster.coordination):
a request still being answered during the shutdown is refused as if Redis were gone, rather than
opening a connection after the client closed, which nobody would close."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis
from redis.exceptions import RedisError

from smear.server.cluster.coordination import Cluster, LeftCluster


def clients_of(url: str) -> int:
    """How many connections Redis has, besides the one asking."""
    with redis.Redis.from_url(url) as asking:
        return len(asking.client_list()) - 1


async def nothing(_message: dict[str, Any]) -> None:
    return None


def test_a_process_that_left_the_cluster_opens_no_connection_to_redis(redis_url: str) -> None:
    before = clients_of(redis_url)

    async def scenario() -> None:
        cluster = Cluster(redis_url)
        await cluster.start(nothing)
        assert await cluster.claim("table-a") == cluster.process
        assert clients_of(redis_url) > before  # the channel's listener, and the commands' own
        await cluster.close()
        assert clients_of(redis_url) == before
        # Late requests of every kind: refused as Redis being gone, and not one connection opened.
        with pytest.raises(LeftCluster):
            await cluster.claim("table-b")
        with pytest.raises(RedisError):
            await cluster.renew()
        with pytest.raises(RedisError):
            await cluster.release("table-a")
        with pytest.raises(RedisError):
            await cluster.redis.hgetall("anything")
        assert clients_of(redis_url) == before

    asyncio.run(asyncio.wait_for(scenario(), 30))
    # Nothing the cluster left was claimed or kept alive after it went.
    with redis.Redis.from_url(redis_url) as asking:
        assert asking.keys("*table-b*") == []
