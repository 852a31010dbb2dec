"""Every docstring example in the package runs as written.

The examples are read from the sources (module, class and function docstrings) rather than from the
imported objects, so those of a module compiled with mypyc run too; each runs in its module's
namespace, as ``doctest.testmod`` would run it.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import smear

PACKAGE = Path(smear.__file__).resolve().parent


def _module_name(source: Path) -> str:
    parts = source.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = sorted(
    source
    for source in PACKAGE.rglob("*.py")
    if "static" not in source.relative_to(PACKAGE).parts and ">>>" in source.read_text()
)


def _docstrings(source: Path) -> list[tuple[str, int, str]]:
    """(qualified name, line, docstring) of every documented module, class and function."""
    tree = ast.parse(source.read_text())
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}.{child.name}"
                text = ast.get_docstring(child, clean=False)
                if text:
                    found.append((name, child.lineno, text))
                visit(child, name)

    module = _module_name(source)
    text = ast.get_docstring(tree, clean=False)
    if text:
        found.append((module, 0, text))
    visit(tree, module)
    return found


def test_the_examples_of_every_documented_module_are_found() -> None:
    names = {_module_name(source) for source in SOURCES}
    assert {"smear", "smear.record", "smear.state", "smear.search.playouts"} <= names


@pytest.mark.parametrize("source", SOURCES, ids=_module_name)
def test_docstring_examples_run(source: Path) -> None:
    module = importlib.import_module(_module_name(source))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()
    for name, line, text in _docstrings(source):
        test = parser.get_doctest(text, dict(module.__dict__), name, str(source), line)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0
