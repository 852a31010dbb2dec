"""Judge the decisions of a match record with the expert's search (``smear review``).

Every action of a record is one seat's decision: a pass or a bid, taking the widow, naming trump, a
discard or a card. :func:`review_record` replays the record and judges each decision of the chosen
seats from that seat's view at that moment only (its own cards, what was public, what it
discarded; never the cards it could not see), the way :class:`smear.bots.expert.ExpertBot` makes
that decision itself: its own candidates (in the auction pass, the bids next to the heuristic's and
the moon; for a discard the heuristic's and its neighbours; otherwise every legal action) plus the
action actually taken, over the same sampled deals drawn as it draws them (leaning towards deals
that explain the other seats' bids and cards), the auction's rest played as it reads the table, and
the cards solved exactly where it solves them. Each candidate gets the expert's value: the seat's
side's score change this hand minus the other side's (a set bid counts as minus the bid), plus
``MATCH_WORTH`` when the hand wins the match (minus it when it loses it).

The *best* action is the candidate of highest value; among equal values the action taken counts as
best. The best's lead over the action taken is measured deal by deal on the same deals, with its
standard error: the action is *worse*, with that lead as its *loss*, only when the lead exceeds
``NOISE_Z`` standard errors (the decision's *error*); nearer, the two are called *equal* and the
loss is 0. A forced decision (a single legal action) is listed with a loss of 0 and no expected
value, without a search. So the expert's own decisions, judged with its own budget, cost nothing
but the odd false alarm, and a decision's loss holds when judged again with another seed.

The sampled deals of a decision come from ``random.Random(f"review:{seed}:{hand}:{index}")`` and the
seat's view only, and the search is bounded by a number of samples, not by time: a seat's review
is the same, to the last digit, however the cards it could not see were dealt.

>>> from smear import apply, find_rules, legal_actions, new_match
>>> from smear.record import parse_record, record_of
>>> state = new_match(find_rules("house"), players=4, seed=3)
>>> state = apply(state, legal_actions(state)[0])  # seat 2, on the dealer's left, passes
>>> record = parse_record(record_of(state, ["Ayse", "Kemal", "You", "Sam"]))
>>> review = review_record(record, None, seed=0, samples=4)
>>> [(d.hand, d.action_index, d.action) for d in review.decisions]
[(0, 0, 'pass')]
>>> [player.decisions for player in review.players]
[0, 0, 1, 0]
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from smear.actions import Action, Play
from smear.bots.expert import MATCH_WORTH, ExpertBot
from smear.record import Record, replay
from smear.state import State
from smear.views import PlayerView, player_view

# A choice is called worse than the best only when the best is ahead by more than this many
# standard errors of the gap (deal by deal, on the same deals); nearer, the two are called equal.
NOISE_Z = 2.0
# Decisions the text report lists, costliest first, unless told otherwise.
DEFAULT_TOP = 20
# The asking seat's costliest decisions a review at the table lists (``review_hand``, ``review_match``).
REVIEW_COSTLIEST = 5


@dataclass(frozen=True)
class Decision:
    """One judged decision. ``hand`` and ``action_index`` are 0-based positions in the record's
    ``hands`` and in that hand's ``actions``; ``expected_action`` and ``expected_best`` are the
    expected values of the action taken and of the best one (None for a forced decision), rounded
    to 2 decimals; ``loss`` is the difference of the two (0 unless the ``verdict`` is ``worse``) and
    ``error`` the margin of error of that difference (None when forced or best)."""

    hand: int
    action_index: int
    seat: int
    action: str
    best: str
    expected_action: float | None
    expected_best: float | None
    loss: float
    verdict: str = "best"  # forced, best, equal or worse (see :func:`verdict`)
    error: float | None = None

    @property
    def forced(self) -> bool:
        """Whether the seat had a single legal action (nothing was searched)."""
        return self.expected_action is None

    def to_json(self) -> dict[str, Any]:
        """The decision as ``smear review --json`` prints it."""
        return {
            "hand": self.hand,
            "action_index": self.action_index,
            "seat": self.seat,
            "action": self.action,
            "best": self.best,
            "expected_action": self.expected_action,
            "expected_best": self.expected_best,
            "loss": self.loss,
            "verdict": self.verdict,
            "error": self.error,
        }


@dataclass(frozen=True)
class PlayerTotal:
    """How one seat did: its decisions judged (forced ones included) and the sum of their losses
    (rounded to 2 decimals)."""

    seat: int
    decisions: int
    total_loss: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "total_loss": self.total_loss}


@dataclass(frozen=True)
class Review:
    """Every judged decision in record order, and a total for every reviewed seat (by seat)."""

    decisions: tuple[Decision, ...]
    players: tuple[PlayerTotal, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"decisions": [...], "players": [...]}``, as ``smear review --json`` prints it."""
        return {
            "decisions": [decision.to_json() for decision in self.decisions],
            "players": [player.to_json() for player in self.players],
        }

    def costliest(self) -> list[Decision]:
        """The decisions that lost points, costliest first; equal losses in record order."""
        return costliest(self.decisions)


