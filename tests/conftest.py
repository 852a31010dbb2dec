"""Fixtures shared by every test folder: throwaway database servers (see ``dbservers.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from dbservers import Postgres


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One PostgreSQL server for this test process, started the first time a test asks for it."""
    with Postgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres: Postgres) -> str:
    """The URL of a new, empty PostgreSQL database for one test."""
    return postgres.new_database()
