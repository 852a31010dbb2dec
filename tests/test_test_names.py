"""pytest imports test modules by their file name alone (the test folders are not packages): two
test files of one name in different folders make it refuse to collect the second."""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def test_no_two_test_files_share_a_name() -> None:
    names = Counter(path.name for path in Path(__file__).parent.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []
