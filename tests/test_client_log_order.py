"""The browser client does not know the order of a hand's phases: the server sends each action's log
lines (a trick won, the kitty, the stock, a refill) in the order they are shown (``lines`` in an
action event, smear.server.wire.outbound.log_lines), and the client shows them as they come.

What is checked, in web/src outside the tests:

- no source writes such a line itself: no object literal ``{ kind: "trick" | "kitty" | "stock" |
  "refill", seat ... }``;
- the sources that keep the log (those naming ``LogEntry``) read none of the state's facts the old
  rebuild placed lines by: no ``.bidder_took``, ``.refilled``, ``.refills``, ``.discarded``,
  ``.tricks``, ``.trick`` or ``.bidder``;
- the modules that rebuilt the log (``stateLines.ts``, ``ui/game/replayLog.ts``) and their functions
  (``derivedLines``, ``withHandLines``, ``DERIVED_KINDS``) are gone.
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers import WEB_SRC, client_sources

WRITES_A_LINE = re.compile(
    r"""\{\s*kind:\s*["'`](?:trick|kitty|stock|refill)["'`](?:\s+as\s+const)?\s*,\s*seat"""
)
PHASE_FACTS = re.compile(r"""\.(?:bidder_took|refilled|refills|discarded|tricks|trick|bidder)\b""")
REBUILDERS = re.compile(r"""\b(?:derivedLines|withHandLines|DERIVED_KINDS)\b""")


def log_keepers() -> list[Path]:
    return [path for path in client_sources() if re.search(r"\bLogEntry\b", path.read_text())]


def matching(pattern: re.Pattern[str], text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if pattern.search(line)]


def test_the_patterns_catch_what_the_old_rebuild_did() -> None:
    """Lines of the removed stateLines.ts and replayLog.ts are caught."""
    for line in [
        'lines.push({ kind: "trick", seat: after.tricks[after.tricks.length - 1].winner });',
        'if (kitty > 0) lines.push({ kind: "kitty", seat: after.bidder, count: kitty });',
        'const line = { kind: "stock" as const, seat: bidder, count: pub.bidder_took.stock };',
        "add(after, index, { kind: 'refill', seat, count: pub.refilled[seat] ?? 0 });",
    ]:
        assert matching(WRITES_A_LINE, line), line
    for line in [
        "if (bidder !== null && pub.bidder_took.kitty > 0) {",
        "if (!refills || !(pub.discarded[seat] > 0)) return;",
        "for (let i = pub.tricks.length - 1; i >= 0 && end > 0; i--) {",
        "const bidder = pub.bidder;",
    ]:
        assert matching(PHASE_FACTS, line), line
    assert matching(REBUILDERS, 'import { DERIVED_KINDS, derivedLines } from "./stateLines";')
    # A type of the lines, as the server sends them, is no line written, and their words no reading.
    assert not matching(WRITES_A_LINE, '| { kind: "trick"; seat: number }')
    assert not matching(PHASE_FACTS, 'if (event.kind === "trick") return t("table.takes_trick", { name });')


def test_no_client_source_writes_a_log_line_of_its_own() -> None:
    found = {
        str(path.relative_to(WEB_SRC)): matching(WRITES_A_LINE, path.read_text()) for path in client_sources()
    }
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_log_is_kept_without_reading_the_hand_s_phases() -> None:
    keepers = {str(path.relative_to(WEB_SRC)) for path in log_keepers()}
    assert {"net.ts", "ui/game/log.ts"} <= keepers  # the check looks where the log is kept
    found = {
        str(path.relative_to(WEB_SRC)): matching(PHASE_FACTS, path.read_text()) for path in log_keepers()
    }
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_rebuilders_are_gone() -> None:
    assert not (WEB_SRC / "stateLines.ts").exists()
    assert not (WEB_SRC / "ui" / "game" / "replayLog.ts").exists()
    found = {
        str(path.relative_to(WEB_SRC)): matching(REBUILDERS, path.read_text()) for path in client_sources()
    }
    assert {path: lines for path, lines in found.items() if lines} == {}