def costliest(decisions: Iterable[Decision], top: int | None = None) -> list[Decision]:
    """The ``decisions`` that lost points, costliest first, equal losses in the order given; at most
    ``top`` of them (None for all)."""
    ranked = sorted((decision for decision in decisions if decision.loss > 0), key=lambda d: -d.loss)
    return ranked if top is None else ranked[:top]


@dataclass(frozen=True)
class Judgement:
    """What the search says of one action taken: the best candidate, the expected value of both
    (None, and ``best`` the action itself, when the action was forced), and the standard error of
    their difference, deal by deal (None when the action taken was the best)."""

    best: Action
    expected_action: float | None
    expected_best: float | None
    noise: float | None
    samples: int


@dataclass(frozen=True)
class Position:
    """A decision to judge: where it is in the record, the view of the seat that took it (just
    before it), and the action taken."""

    hand: int
    action_index: int
    view: PlayerView
    action: Action

    @property
    def seat(self) -> int:
        return self.view.seat


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def reviewer(samples: int | None = None) -> ExpertBot:
    """The expert that judges: with the expert's own budget of deals (``samples`` for every kind of
    decision when given) and no time limit, so that the result never depends on the machine's speed."""
    if samples is None:
        return ExpertBot(seconds=math.inf)
    samples = max(2, samples)  # a margin of error needs two deals
    return ExpertBot(samples=samples, play_samples=samples, seconds=math.inf)


def decision_rng(seed: int, hand: int, action_index: int) -> random.Random:
    """The random source of one decision: it depends on nothing but these three numbers."""
    return random.Random(f"review:{seed}:{hand}:{action_index}")


def check_seats(record: Record, seats: Collection[int] | None) -> tuple[int, ...]:
    """The seats to review in order (every seat when ``seats`` is None); ``ValueError`` names a
    seat the record does not have."""
    count = len(record.players)
    if seats is None:
        return tuple(range(count))
    for seat in seats:
        if not 0 <= seat < count:
            raise ValueError(f"no seat {seat}: the record has {count} seats, 0 to {count - 1}")
    return tuple(sorted(set(seats)))


def positions(
    record: Record, seats: Collection[int] | None = None, hands: Collection[int] | None = None
) -> list[Position]:
    """The decisions of ``seats`` (default: all) in ``hands`` (0-based; default: all), in record
    order, each with the view its seat had. Replays the record, so raises what
    :func:`smear.record.replay` raises for a bad one, and ``ValueError`` for an unknown seat."""
    chosen = set(check_seats(record, seats))
    found: list[Position] = []
    counter = {"hand": -1, "index": 0}

    def observe(before: State, action: Action, after: State) -> None:
        hand = before.public.hand_number - 1
        if hand != counter["hand"]:
            counter["hand"], counter["index"] = hand, 0
        index = counter["index"]
        counter["index"] += 1
        seat = before.public.to_act
        assert seat is not None  # the engine refuses an action when nobody is to act
        if seat in chosen and (hands is None or hand in hands):
            found.append(Position(hand, index, player_view(before, seat), action))

    replay(record, observe)
    return found


def count_decisions(record: Record, seats: Collection[int] | None = None) -> int:
    """How many decisions :func:`review_record` judges (to size a progress bar)."""
    return len(positions(record, seats))


