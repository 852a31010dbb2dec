"""The ``smear serve`` processes that the chaos benchmark (``bench/chaos.py``) kills: one process,
started again after every kill, or several sharing one database and one Redis, killed one at a time
while the others keep serving.

With several processes every one gets ``--redis`` and a short ``--lease`` (only if its ``--help``
lists it, so an older server still starts), and the database is a throwaway PostgreSQL server by
default (:mod:`support.dbservers`). Each process keeps its port: a killed one is started again on it after a
short random pause (on another port only if something took it meanwhile), so the fleet is whole
again before the next kill.

The processes' names in the cluster are read from Redis (the new ``alive`` key when one starts), so
a kill can say how many tables the process owned when it died: those its clients on other processes
must see taken over.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import time
from collections.abc import Mapping
from pathlib import Path

import redis
from support.dbservers import Postgres, Redis
from support.serverproc import (
    ServerStartError,
    free_port,
    kill_group,
    launch,
    serve_command,
    serve_options,
    wait_healthy,
)

from smear.server.cluster.coordination import PREFIX

LEASE = 1.0  # seconds: how soon the tables of a killed process are taken over (several processes)
RESTART_PAUSE = (0.05, 1.0)  # seconds from killing one of several processes to starting it again
START_TIMEOUT = 90.0  # for a server to answer /health (the machine may be loaded)


def shared_services(
    stack: contextlib.ExitStack, servers: int, database: str | None, redis_url: str | None, workdir: Path
) -> tuple[str, str | None]:
    """The database and Redis URLs for the run: those asked for, else throwaway servers living as long
    as ``stack`` (PostgreSQL and Redis for several processes; one process gets a SQLite file)."""
    if servers > 1 and redis_url is None:
        redis_url = stack.enter_context(Redis()).url()
    if database is None:
        if servers > 1:
            database = stack.enter_context(Postgres()).new_database()
        else:
            database = f"sqlite:///{workdir / 'chaos.db'}"
    return database, redis_url


def cluster_options(redis_url: str, lease: float) -> list[str]:
    """``--redis`` (which several processes cannot do without) and ``--lease`` if the server has it."""
    if not serve_options({"--redis": redis_url}):
        raise SystemExit("this version of smear serve has no --redis: it cannot run as several processes")
    return ["--redis", redis_url, *serve_options({"--lease": f"{lease:g}"})]


class Server:
    """One ``smear serve`` process (``program serve``, with ``env`` added to its environment), started
    again on its port after every kill."""

    def __init__(
        self,
        index: int,
        database: str,
        log_path: Path,
        options: list[str],
        program: list[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.index = index
        self.database = database
        self.log_path = log_path
        self.options = options
        self.program = program
        self.env = env
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.up = False  # answering, and not being killed
        self.life = 0  # times started: a connection belongs to one life
        self.cluster_name: str | None = None  # its name in Redis, for this life (when known)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def name(self) -> str:
        """How the run's lines name it: its index, port, and name in Redis (as in its peers' logs)."""
        process = "" if self.cluster_name is None else f", process {self.cluster_name}"
        return f"server {self.index} (port {self.port}{process})"

    def start(self) -> None:
        """Start it and wait until it answers (blocking: call it in a thread)."""
        failure: Exception | None = None
        for _attempt in range(3):
            command = serve_command(self.port, self.database, self.options, self.program)
            self.process = launch(command, self.log_path, new_group=True, append=True, env=self.env)
            try:
                wait_healthy(self.url, self.process, START_TIMEOUT)
                return
            except ServerStartError as err:
                failure = err
                kill_group(self.process)
                self.port = free_port()  # another program may have taken the port meanwhile
        raise ServerStartError(f"the server did not start: {failure}")

    def kill(self) -> None:
        if self.process is not None:
            kill_group(self.process)

    def stop(self) -> None:
        """Stop it gently, and kill whatever is left of its process group."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
        kill_group(process)


