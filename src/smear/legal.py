"""What the seat to act may do: ``legal_actions``, and the legal discards in short
(:class:`DiscardOptions`), since there can be too many to list."""

from __future__ import annotations

import functools
import itertools
from typing import NamedTuple

from smear.actions import PASS, PLAYS, TAKE_WIDOW, TRUMPS, Action, Discard, bid
from smear.cards import JOKERS_MASK, CardSet, iter_bits
from smear.scoring import scoring_trumps
from smear.state import Phase, PublicState, State

_PLAY = Phase.PLAY


def play_mask(pub: PublicState, hand: int) -> int:
    """The cards of ``hand`` that may be played now."""
    trick = pub.trick
    order = pub.order
    if pub.rules.trumps_only:
        assert order is not None
        return hand & order.trump_mask
    if not trick:
        if order is None:  # the first lead sets trump: no joker
            return hand & ~JOKERS_MASK or hand
        if pub.rules.bidder_leads_trump and not pub.tricks and pub.to_act == pub.bidder:
            return hand & order.trump_mask or hand
        return hand
    assert order is not None
    led = order.suit_of[trick[0]]
    follow = hand & order.suit_masks[led]
    if not follow:
        return hand
    if led != order.trump and pub.rules.may_trump_instead:
        return follow | (hand & order.trump_mask)
    return follow


def _auction_actions(pub: PublicState) -> tuple[Action, ...]:
    rules = pub.rules
    return _auction_choices(max(rules.min_bid, pub.bid + 1), rules.top_bid, dealer_forced(pub))


@functools.cache
def _auction_choices(lowest: int, highest: int, forced: bool) -> tuple[Action, ...]:
    bids = tuple(bid(amount) for amount in range(lowest, highest + 1))
    return bids if forced else (PASS, *bids)


def dealer_forced(pub: PublicState) -> bool:
    return pub.rules.dealer_must_bid and pub.to_act == pub.dealer and pub.bid == 0


def _plays(mask: int) -> tuple[Action, ...]:
    """The ``Play`` of every card of ``mask``, in card order."""
    plays = PLAYS
    found = []
    while mask:
        low = mask & -mask
        found.append(plays[low.bit_length() - 1])
        mask ^= low
    return tuple(found)


# Legal plays by card mask: the same few masks recur in play, so a bounded memo pays.
_PLAYS_MEMO: dict[int, tuple[Action, ...]] = {}
_PLAYS_MEMO_SIZE = 1 << 16


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the seat to act may take, in a stable order (empty when nobody is to act)."""
    pub = state.public
    phase = pub.phase
    if phase is _PLAY:
        mask = play_mask(pub, state.hands[pub.to_act])  # type: ignore[index]
        plays = _PLAYS_MEMO.get(mask)
        if plays is None:
            if len(_PLAYS_MEMO) >= _PLAYS_MEMO_SIZE:
                _PLAYS_MEMO.clear()
            plays = _PLAYS_MEMO[mask] = _plays(mask)
        return plays
    if phase is Phase.AUCTION:
        return _auction_actions(pub)
    if phase is Phase.TRUMP:
        return TRUMPS
    if phase is Phase.WIDOW:
        return (TAKE_WIDOW,)
    if phase is Phase.DISCARD:
        options = discard_options(state)
        assert options is not None
        return options.actions()
    return ()


class DiscardOptions(NamedTuple):
    """The legal discards of the seat to act, in short: every legal discard is ``size`` cards
    made of all of ``required`` and ``size - len(required)`` of ``choosable``. (There can be too
    many to list: McLeod's bidder keeps 6 of 24 cards.)"""

    size: int
    required: CardSet
    choosable: CardSet

    @property
    def free(self) -> int:
        """How many cards the player chooses from ``choosable``."""
        return self.size - len(self.required)

    def allows(self, cards: CardSet) -> bool:
        mask = cards.mask
        return (
            mask.bit_count() == self.size
            and mask & self.required.mask == self.required.mask
            and not mask & ~(self.required.mask | self.choosable.mask)
        )

    def actions(self) -> tuple[Action, ...]:
        """Every legal discard, listed (the number is a binomial coefficient: mind its size)."""
        required = self.required.mask
        return tuple(
            Discard(CardSet(required | sum(1 << card for card in combo)))
            for combo in itertools.combinations(iter_bits(self.choosable.mask), self.free)
        )


def discard_options(state: State) -> DiscardOptions | None:
    """The legal discards of the seat to act, or ``None`` outside the discard."""
    pub = state.public
    if pub.phase is not Phase.DISCARD or pub.to_act is None:
        return None
    return options_for_discard(pub, state.hands[pub.to_act], pub.to_act)


def options_for_discard(pub: PublicState, hand: int, seat: int) -> DiscardOptions:
    """The legal discards of ``seat`` holding ``hand`` in the discard phase of ``pub``."""
    rules = pub.rules
    keep = rules.hand_size
    count = hand.bit_count() - keep
    order = pub.order
    refills = rules.refill and (seat != pub.bidder or rules.refill_bidder)
    if order is None or not (rules.keep_trumps or refills):
        return DiscardOptions(count, CardSet(0), CardSet(hand))
    trumps = hand & order.trump_mask
    plain = hand & ~trumps
    if rules.trumps_only:  # every non-trump goes, every trump stays
        return DiscardOptions(plain.bit_count(), CardSet(plain), CardSet(0))
    if refills:
        # Every non-trump goes (and trumps above a hand), as far as the stock can replace them.
        wanted = plain.bit_count() + max(0, trumps.bit_count() - keep)
        count = max(count, min(wanted, count + pub.stock_left))
    tiers = [plain, trumps]
    if rules.keep_scoring_trumps:
        scoring = scoring_trumps(rules, order)
        tiers = [plain, trumps & ~scoring, trumps & scoring]
    required = 0
    left = count
    for tier in tiers:
        size = tier.bit_count()
        if size > left:
            return DiscardOptions(count, CardSet(required), CardSet(tier if left else 0))
        required |= tier
        left -= size
    return DiscardOptions(count, CardSet(required), CardSet(0))
