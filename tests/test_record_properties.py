"""Malformed and illegal records, generated: only the documented errors and exit codes come out."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smear.cli import cli
from smear.errors import RecordError
from smear.record import ReplayError, parse_record, replay

SCENARIOS = Path(__file__).parent / "scenarios"


def _replays_cleanly(path: Path) -> bool:
    return not path.name.endswith(".expect.json") and "summary" in json.loads(
        path.with_suffix(".expect.json").read_text()
    )


VALID = [
    json.loads(path.read_text()) for path in sorted(SCENARIOS.glob("*/*.json")) if _replays_cleanly(path)
]

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.sampled_from(
        ["Ah", "10d", "Td", "BJ", "LJ", "Zz", "bid 3", "pass", "trump h", "discard Ah", "", "1h"]
    ),
    st.text(max_size=8),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    """A valid scenario record with one to three places replaced by arbitrary JSON values."""
    record = copy.deepcopy(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        # Walk to a random place in the document and replace what is there.
        node: Any = record
        path: list[Any] = []
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
            path.append(key)
            node = node[key]
        if not path:
            key = draw(st.sampled_from(sorted(record)))
            path = [key]
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = draw(json_value)
    return record


def outcome(record: Any) -> str:
    """'ok', 'illegal' or 'invalid': anything else raised is a failure of the test."""
    try:
        replay(parse_record(record))
    except RecordError:
        return "invalid"
    except ReplayError:
        return "illegal"
    return "ok"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_mutated_records_raise_only_the_record_errors(record: Any) -> None:
    assert outcome(record) in ("ok", "illegal", "invalid")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_the_command_line_exits_with_a_documented_status(record: Any) -> None:
    expected = {"ok": 0, "illegal": 1, "invalid": 2}[outcome(record)]
    result = CliRunner().invoke(cli, ["replay", "-", "--json"], input=json.dumps(record))
    assert result.exit_code == expected, result.output
    if expected:
        assert result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1
    else:
        assert set(json.loads(result.stdout)) == {"hands", "scores", "winner", "complete"}


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_arbitrary_bytes_are_an_invalid_record_or_a_valid_one(data: bytes) -> None:
    with contextlib.suppress(RecordError):
        parse_record(data)


def test_every_mutation_source_is_a_valid_record() -> None:
    assert len(VALID) > 30
    assert {outcome(record) for record in VALID} == {"ok"}
