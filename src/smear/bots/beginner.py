"""A beginner: plays the way a new player does, sensibly but with a novice's habits and mistakes.

It knows the rules and what scores, but not the finer points:

- It bids by counting the scoring cards it can see in its longest suit (an ace or king for High, a
  low card for Low, the Jack, the jick, jokers, the Trey, a ten for Game) and, one time in five, gets
  carried away and bids one more, or one time in seven loses heart and bids one less. It ignores its
  partner's bid and the score, and never shoots the moon unless it has to.
- It names (or leads) its longest suit as trump.
- It leads its highest card as it sees it: a joker (which looks like the biggest card of all, whatever
  the rules rank it), then aces, kings and so on, a trump before another card of its rank.
- Following, it plays its highest card when that can win the trick (even over its partner's winning
  card), and its lowest otherwise. It does not count trumps or remember what has been played.
- It discards its lowest cards, keeping trumps.

It is deterministic given the ``rng`` (used only for its moods in the auction), and only ever
chooses one of the view's legal actions.
"""

from __future__ import annotations

import random

from smear.actions import PASS, PLAYS, TRUMPS, Action, Bid, Discard, NameTrump, Play, bid
from smear.bots.base import register
from smear.cards import BIG_JOKER_INDEX, LITTLE_JOKER_INDEX, CardSet, Suit, iter_bits
from smear.rules import Rules
from smear.state import Phase
from smear.trick import TrumpOrder, order_for
from smear.views import PlayerView

# The auction's moods: how often the beginner bids one more than it counted, or one less.
OVERBID_CHANCE = 0.2
UNDERBID_CHANCE = 0.15

_SUITS = tuple(Suit)
_TWO, _THREE, _FOUR, _TEN, _KING = 0, 1, 2, 8, 11  # rank indexes


def _rank(card: int) -> int:
    """A card's rank index (0 for a two, 12 for an ace); jokers above the aces."""
    return card % 13 if card < 52 else 13


def longest_suit(hand: int, rules: Rules) -> Suit:
    """The suit the hand holds most trumps of (jokers and the jick included), ties to the one whose
    count of scoring cards is larger, then the higher suit; only suits it holds a card of."""
    held = [s for s in _SUITS if hand & (0x1FFF << 13 * s)] or list(_SUITS)
    return max(
        held,
        key=lambda s: ((hand & order_for(rules, s).trump_mask).bit_count(), count_points(hand, rules, s), s),
    )


def count_points(hand: int, rules: Rules, suit: Suit) -> int:
    """The points a beginner expects with ``suit`` as trump: one for every scoring card it can see."""
    order = order_for(rules, suit)
    natural = [card % 13 for card in range(13 * suit, 13 * suit + 13) if hand >> card & 1]
    points = 0
    if natural:
        if max(natural) >= _KING:
            points += 1  # High (a king may well not be)
        if rules.two_points:
            points += rules.two_points if _TWO in natural else 0
        elif min(natural) <= _FOUR:
            points += 1  # Low
        if rules.trey_points and _THREE in natural:
            points += rules.trey_points
        if (_TEN in natural) if rules.ten_for_game else any(_rank(c) == _TEN for c in iter_bits(hand)):
            points += 1  # Game, or the Ten of trump
    if hand >> order.jack & 1:
        points += 1
    if rules.jick and order.jick is not None and hand >> order.jick & 1:
        points += 1
    points += sum(1 for joker in (BIG_JOKER_INDEX, LITTLE_JOKER_INDEX) if hand >> joker & 1)
    return points


def _height(card: int, order: TrumpOrder) -> tuple[int, int]:
    """How high a card looks to a beginner: by its rank (aces, then kings...; the jokers above
    all), a trump above another card of the same rank."""
    return (_rank(card), order.power[card])


def _keep(card: int, order: TrumpOrder) -> tuple[int, int]:
    """How much a beginner wants to keep a card: any trump above any other card, then by rank."""
    return (order.power[card], _rank(card))


class BeginnerBot:
    """A weak but plausible player: simple counting, highest card to win, lowest to lose."""

    name = "beginner"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.AUCTION:
            return self.bid(view, rng)
        if phase is Phase.TRUMP:
            wanted = TRUMPS[longest_suit(view.hand.mask, view.public.rules)]
            if wanted in legal:
                return wanted
            return next(a for a in legal if isinstance(a, NameTrump))
        if phase is Phase.DISCARD:
            return self.discard(view)
        if phase is Phase.PLAY:
            return self.play(view)
        return legal[0]

    def bid(self, view: PlayerView, rng: random.Random) -> Action:
        pub = view.public
        rules = pub.rules
        legal_bids = [a.amount for a in view.legal_actions if isinstance(a, Bid)]
        passing = PASS in view.legal_actions
        hand = view.hand.mask
        amount = count_points(hand, rules, longest_suit(hand, rules))
        mood = rng.random()
        if mood < OVERBID_CHANCE:
            amount += 1
        elif mood < OVERBID_CHANCE + UNDERBID_CHANCE:
            amount -= 1
        if rules.shoot_the_moon and rules.top_bid in legal_bids:
            legal_bids.remove(rules.top_bid)  # the moon is for players who know what they are doing
            if not legal_bids:
                return PASS if passing else bid(rules.top_bid)
        if amount in legal_bids:
            return bid(amount)
        if not passing:  # the dealer must bid
            return bid(legal_bids[0])
        if amount > legal_bids[-1]:
            return bid(legal_bids[-1])
        return PASS

    def discard(self, view: PlayerView) -> Action:
        pub = view.public
        order = pub.order or order_for(pub.rules, longest_suit(view.hand.mask, pub.rules))
        options = view.discard_options()
        assert options is not None
        choosable = sorted(options.choosable, key=lambda c: _keep(c, order))
        return Discard(CardSet(options.required.mask | sum(1 << card for card in choosable[: options.free])))

    def play(self, view: PlayerView) -> Action:
        pub = view.public
        cards = [a.card for a in view.legal_actions if isinstance(a, Play)]
        order = pub.order
        if order is None:  # the first lead names trump: the top card of the longest suit
            suit = longest_suit(view.hand.mask, pub.rules)
            in_suit = [c for c in cards if c < 52 and c // 13 == suit]
            return PLAYS[max(in_suit or cards, key=_rank)]
        plays = pub.trick_plays
        if not plays:
            return PLAYS[max(cards, key=lambda c: _height(c, order))]
        strength = order.strength_when_led[order.suit_of[plays[0][1]]]
        winning = max(strength[card] for _, card in plays)
        best = max(cards, key=lambda c: (strength[c], _height(c, order)))
        if strength[best] > winning:
            return PLAYS[best]
        return PLAYS[min(cards, key=lambda c: (strength[c], _height(c, order)))]


register("beginner", BeginnerBot)
