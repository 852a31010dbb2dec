"""Hints on a budget of their own: one worker thread, a bounded queue and one answer per turn.

A hint is a search by the expert bot (tens of milliseconds or more). Worked out beside the tables'
bots, a flood of hint requests would slow every table; here each seat's hint for a version is
worked out once and shared by every request for it, at most ``queue`` hints are under way at
once (more are refused with ``hints_busy``), and they run on their own thread.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

from smear.bots.expert import Advice, ExpertBot
from smear.server.tables import TableError
from smear.views import PlayerView


class HintService:
    """The expert's advice for a table's seat at a version, worked out once."""

    def __init__(self, queue: int) -> None:
        self.queue = queue
        self.working = 0
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="smear-hint")
        self._rng = random.Random()
        # Per table: the version whose hints are kept, and each seat's advice for it.
        self._kept: dict[str, tuple[int, dict[int, asyncio.Future[Advice]]]] = {}

    async def advise(self, code: str, version: int, seat: int, view: PlayerView) -> Advice:
        kept = self._kept.get(code)
        if kept is None or kept[0] != version:
            kept = self._kept[code] = (version, {})
        future = kept[1].get(seat)
        if future is None:
            if self.queue and self.working >= self.queue:
                raise TableError("hints_busy")
            self.working += 1
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._pool, ExpertBot().advise, view, self._rng)
            future.add_done_callback(self._done)
            kept[1][seat] = future
        # Shielded: one asker going away does not cancel the answer the others wait for.
        return await asyncio.shield(future)

    def _done(self, _future: asyncio.Future[Advice]) -> None:
        self.working -= 1

    def forget(self, code: str) -> None:
        """Drop a table's kept advice (the table left memory)."""
        self._kept.pop(code, None)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
