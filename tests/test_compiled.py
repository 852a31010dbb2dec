"""The guard against a stale compiled build (``smear.compiled``), on copies of the package with
stand-in extension files: an extension beside a source edited after the build is refused."""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import smear
from smear.compiled import MANIFEST, manifest_of, shadowed_sources, stale_sources, write_manifest

PACKAGE = Path(smear.__file__).resolve().parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _copy_package(tmp_path: Path) -> Path:
    """The package's sources under ``tmp_path/smear``, without any build products."""
    copy = tmp_path / "smear"
    ignored = shutil.ignore_patterns("__pycache__", "static", "*.so", MANIFEST)
    shutil.copytree(PACKAGE, copy, ignore=ignored)
    return copy


def _build(package: Path, *sources: str) -> None:
    """Stand-ins for a build: an extension file beside each source, and the manifest."""
    for source in sources:
        (package / source.replace(".py", SUFFIX)).write_bytes(b"stands in for a compiled module")
    write_manifest(package, manifest_of(package))


def _edit(package: Path, source: str) -> None:
    with (package / source).open("a") as file:
        file.write("\n# edited after the build\n")


def _import(tmp_path: Path, code: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "SMEAR_PURE_PYTHON"}
    env["PYTHONPATH"] = str(tmp_path)
    if pure:
        env["SMEAR_PURE_PYTHON"] = "1"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )


def test_sources_without_extensions_need_no_manifest(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    assert shadowed_sources(package) == []
    assert stale_sources(package) == []


def test_the_manifest_vouches_only_for_the_sources_it_was_built_from(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    _build(package, "state.py", "bots/randomplay.py")
    assert shadowed_sources(package) == ["state.py", "bots/randomplay.py"]
    assert stale_sources(package) == []
    _edit(package, "bots/randomplay.py")
    assert stale_sources(package) == ["bots/randomplay.py"]
    (package / MANIFEST).unlink()
    assert stale_sources(package) == ["state.py", "bots/randomplay.py"]


def test_an_extension_the_build_did_not_make_is_stale(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    _build(package, "state.py")
    (package / f"cards{SUFFIX}").write_bytes(b"left over from another build")
    assert stale_sources(package) == ["cards.py"]


def test_import_refuses_a_stale_build_and_says_how_to_rebuild(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    _build(package, "state.py", "trick.py")
    _edit(package, "state.py")
    refused = _import(tmp_path, "import smear", pure=False)
    assert refused.returncode == 1
    last_line = refused.stderr.strip().splitlines()[-1]
    assert last_line.startswith("smear.compiled.StaleBuildError: ")
    assert "state.py" in last_line and "trick.py" not in last_line
    assert "pip install -e ." in last_line and "SMEAR_PURE_PYTHON=1" in last_line


def test_pure_python_runs_the_sources_beside_any_extension(tmp_path: Path) -> None:
    package = _copy_package(tmp_path)
    _build(package, "state.py", "bots/randomplay.py")
    _edit(package, "state.py")
    code = (
        "import smear, smear.state, smear.bots.randomplay\n"
        "state = smear.new_match(smear.find_rules('house'), players=4, seed=1)\n"
        "print(smear.state.__file__, smear.bots.randomplay.__file__, state.public.phase.value)\n"
    )
    ran = _import(tmp_path, code, pure=True)
    assert ran.returncode == 0, ran.stderr
    state_file, randomplay_file, phase = ran.stdout.split()
    assert Path(state_file) == package / "state.py"
    assert Path(randomplay_file) == package / "bots" / "randomplay.py"
    assert phase == "auction"
