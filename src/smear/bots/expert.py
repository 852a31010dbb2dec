"""The expert: PIMC (:mod:`smear.bots.pimc`) that reads the table, solves the card play and plays
for the match.

- **Inference.** Sampled deals lean towards those that explain the auction: each other seat's bid
  or pass, by the heuristic's count of its dealt hand (``bid_prior`` of
  :func:`smear.bots.sampler.sample_state`), so a bid of 4 or a pass says where the strength is.
  In the card play each deal also counts as much as it explains the cards the others chose
  (:func:`smear.bots.inference.play_likelihood`), each seat taken to play the heuristic's card as
  often as it did in the earlier hands of the match (:mod:`smear.bots.playreads`); since deals of
  unequal weight are worth fewer equal ones, deals are solved until their effective number reaches
  the limit.
- **How the table bids.** Each other seat's bids and passes in the earlier hands of the match, beside
  the cards it then showed, say whether it bids more or less than the heuristic on the same cards
  (:mod:`smear.bots.bidreads`); the sampler reads its bids, and the auction's play-outs make them,
  with that shift.
- **Solver leaves.** In the card play each sampled deal is solved exactly by the kernel solver
  (each side's score change with the bid counted; with three or more sides, the bidder held to as
  few points as the other seats together can) instead of played out by the heuristic, for every
  preset the kernel plays once ``SOLVER_CARDS`` or fewer cards are left; elsewhere the play-outs
  remain. The first lead (in house it names trump) gets more deals and time than a later card, and
  a card that falls clearly behind the best as the deals come in is no longer solved
  (:class:`CardTally`), so the cards still in question get more deals.
- **The match, not just the hand.** A hand that ends the match is worth ``MATCH_WORTH`` points
  more (won) or less (lost) than its margin, so near the target the bidder's tie rule, a bid to
  stop the other side going out, and the moon (now a candidate whenever it is legal) are weighed.
  The solved card play counts it too, for the card chosen (with two sides): the solver's line on
  each deal is the one that takes most points, and the match is read from where that line ends.
- **Its own discards.** The heuristic's discard and its nearest alternatives (one card kept
  instead of one thrown) are searched over the sampled deals.
"""

from __future__ import annotations

import random
import time

from smear.actions import Action, Discard, Play
from smear.bots.base import Bot, register
from smear.bots.bidreads import ShiftedBids, bid_shifts
from smear.bots.heuristic import HeuristicBot
from smear.bots.inference import AGREE, play_likelihood
from smear.bots.lookahead import CardSolver, Outcome, auction_candidates
from smear.bots.pimc import Advice, Estimate, Evaluation, PimcBot
from smear.bots.playreads import play_agreements
from smear.bots.sampler import sample_state
from smear.cards import CardSet
from smear.errors import RulesError
from smear.rules import Rules
from smear.scoring import settle_hand
from smear.state import HandResult, Phase, PublicState, State
from smear.views import PlayerView

# Deals searched for an auction, trump or discard decision (each tries several actions on every
# deal, played out by the heuristic), within ``DEFAULT_SECONDS``.
DEFAULT_SAMPLES = 160
DEFAULT_SECONDS = 0.4
# Deals solved for one card: a solve takes about a millisecond at the first lead, far less later.
PLAY_SAMPLES = 96
# The first lead of the hand (where it names trump, one solve per suit the leader holds) is worth
# more deals and time than any other card: this many times ``play_samples`` and ``seconds``.
LEAD_SAMPLES_SCALE = 4
LEAD_SECONDS_SCALE = 2.0
# Deals weighed by how well they explain the play count for less than one each: the search goes on
# until the deals' effective number reaches its limit, solving at most this many times the limit.
WEIGHED_SAMPLES_SCALE = 3
# Every ``PRUNE_EVERY`` deals, a card whose worth falls short of the best card's by more than
# ``PRUNE_Z`` standard errors (of the difference, deal by deal) is no longer solved.
PRUNE_EVERY = 16
PRUNE_Z = 3.0
# The solver takes the card play once this few cards are left in all hands (a 4-player hand from its
# first lead); with more (6 or 8 players early in the hand) a solve can take seconds.
SOLVER_CARDS = 24
# What ending the match is worth, in points of margin (a hand's margin is at most a few points).
MATCH_WORTH = 8.0
# Alternatives to the heuristic's discard: its last few thrown cards against its first few kept.
DISCARD_SWAPS = 3


