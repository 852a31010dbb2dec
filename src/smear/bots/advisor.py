"""The bid advisor: every auction choice open to a seat, as the expert's samples see it.

On a seat's turn in the auction, :func:`bid_advice` plays out passing and each legal bid (the moon
bid too, where it is legal) over the same sampled deals (:meth:`ExpertBot.evaluate`) and gives, for
each in the order of the legal actions: the expected change of the side's score this hand (a set bid
counts as minus the bid), the share of deals in which the side wins the auction, and of those the
share in which it makes the bid (None when it never won). After a pass the side can still win the
auction through a partner; those figures are then the partner's.

The budget is smaller in time than a hint's answer may take: :data:`ADVICE_SECONDS` of search,
or :data:`ADVICE_SAMPLES` deals, whichever comes first (``bench/advisor.py`` measures it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from smear.actionjson import action_json
from smear.actions import Action
from smear.bots.expert import ExpertBot
from smear.state import Phase
from smear.views import PlayerView

ADVICE_SAMPLES = 200
ADVICE_SECONDS = 0.4


@dataclass(frozen=True)
class BidOption:
    """One auction choice: the expected change of the side's score (``expected``), the share of
    sampled deals in which the side won the auction (``win``) and, of those, the share in which it
    made the bid (``make``; None if it never won)."""

    action: Action
    expected: float
    win: float
    make: float | None


@dataclass(frozen=True)
class BidAdvice:
    """Every auction choice of the seat, in the order of its legal actions, and the deals behind them."""

    options: list[BidOption]
    samples: int

    @property
    def best(self) -> BidOption:
        """The choice with the highest expected change (the first of equals)."""
        return max(self.options, key=lambda option: option.expected)

    def as_json(self) -> list[dict[str, object]]:
        """The options as the server sends them: ``expected`` to 1 decimal, ``win``/``make`` to 2."""
        return [
            {
                "action": action_json(option.action),
                "expected": round(option.expected, 1),
                "win": round(option.win, 2),
                "make": None if option.make is None else round(option.make, 2),
            }
            for option in self.options
        ]


def bid_advice(
    view: PlayerView,
    rng: random.Random,
    samples: int = ADVICE_SAMPLES,
    seconds: float = ADVICE_SECONDS,
) -> BidAdvice:
    """The advice for the seat of ``view`` on its turn in the auction (ValueError otherwise)."""
    if view.phase is not Phase.AUCTION or not view.is_my_turn or not view.legal_actions:
        raise ValueError("bid advice is for a seat's turn in the auction")
    legal = list(view.legal_actions)
    evaluation = ExpertBot(samples=samples, seconds=seconds).evaluate(view, rng, candidates=legal)
    by_action = {str(estimate.action): estimate for estimate in evaluation.estimates}
    options = []
    for action in legal:
        estimate = by_action[str(action)]
        options.append(BidOption(action, estimate.points, estimate.won, estimate.made))
    return BidAdvice(options, evaluation.samples)
