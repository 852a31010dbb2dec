"""Solve one decision for practice: every choice valued on the same sampled deals, as the review's
expert values it, with many more deals than in play.

The choices are every legal action (for a discard, the expert's candidate discards). Where the
expert plays its cards with the solver, each card is solved exactly on every sampled deal, each deal
weighed by how well it explains the play so far; elsewhere every choice is played out by the expert's
playout policy on every deal. A choice's value is the review's: the seat's side's score change minus
the other side's, ``MATCH_WORTH`` more or less when the hand ends the match. The *error* is
``NOISE_Z`` standard errors of the best's lead over the second best, deal by deal; a position is
*sound* when that lead is at least ``max(MIN_MARGIN, error)``.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from smear.actions import Action, Play
from smear.bots.expert import MATCH_WORTH, CardTally, ExpertBot, card_worths, discard_candidates
from smear.bots.inference import play_likelihood
from smear.bots.lookahead import CardSolver, play_out
from smear.review import NOISE_Z, reviewer
from smear.state import Phase, State
from smear.transitions import apply
from smear.views import PlayerView

# The least lead of the best choice over the next, in points, for a position to be kept: below it
# the answer is a coin toss to a player even when the search is sure (see docs/practice.md).
MIN_MARGIN = 0.25
# Sampled deals kept to be played out as the answer's lines.
LINES = 3


@dataclass(frozen=True)
class Solution:
    """Every choice's value (by its text, in the order offered), the best, its lead over the second
    and that lead's error, the deals searched, and the first few deals to show as lines."""

    choices: tuple[Action, ...]
    values: dict[str, float]
    best: Action
    margin: float
    error: float
    deals: int
    worlds: tuple[State, ...]

    def sound(self, min_margin: float = MIN_MARGIN) -> bool:
        return self.margin >= max(min_margin, self.error)


def choices_of(view: PlayerView, expert: ExpertBot) -> tuple[Action, ...]:
    """What the position offers: every legal action, or for a discard the expert's candidates."""
    if view.phase is Phase.DISCARD:
        unique: dict[str, Action] = {}
        for action in discard_candidates(view, expert.policy):
            unique.setdefault(str(action), action)
        return tuple(unique.values())
    return tuple(view.legal_actions)


def solve(view: PlayerView, rng: random.Random, deals: int) -> Solution | None:
    """The decision of ``view`` solved over ``deals`` sampled deals; None when it offers one choice."""
    expert = reviewer(deals)
    choices = choices_of(view, expert)
    if len(choices) < 2:
        return None
    if expert.solves_play(view) and all(isinstance(action, Play) for action in choices):
        return _solve_cards(view, rng, deals, expert, choices)
    return _solve_playouts(view, rng, deals, expert, choices)


def _solve_playouts(
    view: PlayerView, rng: random.Random, deals: int, expert: ExpertBot, choices: tuple[Action, ...]
) -> Solution:
    policy = expert.playout_policy(view)
    values: dict[str, list[float]] = {str(action): [] for action in choices}
    worlds: list[State] = []
    for _ in range(deals):
        world = expert.sample(view, rng)
        if len(worlds) < LINES:
            worlds.append(world)
        for action in choices:
            outcome = play_out(apply(world, action, view.seat), view.seat, policy, rng)
            values[str(action)].append(expert.value(outcome, view))
    means = {text: statistics.fmean(found) for text, found in values.items()}
    best, second = _top_two(choices, means)
    gaps = [ahead - behind for ahead, behind in zip(values[str(best)], values[str(second)], strict=True)]
    noise = statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else math.inf
    return _solution(choices, means, best, second, noise, deals, worlds)


def _solve_cards(
    view: PlayerView, rng: random.Random, deals: int, expert: ExpertBot, choices: tuple[Action, ...]
) -> Solution:
    solver = CardSolver()
    tally = CardTally([int(action.card) for action in choices if isinstance(action, Play)])
    agreements = expert.play_agreements(view)
    worlds: list[State] = []
    for _ in range(deals):
        world = expert.sample(view, rng)
        if len(worlds) < LINES:
            worlds.append(world)
        weight = play_likelihood(view, world, expert.policy, agreements)
        tally.add(weight, card_worths(solver, world, MATCH_WORTH))
    means = {str(action): tally.mean(int(action.card)) for action in choices if isinstance(action, Play)}
    best, second = _top_two(choices, means)
    assert isinstance(best, Play) and isinstance(second, Play)
    _, variance = tally.gap(int(best.card), int(second.card))
    return _solution(choices, means, best, second, math.sqrt(variance), deals, worlds)


def _top_two(choices: tuple[Action, ...], means: dict[str, float]) -> tuple[Action, Action]:
    # Stable: among equal values the first offered ranks first.
    ranked = sorted(choices, key=lambda action: -means[str(action)])
    return ranked[0], ranked[1]


def _solution(
    choices: tuple[Action, ...],
    means: dict[str, float],
    best: Action,
    second: Action,
    noise: float,
    deals: int,
    worlds: list[State],
) -> Solution:
    values = {str(action): round(means[str(action)], 2) for action in choices}
    margin = round(values[str(best)] - values[str(second)], 2)
    error = round(NOISE_Z * noise, 2) if math.isfinite(noise) else math.inf
    return Solution(choices, values, best, margin, error, deals, tuple(worlds))


__all__ = ["LINES", "MIN_MARGIN", "Solution", "choices_of", "solve"]
