"""Faults the chaos benchmark (``bench/chaos.py``) injects into the server processes it starts.

A normal server never loads this module: only ``bench/chaosserver.py``, the benchmark's entry point
for ``smear``, installs it, and only when the environment variable ``SMEAR_CHAOS_FAULTS`` names a
JSON file, which the benchmark rewrites as the run goes (:class:`FaultFile`). What it may hold:

- ``finish_fails_once``: a path. The first ``Storage.finish_match`` of the whole run raises (the
  first process to create that file makes it fail; every later one goes through).
- ``refuse_restore``: table codes whose stored match a process refuses to rebuild, as a rules fix
  would (the server puts such a table aside).
- ``slow_storage``: ``[from, until, seconds]``: between those wall-clock times each write to the
  database takes ``seconds`` more.
- ``redis_gone``: ``[from, until]``: between those times no command reaches Redis, as if it could
  not be reached.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ENV = "SMEAR_CHAOS_FAULTS"
READ_EVERY = 0.1  # seconds a process keeps what it read of the file


class FaultFile:
    """The faults of a run, as the benchmark writes them and a server process reads them."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._faults: dict[str, Any] = {}
        self._read_at = float("-inf")

    # --- the benchmark's side ---

    def write(self, **changes: Any) -> None:
        """Change some faults and keep the others (written whole, then renamed into place)."""
        faults = self.read(fresh=True) | changes
        spare = self.path.with_suffix(".tmp")
        spare.write_text(json.dumps(faults))
        spare.replace(self.path)

    def window(self, name: str, seconds: float, *extra: float) -> None:
        """Fault ``name`` from now for ``seconds`` (with ``extra`` values after the times)."""
        now = time.time()
        self.write(**{name: [now, now + seconds, *extra]})

    # --- a server process's side ---

    def read(self, fresh: bool = False) -> dict[str, Any]:
        now = time.monotonic()
        if fresh or now - self._read_at > READ_EVERY:
            with contextlib.suppress(OSError, ValueError):
                self._faults = json.loads(self.path.read_text())
            self._read_at = now
        return self._faults

    def active(self, name: str) -> list[float] | None:
        """The values of window ``name`` if it is open now."""
        window = self.read().get(name)
        if window and window[0] <= time.time() < window[1]:
            return list(window)
        return None

    def finish_fails(self) -> bool:
        """Whether this is the run's one failing finish (true once, in one process)."""
        marker = self.read().get("finish_fails_once")
        if not marker:
            return False
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True

    def refuses(self, code: str) -> bool:
        return code in self.read(fresh=True).get("refuse_restore", [])

    def slow_down(self) -> None:
        window = self.active("slow_storage")
        if window is not None:
            time.sleep(window[2])


def install() -> None:
    """Patch the server's storage, restore and Redis connections to obey the fault file, if any."""
    path = os.environ.get(ENV)
    if not path:
        return
    faults = FaultFile(Path(path))
    _patch_storage(faults)
    _patch_restore(faults)
    _patch_redis(faults)


def _patch_storage(faults: FaultFile) -> None:
    # A server from before its sub-packages keeps its storage in one module, mixed from its parts.
    database = _first_module("smear.server.storage.database", "smear.server.storage")
    Storage = database.Storage
    transactions = _first_module("smear.server.storage.transactions", "smear.server.storage")
    Transactions = getattr(transactions, "Transactions", Storage)
    opening = "write" if hasattr(Transactions, "write") else "_transaction"
    finish, insert = Storage.finish_match, Storage._insert_actions
    transaction = getattr(Transactions, opening)

    def finish_match(self: Any, *args: Any, **kwargs: Any) -> None:
        if faults.finish_fails():
            raise RuntimeError("a chaos fault: this finish fails once")
        finish(self, *args, **kwargs)

    def insert_actions(self: Any, rows: list[dict[str, Any]]) -> None:
        faults.slow_down()
        insert(self, rows)

    @contextlib.contextmanager
    def slow_transaction(self: Any, what: str) -> Iterator[Any]:
        with transaction(self, what) as session:
            faults.slow_down()
            yield session

    Storage.finish_match = finish_match
    Storage._insert_actions = insert_actions
    setattr(Transactions, opening, slow_transaction)


def _first_module(*names: str) -> Any:
    """The first of the modules ``names`` that imports: a newer server's path, then an older one's."""
    for name in names[:-1]:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return importlib.import_module(names[-1])


def _patch_restore(faults: FaultFile) -> None:
    TableStore = _first_module("smear.server.tables.live", "smear.server.core").TableStore

    rebuilt = getattr(TableStore, "_rebuilt", None)
    if rebuilt is None:  # a server from before tables were rebuilt one at a time
        return

    def refusing(self: Any, stored: Any, *args: Any) -> Any:
        if faults.refuses(stored.code):
            raise ValueError("a chaos fault: this table's match no longer replays")
        return rebuilt(self, stored, *args)

    TableStore._rebuilt = refusing


def _patch_redis(faults: FaultFile) -> None:
    from redis.asyncio.connection import AbstractConnection
    from redis.exceptions import ConnectionError as RedisConnectionError

    send = AbstractConnection.send_packed_command

    async def send_packed_command(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        if faults.active("redis_gone") is not None:
            await self.disconnect()
            raise RedisConnectionError("a chaos fault: Redis cannot be reached")
        await send(self, *args, **kwargs)

    AbstractConnection.send_packed_command = send_packed_command  # type: ignore[method-assign]
