"""Matches between bots, for measuring them: seats rotated, deals shared, results with intervals.

Match ``i`` of an arena uses deal seed ``seed + i // rotations`` and the lineup rotated by
``i % rotations``, so every bot plays every seat on the same deals and none profits from a seat
or a lucky deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from smear.actions import Action
from smear.bots import make_bot
from smear.bots.omniscient import SIGHTED_EXPERTS, OmniscientBot, SightedExpertBot
from smear.dealing import new_match, next_hand
from smear.record import record_of
from smear.rules import Rules, find_rules
from smear.state import Phase, State
from smear.transitions import apply
from smear.views import player_view

# Bots only the arena plays: they see the whole State (never offered at a table, not in the registry).
ARENA_ONLY_BOTS = ("omniscient", *SIGHTED_EXPERTS)

Chooser = Callable[[State, int, random.Random], Action]

# A match between bots that has not ended after this many hands is reported as unfinished.
MAX_HANDS = 1000


@dataclass(frozen=True)
class ArenaConfig:
    """Which bots play, where, and how many matches."""

    preset: str
    players: int
    teams: bool
    lineup: tuple[str, ...]  # one bot name per seat before rotation
    matches: int
    seed: int = 0
    # Rule fields changed from the preset (options such as the target or the moon), as pairs.
    changes: tuple[tuple[str, Any], ...] = ()

    @property
    def rules(self) -> Rules:
        rules = find_rules(self.preset)
        return rules.with_changes(**dict(self.changes)) if self.changes else rules

    @property
    def rotations(self) -> int:
        """Distinct seatings: with teams the two sides swap, otherwise every seat turns."""
        return 2 if self.teams else self.players

    def seating(self, index: int) -> tuple[str, ...]:
        """The bot in each seat for match ``index``."""
        turn = index % self.rotations
        return tuple(self.lineup[(seat + turn) % self.players] for seat in range(self.players))

    def deal_seed(self, index: int) -> int:
        return self.seed + index // self.rotations


def team_lineup(first: str, second: str, players: int) -> tuple[str, ...]:
    """Partners across the table: ``first`` on side 0 (even seats), ``second`` on side 1."""
    return tuple(first if seat % 2 == 0 else second for seat in range(players))


@dataclass(frozen=True)
class MatchResult:
    index: int
    seating: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    winner: int | None
    hands: int
    # Per side: score change summed over the hands, bids won, bids made, bid total.
    score_change: tuple[int, ...]
    bids: tuple[int, ...]
    made: tuple[int, ...]
    bid_total: tuple[int, ...]
    record: dict[str, Any] | None = None


def _chooser(name: str) -> Chooser:
    """How the bot of that name picks an action: from the seat's view, or (arena-only bots) the State."""
    if name == "omniscient":
        return OmniscientBot().choose_with_state
    if name in SIGHTED_EXPERTS:
        return SightedExpertBot(SIGHTED_EXPERTS[name]).choose_with_state
    bot = make_bot(name)
    return lambda state, seat, rng: bot.choose(player_view(state, seat), rng)


def play_match(config: ArenaConfig, index: int, keep_record: bool = False) -> MatchResult:
    """Play match ``index`` of the arena to its end."""
    rules = config.rules
    seating = config.seating(index)
    bots = [_chooser(name) for name in seating]
    rng = random.Random(f"arena:{config.seed}:{index}")
    state = new_match(rules, config.players, config.teams or None, seed=config.deal_seed(index))
    while state.public.phase is not Phase.MATCH_OVER and state.public.hand_number <= MAX_HANDS:
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
            continue
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, bots[seat](state, seat, rng), seat)
    pub = state.public
    sides = len(pub.sides)
    bids = [0] * sides
    made = [0] * sides
    bid_total = [0] * sides
    for result in pub.results:
        if result.bidder is None:
            continue
        side = pub.seat_side[result.bidder]
        bids[side] += 1
        made[side] += result.made
        bid_total[side] += result.bid
    change = tuple(score - start for score, start in zip(pub.scores, pub.start_scores, strict=True))
    names = [f"{name} {seat + 1}" for seat, name in enumerate(seating)]
    return MatchResult(
        index=index,
        seating=seating,
        sides=pub.sides,
        winner=pub.winner,
        hands=len(pub.results),
        score_change=change,
        bids=tuple(bids),
        made=tuple(made),
        bid_total=tuple(bid_total),
        record=record_of(state, names) if keep_record else None,
    )


