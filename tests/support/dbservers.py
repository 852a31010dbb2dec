"""Throwaway database servers for the tests and the benchmarks: a real PostgreSQL and a real Redis,
each started in a temporary directory of its own.

``scripts/test`` installs Debian's ``postgresql``; :class:`Postgres` runs its ``initdb`` and
``pg_ctl`` from the PATH or from ``/usr/lib/postgresql/<version>/bin``. The server listens only on a
Unix socket inside its own directory (no TCP port to collide with another run) and trusts local
connections. PostgreSQL refuses to run as root: as root, the commands run as the ``postgres`` user
the package creates, and the directory is handed to it. For the tests durability is not the
throwaway server's concern, and by default it runs with ``fsync=off``; a benchmark asks for
``durable=True``, PostgreSQL's own defaults (every commit flushed to disk before it returns).

``scripts/test`` installs Debian's ``redis-server`` too; :class:`Redis` runs it in the foreground,
without persistence, on a Unix socket in its directory and on a free TCP port of 127.0.0.1 (the
tests' processes on "other machines" connect over TCP). Redis runs as root without complaint.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from support.ports import free_port as free_port  # re-exported: where the tests take it

START_TIMEOUT = 60  # seconds for pg_ctl to see the server accept connections
REDIS_START_TIMEOUT = 30  # seconds for redis-server to answer PING
REDIS_STOP_TIMEOUT = 10  # seconds for redis-server to exit on SIGTERM before it is killed
PORT_ATTEMPTS = 3
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
        self._options = f"-k {self.directory} -c listen_addresses='' -c max_connections=200"
        if not durable:
            self._options += " -c fsync=off -c full_page_writes=off"
        self.resume()

    def halt(self) -> None:
        """Stop the server (as an operator restarting it does), keeping its data for :meth:`resume`."""
        self._run(postgres_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server (again, after :meth:`halt`)."""
        self._run(
            postgres_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", self._options,
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


class RedisUnavailable(RuntimeError):
    """No ``redis-server`` on this machine (``scripts/test`` installs Debian's)."""


class Redis:
    """One throwaway Redis server; :meth:`flush` empties it between tests."""

    def __init__(self) -> None:
        program = shutil.which("redis-server")
        if program is None:
            raise RedisUnavailable(
                "redis-server not found: install Debian's redis-server (scripts/test does)"
            )
        self.directory = Path(tempfile.mkdtemp(prefix="smear-redis-"))
        self.socket = self.directory / "redis.sock"
        self.log = self.directory / "redis.log"
        # Another process may take the free port before redis-server binds it: then try another one.
        for attempt in range(1, PORT_ATTEMPTS + 1):
            self.port = free_port()
            self._start(program)
            try:
                self._wait_until_ready()
                return
            except BaseException as error:
                self.stop()
                taken = isinstance(error, RuntimeError) and "Address already in use" in str(error)
                if not taken or attempt == PORT_ATTEMPTS:
                    raise

    def _start(self, program: str) -> None:
        self.directory.mkdir(exist_ok=True)
        command = [
            program, "--port", str(self.port), "--bind", "127.0.0.1",
            "--unixsocket", str(self.socket), "--unixsocketperm", "700",
            "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", str(self.directory),
        ]  # fmt: skip
        # stdout rather than --logfile: it also catches what redis-server says before it reads its options.
        with self.log.open("wb") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, cwd=self.directory
            )

    def _wait_until_ready(self) -> None:
        import redis

        deadline = time.monotonic() + REDIS_START_TIMEOUT
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(
                    f"redis-server exited with {self._process.returncode}:\n{self._log_tail()}"
                )
            try:
                with redis.Redis(unix_socket_path=str(self.socket)) as client:
                    client.ping()
                return
            except (redis.ConnectionError, redis.BusyLoadingError):
                # The socket is not there yet, or the server is still starting up.
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"redis-server did not answer PING in {REDIS_START_TIMEOUT} s:\n{self._log_tail()}"
                    ) from None
                time.sleep(0.05)

    def _log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""

    def url(self) -> str:
        """The URL of database 0 over TCP, for processes that stand in for other machines."""
        return f"redis://127.0.0.1:{self.port}/0"

    def unix_url(self) -> str:
        """The URL of database 0 over the Unix socket."""
        return f"unix://{self.socket}"

    def flush(self) -> None:
        """Empties every database of the server (FLUSHALL)."""
        import redis

        with redis.Redis(unix_socket_path=str(self.socket)) as client:
            client.flushall()

    def halt(self) -> None:
        """Stop the server (SIGTERM), keeping its port and directory for :meth:`resume`."""
        self._process.terminate()
        self._process.wait(REDIS_STOP_TIMEOUT)

    def resume(self) -> None:
        """Start the server :meth:`halt` stopped again, on the same port, empty."""
        if self._process.poll() is None:
            return
        program = shutil.which("redis-server")
        assert program is not None
        self._start(program)
        self._wait_until_ready()

    def __enter__(self) -> Redis:
        return self

    def __exit__(self, *_exception: object) -> None:
        self.stop()

    def stop(self) -> None:
        try:
            self._process.terminate()  # SIGTERM: Redis shuts down cleanly (with nothing to save)
            try:
                self._process.wait(REDIS_STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
