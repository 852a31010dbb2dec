"""Plain PIMC: search over deals consistent with what the seat knows (Perfect Information Monte Carlo).

For each decision it samples complete deals that agree with its view (:mod:`smear.bots.sampler`),
tries every legal action on each sample, plays the rest of the hand out with the heuristic player
at every seat, and keeps the action whose hands end best for its side on average. The auction is
searched the same way: pass or each bid, then the rest of the auction and the hand played out, so a
bid is chosen for its expected points and its risk of being set, with trump picked to match.

The budget is a number of samples and a time limit, whichever comes first.

This was the first expert; it stays registered as ``pimc`` so that the arena can measure the
expert (:mod:`smear.bots.expert`, built on it) against it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from smear.actions import Action
from smear.bots.base import Bot
from smear.bots.heuristic import HeuristicBot
from smear.bots.lookahead import Outcome, auction_candidates, play_out
from smear.bots.sampler import sample_state
from smear.state import Phase, State
from smear.transitions import apply
from smear.views import PlayerView

DEFAULT_SAMPLES = 48
DEFAULT_SECONDS = 0.25


@dataclass(frozen=True)
class Advice:
    """The expert's choice for a seat and, where it searched, what it expects the hand to bring.

    ``expected_points`` is the mean change of the seat's side's score this hand over the sampled
    deals (a set bid counts as minus the bid); None when the choice was forced or not searched.
    """

    action: Action
    expected_points: float | None
    samples: int


@dataclass(frozen=True)
class Estimate:
    """One action as the search saw it: the mean change of the seat's side's score this hand
    (``points``; a set bid counts as minus the bid), that change minus the best other side's
    (``margin``), and, where the side can win the auction, the share of deals in which it did
    (``won``) and, of those, the share in which it made its bid (``made``; None if it never won).
    ``value`` is what the search ranks by: the margin, plus for a match-aware bot the worth of the
    matches the hand ends."""

    action: Action
    points: float
    margin: float
    won: float
    made: float | None
    value: float


@dataclass(frozen=True)
class Evaluation:
    """Every action searched, best first, and the number of sampled deals behind each; ``values``
    gives each action's value (by its text) deal by deal, in the order the deals were drawn, so that
    two actions can be compared on the same deals."""

    estimates: list[Estimate]
    samples: int
    values: dict[str, list[float]] = field(default_factory=dict)


@dataclass
class _Totals:
    points: float = 0.0
    margin: float = 0.0
    value: float = 0.0
    won: int = 0
    made: int = 0
    values: list[float] = field(default_factory=list)

    def add(self, outcome: Outcome, value: float) -> None:
        self.points += outcome.points
        self.margin += outcome.margin
        self.value += value
        self.values.append(value)
        if outcome.made is not None:
            self.won += 1
            self.made += outcome.made

    def estimate(self, action: Action, samples: int) -> Estimate:
        made = self.made / self.won if self.won else None
        return Estimate(
            action,
            self.points / samples,
            self.margin / samples,
            self.won / samples,
            made,
            self.value / samples,
        )


class PimcBot:
    """PIMC with heuristic play-outs; ``samples`` and ``seconds`` bound the work of one decision."""

    name = "pimc"

    def __init__(self, samples: int = DEFAULT_SAMPLES, seconds: float = DEFAULT_SECONDS) -> None:
        self.samples = samples
        self.seconds = seconds
        self.policy = HeuristicBot()
        self.last_samples = 0  # deals searched for the last decision, for measuring

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return self.advise(view, rng).action

    def advise(self, view: PlayerView, rng: random.Random) -> Advice:
        """The action this bot would take in the seat of ``view``, with its expected points."""
        legal = view.legal_actions
        if len(legal) == 1:
            return Advice(legal[0], None, 0)
        if view.phase is Phase.DISCARD:
            # Too many discards to try them all; the heuristic keeps trumps and aces.
            return Advice(self.policy.choose(view, rng), None, 0)
        evaluation = self.evaluate(view, rng)
        best = evaluation.estimates[0]
        return Advice(best.action, best.points, evaluation.samples)

    def evaluate(
        self, view: PlayerView, rng: random.Random, candidates: Sequence[Action] | None = None
    ) -> Evaluation:
        """Each candidate action (by default the legal ones worth a look) played out over the same
        sampled deals: its expected points and margin, and in the auction how often the side wins
        the bid and makes it. Best first, by margin."""
        if candidates is None:
            candidates = self.candidates(view, rng)
        totals = {str(action): _Totals() for action in candidates}
        policy = self.playout_policy(view)
        deadline = time.perf_counter() + self.seconds
        samples = 0
        while samples < self.samples and (samples < 4 or time.perf_counter() < deadline):
            world = self.sample(view, rng)
            for action in candidates:
                outcome = play_out(apply(world, action, view.seat), view.seat, policy, rng)
                totals[str(action)].add(outcome, self.value(outcome, view))
            samples += 1
        self.last_samples = samples
        estimates = [totals[str(action)].estimate(action, samples) for action in candidates]
        # Stable: among equal values the first candidate (the policy's order) stays first.
        estimates.sort(key=lambda estimate: -estimate.value)
        return Evaluation(estimates, samples, {text: total.values for text, total in totals.items()})

    def candidates(self, view: PlayerView, rng: random.Random) -> list[Action]:
        """The actions worth searching: every legal one, or in the auction pass and the bids near
        the policy's own."""
        if view.phase is Phase.AUCTION:
            return auction_candidates(view, self.policy, rng)
        return list(view.legal_actions)

    def playout_policy(self, view: PlayerView) -> Bot:
        """How every seat plays the rest of the hand in the play-outs from ``view``."""
        return self.policy

    def sample(self, view: PlayerView, rng: random.Random) -> State:
        """One deal consistent with ``view``, every hidden card placed uniformly."""
        return sample_state(view, rng)

    def value(self, outcome: Outcome, view: PlayerView) -> float:
        """What a hand's ending is worth to the seat of ``view``: here, its side's margin."""
        return outcome.margin
