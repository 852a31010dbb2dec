"""When the chaos benchmark injects each of its faults beside the kills, and what it expects of them.

The faults themselves live in the server processes (``chaoskit.faults``); this side writes the
file they read:

- ``finish``: the first match to end in the run has its record fail once. Its action stands, the
  record is stored again later, and nothing else shows.
- ``restore``: at the first kill, a table still playing is made to refuse to be rebuilt, and the
  process killed is one that owns it. The process that brings it back puts it aside: it must come
  out quarantined, and it must be the only one.
- ``slow``: after the first kill, every write to the database takes longer for a few seconds.
- ``redis`` (several processes only): after the second kill (the first, if there is only one), no
  process reaches Redis for a few seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from chaoskit.clients import TableRun
from chaoskit.faults import FaultFile
from chaoskit.fleet import Fleet, Server

FAULTS = ("finish", "restore", "slow", "redis")
SLOW_STORAGE = (3.0, 0.2)  # seconds the database is slow, and the seconds each write takes more
REDIS_GONE = 2.0  # seconds no process reaches Redis


class FaultPlan:
    """The faults of one run (``kinds``, among :data:`FAULTS`) and which tables they put aside."""

    def __init__(self, kinds: set[str], workdir: Path, fleet_size: int, say: Callable[[str], None]) -> None:
        unknown = kinds - set(FAULTS)
        if unknown:
            raise ValueError(f"unknown faults: {', '.join(sorted(unknown))}")
        self.kinds = kinds if fleet_size > 1 else kinds - {"redis"}
        self.file = FaultFile(workdir / "faults.json")
        self.marker = workdir / "finish-failed"
        self.say = say
        self.refused: set[str] = set()  # tables made to refuse being rebuilt
        self.file.write(finish_fails_once=str(self.marker) if "finish" in self.kinds else None)

    @property
    def path(self) -> Path:
        return self.file.path

    def before_kill(self, tables: list[TableRun], fleet: Fleet) -> Server | None:
        """Choose the table to refuse being rebuilt, if none is yet: one still playing, owned by a
        process that is up. Returns that process, to be killed (so that the table is brought back),
        or None when any may be."""
        if "restore" not in self.kinds or self.refused:
            return None
        live = fleet.live()
        owned = {server.index: fleet.tables_of(server.cluster_name) for server in live}
        for table in tables:
            if table.people[0].status != "playing" or table.retired or table.aside:
                continue
            for server in live:
                tables_there = owned[server.index]  # None: not known (one process owns them all)
                if table.code in (tables_there or ()) or (tables_there is None and not fleet.several):
                    self.refused.add(table.code)
                    self.file.write(refuse_restore=sorted(self.refused))
                    self.say(f"fault: table {table.index} ({table.code}) will refuse to be restored")
                    return server
        return None

    def after_restart(self, number: int, kills: int) -> None:
        """Open the windows of slow storage and of Redis gone after the kill ``number``."""
        if number == 1 and "slow" in self.kinds:
            self.file.window("slow_storage", *SLOW_STORAGE)
            self.say(f"fault: the database is slow for {SLOW_STORAGE[0]:g} s")
        if number == min(2, kills) and "redis" in self.kinds:
            self.file.window("redis_gone", REDIS_GONE)
            self.say(f"fault: Redis is gone for {REDIS_GONE:g} s")

    def describe(self) -> str:
        finished = " (it failed once)" if self.marker.exists() else ""
        kinds = ", ".join(kind for kind in FAULTS if kind in self.kinds) or "none"
        return f"faults injected: {kinds}{finished}; tables made to refuse a restore: {len(self.refused)}"
