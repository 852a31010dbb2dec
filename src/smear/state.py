"""The state of a match: :class:`PublicState`, what every seat may see, and :class:`State`, which
adds every hidden card (server and search only); :func:`smear.views.player_view` adds one seat's own
cards to the public part.

States are immutable: :func:`smear.transitions.apply` returns a new state and never changes the one
it was given, so a refused action changes nothing and a search can keep every state it visits. The
functions that make and move states live beside this module: :mod:`smear.dealing` (``new_match``,
``next_hand``), :mod:`smear.legal` (``legal_actions``) and :mod:`smear.transitions` (``apply``).

>>> from smear import find_rules, new_match, legal_actions, apply
>>> state = new_match(find_rules("house"), players=4, seed=7)
>>> state.public.phase
<Phase.AUCTION: 'auction'>
>>> state = apply(state, legal_actions(state)[0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from smear.actions import PASS, PLAYS, TAKE_WIDOW, TRUMPS, Action, Discard, bid
from smear.cards import Card, CardSet, Suit, parse_card
from smear.rules import Rules
from smear.scoring import MatchEnd, NotWon
from smear.trick import Trick, TrumpOrder


class Phase(Enum):
    """Where a hand stands; each phase has its own kind of action."""

    AUCTION = "auction"  # bid or pass, once each, from the left of the dealer
    WIDOW = "widow"  # the bidder takes the widow (presets with a widow)
    TRUMP = "trump"  # the bidder names trump (presets where trump is named)
    DISCARD = "discard"  # each player in turn discards down to the hand size
    PLAY = "play"  # tricks
    HAND_OVER = "hand_over"  # scored; call next_hand() to deal the next one
    MATCH_OVER = "match_over"  # a side has won


class HandOutcome(Enum):
    """What became of a hand's bid."""

    MADE = "made"
    SET = "set"
    MOON_MADE = "moon_made"  # the moon made: the bidding side wins the match at once
    MOON_RESET = "moon_reset"  # the moon made from below zero: the score only goes back to 0
    MOON_SET = "moon_set"  # the moon set: the bidding side loses the match
    THROWN_IN = "thrown_in"  # everyone passed: nobody bid


class HandResult(NamedTuple):
    """The outcome of a finished hand, public once the hand is over (with the hidden cards shown)."""

    number: int
    dealer: int
    bidder: int | None  # None when everyone passed and the hand was thrown in
    bid: int
    trump: Suit | None
    # Each point of the preset mapped to the side that won it, or None.
    points: dict[str, int | None]
    game_points: tuple[int, ...]
    taken: tuple[int, ...]
    made: bool
    scores: tuple[int, ...]
    # The cards nobody played, face up now: sleeping cards, stock, and each seat's discards.
    out: CardSet
    discards: tuple[CardSet, ...]
    outcome: HandOutcome = HandOutcome.THROWN_IN
    # What ended the match with this hand (None while it goes on).
    ended_by: MatchEnd | None = None
    # The sides at or above the target after this hand that have not won the match, with why.
    above_target: tuple[tuple[int, NotWon], ...] = ()
    # The auction, as in ``PublicState.bids``, and the cards each seat played to the tricks: public
    # once played, kept so that a bot can read how each seat bid on the cards it showed.
    bids: tuple[int | None, ...] = ()
    played: tuple[CardSet, ...] = ()
    # The tricks in the order played, so that a bot can also read how each seat chose its cards.
    tricks: tuple[Trick, ...] = ()


class Refill(NamedTuple):
    """What a seat is dealt back from the stock once it has discarded."""

    draws: int  # cards dealt from the stock (0 where the seat does not refill)
    holds: int  # cards in hand then
    # Its trumps and the stock make less than a hand: it keeps non-trumps it would trade, or (where
    # only trumps are played) holds less than a hand.
    short: bool


class BidderDraws(NamedTuple):
    """The undealt cards the bidder has taken into its hand this hand, by where they came from."""

    kitty: int
    widow: int
    stock: int