def judge(view: PlayerView, action: Action, rng: random.Random, expert: ExpertBot) -> Judgement:
    """Judge ``action`` taken from ``view`` (its seat to act) the way the expert chooses there: its
    own candidates (and the action taken) over the same sampled deals, valued as it values them, and
    with the solver where it plays its cards with the solver. The best is the candidate of highest
    value; among equal values the action taken counts as best."""
    if len(view.legal_actions) <= 1:
        return Judgement(action, None, None, None, 0)
    if expert.solves_play(view) and isinstance(action, Play):
        return _judge_card(view, action, rng, expert)
    unique: dict[str, Action] = {}
    for candidate in [*expert.candidates(view, rng), action]:  # the action taken is always searched
        unique.setdefault(str(candidate), candidate)
    evaluation = expert.evaluate(view, rng, list(unique.values()))
    values = evaluation.values
    taken = str(action)
    top = max(evaluation.estimates, key=lambda estimate: estimate.value)
    best = action if top.value <= _mean(values[taken]) else top.action
    if best is action:
        value = _mean(values[taken])
        return Judgement(action, value, value, None, evaluation.samples)
    gaps = [ahead - behind for ahead, behind in zip(values[str(best)], values[taken], strict=True)]
    noise = statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else math.inf
    return Judgement(best, _mean(values[taken]), _mean(values[str(best)]), noise, evaluation.samples)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _judge_card(view: PlayerView, action: Play, rng: random.Random, expert: ExpertBot) -> Judgement:
    """A card judged as the expert chooses its cards: each solved exactly on weighed sampled deals,
    the card played solved on every one of them."""
    taken = int(action.card)
    tally = expert.tally_cards(view, rng, keep=taken)
    top = max(tally.live, key=lambda card: tally.total[card])
    samples = len(tally.weights)
    if tally.total[taken] >= tally.total[top]:
        value = tally.mean(taken)
        return Judgement(action, value, value, None, samples)
    gap, variance = tally.gap(top, taken)
    best = next(play for play in view.legal_actions if isinstance(play, Play) and int(play.card) == top)
    return Judgement(best, tally.mean(taken), tally.mean(taken) + gap, math.sqrt(variance), samples)


def verdict(judgement: Judgement) -> tuple[str, float, float | None]:
    """What a judgement says of the action taken: ``forced``, ``best``, ``equal`` (the best is ahead
    by less than the margin of error) or ``worse``; the loss (0 unless worse) and the margin of
    error (``NOISE_Z`` standard errors; None unless equal or worse)."""
    expected_action, expected_best = judgement.expected_action, judgement.expected_best
    if expected_action is None or expected_best is None:
        return "forced", 0.0, None
    if judgement.noise is None:
        return "best", 0.0, None
    gap = round(round(expected_best, 2) - round(expected_action, 2), 2)  # as the decision shows them
    error = round(NOISE_Z * judgement.noise, 2)  # compared as shown: a loss shown is above its error
    if gap > error:
        return "worse", gap, error
    return "equal", 0.0, error


def review_position(position: Position, seed: int, expert: ExpertBot) -> Decision:
    """Judge one decision with its own random source (:func:`decision_rng`)."""
    rng = decision_rng(seed, position.hand, position.action_index)
    judgement = judge(position.view, position.action, rng, expert)
    kind, loss, error = verdict(judgement)
    return Decision(
        position.hand,
        position.action_index,
        position.seat,
        str(position.action),
        str(judgement.best),
        _round(judgement.expected_action),
        _round(judgement.expected_best),
        loss,
        kind,
        error,
    )


def _review(
    chosen: Sequence[Position],
    seed: int,
    samples: int | None,
    on_decision: Callable[[], None] | None,
) -> list[Decision]:
    expert = reviewer(samples)
    decisions = []
    for position in chosen:
        decisions.append(review_position(position, seed, expert))
        if on_decision is not None:
            on_decision()
    return decisions