def wilson_interval(wins: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    rate = wins / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class BotStats:
    """One bot's figures over an arena (summed over every seat it held)."""

    name: str
    matches: int = 0
    wins: int = 0
    unfinished: int = 0
    hands: int = 0
    score_change: int = 0
    bids: int = 0
    made: int = 0
    bid_total: int = 0

    def as_json(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.matches)
        return {
            "bot": self.name,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": self.wins / self.matches if self.matches else 0.0,
            "ci_low": low,
            "ci_high": high,
            "points_per_hand": self.score_change / self.hands if self.hands else 0.0,
            "bids": self.bids,
            "bids_made": self.made,
            "bids_set": self.bids - self.made,
            "average_bid": self.bid_total / self.bids if self.bids else 0.0,
            "unfinished": self.unfinished,
        }


@dataclass
class ArenaReport:
    config: ArenaConfig
    results: list[MatchResult] = field(default_factory=list)

    def stats(self) -> list[BotStats]:
        """Per bot. A bot in several seats counts a match once, as won when any of its sides won;
        its points per hand are those of each of its sides, averaged."""
        table: dict[str, BotStats] = {}
        for name in dict.fromkeys(self.config.lineup):
            table[name] = BotStats(name)
        for result in self.results:
            seat_side = {seat: side for side, seats in enumerate(result.sides) for seat in seats}
            sides_of: dict[str, set[int]] = {}
            for seat, name in enumerate(result.seating):
                sides_of.setdefault(name, set()).add(seat_side[seat])
            for name, sides in sides_of.items():
                entry = table[name]
                entry.matches += 1
                entry.wins += result.winner in sides
                entry.unfinished += result.winner is None
                for side in sides:
                    entry.hands += result.hands
                    entry.score_change += result.score_change[side]
                    entry.bids += result.bids[side]
                    entry.made += result.made[side]
                    entry.bid_total += result.bid_total[side]
        return list(table.values())

    def as_json(self) -> dict[str, Any]:
        config = self.config
        return {
            "rules": {"preset": config.preset, **dict(config.changes)} if config.changes else config.preset,
            "players": config.players,
            "teams": config.teams,
            "matches": len(self.results),
            "hands": sum(result.hands for result in self.results),
            "bots": [entry.as_json() for entry in self.stats()],
        }


def _play(job: tuple[ArenaConfig, int, bool]) -> MatchResult:
    config, index, keep = job
    return play_match(config, index, keep)


def run_arena(
    config: ArenaConfig,
    workers: int = 1,
    keep_records: bool = False,
    on_result: Callable[[MatchResult], None] | None = None,
) -> ArenaReport:
    """Play every match of the arena, in ``workers`` processes; results come back in order."""
    jobs = [(config, index, keep_records) for index in range(config.matches)]
    report = ArenaReport(config)
    results: Iterable[MatchResult]
    if workers <= 1:
        results = map(_play, jobs)
        for result in results:
            report.results.append(result)
            if on_result:
                on_result(result)
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for result in pool.imap_unordered(_play, jobs):
                report.results.append(result)
                if on_result:
                    on_result(result)
    report.results.sort(key=lambda result: result.index)
    return report


def parse_lineup(text: str, players: int, teams: bool) -> tuple[str, ...]:
    """``heuristic,random`` (two sides with teams; with fewer names than seats, the last repeats).

    Besides the registry's bots, the arena-only ``omniscient`` (it sees every card) and the sighted
    experts (``expert-sees-auction``, ``expert-sees-trump``, ``expert-sees-auction-trump``: shown
    every card at those decisions only) may be named."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise ValueError("name at least one bot")
    for name in names:
        if name not in ARENA_ONLY_BOTS:
            make_bot(name)  # refuses an unknown name
    if teams:
        if len(names) != 2:
            raise ValueError("with teams, name two bots: one per side (e.g. heuristic,random)")
        return team_lineup(names[0], names[1], players)
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    return tuple(names + [names[-1]] * (players - len(names)))


def format_table(report: ArenaReport) -> list[Sequence[str]]:
    """Rows for people: bot, matches, wins, win rate with its interval, points, bids."""
    rows: list[Sequence[str]] = []
    for entry in report.stats():
        data = entry.as_json()
        rows.append(
            (
                entry.name,
                str(entry.matches),
                str(entry.wins),
                f"{data['win_rate']:.1%} [{data['ci_low']:.1%}, {data['ci_high']:.1%}]",
                f"{data['points_per_hand']:+.2f}",
                f"{entry.made}/{entry.bids - entry.made}",
                f"{data['average_bid']:.2f}",
            )
        )
    return rows
