"""The throwaway Redis server of ``tests/support/dbservers.py``: reachable on both its addresses, and gone
without a trace once stopped."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import redis
from support.dbservers import Redis, RedisUnavailable


def test_redis_answers_over_tcp_and_the_unix_socket(redis_url: str, redis_server: Redis) -> None:
    with redis.Redis.from_url(redis_url) as tcp, redis.Redis.from_url(redis_server.unix_url()) as unix:
        assert tcp.set("seat", "north")
        assert unix.get("seat") == b"north"  # one server behind both URLs
        assert unix.set("bid", "3")
        assert tcp.get("bid") == b"3"


def test_flush_empties_every_database(redis_server: Redis) -> None:
    with (
        redis.Redis.from_url(redis_server.url()) as first,
        redis.Redis(host="127.0.0.1", port=redis_server.port, db=1) as second,
    ):
        first.set("score", "7")
        second.set("score", "11")
        redis_server.flush()
        assert first.dbsize() == 0
        assert second.dbsize() == 0


def test_stopped_redis_leaves_nothing_behind() -> None:
    server = Redis()
    with redis.Redis.from_url(server.unix_url()) as client:
        assert client.ping()
    assert server.socket.exists()

    server.stop()

    assert not server.socket.exists()
    assert not server.directory.exists()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", server.port), timeout=5).close()


def test_missing_redis_server_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH with no redis-server on it
    with pytest.raises(RedisUnavailable, match="scripts/test"):
        Redis()
