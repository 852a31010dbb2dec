"""``smear practice build``: self-play matches of the bot levels people meet, their unforced decisions
solved with many deals (:mod:`smear.practice.solve`), the sound ones kept as position records
(:mod:`smear.practice.record`) with themes, a difficulty and a starting rating.

A unit of work is one self-play match of one preset: its seats taken by the table's bot levels
(beginner, normal, expert) in turn, at most ``CANDIDATES_PER_MATCH`` of its unforced decisions
solved, drawn round-robin over the kinds (bid, widow, trump, discard, card) so that the rarer kinds
are not crowded out by the cards. The solving is seeded; the self-play is not quite, since the
expert in a seat searches within a time limit, so another machine plays other matches.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import IO, Any

from smear.arena import ArenaConfig, play_match
from smear.bots import make_bot
from smear.bots.expert import ExpertBot
from smear.practice.lines import play_line
from smear.practice.record import PracticePosition, position_id
from smear.practice.solve import Solution, solve
from smear.practice.themes import find_themes
from smear.record import Record, parse_record
from smear.review import Position, positions
from smear.rules import Rules, find_rules
from smear.server.wire.outbound import public_json, view_json
from smear.state import Phase
from smear.views import PlayerView

# Deals searched per position unless told (see docs/practice.md for the measurement behind it).
DEFAULT_DEALS = 400
# Decisions of one self-play match solved at most.
CANDIDATES_PER_MATCH = 8
# The bot levels a table offers, as the page names them, and how often each is asked per position.
LEVELS = {"beginner": "Beginner", "heuristic": "Normal", "expert": "Expert"}
LEVEL_ASKS = 3
KINDS = {
    Phase.AUCTION: "bid",
    Phase.WIDOW: "widow",
    Phase.TRUMP: "trump",
    Phase.DISCARD: "discard",
    Phase.PLAY: "card",
}
# Starting practice skill (openskill mu) from difficulty: 20 for a position every level gets right,
# 32 for one none does; the display rating is 1500 + 60 * (mu - 25).
MU_EASIEST = 20.0
MU_SPAN = 12.0


@dataclass(frozen=True)
class BuildConfig:
    presets: tuple[str, ...]
    matches: int
    deals: int
    seed: int
    workers: int


@dataclass(frozen=True)
class Candidate:
    """One unforced decision of a self-play match, with the names its seats show."""

    preset: str
    match: int
    position: Position
    names: tuple[str, ...]


def table_of(rules: Rules) -> tuple[int, bool]:
    """The table a preset is practised at: four partners where it allows them, else its first count."""
    if 4 in rules.team_player_counts:
        return 4, True
    if 4 in rules.player_counts:
        return 4, False
    return rules.player_counts[0], False


def selfplay_config(preset: str, match: int, seed: int) -> ArenaConfig:
    """How self-play match ``match`` of ``preset`` is played: the bot levels in turn at the seats,
    and every other match with the moon allowed (a table option no preset has on), so that moon
    bids, and hands that might shoot it, are among the positions."""
    players, teams = table_of(find_rules(preset))
    levels = list(LEVELS)
    lineup = tuple(levels[(seat + match) % len(levels)] for seat in range(players))
    changes = (("shoot_the_moon", True),) if match % 2 else ()
    return ArenaConfig(preset, players, teams, lineup, 1, seed=seed * 100_003 + match, changes=changes)


def selfplay_match(preset: str, match: int, seed: int) -> tuple[Record, tuple[str, ...]]:
    """Self-play match ``match`` of ``preset``: its record and the bot level in each seat."""
    result = play_match(selfplay_config(preset, match, seed), 0, keep_record=True)
    assert result.record is not None
    return parse_record(result.record), result.seating


def selfplay_candidates(preset: str, match: int, seed: int) -> list[Candidate]:
    """Play self-play match ``match`` of ``preset`` and draw its decisions to solve."""
    record, seating = selfplay_match(preset, match, seed)
    return candidates_of(record, seating, preset, match, seed)


def candidates_of(
    record: Record, seating: tuple[str, ...], preset: str, match: int, seed: int
) -> list[Candidate]:
    """The decisions of a self-play match's record to solve, drawn round-robin over the kinds."""
    by_kind: dict[str, list[Position]] = defaultdict(list)
    for position in positions(record):
        if len(position.view.legal_actions) > 1:
            by_kind[KINDS[position.view.phase]].append(position)
    rng = random.Random(f"practice-pick:{seed}:{preset}:{match}")
    for found in by_kind.values():
        rng.shuffle(found)
    chosen: list[Position] = []
    while len(chosen) < CANDIDATES_PER_MATCH and any(by_kind.values()):
        for found in by_kind.values():
            if found and len(chosen) < CANDIDATES_PER_MATCH:
                chosen.append(found.pop())
    return [Candidate(preset, match, position, names_for(seating, position.seat)) for position in chosen]


