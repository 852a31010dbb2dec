"""The README's examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_module_docstring_examples_run() -> None:
    import smear.actions
    import smear.cards
    import smear.rules
    import smear.server.limits
    import smear.server.protocol
    import smear.server.storage
    import smear.state

    modules = (smear, smear.actions, smear.cards, smear.rules, smear.state)
    for module in (*modules, smear.server.limits, smear.server.protocol, smear.server.storage):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
