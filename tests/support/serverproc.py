"""``smear serve`` as a child process, for the benchmarks that drive a real server over the network.

Shared by the load, chaos and fuzz benchmarks and ``bench/stackfloor.py``: a free port of 127.0.0.1,
the command line (with only the options this version of the server lists in ``--help``), waiting
for ``GET /health``, stopping or killing the process, and the tail of its log.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from support.ports import free_port as free_port  # re-exported: where the tests and benches take it


class ServerStartError(RuntimeError):
    """The server exited, or did not answer ``/health`` in time."""


def serve_command(
    port: int, database: str, options: list[str] | None = None, program: list[str] | None = None
) -> list[str]:
    """``python -m smear serve`` (or ``program serve``) on 127.0.0.1:``port``, with ``database`` and
    further ``options``."""
    program = program or [sys.executable, "-m", "smear"]
    command = [*program, "serve", "--host", "127.0.0.1", "--port", str(port)]
    return command + ["--database", database] + (options or [])


@functools.cache
def _serve_help() -> str:
    command = [sys.executable, "-m", "smear", "serve", "--help"]
    return subprocess.run(command, capture_output=True, text=True, check=True, timeout=60).stdout


def serve_options(wanted: Mapping[str, str]) -> list[str]:
    """``wanted`` (``{"--grace": "1"}``) as arguments, keeping only the options ``smear serve --help``
    lists: a server that does not have a setting yet still starts, with its default."""
    listed = _serve_help()
    arguments: list[str] = []
    for option, value in wanted.items():
        if re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", listed):
            arguments += [option, value]
    return arguments


def launch(
    command: list[str],
    log_path: Path,
    *,
    new_group: bool = False,
    append: bool = False,
    env: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``command`` with its output (standard output and error) in ``log_path``, and ``env``
    added to its environment.

    With ``new_group`` it leads a process group of its own, which :func:`kill_group` can kill whole.
    """
    environment = None if env is None else {**os.environ, **env}
    with log_path.open("ab" if append else "wb") as log:
        return subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, start_new_session=new_group, env=environment
        )


def wait_healthy(url: str, process: subprocess.Popen[bytes] | None, timeout: float = 60.0) -> None:
    """Wait until ``GET url/health`` answers 200 (raises :class:`ServerStartError`)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if process is not None and process.poll() is not None:
            raise ServerStartError(f"the server exited with status {process.returncode}")
        if time.monotonic() > deadline:
            raise ServerStartError(f"no answer from {url}/health within {timeout:.0f} s")
        time.sleep(0.1)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Ask the server to stop (SIGTERM); kill it if it has not within 10 seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process group led by ``process`` (started with ``new_group``) and reap it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):  # it died by itself meanwhile
            os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def server_log(path: Path, lines: int, since: int = 0) -> str:
    """The last lines the server wrote after byte ``since`` (its start-up banner); empty if none."""
    try:
        with path.open("rb") as log:
            log.seek(since)
            tail = log.read().decode(errors="replace").splitlines()[-lines:]
    except OSError:
        return ""
    return "server log (last lines):\n  " + "\n  ".join(tail) if tail else ""
