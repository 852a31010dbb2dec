"""A player's own costliest decisions of a finished match turned into practice positions ("Practice
your costliest decisions" on the replay page; docs/practice.md).

Each decision named by the match's review (its hand, its place in the hand, the action taken) is
found again in the record as the seat saw it (:func:`smear.review.positions`: the other seats' cards
hidden as the engine's view hides them), solved with the practice solver and written as the build
writes a position (:func:`smear.practice.build.position_record`), with the seats named neutrally
(the seat's own "You", the others "Seat N": positions are stored, other players' names are not) and
the choice the player made in the match kept in the answer as ``played``. Run in the reviews'
worker process (:mod:`smear.server.players.background`): it searches.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from smear.practice.build import Candidate, position_record
from smear.practice.solve import solve
from smear.record import Record
from smear.review import positions

# Deals searched per decision: fewer than a build's 400, so that five decisions take seconds.
MATCH_DEALS = 120


@dataclass(frozen=True)
class CostlyDecision:
    """A decision of the review to practise: where it is in the record and the action taken."""

    hand: int
    action_index: int
    action: str


def seat_names(players: int, seat: int) -> tuple[str, ...]:
    """The names a position from a match shows: "You" for its seat, "Seat N" (1-based) for the others."""
    return tuple("You" if other == seat else f"Seat {other + 1}" for other in range(players))


def match_positions(
    record: Record,
    preset: str,
    match: str,
    seat: int,
    decisions: Sequence[CostlyDecision],
    deals: int = MATCH_DEALS,
) -> list[tuple[CostlyDecision, dict[str, Any]]]:
    """The position records of ``seat``'s ``decisions`` in ``record`` (in the order given, each
    beside its decision), each with ``answer.played``: the choice made in the match. A decision
    offering a single choice is left out."""
    wanted = {(decision.hand, decision.action_index): decision for decision in decisions}
    found = {
        (position.hand, position.action_index): position
        for position in positions(record, [seat], {decision.hand for decision in decisions})
        if (position.hand, position.action_index) in wanted
    }
    names = seat_names(len(record.players), seat)
    records = []
    for decision in decisions:
        position = found.get((decision.hand, decision.action_index))
        if position is None or str(position.action) != decision.action:
            continue  # not this record's decision: the review was of another record
        seed = f"practice-match:{match}:{decision.hand}:{decision.action_index}"
        solution = solve(position.view, random.Random(seed), deals)
        if solution is None:
            continue
        candidate = Candidate(preset, 0, position, names)
        made = position_record(candidate, solution, zlib.crc32(seed.encode()))
        made["source"] = f"match:{match}"
        made["answer"]["played"] = decision.action
        records.append((decision, made))
    return records


__all__ = ["MATCH_DEALS", "CostlyDecision", "match_positions", "seat_names"]