class PublicState(NamedTuple):
    """What every seat and spectator may see."""

    rules: Rules
    players: int
    # Seats of each side; without teams side i is seat i.
    sides: tuple[tuple[int, ...], ...]
    seat_side: tuple[int, ...]
    scores: tuple[int, ...]
    hand_number: int  # 1 for the first hand of the match
    dealer: int
    phase: Phase
    to_act: int | None
    # The auction so far, in order from the dealer's left: a bid amount, or None for a pass.
    bids: tuple[int | None, ...]
    bidder: int | None
    bid: int
    trump: Suit | None
    # The cards of the trick in progress, in the order played from ``leader``.
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    # Cards each seat was dealt and how many it keeps: hand sizes follow from these and the tricks.
    dealt_count: int
    results: tuple[HandResult, ...]
    winner: int | None  # the winning side once the match is over
    start_scores: tuple[int, ...]  # the scores before the first hand
    # The cards in play at this table (a trimmed deck in some presets).
    deck: CardSet
    # The trump order tables once trump is known (see smear.trick), else None.
    order: TrumpOrder | None
    # Undealt cards the bidder has taken into its hand this hand (kitty, widow, stock).
    took: int = 0
    # Undealt cards drawn this hand, by the bidder and by refills, from the head of ``out``.
    drawn: int = 0
    # How many cards each seat has discarded this hand (0: not yet, or never).
    discarded: tuple[int, ...] = ()
    # How many cards each seat was dealt from the stock after discarding (presets that refill).
    refills: tuple[int, ...] = ()
    # Who played each card of the trick in progress, where play does not simply go round once
    # (``trumps_only``); empty otherwise.
    trick_seats: tuple[int, ...] = ()

    @property
    def bidder_side(self) -> int | None:
        return None if self.bidder is None else self.seat_side[self.bidder]

    @property
    def trick_plays(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as ``(seat, card)`` pairs."""
        if self.trick_seats:
            return tuple(zip(self.trick_seats, self.trick, strict=True))
        n = self.players
        return tuple(((self.leader + i) % n, card) for i, card in enumerate(self.trick))

    def bid_history(self) -> tuple[tuple[int, int | None], ...]:
        """The auction as ``(seat, amount or None for a pass)`` pairs."""
        n = self.players
        return tuple(((self.dealer + 1 + i) % n, amount) for i, amount in enumerate(self.bids))

    def held_before_discard(self, seat: int) -> int:
        """The cards ``seat`` holds before discarding: those dealt, and for the bidder what it took."""
        return self.dealt_count + (self.took if seat == self.bidder else 0)

    def refilled(self, seat: int) -> int:
        """Cards ``seat`` was dealt from the stock after discarding (presets that refill)."""
        return self.refills[seat] if self.refills else 0

    def refills_after_discard(self, seat: int) -> bool:
        """Whether ``seat`` is dealt back from the stock after it discards this hand: in presets
        that refill, every seat but the bidder, and the bidder too where ``refill_bidder``."""
        rules = self.rules
        return rules.refill and self.bidder is not None and (seat != self.bidder or rules.refill_bidder)

    def refill_after(self, seat: int, hand: int, discarding: int) -> Refill:
        """What ``seat`` holding ``hand`` is dealt back after discarding ``discarding`` cards: up to
        a hand, as far as the stock goes, where it refills."""
        kept = hand.bit_count() - discarding
        if not self.refills_after_discard(seat):
            return Refill(0, kept, False)
        keep = self.rules.hand_size
        draws = min(max(0, keep - kept), self.stock_left)
        trumps = (hand & self.order.trump_mask).bit_count() if self.order is not None else 0
        return Refill(draws, kept + draws, trumps + self.stock_left < keep)

    def bidder_draws(self) -> BidderDraws:
        """The undealt cards the bidder has taken (``took``), by source: the kitty after the
        auction, the widow before naming trump, then the stock before discarding."""
        rules = self.rules
        kitty = min(self.took, rules.kitty)
        widow = min(self.took - kitty, rules.widow)
        return BidderDraws(kitty, widow, self.took - kitty - widow)

    @property
    def widow_left(self) -> int:
        """The cards of the widow not taken this hand (0 once the bidder took it, or without one)."""
        return 0 if self.took else self.rules.widow

    @property
    def stock_left(self) -> int:
        """Undealt cards not yet drawn: the stock, or the cards that sleep (a widow not yet taken
        counted in)."""
        return self.deck.mask.bit_count() - self.players * self.dealt_count - self.drawn

    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds now."""
        played = [0] * self.players
        for trick in self.tricks:
            for seat, _ in trick.plays():
                played[seat] += 1
        for seat, _ in self.trick_plays:
            played[seat] += 1
        discarded = self.discarded or (0,) * self.players
        return tuple(
            self.held_before_discard(seat) - discarded[seat] + self.refilled(seat) - played[seat]
            for seat in range(self.players)
        )

    def discard_order(self) -> tuple[int, ...]:
        """The seats in the order they discard: the bidder first and then clockwise, or where the
        others refill from the stock, the others from the bidder's left and the bidder last."""
        assert self.bidder is not None
        n = self.players
        start = 1 if self.rules.refill and not self.rules.refill_bidder else 0
        return tuple((self.bidder + start + offset) % n for offset in range(n))


class HandLog(NamedTuple):
    """A hand as a record holds it: the dealer, the deal, the undealt cards, every action."""

    dealer: int
    deal: tuple[CardSet, ...]
    out: tuple[Card, ...]
    actions: tuple[Action, ...]


class State(NamedTuple):
    """Everything about a match: the public state plus every hidden card. Never send it to a player."""

    public: PublicState
    hands: tuple[int, ...]  # each seat's cards now, as bitmasks
    dealt: tuple[int, ...]  # each seat's cards as dealt
    out: tuple[Card, ...]  # the undealt cards, in deck order
    discards: tuple[int, ...]  # each seat's discards this hand, as bitmasks
    previous: State | None  # the previous hand as it ended (a chain back to the first hand)
    seed: int | None  # deals the next hands when no explicit deal is given

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now."""
        return CardSet(self.hands[seat])

    @property
    def to_act(self) -> int | None:
        return self.public.to_act

    @property
    def phase(self) -> Phase:
        return self.public.phase

    @property
    def actions(self) -> tuple[Action, ...]:
        """This hand's actions so far, in order (they follow from the public state and discards)."""
        pub = self.public
        taken: list[Action] = [PASS if amount is None else bid(amount) for amount in pub.bids]
        if pub.rules.widow and pub.phase is not Phase.AUCTION and pub.took:
            taken.append(TAKE_WIDOW)
        if pub.rules.trump_named and pub.trump is not None:
            taken.append(TRUMPS[pub.trump])
        if pub.bidder is not None:
            for seat in pub.discard_order():
                if self.discards[seat]:
                    taken.append(Discard(CardSet(self.discards[seat])))
        for trick in pub.tricks:
            taken.extend(PLAYS[card] for card in trick.cards)
        taken.extend(PLAYS[card] for card in pub.trick)
        return tuple(taken)

    def hand_log(self) -> HandLog:
        """This hand as a record holds it."""
        deal = tuple(CardSet(mask) for mask in self.dealt)
        return HandLog(self.public.dealer, deal, self.out, self.actions)

    def hand_logs(self) -> tuple[HandLog, ...]:
        """Every hand of the match so far, the current one last."""
        logs = []
        state: State | None = self
        while state is not None:
            logs.append(state.hand_log())
            state = state.previous
        return tuple(reversed(logs))


@dataclass(frozen=True, slots=True)
class Deal:
    """An explicit deal: each seat's cards and the undealt cards (in deck order where it matters)."""

    hands: tuple[CardSet, ...]
    out: tuple[Card, ...] | None = None

    @classmethod
    def parse(cls, hands: Sequence[str], out: str | None = None) -> Deal:
        """``Deal.parse(["Ah Jh 9h Ks Tc LJ", ...], out="...")``."""
        return cls(
            tuple(CardSet.parse(text) for text in hands),
            None if out is None else tuple(parse_card(text) for text in out.split()),  # order kept
        )