class ExpertBot(PimcBot):
    """PIMC with inference, solver leaves in the card play, match-aware values and searched discards."""

    name = "expert"

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        seconds: float = DEFAULT_SECONDS,
        play_samples: int = PLAY_SAMPLES,
        infer: bool = True,
        match_worth: float = MATCH_WORTH,
        agree: float = AGREE,
        read_play: bool = True,
    ) -> None:
        super().__init__(samples, seconds)
        self.play_samples = play_samples
        self.infer = infer
        self.agree = agree
        self.read_play = read_play
        self.match_worth = match_worth
        self._card_solver = CardSolver()
        self._kernel_plays: dict[Rules, bool] = {}
        self._shifts: tuple[tuple[HandResult, ...], int, tuple[float, ...]] | None = None
        self._agreements: tuple[tuple[HandResult, ...], int, tuple[float, ...]] | None = None

    def advise(self, view: PlayerView, rng: random.Random) -> Advice:
        searched = len(view.legal_actions) > 1
        if searched and view.phase is Phase.PLAY and self._solvable(view):
            return self._solve_play(view, rng)
        if searched and view.phase is Phase.DISCARD:
            evaluation = self.evaluate(view, rng)
            best = evaluation.estimates[0]
            return Advice(best.action, best.points, evaluation.samples)
        return super().advise(view, rng)

    def candidates(self, view: PlayerView, rng: random.Random) -> list[Action]:
        if view.phase is Phase.AUCTION:
            return auction_candidates(view, self.policy, rng, moon=self.match_worth > 0)
        if view.phase is Phase.DISCARD:
            return discard_candidates(view, self.policy)
        return list(view.legal_actions)

    def sample(self, view: PlayerView, rng: random.Random) -> State:
        shifts = self.bid_shifts(view) if self.infer else None
        return sample_state(view, rng, bid_prior=self.infer, bid_shifts=shifts)

    def playout_policy(self, view: PlayerView) -> Bot:
        shifts = self.bid_shifts(view) if self.infer else None
        return ShiftedBids(shifts) if shifts and any(shifts) else self.policy

    def bid_shifts(self, view: PlayerView) -> tuple[float, ...]:
        """How much more (or less) than the heuristic each seat bids on the same cards, as read from
        the match so far (kept while the finished hands and the seat are the same)."""
        results = view.public.results
        kept = self._shifts
        if kept is None or kept[0] is not results or kept[1] != view.seat:
            kept = self._shifts = (results, view.seat, bid_shifts(view.public, view.seat))
        return kept[2]

    def play_agreements(self, view: PlayerView) -> tuple[float, ...]:
        """How often each seat plays the heuristic's card, as read from the match so far (kept while
        the finished hands and the seat are the same); ``agree`` for every seat when not reading."""
        if not self.read_play:
            return (self.agree,) * view.public.players
        results = view.public.results
        kept = self._agreements
        if kept is None or kept[0] is not results or kept[1] != view.seat:
            found = play_agreements(view.public, view.seat, self.policy)
            kept = self._agreements = (results, view.seat, found)
        return kept[2]

    def value(self, outcome: Outcome, view: PlayerView) -> float:
        return outcome.margin + self.match_worth * outcome.match

    def _solvable(self, view: PlayerView) -> bool:
        """Whether the solver takes this card play: the kernel plays the rules and few cards are left."""
        if len(view.hand) * view.public.players > SOLVER_CARDS:
            return False
        rules = view.public.rules
        known = self._kernel_plays.get(rules)
        if known is None:
            try:
                self._card_solver.kernel_rules(view.public)
                known = True
            except RulesError:
                known = False
            self._kernel_plays[rules] = known
        return known

    def _solve_play(self, view: PlayerView, rng: random.Random) -> Advice:
        """Sum each legal card's exact worth over the sampled deals (each weighed by how well it
        explains the play so far); keep the best.

        A card is worth its side's score change, the bid counted, less what the others gain (see
        :func:`card_worths`); with two sides, ``match_worth`` more (or less) where the hand then wins
        (or loses) the match. The line that takes most points is not always the one that makes (or
        sets) the bid or stops another side going out. The advice gives the side's expected score
        change."""
        plays = [action for action in view.legal_actions if isinstance(action, Play)]
        tally = self.tally_cards(view, rng)
        # Ties go to the first of the legal actions.
        best = max((action for action in plays if int(action.card) in tally.live), key=tally.rank)
        return Advice(best, tally.expected(int(best.card)), self.last_samples)

    def solves_play(self, view: PlayerView) -> bool:
        """Whether this bot chooses the card of ``view`` with the solver (else with play-outs)."""
        return view.phase is Phase.PLAY and self._solvable(view)

    def tally_cards(self, view: PlayerView, rng: random.Random, keep: int | None = None) -> CardTally:
        """Each legal card's worth over sampled deals, solved exactly, as the bot weighs them when it
        plays (:meth:`_solve_play`); the card ``keep`` is solved on every deal, never left behind."""
        plays = [action for action in view.legal_actions if isinstance(action, Play)]
        pub = view.public
        first_lead = not pub.tricks and not pub.trick_plays
        limit, seconds = self.play_samples, self.seconds
        if first_lead:
            limit, seconds = LEAD_SAMPLES_SCALE * limit, LEAD_SECONDS_SCALE * seconds
        tally = CardTally([int(action.card) for action in plays])
        agreements = self.play_agreements(view)
        deadline = time.perf_counter() + seconds
        samples = 0
        while (
            tally.effective() < limit
            and samples < WEIGHED_SAMPLES_SCALE * limit
            and (samples < 4 or time.perf_counter() < deadline)
        ):
            world = self.sample(view, rng)
            weight = play_likelihood(view, world, self.policy, agreements) if self.infer else 1.0
            tally.add(weight, card_worths(self._card_solver, world, self.match_worth, tally.live_mask()))
            samples += 1
            if samples % PRUNE_EVERY == 0 and tally.prune(keep) == 1:
                break
        self.last_samples = samples
        return tally


