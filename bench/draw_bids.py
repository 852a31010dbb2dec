"""Fit the heuristic's bids for the games where cards are drawn after the auction
(:mod:`smear.bots.draws`): what a bidder takes, by the trumps its dealt hand holds in its best suit.

For every table of ``mcleod``, ``widow``, ``nine_card`` and ``five_point`` with its kitty (each
player count, in teams or not) and
each deal, every seat in turn is made the bidder at the lowest bid (the others pass) and the hand is
played to its end by the heuristic at every seat. A least-squares line of the points the bidder's
side took against the trumps it was dealt in its best suit, lowered by the 20th percentile of what
the line misses, is the points such a hand takes four times in five.

Usage: python bench/draw_bids.py [--deals 2000] [--seed 0]

It prints ``DRAW_BIDS`` as it stands in ``src/smear/bots/draws.py``, then for each table the hands
played, the mean points taken and the share of hands that took at least the fitted bid.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Iterator
from typing import NamedTuple

from rich.progress import Progress

from smear import Phase, apply, new_match, player_view
from smear.actions import PASS, bid
from smear.bots.draws import draws_after_auction
from smear.bots.heuristic import HeuristicBot, best_suit
from smear.rules import PRESETS, Rules
from smear.trick import order_for

# The fitted line is lowered to this percentile of what it misses.
PERCENTILE = 20


class Table(NamedTuple):
    preset: str
    players: int
    teams: bool
    rules: Rules  # the preset's, with its kitty if it offers one


class Fit(NamedTuple):
    base: float  # points at no trumps
    per_trump: float
    hands: int
    mean_taken: float
    made: float  # share of hands that took at least the fitted line, rounded as the heuristic bids


def draw_tables() -> Iterator[Table]:
    """Every table whose rules draw cards after the auction (a preset's kitty option taken)."""
    for name, rules in PRESETS.items():
        if rules.kitty_option:
            rules = rules.with_changes(kitty=rules.kitty_option)
        if draws_after_auction(rules):
            yield from (Table(name, players, False, rules) for players in rules.player_counts)
            yield from (Table(name, players, True, rules) for players in rules.team_player_counts)


def forced_bids(table: Table, deals: int, seed: int = 0) -> list[tuple[int, int]]:
    """For each deal and each seat made the bidder: the trumps of its best suit in its dealt hand
    and the points its side took, the heuristic playing every seat."""
    rules = table.rules
    policy = HeuristicBot()
    rng = random.Random(seed)
    rows = []
    for deal in range(deals):
        dealt = new_match(rules, table.players, table.teams or None, seed=seed + deal)
        for bidder in range(table.players):
            state, trumps = dealt, 0
            while state.public.phase is Phase.AUCTION:
                seat = state.public.to_act
                assert seat is not None
                view = player_view(state, seat)
                if seat == bidder:
                    suit = best_suit(view.hand.mask, state.public.deck.mask, rules).suit
                    trumps = (view.hand.mask & order_for(rules, suit).trump_mask).bit_count()
                    state = apply(state, bid(rules.min_bid), seat)
                else:  # the dealer, last to speak, may have to bid
                    state = apply(state, PASS if PASS in view.legal_actions else view.legal_actions[0], seat)
            if state.public.bidder != bidder:
                continue  # the dealer had to bid over it
            while (seat := state.public.to_act) is not None:
                state = apply(state, policy.choose(player_view(state, seat), rng), seat)
            rows.append((trumps, state.public.results[-1].taken[state.public.seat_side[bidder]]))
    return rows


def fit(rows: list[tuple[int, int]]) -> Fit:
    """The line of points taken in trumps held, lowered to its ``PERCENTILE``th percentile."""
    trumps = [float(count) for count, _ in rows]
    taken = [float(points) for _, points in rows]
    if len(set(trumps)) > 1:
        slope, intercept = statistics.linear_regression(trumps, taken)
    else:  # too few hands to tell trumps apart: a flat line
        slope, intercept = 0.0, statistics.fmean(taken)
    pairs = list(zip(trumps, taken, strict=True))
    misses = [points - (intercept + slope * count) for count, points in pairs]
    base = intercept + statistics.quantiles(misses, n=100)[PERCENTILE - 1]
    made = sum(points >= int(base + slope * count + 0.25) for count, points in pairs)
    return Fit(round(base, 2), round(slope, 2), len(rows), statistics.fmean(taken), made / len(rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per table (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed (default 0)")
    args = parser.parse_args()
    if args.deals < 2:
        parser.error("--deals must be at least 2")
    tables = list(draw_tables())
    fits = {}
    with Progress() as progress:
        task = progress.add_task("tables", total=len(tables))
        for table in tables:
            fits[table] = fit(forced_bids(table, args.deals, args.seed))
            progress.advance(task)
    print("DRAW_BIDS: dict[tuple[str, int, bool], tuple[float, float]] = {")
    for table, found in fits.items():
        print(f'    ("{table.preset}", {table.players}, {table.teams}): ({found.base}, {found.per_trump}),')
    print("}")
    for table, found in fits.items():
        print(
            f"{table.preset} {table.players} {'teams' if table.teams else 'alone'}: {found.hands} hands,"
            f" mean taken {found.mean_taken:.2f}, made the fitted bid {found.made:.1%}"
        )


if __name__ == "__main__":
    main()