def review_hand(
    record: Record,
    hand: int,
    seats: Collection[int] | None = None,
    seed: int = 0,
    samples: int | None = None,
    on_decision: Callable[[], None] | None = None,
) -> list[Decision]:
    """The decisions of ``seats`` (default: all) in one hand of the record (``hand`` 0-based), in
    order: what a "review this hand" panel shows. The same decisions as :func:`review_record`
    gives for that hand with the same seed and samples."""
    if not 0 <= hand < len(record.hands):
        raise ValueError(
            f"no hand {hand}: the record has {len(record.hands)} hands, 0 to {len(record.hands) - 1}"
        )
    return _review(positions(record, seats, {hand}), seed, samples, on_decision)


def review_record(
    record: Record,
    seats: Collection[int] | None,
    seed: int,
    samples: int | None = None,
    on_decision: Callable[[], None] | None = None,
) -> Review:
    """Judge every decision of ``seats`` (None: every seat) in the record, in record order.

    ``samples`` is the number of sampled deals a decision (None: the expert's own budget);
    ``on_decision`` is called after each decision is judged (forced ones too). Raises
    :class:`smear.record.ReplayError` or :class:`smear.errors.RecordError` for a record that
    does not replay, and ``ValueError`` for a seat the record does not have.
    """
    chosen = check_seats(record, seats)
    decisions = _review(positions(record, chosen), seed, samples, on_decision)
    players = tuple(
        PlayerTotal(
            seat,
            sum(1 for decision in decisions if decision.seat == seat),
            round(sum(decision.loss for decision in decisions if decision.seat == seat), 2),
        )
        for seat in chosen
    )
    return Review(tuple(decisions), players)


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], numeric: Collection[int]) -> list[str]:
    widths = [max(len(line[col]) for line in [headers, *rows]) for col in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            cell.rjust(width) if col in numeric else cell.ljust(width)
            for col, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return [line(headers), line(["-" * width for width in widths]), *(line(row) for row in rows)]


def _points(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def review_text(record: Record, review: Review, top: int | None = DEFAULT_TOP) -> str:
    """The review for people: each reviewed seat's decisions and total loss, then the decisions
    that lost points, costliest first (at most ``top``; None or 0 for all). Hands and actions are
    counted from 1 here, as in ``smear replay``'s messages."""
    names = record.players
    out = [
        f"{record.rules.name}, {len(names)} players: {', '.join(names)}",
        "Expected: the player's side's score change in the hand minus the other side's (winning the",
        f"match counts {MATCH_WORTH:g} more), averaged over sampled deals consistent with what the",
        "player could see.",
        "Loss: the best action's expected value minus the action taken's, when more than the margin",
        "of error (Error); within it the two are called equal and nothing is lost.",
        "",
    ]
    rows = [
        [str(player.seat), names[player.seat], str(player.decisions), f"{player.total_loss:.2f}"]
        for player in review.players
    ]
    out += _table(["Seat", "Player", "Decisions", "Total loss"], rows, {0, 2, 3})
    out.append("")
    costly = review.costliest()
    if not costly:
        out.append("No decision lost expected points.")
        return "\n".join(out)
    shown = costly if not top else costly[:top]
    out.append("Costliest decisions (hands and actions counted from 1):")
    out.append("")
    rows = [
        [
            str(decision.hand + 1),
            str(decision.action_index + 1),
            names[decision.seat],
            decision.action,
            decision.best,
            _points(decision.expected_action),
            _points(decision.expected_best),
            f"{decision.loss:.2f}",
            _points(decision.error),
        ]
        for decision in shown
    ]
    headers = [
        "Hand",
        "Action",
        "Player",
        "Taken",
        "Best",
        "Expected (taken)",
        "Expected (best)",
        "Loss",
        "Error",
    ]
    out += _table(headers, rows, {0, 1, 5, 6, 7, 8})
    if len(shown) < len(costly):
        out.append(f"... and {len(costly) - len(shown)} more that lost points (--json lists every decision).")
    return "\n".join(out)


__all__ = [
    "DEFAULT_TOP",
    "NOISE_Z",
    "Decision",
    "Judgement",
    "PlayerTotal",
    "Position",
    "Review",
    "check_seats",
    "count_decisions",
    "decision_rng",
    "judge",
    "positions",
    "review_hand",
    "review_position",
    "review_record",
    "review_text",
    "reviewer",
    "verdict",
]
