"""A bot that sees every card, for measuring how far the others are from perfect information.

It is never offered at a table (it is not in the public registry): it reads the whole
:class:`~smear.state.State`, so only the arena plays it, through :meth:`OmniscientBot.choose_with_state`.

- **Card play**: the kernel solver on the true position (:func:`smear.search.solver.solve_all_moves`,
  our side's points minus the other sides'), and the best card for its side.
- **Auction and trump**: like the expert, but on the true deal: each candidate (pass and the bids
  worth a look, or every trump suit) is applied to the real state and the hand played out by the
  heuristic at every seat a few times; the candidate whose hands end best for its side is kept.
- **Discard**: the heuristic's choice (the solver then plays the cards kept).
"""

from __future__ import annotations

import random

from smear.actions import Action, Play
from smear.bots.heuristic import HeuristicBot
from smear.search.solver import Solver, position_of, solve_all_moves
from smear.search.tables import KernelRules, kernel_rules
from smear.state import Phase, State, apply
from smear.views import player_view

DEFAULT_PLAYOUTS = 4


class OmniscientBot:
    """Perfect information: the solver in the card play, play-outs on the true deal before it."""

    name = "omniscient"

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self.playouts = playouts
        self.policy = HeuristicBot()
        self.solver = Solver()
        self._rules: dict[tuple[object, ...], KernelRules] = {}

    def choose_with_state(self, state: State, seat: int, rng: random.Random) -> Action:
        """One of the legal actions of ``seat`` (the seat to act) in the true ``state``."""
        view = player_view(state, seat)
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.PLAY:
            return self._play(state, legal)
        if phase is Phase.DISCARD:
            return self.policy.choose(view, rng)
        candidates = list(legal)
        if phase is Phase.AUCTION:
            candidates = self._auction_candidates(state, seat, rng)
        totals = {
            str(action): sum(
                self._outcome(apply(state, action, seat), seat, rng) for _ in range(self.playouts)
            )
            for action in candidates
        }
        return max(candidates, key=lambda action: totals[str(action)])

    def _play(self, state: State, legal: tuple[Action, ...]) -> Action:
        values = solve_all_moves(
            self._kernel_rules(state), position_of(state), oppose=True, solver=self.solver
        )
        plays = [action for action in legal if isinstance(action, Play) and int(action.card) in values]
        if not plays:  # the solver names every legal card; keep a legal answer regardless
            return legal[0]
        return max(plays, key=lambda action: values[int(action.card)])

    def _kernel_rules(self, state: State) -> KernelRules:
        pub = state.public
        key = (pub.rules, pub.players, pub.sides)
        found = self._rules.get(key)
        if found is None:
            teams = pub.sides if any(len(side) > 1 for side in pub.sides) else None
            found = self._rules[key] = kernel_rules(pub.rules, pub.players, teams)
        return found

    def _auction_candidates(self, state: State, seat: int, rng: random.Random) -> list[Action]:
        """Pass and the bids worth a look: the heuristic's own choice and one step either side."""
        view = player_view(state, seat)
        legal = list(view.legal_actions)
        index = legal.index(self.policy.choose(view, rng))
        keep = {0, index - 1, index, index + 1}
        return [action for i, action in enumerate(legal) if i in keep]

    def _outcome(self, state: State, seat: int, rng: random.Random) -> float:
        """Play the hand out with the heuristic everywhere; our side's score change minus the best
        other side's."""
        before = state.public.scores
        while state.public.to_act is not None:
            actor = state.public.to_act
            state = apply(state, self.policy.choose(player_view(state, actor), rng), actor)
        pub = state.public
        side = pub.seat_side[seat]
        change = [after - start for after, start in zip(pub.scores, before, strict=True)]
        others = [value for index, value in enumerate(change) if index != side]
        return change[side] - (max(others) if others else 0)
