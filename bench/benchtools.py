"""What the server benchmarks measure with: CPU seconds of a process and of the machine (from
/proc), each one's share of a span, percentiles, and the open-files limit raised for many sockets."""

from __future__ import annotations

import math
import os
import resource
import sys
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far, or None if it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_cpu() -> tuple[float, float, float]:
    """(busy, total, stolen) CPU seconds of the whole machine so far, from /proc/stat. ``stolen`` is
    the time a virtual machine's cores waited for the host; it counts in neither busy nor total."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0, 0.0, 0.0
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    stolen = values[7] if len(values) > 7 else 0
    total = sum(values[:8]) - stolen
    return (total - idle) / CLOCK_TICKS, total / CLOCK_TICKS, stolen / CLOCK_TICKS


def machine_since(now: tuple[float, float, float], then: tuple[float, float, float]) -> tuple[float, ...]:
    return tuple(a - b for a, b in zip(now, then, strict=True))


def cpu_shares(
    server: float | None, clients: float, machine: tuple[float, ...], span: float, cores: int
) -> str:
    """CPU used over ``span`` seconds, as % of one core: the server, the clients, everything else.

    ``machine`` is the (busy, total, stolen) CPU seconds of the whole machine over the same span;
    what the server and the clients did not use of it is other processes (another load skews the
    figures). Time the host took from this virtual machine's cores is given apart: it slows
    everything without showing as anyone's use.
    """
    parts = [f"server {100 * server / span:.0f}%" if server is not None else "server n/a"]
    parts.append(f"clients {100 * clients / span:.0f}%")
    if machine[1] > 0:
        elapsed = machine[1] + machine[2]  # every core's time, the host's share included
        busy = 100 * cores * machine[0] / elapsed
        others = busy - 100 * clients / span - (100 * server / span if server is not None else 0.0)
        parts.append(f"other processes {max(0.0, others):.0f}%")
        parts.append(f"machine {busy:.0f}% of {100 * cores}%")
        if machine[2] > 0:
            parts.append(f"stolen by the host {100 * cores * machine[2] / elapsed:.0f}%")
    return ", ".join(parts)


def raise_file_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        if target < needed:
            print(f"warning: open files limited to {target}, {needed} wanted", file=sys.stderr)


def percentile(ordered: list[float], share: float) -> float:
    """Nearest-rank percentile of a sorted list."""
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]
