"""The options holding a password (``--database``, ``--redis``) come from the environment
(``SMEAR_DATABASE``, ``SMEAR_REDIS``) or from a file (``--database-file``, ``SMEAR_REDIS_FILE``...,
the way systemd hands credentials over), so no password is on a command line (smear.cli.secrets).
A file that cannot be read is one line and exit status 2, never a traceback."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from serverkit import START_TIMEOUT, free_port, get_json
from support.serverproc import launch, stop_server, wait_healthy

from smear.cli import cli

SMEAR = [sys.executable, "-m", "smear"]


def serve_without_secrets_on_the_line(port: int) -> list[str]:
    return [*SMEAR, "serve", "--host", "127.0.0.1", "--port", str(port), "--lease", "1"]


def test_servers_reach_their_database_and_redis_named_by_environment_or_by_files(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    (tmp_path / "database").write_text(postgres_url + "\n")
    (tmp_path / "redis").write_text(redis_url + "\n")
    ways = {
        "environment": {"SMEAR_DATABASE": postgres_url, "SMEAR_REDIS": redis_url},
        "files": {
            "SMEAR_DATABASE_FILE": str(tmp_path / "database"),
            "SMEAR_REDIS_FILE": str(tmp_path / "redis"),
        },
    }
    ports = {way: free_port() for way in ways}
    servers = {
        way: launch(serve_without_secrets_on_the_line(ports[way]), tmp_path / f"{way}.log", env=env)
        for way, env in ways.items()
    }
    try:
        for way, server in servers.items():
            url = f"http://127.0.0.1:{ports[way]}"
            wait_healthy(url, server, START_TIMEOUT)
            ready = asyncio.run(get_json(f"{url}/ready"))
            assert ready == (200, {"ok": True, "database": "ok", "redis": "ok"}), way
    finally:
        for server in servers.values():
            stop_server(server)
    for way in ways:
        banner = (tmp_path / f"{way}.log").read_text()
        assert "Smear is ready" in banner and "postgresql" in banner and "Redis" in banner


def test_a_database_file_option_names_the_database_of_every_subcommand(tmp_path: Path) -> None:
    database = tmp_path / "smear.db"
    (tmp_path / "database").write_text(f"sqlite:///{database}\n")
    result = CliRunner().invoke(cli, ["db", "upgrade", "--database-file", str(tmp_path / "database")])
    assert result.exit_code == 0, result.output
    assert database.exists()
    result = CliRunner().invoke(cli, ["db", "quarantined"], env={"SMEAR_DATABASE": f"sqlite:///{database}"})
    assert result.exit_code == 0, result.output
    assert "0 quarantined" in result.output


@pytest.mark.parametrize("problem", ["missing", "a directory", "empty", "both given"])
def test_a_secret_file_that_cannot_be_read_is_one_clear_line_and_status_2(
    tmp_path: Path, problem: str
) -> None:
    path = tmp_path / "database"
    arguments = ["serve", "--database-file", str(path)]
    if problem == "a directory":
        path.mkdir()
    elif problem == "empty":
        path.write_text("\n")
    elif problem == "both given":
        path.write_text("sqlite:///elsewhere.db\n")
        arguments += ["--database", "sqlite:///here.db"]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert result.output.count("\n") == 1 and "database" in result.output
    assert not (tmp_path / "elsewhere.db").exists() and not Path("here.db").exists()


def test_a_missing_redis_file_stops_the_real_command_without_a_traceback(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "redis"
    command = [*SMEAR, "serve", "--port", str(free_port()), "--redis-file", str(missing)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert finished.returncode == 2
    assert finished.stderr == f"--redis-file {missing}: cannot be read (No such file or directory)\n"
    assert not (tmp_path / "smear.db").exists()  # stopped before opening anything
