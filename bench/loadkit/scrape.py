"""``bench/load.py --scrape-metrics``: the servers serve their metrics (``smear serve --metrics``), and
something scrapes them every second during every other period of the measured window, so the p99 of
the acts sent while they were scraped and of those sent while they were not come from one run, under
the same tables, the same machine and the same moment.

The window is cut in periods of :data:`PERIOD` seconds from its start; the odd ones are scraped. An
act counts where it was sent.
"""

from __future__ import annotations

import threading
import time
import urllib.request
from dataclasses import dataclass, field

PERIOD = 5.0  # seconds of scraping, then as many without, and again
EVERY = 1.0  # seconds between two scrapes, as Prometheus is often set


def scraped_at(moment: float, start: float) -> bool:
    """Whether the metrics were being scraped at ``moment`` of a window begun at ``start``."""
    return moment >= start and int((moment - start) // PERIOD) % 2 == 1


@dataclass
class Scraper:
    """Scrapes every URL of ``urls`` each second in the scraped periods of the window."""

    urls: list[str]
    window: tuple[float, float] | None = None
    scrapes: int = 0
    failed: int = 0
    bytes_read: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="scraper", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.wait(EVERY):
            window, now = self.window, time.monotonic()
            if window is None or not window[0] <= now < window[1] or not scraped_at(now, window[0]):
                continue
            for url in self.urls:
                try:
                    with urllib.request.urlopen(url, timeout=5) as response:
                        self.bytes_read += len(response.read())
                    self.scrapes += 1
                except OSError:
                    self.failed += 1


def split_p99(samples: list[tuple[float, float]], start: float) -> tuple[list[float], list[float]]:
    """The latencies of ``(sent at, latency)`` samples sent while not scraped, and while scraped."""
    quiet = sorted(latency for sent, latency in samples if not scraped_at(sent, start))
    scraped = sorted(latency for sent, latency in samples if scraped_at(sent, start))
    return quiet, scraped
