"""How long the server takes to serve a practice position and to judge an attempt.

A server runs in this process on a SQLite file, with ``--positions`` positions stored (made from
random moments of matches, as the leak audit makes them: ``leakkit.practice``). One profile then asks
for its next position and answers it, ``--rounds`` times, one request at a time, and each request is
timed from sending to the last byte of its answer (so the figure includes the HTTP client on the
same machine: the server's own share is less). Nothing is searched: both read or write stored rows.

Usage: python bench/practice_serving.py [--positions 2000] [--rounds 300]

Prints::

    positions: N
    next_p50_ms: X
    next_p99_ms: X
    attempt_p50_ms: X
    attempt_p99_ms: X
    daily_p50_ms: X
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # support: the in-process server

import aiohttp
from leakkit.practice import made_positions
from support.inprocess import served

from smear.practice.record import PracticePosition
from smear.server.app import build_server
from smear.server.limits import Limits


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def timed(call: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    async with call as response:
        body = await response.json()
    return time.perf_counter() - began, body


async def measure(positions: int, rounds: int, database: Path) -> dict[str, float]:
    server = build_server(f"sqlite:///{database}", limits=Limits(practice_per_hour=0))
    records = [PracticePosition.model_validate(record) for record in made_positions(positions, seed=1)]
    server.storage.practice.import_positions(records, 0.0)
    next_times, attempt_times, daily_times = [], [], []
    async with served(server.asgi_app()) as base, aiohttp.ClientSession() as http:
        async with http.post(f"{base}/api/players", json={"name": "Bench"}) as response:
            profile = await response.json()
        auth = {"Authorization": f"Bearer {profile['secret']}"}
        mine = f"{base}/api/players/{profile['player']}/practice"
        for _ in range(rounds):
            seconds, served_next = await timed(http.get(f"{mine}/next", headers=auth))
            next_times.append(seconds)
            position = served_next["position"]
            choice = {"choice": position["choices"][0]}
            seconds, _ = await timed(http.post(f"{mine}/{position['id']}", json=choice, headers=auth))
            attempt_times.append(seconds)
            seconds, _ = await timed(http.get(f"{base}/api/practice/daily"))
            daily_times.append(seconds)
    return {
        "next_p50_ms": percentile(next_times, 0.5),
        "next_p99_ms": percentile(next_times, 0.99),
        "attempt_p50_ms": percentile(attempt_times, 0.5),
        "attempt_p99_ms": percentile(attempt_times, 0.99),
        "daily_p50_ms": statistics.median(daily_times) * 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000, help="positions stored (2000)")
    parser.add_argument("--rounds", type=int, default=300, help="next + attempt rounds timed (300)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        figures = asyncio.run(measure(args.positions, args.rounds, Path(workdir) / "practice.db"))
    print(f"positions: {args.positions}")
    for name, value in figures.items():
        print(f"{name}: {value:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
