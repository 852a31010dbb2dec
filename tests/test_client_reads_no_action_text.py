"""The browser client never reads an action's text (record notation): the server sends what each
action is (smear.actionjson) and web/src/i18n/actions.ts words it. The text is only sent back."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import WEB_SRC, client_sources

# Readings of an action's text: its words tested or cut ("bid 3", "trump h", "discard 2c 3d").
PARSING = [
    re.compile(r"""startsWith\(\s*["'`](?:bid|pass|widow|trump|discard|play)\b"""),
    re.compile(r"""/\^(?:bid|pass|widow|trump|discard|play)\b"""),
    re.compile(r"""===?\s*["'`](?:bid \d|trump [cdhs]|discard )"""),
    re.compile(r"""\.slice\(\s*(?:4|6|7|8)\s*\)\.split\("""),
    re.compile(r"""action\w*\.(?:split|slice|startsWith|trim)\("""),
    re.compile(r"""action\s*===?\s*["'`](?:pass|widow|discard)["'`]"""),
]

# Fixtures of the replay viewer, kept by another part of the client; they hold texts, read nowhere.
KEPT = {"replay/engineHands.ts"}


def offending(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if any(pattern.search(line) for pattern in PARSING)]


def sources() -> list[Path]:
    return [path for path in client_sources() if path.relative_to(WEB_SRC).as_posix() not in KEPT]


def test_the_patterns_catch_the_readings_that_were_there() -> None:
    """Each way the client used to read an action's text is caught."""
    for line in [
        'if (action.startsWith("bid ")) {',
        "const bid = /^bid (\\d+)$/.exec(action);",
        'return action.slice(8).split(" ").filter(Boolean);',
        'if (event.action === "discard") return 1;',
        'view.legal.includes(`trump ${s}`) || a === "trump h"',
    ]:
        assert offending(line), line


def test_no_client_source_reads_an_action_text() -> None:
    found = {str(path.relative_to(WEB_SRC)): offending(path.read_text()) for path in sources()}
    assert {path: lines for path, lines in found.items() if lines} == {}
