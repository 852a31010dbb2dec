"""What the expert and the omniscient bot share: the bids worth trying in the auction, heuristic
play-outs of the rest of a hand, and each card's exact value from the kernel solver on a whole deal.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple

from smear.actions import Action, bid
from smear.bots.base import Bot
from smear.state import PublicState, State
from smear.transitions import apply
from smear.views import PlayerView, player_view

if TYPE_CHECKING:
    from smear.search.solver import Solver
    from smear.search.tables import KernelRules


def auction_candidates(view: PlayerView, policy: Bot, rng: random.Random, moon: bool = False) -> list[Action]:
    """Pass and the bids worth a look: ``policy``'s own choice and one step either side, and with
    ``moon`` the moon wherever it is legal."""
    legal = list(view.legal_actions)
    suggested = policy.choose(view, rng)
    index = legal.index(suggested)
    keep = {0, index - 1, index, index + 1}
    candidates = [action for i, action in enumerate(legal) if i in keep]
    rules = view.public.rules
    shoot = bid(rules.top_bid)
    if rules.shoot_the_moon and suggested != shoot:
        # By points alone the moon looks like any bid; only a search that values the match it wins
        # or loses should try it.
        candidates = [action for action in candidates if action != shoot]
        if moon and shoot in legal:
            candidates.append(shoot)
    return candidates


class Outcome(NamedTuple):
    """How a hand ended for one seat's side."""

    points: int  # the side's score change this hand
    margin: int  # that change minus the best other side's
    made: bool | None = None  # the side won the auction and made its bid (None: it did not bid)
    match: int = 0  # the hand ended the match: 1 won by the side, -1 won by another, 0 not ended


def play_out(state: State, seat: int, policy: Bot, rng: random.Random) -> Outcome:
    """Play the rest of the hand with ``policy`` at every seat; how it ends for the side of ``seat``."""
    number = state.public.hand_number
    before = state.public.scores
    while state.public.to_act is not None:
        actor = state.public.to_act
        state = apply(state, policy.choose(player_view(state, actor), rng), actor)
    pub = state.public
    assert pub.hand_number == number
    side = pub.seat_side[seat]
    change = [after - start for after, start in zip(pub.scores, before, strict=True)]
    others = [value for index, value in enumerate(change) if index != side]
    result = pub.results[-1]
    made = result.made if result.bidder is not None and pub.seat_side[result.bidder] == side else None
    match = 0 if pub.winner is None else (1 if pub.winner == side else -1)
    return Outcome(change[side], change[side] - (max(others) if others else 0), made, match)


class CardSolver:
    """The kernel solver on whole deals, with its work space and each table's kernel rules kept.

    Both are made on first use: numba is imported only then.
    """

    def __init__(self) -> None:
        self._solver: Solver | None = None
        self._kernel_rules: dict[tuple[object, ...], KernelRules] = {}

    def card_values(self, state: State) -> dict[int, int]:
        """The exact value of each card the seat to act may play, every card of ``state`` known: the
        points its side takes in the hand minus those of every other side."""
        return self._solve(state, oppose=True)

    def card_points(self, state: State, among: int | None = None) -> dict[int, tuple[int, int]]:
        """For each card the seat to act may play (of those in the mask ``among``, if given), every
        card of ``state`` known: the points its side takes in the hand (the most it can) and those
        every other side takes, on the line best for the side's margin (with three or more sides
        the others play together against the seat's)."""
        from smear.search.solver import position_of, solve_all_splits

        return solve_all_splits(self.kernel_rules(state.public), position_of(state), self._solver_of(), among)

    def side_points(self, state: State, side: int | None = None, among: int | None = None) -> dict[int, int]:
        """For each card the seat to act may play (of those in ``among``), every card of ``state``
        known: the points ``side`` (default: the seat's) takes in the hand when its seats play for
        them and every other seat against them (with three or more sides, how few points the
        bidder can be held to)."""
        return self._solve(state, oppose=False, side=side, among=among)

    def _solve(
        self, state: State, oppose: bool, side: int | None = None, among: int | None = None
    ) -> dict[int, int]:
        from smear.search.solver import position_of, solve_all_moves

        kr = self.kernel_rules(state.public)
        return solve_all_moves(
            kr, position_of(state), oppose, solver=self._solver_of(), side=side, among=among
        )

    def _solver_of(self) -> Solver:
        from smear.search.solver import Solver

        if self._solver is None:
            self._solver = Solver()
        return self._solver

    def kernel_rules(self, pub: PublicState) -> KernelRules:
        """The kernel's tables for the rules, players and sides of ``pub``."""
        from smear.search.tables import kernel_rules

        key = (pub.rules, pub.players, pub.sides)
        found = self._kernel_rules.get(key)
        if found is None:
            teams = pub.sides if any(len(side) > 1 for side in pub.sides) else None
            found = self._kernel_rules[key] = kernel_rules(pub.rules, pub.players, teams)
        return found
