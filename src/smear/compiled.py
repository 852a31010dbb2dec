"""The engine modules the install compiles with mypyc, and the guard that keeps a stale build from
running in place of sources edited after it.

A compiled module is a C extension beside its source (``state.cpython-311-x86_64-linux-gnu.so``
beside ``state.py``), and Python imports the extension first. So the build writes a manifest beside
them, ``compiled.json``: the SHA-256 of each source it compiled. ``import smear`` finds every
extension that shadows a source and refuses to go on when the manifest is missing or a source's hash
differs, naming the command that rebuilds. Hashes, not times: a checkout rewrites times.

With ``SMEAR_PURE_PYTHON=1`` in the environment the sources are imported instead of any extension,
and nothing is checked.

This module uses only the standard library: ``setup.py`` loads it by path to build.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# The hot modules, as paths under the package without ``.py``.
COMPILED = (
    "state",
    "dealing",
    "legal",
    "transitions",
    "trick",
    "scoring",
    "rules",
    "views",
    "bots/randomplay",
)
MANIFEST = "compiled.json"
PURE_PYTHON = "SMEAR_PURE_PYTHON"
PACKAGE_DIR = Path(__file__).resolve().parent
REBUILD = "pip install -e . (in the project's directory; ./scripts/test and ./scripts/run do it)"


class StaleBuildError(ImportError):
    """A compiled module would run in place of a source that has changed since it was built."""


def source_hash(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def manifest_of(package_dir: Path) -> dict[str, str]:
    """The manifest of the sources of :data:`COMPILED` in ``package_dir`` as they are now."""
    return {f"{name}.py": source_hash(package_dir / f"{name}.py") for name in COMPILED}


def write_manifest(package_dir: Path, manifest: dict[str, str]) -> None:
    (package_dir / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


def shadowed_sources(package_dir: Path) -> list[str]:
    """The sources (paths under ``package_dir``) that an extension module beside them shadows.

    Looks in the package and its subpackages, one level down, where the compiled modules live.
    """
    found = []
    folders = [package_dir]
    folders += [entry for entry in sorted(package_dir.iterdir()) if (entry / "__init__.py").is_file()]
    for folder in folders:
        names = os.listdir(folder)
        present = set(names)
        for name in sorted(names):
            for suffix in importlib.machinery.EXTENSION_SUFFIXES:
                if name.endswith(suffix) and (source := name[: -len(suffix)] + ".py") in present:
                    found.append((folder / source).relative_to(package_dir).as_posix())
                    break
    return found


def stale_sources(package_dir: Path) -> list[str]:
    """The shadowed sources the manifest does not vouch for: changed since the build, or not in it."""
    shadowed = shadowed_sources(package_dir)
    if not shadowed:
        return []
    try:
        manifest = json.loads((package_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        return shadowed
    return [source for source in shadowed if manifest.get(source) != source_hash(package_dir / source)]


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Imports the named modules from their sources, passing over the extensions beside them."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        return None if source is None else importlib.util.spec_from_file_location(fullname, source)


def check_build(package_dir: Path = PACKAGE_DIR, package: str = "smear") -> None:
    """Refuse a stale compiled module (:class:`StaleBuildError`), or with ``SMEAR_PURE_PYTHON=1``
    make every module of ``package`` load from its source."""
    if os.environ.get(PURE_PYTHON) == "1":
        shadowed = shadowed_sources(package_dir)
        if shadowed:
            modules = {
                ".".join([package, *source.removesuffix(".py").split("/")]): package_dir / source
                for source in shadowed
            }
            sys.meta_path.insert(0, _SourcesFirst(modules))
        return
    stale = stale_sources(package_dir)
    if stale:
        raise StaleBuildError(
            f"the compiled {package} modules were built from other sources than {', '.join(stale)}"
            f" in {package_dir}: rebuild them with `{REBUILD}`, or set {PURE_PYTHON}=1 to run the"
            " sources as they are"
        )
