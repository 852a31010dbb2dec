"""Fixtures shared by every test folder: throwaway database servers (see ``support/dbservers.py``).
Here too each collected test gets the markers of its tiers (``tiers.py`` says which), and the run its
Hypothesis profile: ``full`` (scripts/test, and always where CI is set) or ``quick``
(scripts/test-fast), named by HYPOTHESIS_PROFILE.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings
from support.dbservers import Postgres, Redis
from tiers import hypothesis_profile, tiers


# First, so that -m deselects by the markers given here.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for mark in sorted(tiers(item)):
            item.add_marker(mark)


# A test's own @settings(max_examples=...) outranks the profile: these set the others' default. No
# deadline: a test's time on a loaded machine is no failure.
settings.register_profile("full", max_examples=100, deadline=None, print_blob=True)
settings.register_profile("quick", max_examples=20, deadline=None)
settings.load_profile(hypothesis_profile(os.environ))


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
