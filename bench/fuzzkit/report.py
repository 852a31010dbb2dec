"""What the fuzz benchmark found: the server's log scanned for tracebacks and error lines, and the
report it prints, kind by kind, with its closing figures."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Protocol

from benchtools import percentile

from fuzzkit.checks import Checker
from fuzzkit.flood import Flood
from fuzzkit.tables import Honest
from fuzzkit.wire import CLOSED, NO_ANSWER, Socket


class Fuzzing(Protocol):
    """What the report reads of the fuzzer (:class:`fuzzkit.run.Fuzzer`)."""

    kinds: list[str]
    sent: Counter[str]
    outcomes: dict[str, Counter[str]]
    examples: dict[tuple[str, str], list[str]]
    pushes: int
    crowd: list[Socket]
    honest: Honest
    checker: Checker
    flood: Flood | None
    internal_errors: Counter[str]
    http_errors: Counter[str]
    connect_failures: Counter[str]
    client_faults: Counter[str]
    findings: Counter[str]
    reconnects: Counter[str]
    incomplete: list[str]


# --- the server's log -----------------------------------------------------------------------------------


@dataclass
class LogFindings:
    tracebacks: Counter[str] = field(default_factory=Counter)  # signature -> count
    examples: dict[str, str] = field(default_factory=dict)  # signature -> the whole first one
    logged_before: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    error_lines: Counter[str] = field(default_factory=Counter)
    warnings: Counter[str] = field(default_factory=Counter)

    @property
    def errors(self) -> int:
        return sum(self.tracebacks.values()) + sum(self.error_lines.values())


# A bare line of the logging module's last resort, or a line of smear serve's text log
# ("2026-01-31T18:04:05.123Z ERROR 4123 smear.server request_failed: ...").
ERROR_LINE = re.compile(r"^(ERROR|CRITICAL)\b|\b(ERROR|CRITICAL)[:\]]|\dZ (ERROR|CRITICAL) ")


def scan_log(text: str) -> LogFindings:
    """Tracebacks (with the line logged before each), other ERROR lines, and warnings, counted."""
    found = LogFindings()
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("Traceback (most recent call last)"):
            message = lines[index - 1].strip() if index else ""
            start = index
            index += 1
            innermost = ""
            last = ""
            while index < len(lines):
                current = lines[index]
                if current.startswith("  File "):
                    innermost = current.strip()
                elif current and not current[0].isspace():
                    if current.startswith(("Traceback", "During handling", "The above exception")):
                        pass
                    else:
                        last = current.strip()
                        # A chained exception continues the same block.
                        following = lines[index + 2] if index + 2 < len(lines) else ""
                        if not following.startswith(("During handling", "The above exception")):
                            break
                index += 1
            # The exception and where it was raised, numbers left out: one line per kind of fault.
            where = re.sub(r'File ".*?(site-packages|src)/', 'File "', innermost)
            signature = re.sub(r"\d+", "N", f"{last[:110]} (raised at {where[:110]})")
            found.tracebacks[signature] += 1
            found.logged_before[signature][message[:80]] += 1
            found.examples.setdefault(signature, "\n".join(lines[max(0, start - 1) : index + 1]))
        elif ERROR_LINE.search(line):
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if following.startswith(": "):  # a message ending in a newline, then the exception
                line += following
                index += 1
            if not following.startswith("Traceback"):
                found.error_lines[re.sub(r"\d+", "N", line.strip())[:200]] += 1
        elif "WARNING" in line or "dropped" in line or "could not" in line:
            found.warnings[re.sub(r"\d+", "N", line.strip())[:160]] += 1
        index += 1
    return found


# --- the report -----------------------------------------------------------------------------------------


def report(fuzzer: Fuzzing, log: LogFindings, server_died: bool) -> tuple[int, int, int]:
    """Print the breakdown and the details; returns (server_errors, state changes, the honest
    person's hints refused with ``hints_busy``)."""
    print()
    print(
        "per kind: sent, acked ok, refused by code, error pushes (requests sent without an ack id), "
        "no answer, connection closed"
    )
    for kind in fuzzer.kinds:
        if not fuzzer.sent[kind]:
            continue
        outcomes = fuzzer.outcomes[kind]
        refused = Counter(
            {k[len("refused: ") :]: n for k, n in outcomes.items() if k.startswith("refused: ")}
        )
        pushed = Counter(
            {k[len("error push: ") :]: n for k, n in outcomes.items() if k.startswith("error push: ")}
        )
        other = {k: n for k, n in outcomes.items() if not k.startswith(("refused: ", "error push: ", "ok"))}
        parts = [f"sent {fuzzer.sent[kind]}", f"ok {outcomes['ok']}"]
        if refused:
            detail = ", ".join(f"{code} {n}" for code, n in refused.most_common())
            parts.append(f"refused {sum(refused.values())} ({detail})")
        if pushed:
            detail = ", ".join(f"{code} {n}" for code, n in pushed.most_common())
            parts.append(f"error push {sum(pushed.values())} ({detail})")
        parts += [f"{label} {n}" for label, n in sorted(other.items())]
        print(f"  {kind}: " + "; ".join(parts))
        # What was accepted though it should not have been, and what went unanswered.
        for label in sorted(outcomes):
            surprising = label in (NO_ANSWER, CLOSED) or label.startswith(("ack", "refused: internal"))
            if (label == "ok" and kind not in ("valid", "crowd", "hint_flood")) or surprising:
                for note in fuzzer.examples[(kind, label)]:
                    print(f"      {label}: {note}")
    honest = fuzzer.honest
    latencies = sorted(honest.latencies)
    p99 = percentile(latencies, 0.99) * 1000 if latencies else math.nan
    ms = ", ".join(
        f"{name} {percentile(latencies, q) * 1000:.1f}"
        for name, q in (("p50", 0.5), ("p90", 0.9), ("max", 1.0))
    )
    print(f"honest table: {len(latencies)} acts acknowledged ({ms} ms), reconnects {honest.reconnects}")
    others = {k: n for k, n in honest.outcomes.items() if not k.endswith(": ok")}
    if others:
        print(f"  honest requests not ok: {dict(others)}")
    print(f"  honest hints: {dict(honest.hints.most_common()) or 'none asked'}")
    hints_busy = honest.hints["refused: hints_busy"]
    if fuzzer.flood is not None:
        print("flood from the same address (answers by status and code):")
        fuzzer.flood.report()
    if fuzzer.reconnects:
        print(f"connections opened again: {dict(fuzzer.reconnects)}")
    if fuzzer.connect_failures:
        print(f"connections refused or failed: {dict(fuzzer.connect_failures)}")
    print(f"pushes received: {fuzzer.pushes}; crowd of spectators: {len(fuzzer.crowd)}")
    for finding, count in fuzzer.findings.items():
        print(f"finding: {finding}: {count}")
    if fuzzer.checker.unverified:
        print(
            "changes not verified (the request's ack was lost, so it may have been accepted): "
            f"{fuzzer.checker.unverified}"
        )
    if log.warnings:
        print("server warnings (by kind):")
        for line, count in log.warnings.most_common(12):
            print(f"  {count} x {line}")
    http_errors = sum(fuzzer.http_errors.values())
    internal = sum(fuzzer.internal_errors.values())
    server_errors = log.errors + http_errors + internal + int(server_died)
    if server_errors:
        print("server errors:")
        for signature, count in log.tracebacks.most_common():
            before = ", ".join(f"{line!r} x {n}" for line, n in log.logged_before[signature].most_common(6))
            print(f"  traceback x {count}: {signature}; logged after: {before}")
        for signature in list(log.examples)[:3]:
            print("    " + log.examples[signature][-1500:].replace("\n", "\n    "))
        for line, count in log.error_lines.most_common(10):
            print(f"  error line x {count}: {line}")
        for line, count in fuzzer.http_errors.most_common(10):
            print(f"  HTTP x {count}: {line}")
        for line, count in fuzzer.internal_errors.most_common(10):
            print(f"  internal_error ack x {count}: {line}")
        if server_died:
            print("  the server exited during the run")
    if fuzzer.checker.changes:
        print("state changes after refused requests:")
        for note in fuzzer.checker.change_notes:
            print(f"  {note}")
    if fuzzer.client_faults:
        print(f"faults of this benchmark (not the server's): {dict(fuzzer.client_faults)}")
    for problem in fuzzer.incomplete:
        print(f"incomplete: {problem}")
    sent = sum(fuzzer.sent.values())
    print(f"messages: {sent}")
    print(f"server_errors: {server_errors}")
    print(f"state_changes_from_refused: {fuzzer.checker.changes}")
    print(f"honest_p99_ms: {p99:.1f}")
    print(f"honest_hints_busy: {hints_busy}")
    return server_errors, fuzzer.checker.changes, hints_busy
