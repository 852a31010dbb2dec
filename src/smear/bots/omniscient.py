"""A bot that sees every card, for measuring how far the others are from perfect information.

It is never offered at a table (it is not in the public registry): it reads the whole
:class:`~smear.state.State`, so only the arena plays it, through :meth:`OmniscientBot.choose_with_state`.

- **Card play**: the kernel solver on the true position (:func:`smear.search.solver.solve_all_moves`,
  our side's points minus the other sides'), and the best card for its side.
- **Auction and trump**: like the expert, but on the true deal: each candidate (pass and the bids
  worth a look, or every trump suit) is applied to the real state and the hand played out by the
  heuristic at every seat a few times; the candidate whose hands end best for its side is kept.
- **Discard**: the heuristic's choice (the solver then plays the cards kept).

:class:`SightedExpertBot` sits between the two for measuring: the expert, shown every card at some
decisions only (the auction, the choice of trump) and playing the rest from its own view. How far it
gets towards the omniscient bot is what seeing the cards at those decisions is worth, which no bot
that plays fair can have.
"""

from __future__ import annotations

import random

from smear.actions import Action, Play
from smear.bots.expert import ExpertBot
from smear.bots.heuristic import HeuristicBot
from smear.bots.lookahead import CardSolver, auction_candidates, play_out
from smear.state import Phase, State
from smear.transitions import apply
from smear.views import PlayerView, player_view

DEFAULT_PLAYOUTS = 4

# The decisions at which a sighted expert may be shown every card (see SightedExpertBot).
SIGHTS = frozenset({"auction", "trump"})


def sighted_name(sees: frozenset[str]) -> str:
    """The arena's name for the expert shown every card at the decisions ``sees``."""
    return "expert-sees-" + "-".join(sorted(sees))


# The arena's sighted experts by name: shown the cards at the auction, at the trump, or at both.
SIGHTED_EXPERTS: dict[str, frozenset[str]] = {
    sighted_name(sees): sees for sees in (frozenset({"auction"}), frozenset({"trump"}), SIGHTS)
}
# Deals searched where the one true deal is shown: a few, since the heuristic's play-outs may vary.
SHOWN_SAMPLES = 4


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


class SightedExpertBot(ExpertBot):
    """The expert, shown the whole deal at the decisions named in ``sees`` and playing every other
    from its own view: ``auction`` (its bids and passes) and ``trump`` (the choice of trump: naming
    it, or in house the first lead, whose suit is trump).

    At a decision it sees, each deal its search would sample is the true one (the state as it is,
    cut off from the match before it), searched ``SHOWN_SAMPLES`` times."""

    def __init__(self, sees: frozenset[str]) -> None:
        if not sees or not sees <= SIGHTS:
            shown = sorted(sees)
            raise ValueError(f"a sighted expert sees the cards at the auction, the trump or both: {shown}")
        super().__init__()
        self.name = sighted_name(sees)
        self.sees = sees
        self._shown: State | None = None

    def choose_with_state(self, state: State, seat: int, rng: random.Random) -> Action:
        """One of the legal actions of ``seat`` (the seat to act) in the true ``state``."""
        view = player_view(state, seat)
        if not self.sees_at(view):
            return self.choose(view, rng)
        searched = self.samples, self.play_samples
        self._shown = state._replace(previous=None, seed=None)
        self.samples = self.play_samples = SHOWN_SAMPLES
        try:
            return self.choose(view, rng)
        finally:
            self._shown = None
            self.samples, self.play_samples = searched

    def sees_at(self, view: PlayerView) -> bool:
        """Whether the decision of ``view`` is one at which this bot is shown every card."""
        pub = view.public
        if view.phase is Phase.AUCTION:
            return "auction" in self.sees
        names_trump = view.phase is Phase.TRUMP or (
            view.phase is Phase.PLAY and not pub.rules.trump_named and pub.trump is None
        )
        return names_trump and "trump" in self.sees

    def sample(self, view: PlayerView, rng: random.Random) -> State:
        return self._shown if self._shown is not None else super().sample(view, rng)