class Fleet:
    """The run's server processes: which are up, which a client connects to, which is killed next.

    Its own random generator makes those choices, and draws nothing with one process, so a run with
    one process plays as it did before there could be several.
    """

    def __init__(
        self,
        count: int,
        database: str,
        workdir: Path,
        options: list[str],
        seed: int,
        redis_url: str | None,
        program: list[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        def log_path(index: int) -> Path:
            return workdir / ("server.log" if count == 1 else f"server-{index}.log")

        self.servers = [
            Server(index, database, log_path(index), options, program, env) for index in range(count)
        ]
        self.options = options
        self.rng = random.Random(f"fleet {seed}")
        self.up = asyncio.Event()  # set while any process is up
        self.redis = None if redis_url is None else redis.Redis.from_url(redis_url)

    @property
    def several(self) -> bool:
        return len(self.servers) > 1

    def live(self) -> list[Server]:
        return [server for server in self.servers if server.up]

    def pick(self) -> Server | None:
        """A process that is up, at random; None if none is."""
        live = self.live()
        if len(live) <= 1:
            return live[0] if live else None
        return self.rng.choice(live)

    def victim(self) -> Server:
        """The process to kill next, at random among those up."""
        return self.pick() or self.servers[0]

    def pause(self) -> float:
        """How long a killed process stays down (none with one process: it is all there is)."""
        return self.rng.uniform(*RESTART_PAUSE) if self.several else 0.0

    async def start(self, server: Server) -> float:
        """Start ``server`` and wait until it answers; returns the seconds it took."""
        began = time.monotonic()
        before = await asyncio.to_thread(self._alive_names)
        await asyncio.to_thread(server.start)
        new = await asyncio.to_thread(self._alive_names) - before
        server.cluster_name = new.pop() if len(new) == 1 else None
        server.life += 1
        server.up = True
        self.up.set()
        return time.monotonic() - began

    async def start_all(self) -> None:
        for server in self.servers:  # one after the other: the first creates the database's tables
            await self.start(server)

    async def kill(self, server: Server) -> int | None:
        """SIGKILL ``server``; returns how many tables it owned then (None when that is not known)."""
        server.up = False
        if not self.live():
            self.up.clear()
        owned = await asyncio.to_thread(self._owned_by, server.cluster_name)
        await asyncio.to_thread(server.kill)
        return owned

    def stop(self) -> None:
        """Stop every process (blocking)."""
        for server in self.servers:
            server.up = False
            server.stop()
        if self.redis is not None:
            self.redis.close()

    def describe(self) -> str:
        settings = " ".join(self.options) or "its default settings"
        if not self.several:
            return f"server up at {self.servers[0].url} with {settings}"
        names = ", ".join(server.name for server in self.servers)
        return f"{len(self.servers)} servers up: {names}; with {settings}"

    def troubles(self) -> list[str]:
        """Tracebacks and errors in the processes' output, as short lines (naming the process if
        there are several)."""
        lines = []
        for server in self.servers:
            found = server_troubles(server.log_path)
            lines += [f"server {server.index}: {line}" for line in found] if self.several else found
        return lines

    # --- what Redis says ------------------------------------------------------------------------------

    def _alive_names(self) -> set[str]:
        if self.redis is None:
            return set()
        with contextlib.suppress(redis.RedisError):
            keys = self.redis.keys(f"{PREFIX}alive:*")
            return {text(key).removeprefix(f"{PREFIX}alive:") for key in keys}
        return set()

    def _owned_by(self, name: str | None) -> int | None:
        tables = self.tables_of(name)
        return None if tables is None else len(tables)

    def tables_of(self, name: str | None) -> set[str] | None:
        """The codes of the tables process ``name`` holds the lease of (None when that is not known)."""
        if self.redis is None or name is None:
            return None
        with contextlib.suppress(redis.RedisError):
            keys = list(self.redis.scan_iter(f"{PREFIX}lease:*", count=1000))
            owners = self.redis.mget(keys) if keys else []
            return {
                text(key).removeprefix(f"{PREFIX}lease:")
                for key, owner in zip(keys, owners, strict=True)
                if owner is not None and text(owner) == name
            }
        return None


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def server_troubles(log_path: Path) -> list[str]:
    """Tracebacks and errors in a server's output, as short lines."""
    try:
        lines = log_path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    troubles = [line for line in lines if "Traceback" in line or "ERROR" in line or "Error" in line]
    return [line[:200] for line in troubles]
