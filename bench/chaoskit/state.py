"""What the chaos benchmark's clients share with the run: its kills and server processes, its random
generator, the tally of what the clients saw, the generation of server lives, its tasks and its log.

The run (``chaoskit.run``) drives it; the clients (``chaoskit.clients``) read and add to it; it
imports neither.
"""

from __future__ import annotations

import asyncio
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine
from typing import Any

from chaoskit.fleet import Fleet
from chaoskit.plan import Tally


class RunState:
    """The kills, the server processes and what the clients saw, shared by every client of a run.

    ``generation`` counts the fleet's lives: 1 once every process is up, one more each time a killed
    process is up again. A client's state belongs to the generation when it arrived if its connection's
    process life still runs, else to the one its connection was opened in; a table is done once a
    client sees it finish in the generation after the last kill.
    """

    def __init__(self, kills: int, seed: int, log: Callable[[str], None], fleet: Fleet) -> None:
        self.kills = kills
        self.fleet = fleet
        self.rng = random.Random(seed)
        self.log = log
        self.began = time.monotonic()
        self.tally = Tally()
        self.generation = 0
        self.stopping = asyncio.Event()
        self.tasks: set[asyncio.Task[Any]] = set()

    def say(self, text: str) -> None:
        self.log(f"[{time.monotonic() - self.began:7.1f}s] {text}")

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def refused(self, event: str, reply: dict[str, Any]) -> str:
        code = str(reply.get("error", {}).get("code", "?"))
        self.tally.refusals[f"{event}: {code}"] += 1
        return code

    def more_matches(self, generation: int) -> bool:
        """Whether a match finished in ``generation`` is followed by another: yes until the last."""
        return generation <= self.kills

    async def match_recorded(self, code: str, match: int) -> bool:
        """Whether the server has the record of that match, i.e. it finished."""
        server = self.fleet.pick()
        if server is None:
            return False
        url = f"{server.url}/tables/{code}/matches/{match}/record.json"

        def fetch() -> bool:
            try:
                with urllib.request.urlopen(url, timeout=10) as response:
                    return bool(response.status == 200)
            except (urllib.error.URLError, OSError):
                return False

        return match > 0 and await asyncio.to_thread(fetch)