def names_for(seating: tuple[str, ...], seat: int) -> tuple[str, ...]:
    return tuple("You" if index == seat else LEVELS.get(level, "Bot") for index, level in enumerate(seating))


def difficulty(view: PlayerView, best: str, seed: int) -> float:
    """The share of the bot levels' choices at ``view`` (each asked ``LEVEL_ASKS`` times) not the best."""
    missed = asked = 0
    for level in LEVELS:
        bot = ExpertBot() if level == "expert" else make_bot(level)
        for ask in range(LEVEL_ASKS):
            choice = bot.choose(view, random.Random(f"practice-level:{seed}:{level}:{ask}"))
            missed += str(choice) != best
            asked += 1
    return missed / asked


def display_rating(mu: float) -> float:
    return round(1500 + 60 * (mu - 25), 1)


def starting_mu(share_missed: float) -> float:
    return MU_EASIEST + MU_SPAN * share_missed


def solve_candidate(candidate: Candidate, deals: int, seed: int) -> Solution | None:
    position = candidate.position
    rng = random.Random(
        f"practice:{seed}:{candidate.preset}:{candidate.match}:{position.hand}:{position.action_index}"
    )
    return solve(position.view, rng, deals)


def position_record(candidate: Candidate, solution: Solution, seed: int) -> dict[str, Any]:
    """The record of a solved candidate (see :class:`smear.practice.record.PracticePosition`)."""
    view = candidate.position.view
    expert = ExpertBot()
    policy = expert.playout_policy(view)
    rng = random.Random(f"practice-lines:{seed}")
    lines = [play_line(world, view.seat, solution.best, policy, rng) for world in solution.worlds]
    best = str(solution.best)
    missed = difficulty(view, best, seed)
    fields: dict[str, Any] = {
        "preset": candidate.preset,
        "players": view.public.players,
        "seat": view.seat,
        "kind": KINDS[view.phase],
        "public": public_json(view.public),
        "you": view_json(view),
        "names": list(candidate.names),
        "choices": [str(action) for action in solution.choices],
        "themes": find_themes(view, solution.best, solution.values, lines),
        "difficulty": round(missed, 2),
        "rating": display_rating(starting_mu(missed)),
        "source": "selfplay",
        "answer": {
            "best": best,
            "values": solution.values,
            "margin": solution.margin,
            "error": solution.error,
            "deals": solution.deals,
            "lines": [line.to_json() for line in lines],
        },
    }
    # A JSON round trip makes the id's canonical text the same as a reader's of the file.
    fields = json.loads(json.dumps(fields))
    return {"id": position_id(fields), **fields}


def build_match(preset: str, match: int, deals: int, seed: int) -> tuple[int, list[dict[str, Any]]]:
    """One unit of work: the candidates of one self-play match solved; how many, and the sound records."""
    candidates = selfplay_candidates(preset, match, seed)
    records = []
    for candidate in candidates:
        solution = solve_candidate(candidate, deals, seed)
        if solution is not None and solution.sound():
            record = position_record(candidate, solution, seed)
            PracticePosition.model_validate(record)  # a record the import would refuse is a bug here
            records.append(record)
    return len(candidates), records


def _results(config: BuildConfig) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    units = [(preset, match) for match in range(config.matches) for preset in config.presets]
    if config.workers == 1:
        for preset, match in units:
            yield build_match(preset, match, config.deals, config.seed)
        return
    with ProcessPoolExecutor(max_workers=config.workers) as pool:
        futures = [
            pool.submit(build_match, preset, match, config.deals, config.seed) for preset, match in units
        ]
        for future in as_completed(futures):
            yield future.result()


def run_build(
    config: BuildConfig, out: IO[str] | None, progress: Callable[[str], None]
) -> list[dict[str, Any]]:
    """Build the positions of ``config``, each written to ``out`` as a JSON line as it comes; the
    records kept (a position found twice is kept once)."""
    kept: dict[str, dict[str, Any]] = {}
    solved = done = 0
    total = len(config.presets) * config.matches
    for count, records in _results(config):
        done += 1
        solved += count
        for record in records:
            if record["id"] in kept:
                continue
            kept[record["id"]] = record
            if out is not None:
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
                out.flush()
        progress(f"matches {done}/{total}: solved {solved}, kept {len(kept)}")
    return list(kept.values())


__all__ = [
    "DEFAULT_DEALS",
    "BuildConfig",
    "Candidate",
    "build_match",
    "candidates_of",
    "difficulty",
    "display_rating",
    "position_record",
    "run_build",
    "selfplay_candidates",
    "selfplay_match",
    "solve_candidate",
    "starting_mu",
]
