"""A rule-of-thumb player: bid what the hand can really take, pull trumps, smear points to partners.

It follows the advice players give: count the points a trump suit would bring (High from the top
trump, Low from the bottom one, Jack and jokers when they are protected, Game from tens) and bid
what self-play shows a hand of that count and length takes four times in five (with a draw after the
auction, far more than the count), lead the best trump first, play jokers only onto tricks the side
already wins or when no other trump is left, drop tens onto a partner's winning trick, win cheaply,
and throw the least valuable card otherwise. It discards plain cards first and scoring trumps last.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from smear.actions import PASS, PLAYS, TRUMPS, Action, Bid, Discard, Play, bid
from smear.bots.base import register
from smear.bots.bidlines import bid_of, fitted_bid
from smear.cards import (
    BIG_JOKER_INDEX,
    GAME_VALUES,
    LITTLE_JOKER_INDEX,
    SUIT_BITS,
    SUIT_MASKS,
    CardSet,
    Suit,
    iter_bits,
)
from smear.knowledge import unseen_cards
from smear.rules import Rules
from smear.scoring import scoring_trumps
from smear.state import Phase, PublicState
from smear.trick import TrumpOrder, order_for
from smear.views import PlayerView

_SUITS = tuple(Suit)
# The four tens (a card's index is 13 * suit + rank, the ten's rank 8), whose points count for Game.
_TENS = sum(1 << (SUIT_BITS * suit + 8) for suit in _SUITS)


def _bottom(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


@dataclass(frozen=True)
class SuitEstimate:
    suit: Suit
    points: float


def estimate(hand: int, deck: int, rules: Rules, suit: Suit) -> float:
    """Points a hand can expect to take with ``suit`` as trump (a rough, fast count)."""
    order = order_for(rules, suit)
    trumps = hand & order.trump_mask
    count = trumps.bit_count()
    natural = deck & order.natural_trump_mask
    mine = hand & order.natural_trump_mask
    strong = count >= 3
    points = 0.0
    if mine:
        # The highest and lowest natural trumps, of the hand and of the deck (indexes of set bits;
        # a bot's search asks this of every deal it samples, so each is worked out once).
        top, top_mine = natural.bit_length() - 1, mine.bit_length() - 1
        if top_mine == top:
            points += 1.0  # the top trump in play always wins its trick
        elif top_mine == (natural & ~(1 << top)).bit_length() - 1:
            points += 0.35
        if rules.two_points:
            # The Two scores for its holder whoever wins its trick.
            points += rules.two_points if hand >> (13 * suit) & 1 else 0.0
        else:
            bottom, bottom_mine = _bottom(natural), _bottom(mine)
            if bottom_mine == bottom:
                points += 1.0 if rules.low_to_player else (0.6 if strong else 0.3)
            elif rules.low_to_player and bottom_mine == _bottom(natural & ~(1 << bottom)):
                points += 0.3
    protected = 0.8 if strong else 0.4
    if hand >> order.jack & 1:
        points += protected
    if order.jick is not None and rules.jick and hand >> order.jick & 1:
        points += protected * 0.9
    for joker in (BIG_JOKER_INDEX, LITTLE_JOKER_INDEX):
        if hand >> joker & 1:
            points += 0.6 if strong else 0.3
    if rules.trey_points and hand >> (13 * suit + 1) & 1:
        points += rules.trey_points * (0.7 if strong else 0.35)
    if rules.ten_for_game:  # the Ten of trump instead of Game
        return points + ((0.7 if strong else 0.35) if hand >> (13 * suit + 8) & 1 else 0.0)
    points += 0.15 * (hand & _TENS).bit_count() + (0.25 if strong else 0.0)
    return points


def best_suit(hand: int, deck: int, rules: Rules) -> SuitEstimate:
    """The trump suit that suits this hand best (house: only suits the hand can lead)."""
    best: SuitEstimate | None = None
    for suit in _SUITS:
        if rules.trump_named or hand & SUIT_MASKS[suit]:
            points = estimate(hand, deck, rules, suit)
            if best is None or points > best.points:  # the first of equals, as max() keeps
                best = SuitEstimate(suit, points)
    if best is None:
        raise ValueError("the hand holds no card of a suit it may name")
    return best


def bid_count(hand: int, pub: PublicState, suit: Suit | None = None) -> float:
    """The points the heuristic bids on with ``hand`` (dealt to a seat of ``pub``'s table), in its
    best suit or in ``suit``: what self-play shows a hand of its count and trumps takes four times in
    five (:mod:`smear.bots.bidlines`), and never less than the count of :func:`estimate`."""
    if suit is None:
        best = best_suit(hand, pub.deck.mask, pub.rules)
        return raised_count(hand, pub, best.suit, best.points)
    return raised_count(hand, pub, suit, estimate(hand, pub.deck.mask, pub.rules, suit))


def raised_count(hand: int, pub: PublicState, suit: Suit, count: float) -> float:
    """``count`` (of ``hand`` in ``suit``) raised to the table's fitted worth, if that is more."""
    trumps = (hand & order_for(pub.rules, suit).trump_mask).bit_count()
    teams = any(len(seats) > 1 for seats in pub.sides)
    fitted = fitted_bid(pub.rules, pub.players, teams, count, trumps)
    return count if fitted is None else max(count, fitted)


class HeuristicBot:
    """Sound, fast play from rules of thumb; no search."""

    name = "heuristic"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase is Phase.AUCTION:
            return self.bid(view)
        if phase is Phase.TRUMP:
            choice = best_suit(view.hand.mask, view.public.deck.mask, view.public.rules)
            return TRUMPS[choice.suit]
        if phase is Phase.DISCARD:
            return self.discard(view)
        return self.play(view)

    # --- the auction --------------------------------------------------------------------------------

    def bid(self, view: PlayerView) -> Action:
        pub = view.public
        rules = pub.rules
        legal_bids = [a.amount for a in view.legal_actions if isinstance(a, Bid)]
        passing = any(a == PASS for a in view.legal_actions)
        best = best_suit(view.hand.mask, pub.deck.mask, rules)
        amount = self.opening_bid(view.seat, view.hand.mask, pub, best)
        me = pub.seat_side[view.seat]
        if rules.shoot_the_moon and rules.top_bid in legal_bids:
            # The moon wins or loses the match: only for a hand whose own count is every point, from
            # a score where making it wins (below zero it would only reset the score).
            if best.points >= rules.max_bid and pub.scores[me] >= 0:
                return bid(rules.top_bid)
            legal_bids.remove(rules.top_bid)
        if pub.bidder is not None:
            their_side = pub.seat_side[pub.bidder]
            if their_side == me and amount < pub.bid + 2:
                amount = 0  # leave the bid to a partner unless this hand is clearly stronger
            elif their_side != me and pub.scores[their_side] + pub.bid >= rules.target:
                amount += 1  # a bidder about to win the match is worth outbidding
        if amount in legal_bids:
            return bid(amount)
        if not passing:  # the dealer must bid
            return bid(legal_bids[0])
        if legal_bids and amount > legal_bids[-1]:
            return bid(legal_bids[-1])
        return PASS

    def opening_bid(self, seat: int, hand: int, pub: PublicState, best: SuitEstimate) -> int:
        """What ``seat``'s hand is worth bidding in its best suit, before what the others bid is weighed."""
        return bid_of(raised_count(hand, pub, best.suit, best.points))

    # --- the discard --------------------------------------------------------------------------------

    def discard(self, view: PlayerView) -> Action:
        options = view.discard_options()
        assert options is not None
        choosable = self.keep_ranking(view)
        return Discard(CardSet(options.required.mask | sum(1 << card for card in choosable[: options.free])))

    def keep_ranking(self, view: PlayerView) -> list[int]:
        """The cards the seat may choose to discard, the least worth keeping first."""
        pub = view.public
        order = pub.order
        if order is None:  # a kitty before the first lead sets trump: keep the suit to lead
            order = order_for(pub.rules, best_suit(view.hand.mask, pub.deck.mask, pub.rules).suit)
        options = view.discard_options()
        assert options is not None
        # Where trumps must go (a McLeod bidder with the stock), the Trey, the Jack, the jokers and
        # the Two are points in hand; a plain middle trump is not.
        scoring = self.scoring_kept(pub.rules, order)
        return sorted(options.choosable, key=lambda c: self._keep_value(c, order, scoring))

    def scoring_kept(self, rules: Rules, order: TrumpOrder) -> int:
        """The trumps kept after every other trump: those that score (the Two for its holder)."""
        return scoring_trumps(rules, order) | 1 << 13 * order.trump

    @staticmethod
    def _keep_value(card: int, order: TrumpOrder, scoring: int) -> float:
        if order.power[card]:
            return (200.0 if scoring >> card & 1 else 100.0) + order.power[card]
        rank = card % 13
        return rank + (6.0 if rank == 8 else 0.0)  # aces, then tens and kings

    # --- the play -----------------------------------------------------------------------------------

    def play(self, view: PlayerView) -> Action:
        pub = view.public
        rules = pub.rules
        cards: list[int] = [a.card for a in view.legal_actions if isinstance(a, Play)]
        order = pub.order
        if order is None:  # the first lead names trump: lead the top card of the best suit
            suit = best_suit(view.hand.mask, pub.deck.mask, rules).suit
            in_suit = [c for c in cards if c < 52 and c // 13 == suit]
            return PLAYS[max(in_suit or cards)]
        unseen = unseen_cards(view)
        if not pub.trick:
            return PLAYS[self._lead(view, cards, order, unseen)]
        return PLAYS[self._follow(view, cards, order, unseen)]

    def _value(self, card: int, order: TrumpOrder, rules: Rules) -> float:
        """How much it costs to hand this card to the other side."""
        if rules.ten_for_game:  # no Game: only the Ten of trump counts
            value = 1.5 if card == 13 * order.trump + 8 else 0.0
        else:
            value = GAME_VALUES[card] / 4.0
        if card == order.jack or card == order.jick or card >= 52:
            value += 1.5
        if rules.trey_points and card == 13 * order.trump + 1:
            value += rules.trey_points
        return value

    def _lead(self, view: PlayerView, cards: list[int], order: TrumpOrder, unseen: int) -> int:
        pub = view.public
        rules = pub.rules
        trumps = [c for c in cards if order.power[c]]
        their_trumps = unseen & order.trump_mask
        if trumps:
            best = max(trumps, key=lambda c: order.power[c])
            boss = all(order.power[best] > order.power[c] for c in iter_bits(their_trumps))
            our_bid = pub.bidder is not None and pub.seat_side[pub.bidder] == view.side
            if not their_trumps:
                jokers = [c for c in trumps if c >= 52]
                return jokers[0] if jokers else best  # nothing left can beat a lone trump
            if boss and (our_bid or order.power[best] >= 12):
                return best
        plain = [c for c in cards if not order.power[c]]
        if plain:
            # An ace that nobody can top wins; otherwise give away a small card, never a ten.
            aces = [c for c in plain if c % 13 == 12]
            if aces:
                return aces[0]
            return min(plain, key=lambda c: (self._value(c, order, rules), c % 13))
        return min(cards, key=lambda c: (self._value(c, order, rules), order.power[c]))

    def _follow(self, view: PlayerView, cards: list[int], order: TrumpOrder, unseen: int) -> int:
        pub = view.public
        rules = pub.rules
        n = pub.players
        plays = pub.trick_plays
        led = order.suit_of[plays[0][1]]
        strength = order.strength_when_led[led]
        best_seat, best_card = max(plays, key=lambda p: strength[p[1]])
        partner_winning = pub.seat_side[best_seat] == view.side
        last = len(plays) == n - 1
        # Can anyone still to play beat the card now winning? Only unseen cards could.
        threat = any(strength[c] > strength[best_card] for c in iter_bits(unseen))
        safe = partner_winning and (last or not threat)
        if safe:
            # Smear: the most valuable card we can spare goes onto our own trick.
            return max(cards, key=lambda c: (self._value(c, order, rules), -order.power[c]))
        winners = [c for c in cards if strength[c] > strength[best_card]]
        on_table = sum(self._value(c, order, rules) for _, c in plays)
        if winners:
            sure = [
                c for c in winners if last or not any(strength[u] > strength[c] for u in iter_bits(unseen))
            ]
            pick = sure or (winners if on_table >= 1 else [])
            if pick:
                return min(pick, key=lambda c: (strength[c], self._value(c, order, rules)))
        if rules.low_to_player:
            # House Low scores for whoever plays it: the lowest trump is never wasted.
            natural = [c for c in cards if order.natural_trump_mask >> c & 1]
            if natural and not any(u < min(natural) for u in iter_bits(unseen & order.natural_trump_mask)):
                return min(natural)
        return min(cards, key=lambda c: (self._value(c, order, rules), strength[c]))


class CountingBot(HeuristicBot):
    """The heuristic before its bids were fitted by self-play, kept as a fixed yardstick for measuring
    other bots (``bench/gap.py``): it bids the count of its best suit, rounded, and throws trumps by
    their power alone. It plays its cards as the heuristic does."""

    name = "counting"

    def opening_bid(self, seat: int, hand: int, pub: PublicState, best: SuitEstimate) -> int:
        return bid_of(best.points)

    def scoring_kept(self, rules: Rules, order: TrumpOrder) -> int:
        return 0


register("heuristic", HeuristicBot)
register("counting", CountingBot, yardstick=True)  # the heuristic of earlier figures
