"""Fixtures shared by every test folder: throwaway database servers (see ``dbservers.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from dbservers import Postgres, Redis


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One PostgreSQL server for this test process, started the first time a test asks for it."""
    with Postgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres: Postgres) -> str:
    """The URL of a new, empty PostgreSQL database for one test."""
    return postgres.new_database()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Redis]:
    """One Redis server for this test process, started the first time a test asks for it."""
    with Redis() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: Redis) -> str:
    """The TCP URL of the Redis server, emptied for one test."""
    redis_server.flush()
    return redis_server.url()
