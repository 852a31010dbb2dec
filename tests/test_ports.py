"""The ports the tests give the servers they start as processes (tests/support/ports.py): under
pytest-xdist, each worker's from a block no other worker picks from, and never one in use."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from support import ports


def picks(monkeypatch: pytest.MonkeyPatch, worker: str, count: int) -> list[int]:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    return [ports.free_port() for _ in range(count)]


def test_two_workers_pick_from_blocks_of_their_own_below_the_connections_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, second = picks(monkeypatch, "gw0", 20), picks(monkeypatch, "gw1", 20)
    assert not set(first) & set(second)
    assert all(ports.FIRST_BLOCK <= port < ports.FIRST_BLOCK + ports.BLOCK for port in first), first
    second_block = range(ports.FIRST_BLOCK + ports.BLOCK, ports.FIRST_BLOCK + 2 * ports.BLOCK)
    assert all(port in second_block for port in second), second
    ranges = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
    lowest_for_connections = int(ranges.split()[0])
    assert lowest_for_connections >= ports.FIRST_BLOCK + ports.BLOCKS * ports.BLOCK
    # One worker never gives the same port twice in a row of picks.
    assert len(set(first)) == len(first)


def test_a_port_in_use_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw7")
    upcoming = ports.free_port() + 1  # the next pick, unless it is in use
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", upcoming))
        holder.listen()
        assert ports.free_port() != upcoming


def test_outside_xdist_the_kernel_picks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    port = ports.free_port()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))  # free
