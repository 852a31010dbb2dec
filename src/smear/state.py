"""The state of a match and the functions that move it: ``new_match``, ``legal_actions``, ``apply``,
``next_hand``.

States are immutable: ``apply`` returns a new state and never changes the one it was given, so a
refused action changes nothing and a search can keep every state it visits. A ``State`` holds
everything (server and search only); its ``public`` part is a :class:`PublicState`, what every seat
may see; :func:`smear.views.player_view` adds one seat's own cards.

>>> from smear import find_rules, new_match, legal_actions, apply
>>> state = new_match(find_rules("house"), players=4, seed=7)
>>> state.public.phase
<Phase.AUCTION: 'auction'>
>>> state = apply(state, legal_actions(state)[0])
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from smear.actions import (
    PASS,
    PLAYS,
    TAKE_WIDOW,
    TRUMPS,
    Action,
    Bid,
    Discard,
    NameTrump,
    Pass,
    Play,
    TakeWidow,
    bid,
)
from smear.cards import (
    CARDS,
    JOKERS_MASK,
    Card,
    CardSet,
    Suit,
    iter_bits,
    parse_card,
)
from smear.errors import IllegalActionError, NotYourTurnError, RulesError, SmearError
from smear.rules import Rules
from smear.scoring import MatchEnd, NotWon, above_target, hand_points, scoring_trumps, settle_hand
from smear.trick import Trick, TrumpOrder, order_for, winning_index

_SUITS = tuple(Suit)


class Phase(Enum):
    """Where a hand stands; each phase has its own kind of action."""

    AUCTION = "auction"  # bid or pass, once each, from the left of the dealer
    WIDOW = "widow"  # the bidder takes the widow (presets with a widow)
    TRUMP = "trump"  # the bidder names trump (presets where trump is named)
    DISCARD = "discard"  # each player in turn discards down to the hand size
    PLAY = "play"  # tricks
    HAND_OVER = "hand_over"  # scored; call next_hand() to deal the next one
    MATCH_OVER = "match_over"  # a side has won


_PLAY = Phase.PLAY


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


# --- setting up ---------------------------------------------------------------------------------


def team_sides(players: int, alternate: bool = False) -> tuple[tuple[int, ...], ...]:
    """Partners across the table: seat s with seat s + players/2; or (``alternate``) two teams
    whose members alternate seats: the even seats against the odd ones."""
    if alternate:
        return (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
    half = players // 2
    return tuple((seat, seat + half) for seat in range(half))


def _check_sides(
    rules: Rules, players: int, teams: bool | Sequence[Sequence[int]] | None
) -> tuple[tuple[int, ...], ...]:
    if not isinstance(players, int) or isinstance(players, bool):
        raise RulesError(f"the number of players must be a whole number, not {players!r}")
    with_teams = bool(teams)
    refusal = rules.refusal(players, with_teams)
    if refusal is not None:
        raise RulesError(refusal)
    if not teams:
        return tuple((seat,) for seat in range(players))
    if teams is True:
        return team_sides(players, rules.alternate_teams)
    sides = tuple(tuple(side) for side in teams)
    seats = sorted(seat for side in sides for seat in side)
    if seats != list(range(players)) or len(sides) < 2 or any(len(s) < 1 for s in sides):
        raise RulesError(f"teams must split seats 0..{players - 1} into sides: {teams!r}")
    if rules.alternate_teams and sorted(sides) != sorted(team_sides(players, alternate=True)):
        given = [list(side) for side in sides]
        raise RulesError(f"{rules.name} is played by two teams whose members alternate seats, not {given}")
    return sides


def new_match(
    rules: Rules,
    players: int,
    teams: bool | Sequence[Sequence[int]] | None = None,
    *,
    seed: int | None = None,
    dealer: int | None = None,
    deal: Deal | None = None,
    scores: Sequence[int] | None = None,
) -> State:
    """Start a match and deal its first hand.

    ``teams``: ``None``/``False`` for every player a side, ``True`` for partners across the table, or
    an explicit list of sides (lists of seats). Give a ``seed`` (the first dealer and every deal
    follow from it) or an explicit ``deal`` (and ``dealer``) for the first hand.
    """
    rules.check()
    sides = _check_sides(rules, players, teams)
    seat_side = [0] * players
    for side, seats in enumerate(sides):
        for seat in seats:
            seat_side[seat] = side
    if scores is None:
        start = (0,) * len(sides)
    else:
        start = tuple(scores)
        if len(start) != len(sides) or not all(isinstance(x, int) and not isinstance(x, bool) for x in start):
            raise RulesError(f"start scores need one whole number per side: {list(scores)!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RulesError(f"the seed must be a whole number, not {seed!r}")
    if deal is None and seed is None:
        raise RulesError("give a seed or an explicit deal")
    if dealer is None:
        dealer = shuffled(range(players), f"smear:{seed}:dealer")[0] if seed is not None else 0
    elif not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise RulesError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    public = PublicState(
        rules=rules,
        players=players,
        sides=sides,
        seat_side=tuple(seat_side),
        scores=start,
        hand_number=0,
        dealer=(dealer - 1) % players,
        phase=Phase.HAND_OVER,
        to_act=None,
        bids=(),
        bidder=None,
        bid=0,
        trump=None,
        leader=0,
        trick=(),
        tricks=(),
        dealt_count=rules.dealt_for(players),
        results=(),
        winner=None,
        start_scores=start,
        deck=CardSet(rules.deck_mask(players)),
        order=None,
    )
    empty = (0,) * players
    return _deal(State(public, empty, empty, (), empty, None, seed), deal, previous=None)


def next_hand(state: State, deal: Deal | None = None) -> State:
    """Deal the next hand once a hand is over; the deal passes one seat clockwise."""
    if state.public.phase is not Phase.HAND_OVER:
        if state.public.phase is Phase.MATCH_OVER:
            raise SmearError("the match is over")
        raise SmearError("the hand is not over yet")
    if deal is None and state.seed is None:
        raise SmearError("this match has no seed: give the next hand's deal")
    return _deal(state, deal, previous=state)


@functools.cache
def _deck_indices(mask: int) -> tuple[int, ...]:
    return tuple(int(card) for card in iter_bits(mask))


def shuffled(cards: Iterable[int], key: str) -> list[int]:
    """The cards in an order that depends only on ``key`` (Fisher-Yates driven by BLAKE2b).

    Independent of Python's ``random`` so that a seed deals the same cards on every version.
    """
    deck = list(cards)
    entropy = int.from_bytes(hashlib.blake2b(key.encode()).digest(), "big")
    for i in range(len(deck) - 1, 0, -1):
        entropy, j = divmod(entropy, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _deal(state: State, deal: Deal | None, previous: State | None) -> State:
    pub = state.public
    n = pub.players
    number = pub.hand_number + 1
    dealer = (pub.dealer + 1) % n
    per_seat = pub.dealt_count
    if deal is None:
        deck = shuffled(_deck_indices(pub.deck.mask), f"smear:{state.seed}:hand:{number}")
        hands = []
        for start in range(0, n * per_seat, per_seat):
            mask = 0
            for index in deck[start : start + per_seat]:
                mask |= 1 << index
            hands.append(mask)
        out = tuple(CARDS[index] for index in deck[n * per_seat :])
    else:
        hands, out = _check_deal(pub.rules, n, per_seat, deal)
    first = (dealer + 1) % n
    public = pub._replace(
        hand_number=number,
        dealer=dealer,
        phase=Phase.AUCTION,
        to_act=first,
        bids=(),
        bidder=None,
        bid=0,
        trump=None,
        leader=first,
        trick=(),
        tricks=(),
        order=None,
        took=0,
        drawn=0,
        discarded=(0,) * n,
        refills=(0,) * n,
        trick_seats=(),
    )
    dealt = tuple(hands)
    return State(public, dealt, dealt, out, (0,) * n, previous, state.seed)


def _check_deal(rules: Rules, players: int, per_seat: int, deal: Deal) -> tuple[list[int], tuple[Card, ...]]:
    deck = rules.deck_mask(players)
    if len(deal.hands) != players:
        raise SmearError(f"the deal has {len(deal.hands)} hands for {players} players")
    seen = 0
    hands = []
    for seat, hand in enumerate(deal.hands):
        if len(hand) != per_seat:
            raise SmearError(f"seat {seat} is dealt {len(hand)} cards, not {per_seat}")
        _check_in_deck(hand.mask, deck, seen, rules)
        seen |= hand.mask
        hands.append(hand.mask)
    rest = deck & ~seen
    if deal.out is None:
        out = tuple(iter_bits(rest))
    else:
        out_mask = 0
        for card in deal.out:
            _check_in_deck(1 << card, deck, seen | out_mask, rules)
            out_mask |= 1 << card
        if out_mask != rest:
            missing = CardSet(rest & ~out_mask)
            raise SmearError(f"the undealt cards leave out {missing}")
        out = tuple(deal.out)
    return hands, out


def _check_in_deck(mask: int, deck: int, seen: int, rules: Rules) -> None:
    if mask & ~deck:
        raise SmearError(f"not in the {rules.name} deck at this table: {CardSet(mask & ~deck)}")
    if mask & seen:
        raise SmearError(f"dealt twice: {CardSet(mask & seen)}")


# --- legal actions --------------------------------------------------------------------------------


def _play_mask(pub: PublicState, hand: int) -> int:
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
    return _auction_choices(max(rules.min_bid, pub.bid + 1), rules.top_bid, _dealer_forced(pub))


@functools.cache
def _auction_choices(lowest: int, highest: int, forced: bool) -> tuple[Action, ...]:
    bids = tuple(bid(amount) for amount in range(lowest, highest + 1))
    return bids if forced else (PASS, *bids)


def _dealer_forced(pub: PublicState) -> bool:
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
        mask = _play_mask(pub, state.hands[pub.to_act])  # type: ignore[index]
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


# --- applying actions -----------------------------------------------------------------------------

# Positions of the fields the hot paths change, so they can copy a state as a list.
_PHASE = PublicState._fields.index("phase")
_TO_ACT = PublicState._fields.index("to_act")
_SCORES = PublicState._fields.index("scores")
_RESULTS = PublicState._fields.index("results")
_WINNER = PublicState._fields.index("winner")
_BIDS = PublicState._fields.index("bids")
_BIDDER = PublicState._fields.index("bidder")
_BID = PublicState._fields.index("bid")
_TRUMP = PublicState._fields.index("trump")
_LEADER = PublicState._fields.index("leader")
_TRICK = PublicState._fields.index("trick")
_TRICKS = PublicState._fields.index("tricks")
_ORDER = PublicState._fields.index("order")
_new_tuple = tuple.__new__


def apply(state: State, action: Action, seat: int | None = None) -> State:
    """The state after the seat to act takes ``action``.

    When ``seat`` is given it must be the seat to act. An illegal action raises
    :class:`IllegalActionError` (a :class:`NotYourTurnError` for the wrong seat) and the state
    passed in is unchanged, as always.
    """
    pub = state.public
    to_act = pub.to_act
    if type(action) is Play and pub.phase is _PLAY and (seat is None or seat == to_act):
        return _apply_play(state, action.card, to_act)  # type: ignore[arg-type]
    if to_act is None:
        code = "match_over" if pub.phase is Phase.MATCH_OVER else "hand_over"
        raise IllegalActionError(code, str(action), seat)
    if seat is not None and seat != to_act:
        raise NotYourTurnError("not_your_turn", str(action), seat, to_act=to_act)
    phase = pub.phase
    kind = type(action)
    if phase is Phase.AUCTION and (kind is Bid or kind is Pass):
        return _apply_auction(state, action, to_act)
    if phase is Phase.TRUMP and kind is NameTrump:
        return _apply_trump(state, action, to_act)  # type: ignore[arg-type]
    if phase is Phase.WIDOW and kind is TakeWidow:
        return _before_play(_draw(state, to_act, pub.rules.widow))
    if phase is Phase.DISCARD and kind is Discard:
        return _apply_discard(state, action, to_act)  # type: ignore[arg-type]
    if kind not in (Play, Bid, Pass, NameTrump, TakeWidow, Discard):
        raise TypeError(f"not an action: {action!r}")
    raise IllegalActionError("wrong_phase", str(action), to_act, phase=phase.value)


def _apply_auction(state: State, action: Action, seat: int) -> State:
    pub = state.public
    rules = pub.rules
    fields = list(pub)
    if type(action) is Pass:
        if _dealer_forced(pub):
            raise IllegalActionError("dealer_must_bid", "pass", seat)
        bids = (*pub.bids, None)
    else:
        assert isinstance(action, Bid)
        amount = action.amount
        if not rules.min_bid <= amount <= rules.top_bid:
            raise IllegalActionError(
                "bid_out_of_range", str(action), seat, min_bid=rules.min_bid, max_bid=rules.top_bid
            )
        if amount <= pub.bid:
            raise IllegalActionError("bid_too_low", str(action), seat, highest=pub.bid)
        bids = (*pub.bids, amount)
        fields[_BIDDER] = seat
        fields[_BID] = amount
    fields[_BIDS] = bids
    n = pub.players
    if len(bids) < n:
        fields[_TO_ACT] = seat + 1 if seat + 1 < n else 0
    else:
        bidder = fields[_BIDDER]
        if bidder is None:  # everyone passed and the dealer may pass too: the hand is thrown in
            fields[_TO_ACT] = None
            return _finish_thrown_in(state._replace(public=_new_tuple(PublicState, fields)))
        fields[_TO_ACT] = fields[_LEADER] = bidder
        public: PublicState = _new_tuple(PublicState, fields)
        state = state._replace(public=public)
        if rules.widow:
            return state._replace(public=public._replace(phase=Phase.WIDOW))
        if rules.kitty:  # the bidder takes the first undealt cards
            state = _draw(state, public.to_act, rules.kitty)  # type: ignore[arg-type]
        return _before_play(state)
    return _new_tuple(State, (_new_tuple(PublicState, fields), *state[1:]))


def _draw(state: State, seat: int, count: int | None, refill: bool = False) -> State:
    """``seat`` takes the next ``count`` undealt cards (``None``: all that are left); they count as
    taken by the bidder (``took``) unless they are a ``refill``."""
    pub = state.public
    start = pub.drawn
    end = len(state.out) if count is None else start + count
    cards = 0
    for card in state.out[start:end]:
        cards |= 1 << card
    took = pub.took + (end - start if seat == pub.bidder and not refill else 0)
    hands = _replace_at(state.hands, seat, state.hands[seat] | cards)
    return state._replace(public=pub._replace(took=took, drawn=end), hands=hands)


def _before_play(state: State) -> State:
    """Once the auction (and the widow) is over: the bidder names trump where it does; then the
    discard round where anyone holds more than a hand; then the bidder leads."""
    pub = state.public
    if pub.rules.trump_named and pub.trump is None:
        return state._replace(public=pub._replace(phase=Phase.TRUMP, to_act=pub.bidder))
    return _next_discarder(state)


def _next_discarder(state: State) -> State:
    """The next seat in the discard order (see ``PublicState.discard_order``) that has not
    discarded and holds more than a hand (the bidder first takes the stock where it does); once
    round, the bidder leads."""
    pub = state.public
    assert pub.bidder is not None
    keep = pub.rules.hand_size
    for seat in pub.discard_order():
        if pub.discarded[seat]:
            continue
        if seat == pub.bidder and pub.rules.take_stock and pub.drawn < len(state.out):
            state = _draw(state, seat, None)
            pub = state.public
        hand = state.hands[seat]
        if pub.rules.trumps_only:  # whoever holds a non-trump trades it
            assert pub.order is not None
            must = bool(hand & ~pub.order.trump_mask)
        else:
            must = hand.bit_count() > keep
        if must:
            return state._replace(public=pub._replace(phase=Phase.DISCARD, to_act=seat))
    leader = pub.bidder
    if pub.rules.trumps_only:
        leader = _next_holding_trump(state, pub.bidder, include=True)
        if leader is None:  # nobody holds a trump: the hand is over at once
            assert pub.order is not None
            return _finish_hand(pub._replace(to_act=None), state, state.hands, pub.order)
    assert leader is not None
    return state._replace(public=pub._replace(phase=Phase.PLAY, to_act=leader, leader=leader))


def _apply_trump(state: State, action: NameTrump, seat: int) -> State:
    pub = state.public
    trump = Suit(action.suit)
    public = pub._replace(trump=trump, order=order_for(pub.rules, trump))
    return _before_play(state._replace(public=public))


def _apply_discard(state: State, action: Discard, seat: int) -> State:
    pub = state.public
    hand = state.hands[seat]
    mask = action.cards.mask
    text = str(action)
    if mask & ~hand:
        missing = CardSet(mask & ~hand)
        raise IllegalActionError("not_in_hand", text, seat, card=str(missing))
    options = options_for_discard(pub, hand, seat)
    if mask.bit_count() != options.size:
        raise IllegalActionError("discard_count", text, seat, expected=options.size, given=mask.bit_count())
    if not options.allows(action.cards):
        assert pub.order is not None
        if mask & pub.order.trump_mask and hand & ~mask & ~pub.order.trump_mask:
            raise IllegalActionError("keep_trumps", text, seat)
        raise IllegalActionError("keep_scoring_trumps", text, seat)
    refill = pub.refill_after(seat, hand, options.size).draws
    state = state._replace(
        public=pub._replace(
            discarded=_replace_at(pub.discarded, seat, options.size),
            refills=_replace_at(pub.refills, seat, refill),
        ),
        hands=_replace_at(state.hands, seat, hand & ~mask),
        discards=_replace_at(state.discards, seat, mask),
    )
    if refill:
        state = _draw(state, seat, refill, refill=True)
    return _next_discarder(state)


def _replace_at(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _refuse_play(pub: PublicState, hand: int, card: Card, seat: int) -> IllegalActionError:
    text = str(card)
    if not hand >> card & 1:
        return IllegalActionError("not_in_hand", text, seat, card=text)
    if not pub.trick:
        if pub.trump is None:
            return IllegalActionError("joker_first_lead", text, seat)
        return IllegalActionError("must_lead_trump", text, seat)
    order = pub.order
    assert order is not None
    led = _SUITS[order.suit_of[pub.trick[0]]]
    args = {"led_suit": led.letter}
    if led == order.trump:
        return IllegalActionError("must_follow_trump", text, seat, **args)
    if order.power[card]:
        return IllegalActionError("no_trump_instead", text, seat, **args)
    return IllegalActionError("must_follow", text, seat, **args)


def _next_holding_trump(state: State, seat: int | None, include: bool = False) -> int | None:
    """The first seat clockwise from ``seat`` (from ``seat`` itself with ``include``) that holds a
    trump, or None."""
    pub = state.public
    assert pub.order is not None and seat is not None
    trumps = pub.order.trump_mask
    n = pub.players
    for offset in range(0 if include else 1, n + (1 if include else 0)):
        candidate = (seat + offset) % n
        if state.hands[candidate] & trumps:
            return candidate
    return None


def _apply_trump_play(state: State, card: Card, seat: int) -> State:
    """A card where only trumps are played: each seat holding a trump plays once a trick (a seat
    holding more than a hand plays its extra cards to the first trick); the winner leads, or if it
    has no trump left the next seat that does; the hand ends when nobody holds a trump."""
    pub = state.public
    order = pub.order
    assert order is not None
    hand = state.hands[seat]
    if not (hand & order.trump_mask) >> card & 1:
        text = str(card)
        if not hand >> card & 1:
            raise IllegalActionError("not_in_hand", text, seat, card=text)
        raise IllegalActionError("only_trumps", text, seat)
    hands = _replace_at(state.hands, seat, hand & ~(1 << card))
    state = state._replace(hands=hands)
    trick = (*pub.trick, card)
    seats = (*pub.trick_seats, seat)
    follower: int | None = None
    if not pub.tricks and hands[seat].bit_count() >= pub.rules.hand_size and hands[seat] & order.trump_mask:
        follower = seat  # an extra card, to the first trick
    else:
        candidate = _next_holding_trump(state, seat)
        if candidate is not None and candidate not in seats:
            follower = candidate
    if follower is not None:
        public = pub._replace(trick=trick, trick_seats=seats, to_act=follower)
        return state._replace(public=public)
    winner = seats[winning_index(trick, order)]
    tricks = (*pub.tricks, Trick(seats[0], trick, winner, seats))
    leader = _next_holding_trump(state, winner, include=True)
    public = pub._replace(trick=(), trick_seats=(), tricks=tricks, to_act=leader, leader=leader or 0)
    if leader is None:
        return _finish_hand(public, state, hands, order)
    return state._replace(public=public)


def _apply_play(state: State, card: Card, seat: int) -> State:
    pub = state.public
    if pub.rules.trumps_only:
        return _apply_trump_play(state, card, seat)
    hands = state.hands
    hand = hands[seat]
    if not _play_mask(pub, hand) >> card & 1:
        raise _refuse_play(pub, hand, card, seat)
    hands = (*hands[:seat], hand & ~(1 << card), *hands[seat + 1 :])
    n = pub.players
    fields = list(pub)
    order = pub.order
    if order is None:  # the first lead names trump
        order = order_for(pub.rules, _SUITS[card // 13])
        fields[_TRUMP] = order.trump
        fields[_ORDER] = order
    trick = (*pub.trick, card)
    if len(trick) < n:
        fields[_TO_ACT] = seat + 1 if seat + 1 < n else 0
        fields[_TRICK] = trick
    else:
        leader = pub.leader
        winner = (leader + winning_index(trick, order)) % n
        fields[_TRICK] = ()
        fields[_TRICKS] = tricks = (*pub.tricks, Trick(leader, trick, winner))
        fields[_LEADER] = fields[_TO_ACT] = winner
        if len(tricks) == pub.rules.hand_size:
            fields[_TO_ACT] = None
            public: PublicState = _new_tuple(PublicState, fields)
            return _finish_hand(public, state, hands, order)
    return _new_tuple(State, (_new_tuple(PublicState, fields), hands, *state[2:]))


def _finish_hand(public: PublicState, state: State, hands: tuple[int, ...], order: TrumpOrder) -> State:
    """Score the hand that ``public`` has just completed and settle the match scores."""
    score = hand_points(public.rules, order, public.tricks, public.seat_side, len(public.sides))
    assert public.bidder is not None
    bidder_side = public.seat_side[public.bidder]
    scores, made, winner, ended_by, above = settle_hand(
        public.rules, public.scores, score.taken, bidder_side, public.bid
    )
    if public.bid <= public.rules.max_bid:
        outcome = HandOutcome.MADE if made else HandOutcome.SET
    elif not made:
        outcome = HandOutcome.MOON_SET
    else:
        outcome = HandOutcome.MOON_RESET if public.scores[bidder_side] < 0 else HandOutcome.MOON_MADE
    result = HandResult(
        number=public.hand_number,
        dealer=public.dealer,
        bidder=public.bidder,
        bid=public.bid,
        trump=order.trump,
        points=score.points,
        game_points=score.game_points,
        taken=score.taken,
        made=made,
        scores=scores,
        out=CardSet(state.out[public.drawn :]),
        discards=tuple(CardSet(mask) for mask in state.discards),
        outcome=outcome,
        ended_by=ended_by,
        above_target=above,
    )
    fields = list(public)
    fields[_PHASE] = Phase.HAND_OVER if winner is None else Phase.MATCH_OVER
    fields[_SCORES] = scores
    fields[_RESULTS] = (*public.results, result)
    fields[_WINNER] = winner
    return _new_tuple(State, (_new_tuple(PublicState, fields), hands, *state[2:]))


def _finish_thrown_in(state: State) -> State:
    pub = state.public
    sides = len(pub.sides)
    result = HandResult(
        number=pub.hand_number,
        dealer=pub.dealer,
        bidder=None,
        bid=0,
        trump=None,
        points=dict.fromkeys(pub.rules.points),
        game_points=(0,) * sides,
        taken=(0,) * sides,
        made=False,
        scores=pub.scores,
        out=CardSet(state.out),
        discards=tuple(CardSet(0) for _ in range(pub.players)),
        outcome=HandOutcome.THROWN_IN,
        above_target=above_target(pub.rules, pub.scores, None, None, False),
    )
    public = pub._replace(phase=Phase.HAND_OVER, to_act=None, results=(*pub.results, result))
    return state._replace(public=public)