class CardTally:
    """Each card's worth over the deals solved so far, deal by deal, and the cards still in the running.

    A card whose worth falls clearly short of the best card's (by ``PRUNE_Z`` standard errors of
    the difference on the same deals) leaves the running: the deals that follow are not solved for
    it, so those left get more deals in the same time."""

    def __init__(self, cards: list[int]) -> None:
        self.live = dict.fromkeys(cards)  # in the order given
        self.weights: list[float] = []
        self.weight_sum = 0.0  # of ``weights``, and of their squares, kept as the deals come in
        self.square_sum = 0.0
        self.worths: dict[int, list[float]] = {card: [] for card in cards}
        self.total = dict.fromkeys(cards, 0.0)
        self.gain = dict.fromkeys(cards, 0.0)

    def effective(self) -> float:
        """How many equally weighed deals the weighed ones are worth (Kish's effective sample size)."""
        squares = self.square_sum
        return self.weight_sum**2 / squares if squares > 0 else 0.0

    def live_mask(self) -> int:
        return sum(1 << card for card in self.live)

    def add(self, weight: float, worths: dict[int, tuple[float, int]]) -> None:
        """One deal's worths (and score changes) of the live cards, the deal weighed by ``weight``."""
        self.weights.append(weight)
        self.weight_sum += weight
        self.square_sum += weight * weight
        for card in self.live:
            value, change = worths[card]
            self.worths[card].append(value)
            self.total[card] += weight * value
            self.gain[card] += weight * change

    def rank(self, action: Play) -> float:
        return self.total[int(action.card)]

    def expected(self, card: int) -> float | None:
        """The mean score change of the card's side over the deals, each by its weight."""
        weights = self.weight_sum
        return self.gain[card] / weights if weights > 0 else None

    def mean(self, card: int) -> float:
        """The card's worth over the deals it was solved on, each deal by its weight (a card left
        behind counts only the deals before)."""
        weights = self.weights[: len(self.worths[card])]
        total = sum(weights)
        return self.total[card] / total if total > 0 else 0.0

    def gap(self, ahead: int, behind: int) -> tuple[float, float]:
        """How much more ``ahead`` is worth than ``behind`` on the same deals, each by its weight, and
        the variance of that mean (both cards solved on every deal so far)."""
        weights = self.weights
        weight_sum = self.weight_sum
        if weight_sum <= 0:
            return 0.0, 0.0
        gaps = [first - second for first, second in zip(self.worths[ahead], self.worths[behind], strict=True)]
        mean = sum(weight * gap for weight, gap in zip(weights, gaps, strict=True)) / weight_sum
        spread = sum(weight * (gap - mean) ** 2 for weight, gap in zip(weights, gaps, strict=True))
        # The weighted mean's variance: the spread per unit of weight over the effective count.
        return mean, spread / weight_sum * self.square_sum / weight_sum**2

    def prune(self, keep: int | None = None) -> int:
        """Drop the cards clearly worse than the best (never ``keep``); return how many are left."""
        if self.weight_sum <= 0 or len(self.live) < 2:
            return len(self.live)
        best = max(self.live, key=lambda card: self.total[card])
        for card in list(self.live):
            if card in (best, keep):
                continue
            mean, variance = self.gap(best, card)
            if mean > 0 and mean * mean > PRUNE_Z * PRUNE_Z * variance:
                del self.live[card]
        return len(self.live)


