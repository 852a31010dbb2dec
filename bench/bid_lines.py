"""Fit what the heuristic bids (:mod:`smear.bots.bidlines`): the points a bidder takes, by the count
of its dealt hand's best suit and the trumps it holds there.

For every table of every preset (each player count, in teams or not; five-point also with its
kitty) and each deal, every seat in turn is made the bidder at the lowest bid (the others pass) and
the hand is played to its end by the heuristic at every seat. A least-squares plane of the points
the bidder's side took in the count and the trumps, lowered by the 20th percentile of what the
plane misses, is the points such a hand takes four times in five.

Usage: python bench/bid_lines.py [--deals 1000] [--seed 0]

It prints ``BID_LINES`` as it stands in ``src/smear/bots/bidlines.py``, then for each table the
hands played, the mean points taken and the share of hands that took at least the fitted bid.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
from rich.progress import Progress

from smear import Phase, apply, new_match, player_view
from smear.actions import PASS, bid
from smear.bots.bidlines import bid_of, line_worth, table_name
from smear.bots.heuristic import HeuristicBot, best_suit
from smear.rules import PRESETS, Rules, option_changes
from smear.trick import order_for

# The fitted plane is lowered to this percentile of what it misses.
PERCENTILE = 20


class Table(NamedTuple):
    name: str  # the preset's, "+kitty" where the bidder takes one
    players: int
    teams: bool
    rules: Rules


class Fit(NamedTuple):
    base: float  # points at a count of 0 and no trumps
    per_count: float
    per_trump: float
    hands: int
    mean_taken: float
    made: float  # share of hands that took at least the bid the heuristic makes of the fit

    def bid(self, count: float, trumps: int) -> int:
        """The bid the heuristic makes of this fit (:func:`smear.bots.bidlines.fitted_bid`)."""
        return bid_of(line_worth((self.base, self.per_count, self.per_trump), count, trumps))


class Hand(NamedTuple):
    """A hand made the bidder: its best suit's count and trumps, and the points its side took."""

    counted: float  # the count of :func:`smear.bots.heuristic.estimate`
    trumps: int
    taken: int


def tables() -> Iterator[Table]:
    """Every table of every preset, and five-point's with its kitty."""
    for rules in PRESETS.values():
        every = [rules]
        if rules.kitty_option:
            every.append(rules.with_changes(**option_changes(rules, kitty=True)))
        for kind in every:
            yield from (Table(table_name(kind), players, False, kind) for players in kind.player_counts)
            yield from (Table(table_name(kind), players, True, kind) for players in kind.team_player_counts)


def forced_bids(table: Table, deals: int, seed: int = 0) -> list[Hand]:
    """For each deal and each seat made the bidder: its dealt hand's best suit (count and trumps)
    and the points its side took, the heuristic playing every seat."""
    rules = table.rules
    policy = HeuristicBot()
    rng = random.Random(seed)
    hands = []
    for deal in range(deals):
        dealt = new_match(rules, table.players, table.teams or None, seed=seed + deal)
        for bidder in range(table.players):
            state, count, trumps = dealt, 0.0, 0
            while state.public.phase is Phase.AUCTION:
                seat = state.public.to_act
                assert seat is not None
                view = player_view(state, seat)
                if seat == bidder:
                    best = best_suit(view.hand.mask, state.public.deck.mask, rules)
                    count = best.points
                    trumps = (view.hand.mask & order_for(rules, best.suit).trump_mask).bit_count()
                    state = apply(state, bid(rules.min_bid), seat)
                else:  # a dealer that nobody bid before would have to bid; the bidder speaks first
                    state = apply(state, PASS if PASS in view.legal_actions else view.legal_actions[0], seat)
            while (seat := state.public.to_act) is not None:
                state = apply(state, policy.choose(player_view(state, seat), rng), seat)
            hands.append(Hand(count, trumps, state.public.results[-1].taken[state.public.seat_side[bidder]]))
    return hands


def fit(hands: list[Hand]) -> Fit:
    """The plane of points taken in count and trumps, lowered to its ``PERCENTILE``th percentile
    (least squares; a feature that does not vary among the hands gets no weight)."""
    taken = np.array([hand.taken for hand in hands], dtype=float)
    features = np.array([[hand.counted, hand.trumps] for hand in hands], dtype=float)
    varies = features.std(axis=0) > 0
    design = np.column_stack([np.ones(len(hands)), features[:, varies]])
    solved, *_ = np.linalg.lstsq(design, taken, rcond=None)
    weights = np.zeros(2)
    weights[varies] = solved[1:]
    misses = taken - design @ solved
    base = float(solved[0] + np.percentile(misses, PERCENTILE))
    found = Fit(
        round(base, 2), round(float(weights[0]), 2), round(float(weights[1]), 2), len(hands), 0.0, 0.0
    )
    made = sum(hand.taken >= found.bid(hand.counted, hand.trumps) for hand in hands)
    return found._replace(mean_taken=statistics.fmean(hand.taken for hand in hands), made=made / len(hands))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per table (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    args = parser.parse_args()
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    every = list(tables())
    fits = {}
    with Progress() as progress:
        task = progress.add_task("tables", total=len(every))
        for table in every:
            fits[table] = fit(forced_bids(table, args.deals, args.seed))
            progress.advance(task)
    print("BID_LINES: dict[tuple[str, int, bool], Line] = {")
    for table, found in fits.items():
        line = f"({found.base}, {found.per_count}, {found.per_trump})"
        print(f'    ("{table.name}", {table.players}, {table.teams}): {line},')
    print("}")
    for table, found in fits.items():
        print(
            f"{table.name} {table.players} {'teams' if table.teams else 'alone'}: {found.hands} hands,"
            f" mean taken {found.mean_taken:.2f}, made the fitted bid {found.made:.1%}"
        )


if __name__ == "__main__":
    main()
