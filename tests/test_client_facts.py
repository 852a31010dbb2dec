"""The browser client keeps no copy of the server's limits, shapes and defaults: it reads them from
``GET /api/presets`` (docs/protocol.md). Each copy it once had is looked for in web/src (the client's
own code, tests aside), written from the server's constants, and must not come back."""

from __future__ import annotations

import re

import pytest
from helpers import WEB_SRC, client_sources

from smear.server.facts import DEFAULT_PRESET
from smear.server.limits import Limits
from smear.server.social.chat import CHAT_REMEMBERED
from smear.server.wire.protocol import CHAT_LENGTH, NAME_LENGTH, REACTIONS, TRANSFER_CODE_LENGTH

RECORD_BYTES = Limits().record_bytes

# A copy, by what it looked like: (name, pattern).
COPIES: list[tuple[str, str]] = [
    ("the name length", rf"length\s*<=\s*{NAME_LENGTH}\b"),
    ("the chat length", rf"\b\w*CHAT_LENGTH\w*\s*=\s*{CHAT_LENGTH}\b"),
    ("the chat lines kept", rf"\b\w*KEPT\w*\s*=\s*{CHAT_REMEMBERED}\b"),
    ("the table code's lengths", r"\{8,32\}"),
    ("a player id's shape", r"\{1,64\}"),
    ("the preset name's shape", r"\[a-z0-9_\]\{1,32\}"),
    ("the transfer code's shape", rf"\[A-Z0-9\]\{{{TRANSFER_CODE_LENGTH}\}}|\{{2,16\}}"),
    ("the default preset", rf"(FIRST_BOARD|PLAY_NOW_PRESET)\s*=|\?\?\s*\"{DEFAULT_PRESET}\""),
    ("the reactions", r"""["']\s*,\s*["']""".join(re.escape(name) for name in REACTIONS[:2])),
]
RECORD_COPIES = [r"\b1024\s*\*\s*1024\b", r"\b1\s*<<\s*20\b", rf"\b{RECORD_BYTES}\b"]


def test_the_client_sources_are_found() -> None:
    names = {path.relative_to(WEB_SRC).as_posix() for path in client_sources()}
    assert {"routes.ts", "talk.ts", "tableSettings.ts", "ui/Chat.tsx", "types.ts"} <= names


@pytest.mark.parametrize(("what", "pattern"), COPIES, ids=[what for what, _ in COPIES])
def test_no_copy_of_a_server_fact_is_back_in_the_client(what: str, pattern: str) -> None:
    found = [
        f"{path.relative_to(WEB_SRC)}:{number}: {line.strip()}"
        for path in client_sources()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(pattern, line)
    ]
    assert found == [], f"{what} is copied from the server: read it from GET /api/presets"


def test_no_copy_of_the_record_limit_is_in_the_client() -> None:
    found = {
        path.relative_to(WEB_SRC).as_posix()
        for path in client_sources()
        if any(re.search(pattern, path.read_text(encoding="utf-8")) for pattern in RECORD_COPIES)
    }
    assert found == set(), "the record limit is copied from the server: read `limits.record_bytes`"


def test_every_language_says_the_served_name_limit() -> None:
    for catalog in sorted((WEB_SRC / "i18n").glob("[a-z][a-z].ts")):
        (line,) = [
            line
            for line in catalog.read_text(encoding="utf-8").splitlines()
            if '"landing.name_required"' in line
        ]
        assert "{max}" in line and not re.search(rf"\b{NAME_LENGTH}\b", line), (catalog.name, line)