def bid_change(pub: PublicState, taken: int) -> int:
    """The bidding side's score change when it takes ``taken`` points (the moon needs every point,
    ``max_bid``, and is lost as its bid)."""
    return taken if taken >= min(pub.bid, pub.rules.max_bid) else -pub.bid


def card_worths(
    solver: CardSolver, state: State, match_worth: float = 0.0, among: int | None = None
) -> dict[int, tuple[float, int]]:
    """Each legal card of the seat to act (of those in the mask ``among``, if given) on the whole
    deal of ``state``, every hand known: its worth to the seat's side and that side's score change,
    the bid counted.

    With two sides the worth is the side's score change minus the other's, plus ``match_worth`` if
    the hand then wins the match for the side (minus it if it loses it). With more sides the others
    are not one side: the bidder's worth is its score change minus the others' points shared among
    them; another seat's is its side's points minus the bidder's score change, the bidder held to as
    few points as every other seat together can (the match is not counted)."""
    pub = state.public
    assert pub.to_act is not None and pub.bidder_side is not None
    side = pub.seat_side[pub.to_act]
    bidding = pub.bidder_side == side
    worths: dict[int, tuple[float, int]] = {}
    if len(pub.sides) == 2:
        for card, (ours, theirs) in solver.card_points(state, among).items():
            change = bid_change(pub, ours) if bidding else ours
            worth: float = change - (theirs if bidding else bid_change(pub, theirs))
            if match_worth:
                worth += match_worth * match_end(pub, side, ours, theirs)
            worths[card] = (worth, change)
    elif bidding:
        others = len(pub.sides) - 1
        for card, (ours, theirs) in solver.card_points(state, among).items():
            change = bid_change(pub, ours)
            worths[card] = (change - theirs / others, change)
    else:
        held = solver.side_points(state, pub.bidder_side, among)
        for card, ours in solver.side_points(state, among=among).items():
            worths[card] = (ours - bid_change(pub, held[card]), ours)
    return worths


def match_end(pub: PublicState, side: int, ours: int, theirs: int) -> int:
    """Whether a hand of two sides in which ``side`` takes ``ours`` points and the other side
    ``theirs`` ends the match: 1 won by ``side``, -1 lost, 0 played on."""
    assert pub.bidder_side is not None
    taken = [theirs, theirs]
    taken[side] = ours
    winner = settle_hand(pub.rules, pub.scores, taken, pub.bidder_side, pub.bid).winner
    return 0 if winner is None else (1 if winner == side else -1)


def discard_candidates(view: PlayerView, policy: HeuristicBot) -> list[Action]:
    """The policy's discard and its neighbours: each of the ``DISCARD_SWAPS`` thrown cards most
    worth keeping kept instead of each of the ``DISCARD_SWAPS`` kept cards least worth it."""
    options = view.discard_options()
    assert options is not None
    ranking = policy.keep_ranking(view)
    free = options.free
    chosen = options.required.mask | sum(1 << card for card in ranking[:free])
    found: list[Action] = [Discard(CardSet(chosen))]
    for out in ranking[max(0, free - DISCARD_SWAPS) : free]:
        for into in ranking[free : free + DISCARD_SWAPS]:
            found.append(Discard(CardSet(chosen & ~(1 << out) | 1 << into)))
    return found


register("expert", ExpertBot)
register("pimc", PimcBot, yardstick=True)  # the expert before this one

__all__ = [
    "DEFAULT_SAMPLES",
    "DEFAULT_SECONDS",
    "Advice",
    "CardTally",
    "Estimate",
    "Evaluation",
    "ExpertBot",
    "bid_change",
    "card_worths",
    "discard_candidates",
    "match_end",
]
