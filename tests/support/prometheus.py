"""A throwaway Prometheus for the tests: Debian's ``prometheus`` (``scripts/test`` installs it with
the database servers) scraping one target every second, with a rules file, in a temporary directory
of its own, on a free port of 127.0.0.1; read through its own HTTP API (``/api/v1/query``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from support.dbservers import free_port

START_TIMEOUT = 60  # seconds for Prometheus to say it is ready
STOP_TIMEOUT = 10


class PrometheusUnavailable(RuntimeError):
    """No ``prometheus`` on this machine (``scripts/test`` installs Debian's)."""


class Prometheus:
    """One Prometheus scraping ``target`` (``HOST:PORT``) as the job ``smear`` every second."""

    def __init__(self, target: str, rules: Path | None = None) -> None:
        program = shutil.which("prometheus")
        if program is None:
            raise PrometheusUnavailable(
                "prometheus not found: install Debian's prometheus (scripts/test does)"
            )
        self.directory = Path(tempfile.mkdtemp(prefix="smear-prometheus-"))
        self.log = self.directory / "prometheus.log"
        config = {
            "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
            "rule_files": [str(rules)] if rules is not None else [],
            "scrape_configs": [{"job_name": "smear", "static_configs": [{"targets": [target]}]}],
        }
        (self.directory / "prometheus.yml").write_text(json.dumps(config))  # JSON is YAML
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [
            program, f"--config.file={self.directory / 'prometheus.yml'}",
            f"--storage.tsdb.path={self.directory / 'data'}", f"--web.listen-address=127.0.0.1:{self.port}",
        ]  # fmt: skip
        with self.log.open("wb") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, cwd=self.directory
            )
        try:
            self.wait_until(self._ready, "Prometheus to be ready", START_TIMEOUT)
        except BaseException:
            self.stop()
            raise

    def _ready(self) -> bool:
        if self._process.poll() is not None:
            raise RuntimeError(f"prometheus exited with {self._process.returncode}:\n{self.log_tail()}")
        try:
            with urllib.request.urlopen(f"{self.url}/-/ready", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def api(self, path: str, **query: str) -> Any:
        """The ``data`` of an answer of the HTTP API."""
        address = f"{self.url}/api/v1/{path}?{urllib.parse.urlencode(query)}"
        with urllib.request.urlopen(address, timeout=10) as response:
            answer = json.loads(response.read())
        assert answer["status"] == "success", answer
        return answer["data"]

    def value(self, expression: str) -> float | None:
        """The value of an instant query whose answer is one number (None: no series yet)."""
        result = self.api("query", query=expression)["result"]
        if not result:
            return None
        assert len(result) == 1, result
        return float(result[0]["value"][1])

    def wait_for(self, expression: str, expected: float, timeout: float = 30) -> None:
        """Wait until ``expression`` is ``expected`` (the next scrapes bring it)."""
        seen: list[float | None] = []

        def reached() -> bool:
            seen.append(self.value(expression))
            return seen[-1] == expected

        try:
            self.wait_until(reached, f"{expression} == {expected}", timeout)
        except TimeoutError:
            raise AssertionError(f"{expression} is {seen[-1] if seen else None}, not {expected}") from None

    @staticmethod
    def wait_until(condition: Callable[[], bool], what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:.0f} s for {what}")
            time.sleep(0.2)

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""

    def __enter__(self) -> Prometheus:
        return self

    def __exit__(self, *_exception: object) -> None:
        self.stop()

    def stop(self) -> None:
        try:
            self._process.terminate()
            try:
                self._process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
