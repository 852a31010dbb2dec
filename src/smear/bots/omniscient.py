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
from smear.bots.lookahead import CardSolver, auction_candidates, play_out
from smear.state import Phase, State
from smear.transitions import apply
from smear.views import player_view

DEFAULT_PLAYOUTS = 4


class OmniscientBot:
    """Perfect information: the solver in the card play, play-outs on the true deal before it."""

    name = "omniscient"

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self.playouts = playouts
        self.policy = HeuristicBot()
        self._card_solver = CardSolver()

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
            candidates = auction_candidates(view, self.policy, rng)
        totals = {
            str(action): sum(
                play_out(apply(state, action, seat), seat, self.policy, rng).margin
                for _ in range(self.playouts)
            )
            for action in candidates
        }
        return max(candidates, key=lambda action: totals[str(action)])

    def _play(self, state: State, legal: tuple[Action, ...]) -> Action:
        values = self._card_solver.card_values(state)
        plays = [action for action in legal if isinstance(action, Play) and int(action.card) in values]
        if not plays:  # the solver names every legal card; keep a legal answer regardless
            return legal[0]
        return max(plays, key=lambda action: values[int(action.card)])
