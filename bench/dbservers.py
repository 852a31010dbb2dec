"""Throwaway database servers for the tests and the benchmarks: a real PostgreSQL, started in a
temporary directory.

``scripts/test`` installs Debian's ``postgresql``; :class:`Postgres` runs its ``initdb`` and
``pg_ctl`` from the PATH or from ``/usr/lib/postgresql/<version>/bin``. The server listens only on a
Unix socket inside its own directory (no TCP port to collide with another run) and trusts local
connections. PostgreSQL refuses to run as root: as root, the commands run as the ``postgres`` user
the package creates, and the directory is handed to it. For the tests durability is not the
throwaway server's concern, and by default it runs with ``fsync=off``; a benchmark asks for
``durable=True``, PostgreSQL's own defaults (every commit flushed to disk before it returns).
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

START_TIMEOUT = 60  # seconds for pg_ctl to see the server accept connections
SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server programs on this machine (``scripts/test`` installs them)."""


def postgres_bin(program: str) -> str:
    """The path of a PostgreSQL server program: on the PATH, else in the newest installed version."""
    found = shutil.which(program)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name))
    for folder in reversed(versions):
        if (folder / program).exists():
            return str(folder / program)
    raise PostgresUnavailable(f"{program} not found: install Debian's postgresql (scripts/test does)")


class Postgres:
    """One throwaway PostgreSQL server; :meth:`new_database` gives each test a database of its own."""

    def __init__(self, durable: bool = False) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="smear-postgres-"))
        self.data = self.directory / "data"
        self.log = self.directory / "server.log"
        self._as_postgres = os.geteuid() == 0
        self._numbers = itertools.count(1)
        if self._as_postgres:
            shutil.chown(self.directory, SUPERUSER)
        self._run(postgres_bin("initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8")
        options = f"-k {self.directory} -c listen_addresses='' -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c full_page_writes=off"
        self._run(
            postgres_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options,
            "-w", "-t", str(START_TIMEOUT), "start",
        )  # fmt: skip

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", SUPERUSER, "--"] if self._as_postgres else []
        result = subprocess.run([*prefix, *command], capture_output=True, text=True, cwd=self.directory)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(command[:2])} failed: {result.stderr or result.stdout}\n{log}")

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of one of this server's databases (psycopg 3, over the Unix socket)."""
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.directory}"

    def new_database(self) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = f"test_{os.getpid()}_{next(self._numbers)}"
        address = {"host": str(self.directory), "user": SUPERUSER, "dbname": "postgres"}
        with psycopg.connect(**address, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def __enter__(self) -> Postgres:
        return self

    def __exit__(self, *_exception: object) -> None:
        self.stop()

    def stop(self) -> None:
        try:
            self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
