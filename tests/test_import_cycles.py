"""No module under bench/ or tests/ imports, through others, itself: a harness split over several
modules keeps its dependencies one-way.

The imports are read from the sources (``ast``), every one of them: at the top, inside functions,
and under ``if TYPE_CHECKING:`` alike, since a cycle through type hints is still two modules that
each need the other. A module's name is its path from the nearest folder that is not a package
(``bench/chaoskit/run.py`` is ``chaoskit.run``, ``tests/support/dbservers.py`` is
``support.dbservers``), as the pythonpath roots of pyproject.toml and pytest's own import of test
folders make it; imports of anything else (the standard library, ``smear``) are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("bench", "tests")


def module_names(folders: Iterable[Path]) -> dict[str, Path]:
    """Each module's importable name, and its file."""
    names: dict[str, Path] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = [path.stem] if path.stem != "__init__" else []
            parent = path.parent
            while (parent / "__init__.py").exists():
                parts.insert(0, parent.name)
                parent = parent.parent
            names[".".join(parts)] = path
    return names


def imported(tree: ast.Module, name: str, is_package: bool) -> set[str]:
    """Every name ``tree`` (the module ``name``) imports, and the names of the modules inside them."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package holding this module
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def import_graph(folders: Iterable[Path]) -> dict[str, set[str]]:
    """Each module of ``folders`` and the modules of ``folders`` it imports (with their packages)."""
    names = module_names(folders)
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        targets: set[str] = set()
        for target in imported(ast.parse(path.read_text()), name, path.stem == "__init__"):
            parts = target.split(".")
            targets.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
        graph[name] = {target for target in targets if target in names and target != name}
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of imports (its first module again at the end), or None."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        cycle: list[str] = error.args[1]
        return cycle
    return None


def test_no_module_of_the_benchmarks_or_the_tests_imports_itself_back() -> None:
    graph = import_graph(ROOT / folder for folder in FOLDERS)
    assert "chaoskit.run" in graph and "support.dbservers" in graph["conftest"]
    cycle = cycle_in(graph)
    assert cycle is None, "an import cycle: " + " -> ".join(reversed(cycle))


def test_a_cycle_through_type_hints_or_a_relative_import_is_found(tmp_path: Path) -> None:
    kit = tmp_path / "kit"
    kit.mkdir()
    (kit / "__init__.py").write_text('"""A package."""\n')
    (kit / "run.py").write_text("from kit.parts import Part\n\nclass Run: ...\n")
    (kit / "parts.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .run import Run\n"
    )
    (tmp_path / "script.py").write_text("import kit.run\n")
    graph = import_graph([tmp_path])
    assert graph == {
        "kit": set(),
        "kit.parts": {"kit", "kit.run"},
        "kit.run": {"kit", "kit.parts"},
        "script": {"kit", "kit.run"},
    }
    cycle = cycle_in(graph)
    assert cycle is not None and set(cycle) == {"kit.run", "kit.parts"}
