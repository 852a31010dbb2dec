"""The chaos benchmark's checks once the kills are over: every acknowledged action in the stored
matches, every view each client saw explained by a replay of the record, every record replayed by
``smear replay``, and only the table made to refuse a restore put aside."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chaoskit.clients import TableRun
from chaoskit.plan import PROBLEMS_SHOWN, Acked, Resumed, Tally, view_key
from chaoskit.report import Report
from smear.actions import parse_action
from smear.dealing import new_match, next_hand, team_sides
from smear.record import parse_record
from smear.server.storage.database import Storage
from smear.server.tables.table import TableSettings
from smear.server.wire.protocol import view_json
from smear.state import Deal, Phase, State
from smear.transitions import apply
from smear.views import player_view


@dataclass
class RebuiltMatch:
    """A stored match replayed through the engine: its actions and, per seat, each view's position
    (the number of actions that lead to it)."""

    actions: list[tuple[int, str]]
    positions: dict[int, dict[bytes, int]]


def positions_of(states: Iterator[tuple[int, State]], seats: set[int]) -> dict[int, dict[bytes, int]]:
    positions: dict[int, dict[bytes, int]] = {seat: {} for seat in seats}
    for count, state in states:
        for seat in seats:
            positions[seat].setdefault(view_key(view_json(player_view(state, seat))), count)
    return positions


def from_record(data: dict[str, Any], seats: set[int]) -> RebuiltMatch:
    """The match of a record, dealt as it says (as ``smear replay`` does)."""
    record = parse_record(data)
    actions: list[tuple[int, str]] = []

    def states() -> Iterator[tuple[int, State]]:
        state: State | None = None
        for hand in record.hands:
            deal = Deal(hand.deal, hand.out)
            if state is None:
                state = new_match(
                    record.rules,
                    len(record.players),
                    record.teams,
                    dealer=hand.dealer,
                    deal=deal,
                    scores=record.start_scores,
                )
            else:
                state = next_hand(state, deal)
            yield len(actions), state
            for text in hand.actions:
                seat = state.public.to_act
                assert seat is not None, f"an action with nobody to act: {text}"
                action = parse_action(text)
                state = apply(state, action)
                actions.append((seat, str(action)))
                yield len(actions), state

    positions = positions_of(states(), seats)
    return RebuiltMatch(actions, positions)


def from_seed(
    settings: dict[str, Any], seed: int, stored: list[tuple[int, str]], seats: set[int]
) -> RebuiltMatch:
    """A match in progress, dealt from its seed as the server deals it."""
    table_settings = TableSettings(**settings)
    rules = table_settings.rules()
    players = table_settings.players
    teams = team_sides(players, rules.alternate_teams) if table_settings.teams else None
    actions: list[tuple[int, str]] = []

    def states() -> Iterator[tuple[int, State]]:
        state = new_match(rules, players, teams, seed=seed)
        yield 0, state
        for seat, text in stored:
            if state.public.phase is Phase.HAND_OVER:
                state = next_hand(state)
                yield len(actions), state
            action = parse_action(text)
            state = apply(state, action, seat)
            actions.append((seat, str(action)))
            yield len(actions), state

    positions = positions_of(states(), seats)
    return RebuiltMatch(actions, positions)


def canonical(text: str) -> str:
    return str(parse_action(text))


def replay_with_cli(path: Path) -> str | None:
    """None when ``python -m smear replay`` accepts the record, else why not."""
    command = [sys.executable, "-m", "smear", "replay", str(path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "smear replay timed out"
    if done.returncode == 0:
        return None
    return f"smear replay exited with {done.returncode}: {done.stderr.strip()[-300:]}"


class Checker:
    """Compares what the clients saw (``tables`` and ``tally``) with what the server stored. With
    ``several`` processes takeovers are counted; ``refused`` are the tables made to refuse a restore."""

    def __init__(
        self,
        tables: list[TableRun],
        tally: Tally,
        several: bool,
        refused: set[str],
        database: str,
        workdir: Path,
        report: Report,
    ) -> None:
        self.tables = tables
        self.tally = tally
        self.several = several
        self.refused = refused
        self.database = database
        self.records_dir = workdir / "records"
        self.records_dir.mkdir(exist_ok=True)
        self.report = report
        self.problems: defaultdict[str, list[str]] = defaultdict(list)
        self.acked: defaultdict[tuple[str, int], list[Acked]] = defaultdict(list)
        for acked in tally.acked:
            self.acked[(acked.table, acked.match)].append(acked)
        self.resumed: defaultdict[tuple[str, int], list[Resumed]] = defaultdict(list)
        for resumed in tally.resumed:
            self.resumed[(resumed.table, resumed.match)].append(resumed)
        self.seen: defaultdict[tuple[str, int], dict[int, set[bytes]]] = defaultdict(dict)
        for (code, match, seat), keys in tally.seen.items():
            self.seen[(code, match)][seat] = keys

    def problem(self, kind: str, text: str) -> None:
        self.problems[kind].append(text)

    def check(self) -> None:
        report = self.report
        records: list[tuple[str, Path]] = []
        counts = Counter[str]()
        storage = Storage(self.database)
        try:
            self.check_quarantine(storage)
            for table in self.tables:
                self.check_table(storage, table, records, counts)
        finally:
            storage.close()
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            failures = pool.map(replay_with_cli, [path for _, path in records])
            for (name, _path), failure in zip(records, failures, strict=True):
                if failure is not None:
                    report.replay_failures += 1
                    self.problem("replay_failures", f"{name}: {failure}")
        tally = self.tally
        backwards = len(tally.backwards)
        report.desyncs += backwards
        for text in tally.backwards:
            self.problem("desyncs", text)
        refusals = ", ".join(f"{kind} {n}" for kind, n in sorted(tally.refusals.items())) or "none"
        report.details += [
            f"tables: {len(self.tables)} ({sum(t.retired for t in self.tables)} retired: finished "
            f"before a kill and not brought back; {sum(t.aside for t in self.tables)} put aside)",
            f"actions acknowledged: {len(tally.acked)} ({tally.built_discards} discards built from "
            f"`discard`), matches started again: {len(tally.matches_started)}",
            f"resumes: {tally.reconnects} (views checked after a resume: {len(tally.resumed)})"
            + (f", full states after a takeover: {tally.takeovers}" if self.several else ""),
            f"records replayed with smear replay: {len(records)}",
            f"desyncs: versions going backwards {backwards}, views after a resume not stored "
            f"{counts['resumed']}, other views not stored {counts['seen']}",
            f"refused or unanswered requests: {refusals}",
        ]
        for kind, texts in self.problems.items():
            shown = texts[:PROBLEMS_SHOWN]
            more = f" (and {len(texts) - len(shown)} more)" if len(texts) > len(shown) else ""
            report.problems.append(f"{kind}{more}:")
            report.problems += [f"  {text}" for text in shown]

    def check_quarantine(self, storage: Storage) -> None:
        """The tables put aside must be those made to refuse a restore, and nothing else."""
        aside = {table.code: table for table in storage.quarantine.quarantined()}
        self.report.quarantined = len(aside)
        expected = self.refused
        for code in sorted(aside.keys() - expected):
            table = aside[code]
            self.problem("quarantined", f"{code}: put aside, not made to ({table.reason}, {table.error})")
        for code in sorted(expected - aside.keys()):
            self.problem("quarantined", f"{code}: made to refuse a restore, not put aside")
        self.report.wrongly_quarantined = len(aside.keys() ^ expected)

    def check_table(
        self, storage: Storage, table: TableRun, records: list[tuple[str, Path]], counts: Counter[str]
    ) -> None:
        report = self.report
        code = table.code
        stored = storage.table(code)
        latest = stored.current_match if stored is not None else None
        # A table put aside as it was made to goes no further: only what it stored is checked.
        aside = stored is not None and stored.quarantined and code in self.refused
        unfinished = stored is None or latest is None or not latest.finished or not table.done
        if not aside and (unfinished or table.stuck):
            report.stuck_tables += 1
            status = "missing" if stored is None else stored.status
            self.problem("stuck_tables", f"table {table.index} {code} ({table.plan.describe()}): {status}")
        if stored is None:
            return
        finished = set(storage.finished_matches(code))
        numbers = finished | ({latest.number} if latest is not None else set())
        for started_code, number in self.tally.matches_started:
            if started_code == code and number not in numbers:
                report.acknowledged_lost += 1
                self.problem(
                    "acknowledged_lost", f"{code}: play_again acknowledged, match {number} not stored"
                )
        asked = {match for (c, match) in [*self.acked, *self.seen, *self.resumed] if c == code}
        for number in sorted(numbers | asked):
            self.check_match(storage, stored.settings, code, number, latest, finished, records, counts)

    def check_match(
        self,
        storage: Storage,
        settings: dict[str, Any],
        code: str,
        number: int,
        latest: Any,
        finished: set[int],
        records: list[tuple[str, Path]],
        counts: Counter[str],
    ) -> None:
        report = self.report
        seats = set(self.seen[(code, number)])
        seats |= {a.seat for a in self.acked[(code, number)]} | {r.seat for r in self.resumed[(code, number)]}
        rebuilt: RebuiltMatch | None = None
        try:
            if number in finished:
                record = storage.match_record(code, number)
                assert record is not None
                path = self.records_dir / f"{code}-{number}.json"
                path.write_text(json.dumps(record))
                records.append((f"{code} match {number}", path))
                rebuilt = from_record(record, seats)
                if latest is not None and latest.number == number:
                    stored_actions = [(seat, canonical(text)) for seat, text in latest.actions]
                    if stored_actions != rebuilt.actions:
                        report.replay_failures += 1
                        self.problem("replay_failures", f"{code} match {number}: record and actions differ")
            elif latest is not None and latest.number == number:
                rebuilt = from_seed(settings, latest.seed, latest.actions, seats)
        except Exception as err:
            report.replay_failures += 1
            self.problem("replay_failures", f"{code} match {number}: rebuilding failed: {err!r}")
            return
        if rebuilt is None:  # the clients saw a match that is not stored at all
            rebuilt = RebuiltMatch([], {seat: {} for seat in seats})
        positions, actions = rebuilt.positions, rebuilt.actions
        for acked in self.acked[(code, number)]:
            at = positions[acked.seat].get(acked.view)
            stored = actions[at] if at is not None and at < len(actions) else None
            if stored != (acked.seat, canonical(acked.action)):
                report.acknowledged_lost += 1
                where = "a view not stored" if at is None else f"action {at + 1}, stored {stored}"
                self.problem(
                    "acknowledged_lost",
                    f"{code} match {number} seat {acked.seat}: {acked.action!r} acknowledged, at {where}",
                )
        for resumed in self.resumed[(code, number)]:
            at = positions[resumed.seat].get(resumed.view)
            lowest = 0
            if resumed.last_acked is not None and resumed.last_acked in positions[resumed.seat]:
                lowest = positions[resumed.seat][resumed.last_acked] + 1
            if resumed.last_seen is not None and resumed.last_seen in positions[resumed.seat]:
                lowest = max(lowest, positions[resumed.seat][resumed.last_seen])
            if at is None or at < lowest:
                report.desyncs += 1
                counts["resumed"] += 1
                shown = "no stored prefix" if at is None else f"the prefix of {at} actions"
                self.problem(
                    "desyncs",
                    f"{code} match {number} seat {resumed.seat}: the view after resume shows {shown}, "
                    f"expected at least {lowest}",
                )
        for seat, keys in self.seen[(code, number)].items():
            missing = len(keys - positions[seat].keys())
            if missing:
                report.desyncs += missing
                counts["seen"] += missing
                self.problem("desyncs", f"{code} match {number} seat {seat}: {missing} views no prefix shows")
