"""docs/architecture.md names the server's parts, sub-packages and the functions one ``act`` passes
through: every such name (in backticks, starting with ``smear.``) must exist, so the document cannot
drift from the code."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
NAMED = re.compile(r"`(smear(?:\.\w+)+)`")


def named_in(text: str) -> list[str]:
    return sorted(set(NAMED.findall(text)))


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or an attribute chain from the longest module that imports."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: ModuleType | object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def test_every_name_the_architecture_document_gives_exists() -> None:
    names = named_in(DOC.read_text())
    assert len(names) > 40  # the parts, the sub-packages and the path of an act are all named
    assert [name for name in names if not resolves(name)] == []


@pytest.mark.parametrize(
    "gone",
    ["smear.server.storage.database.Storage.add_chat_line", "smear.server.core.LiveTables", "smear.nowhere"],
)
def test_a_name_that_no_longer_exists_is_caught(gone: str) -> None:
    assert named_in(f"the `{gone}` of old") == [gone]
    assert not resolves(gone)


def test_the_path_of_an_act_is_named_in_the_order_it_runs() -> None:
    text = DOC.read_text()
    path = text[text.index("## The path of one `act`") :]
    steps = [
        "smear.server.wire.guard.GuardedServer._handle_event",
        "smear.server.app.SocketDoor.dispatch",
        "smear.server.cluster.sharing.Sharing.handle",
        "smear.server.tables.requests.TableRequests.act",
        "smear.server.tables.table.Table.apply_action",
        "smear.server.storage.writer.StorageWriter.append",
        "smear.server.storage.database.Storage.append_actions",
        "smear.server.tables.presence.Presence.broadcast",
        "smear.server.tables.pacing.Pacing.drive",
    ]
    places = [path.index(f"`{step}`") for step in steps]
    assert places == sorted(places)
