"""Determinization: full states consistent with what one seat knows, for search bots.

A search bot sees a :class:`~smear.views.PlayerView`, but the engine plays on a full
:class:`~smear.state.State`. :func:`sample_state` deals the cards the seat cannot see (the other
hands, the other seats' discards, the undealt cards) again at random, keeping everything the seat
does know: its own hand and discards, the public state (every bid, every card played and by whom,
trump, scores, the dealer, whose turn it is, the results of finished hands), how many cards every
seat holds, and the voids that play has revealed (what play shows comes from :mod:`smear.knowledge`).
The seat's view of the sample is its view of the real game, exactly.

>>> import random
>>> from smear import find_rules, new_match, player_view
>>> state = new_match(find_rules("house"), players=4, seed=3)
>>> view = player_view(state, 0)
>>> player_view(sample_state(view, random.Random(1)), 0) == view
True

Without ``bid_prior`` every deal consistent with the view is equally likely: rejection sampling
first (a plain shuffle, kept when it breaks no void), then, when the voids make that slow, an exact
sampler that counts the ways to fill the seats with voids. Both draw from the same uniform
distribution, so a sample never depends on which of them produced it.
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from collections.abc import Sequence
from typing import Literal, NamedTuple, TypeVar

from smear.bots.bidlines import ROUND_UP
from smear.bots.heuristic import bid_count
from smear.cards import CARDS, Card, iter_bits
from smear.knowledge import plays_by_seat, revealed_voids
from smear.scoring import scoring_trumps
from smear.state import Phase, PublicState, State
from smear.views import PlayerView

T = TypeVar("T")

# Shuffles tried before the exact sampler takes over. A shuffle costs a few microseconds; the exact
# sampler costs more, but its cost does not grow as the voids make a valid shuffle rare.
REJECTION_ATTEMPTS = 40
# Uniform samples drawn and weighed against the auction when ``bid_prior`` is on.
BID_PRIOR_CANDIDATES = 8
# A pass is explained by any count below the highest bid plus this much: a count rounds to a bid
# (:func:`smear.bots.bidlines.bid_of`) above the highest only from there.
PASS_MARGIN = ROUND_UP


class Place(NamedTuple):
    """Somewhere hidden cards go: a seat's hand, a seat's discards, or the undealt cards."""

    kind: Literal["hand", "discards", "out"]
    seat: int  # -1 for "out"
    size: int
    forbidden: int  # cards that may not go here (revealed voids), as a bitmask
    part: int = 0  # a hand in two parts: 1 for the cards a refilling seat kept from its deal


class Determinizer:
    """Samples states consistent with one view; set up once, then draw as many samples as needed.

    ``attempts`` is the number of shuffles tried before the exact sampler takes over (0: always
    the exact sampler; both are uniform over the consistent deals). After the set-up, ``pool`` is
    the hidden cards (a bitmask), ``places`` where they go (the ``constrained`` places with voids
    first), ``played`` and ``voids`` each seat's plays and revealed voids, and ``out`` the undealt
    cards when the hand is over and they are known (else ``None``).
    """

    def __init__(self, view: PlayerView, *, attempts: int = REJECTION_ATTEMPTS) -> None:
        pub = view.public
        n = pub.players
        me = view.seat
        self.view = view
        self.attempts = attempts
        self.played = plays_by_seat(pub)
        self.voids = revealed_voids(pub)
        sizes = pub.hand_sizes()
        hands = [0] * n
        discards = [0] * n
        hands[me] = view.hand.mask
        discards[me] = view.discards.mask
        known = view.hand.mask | view.discards.mask
        for mask in self.played:
            known |= mask
        places: list[Place] = []
        current = pub.results[-1] if pub.results else None
        if current is not None and current.number == pub.hand_number:
            # The hand is over: its result shows the undealt cards and every discard.
            self.out: int | None = current.out.mask
            for seat, cards in enumerate(current.discards):
                discards[seat] = cards.mask
                known |= cards.mask
            known |= current.out.mask
        else:
            self.out = None
            # Where only trumps are played, a discard is the seat's non-trumps.
            plain_only = pub.order.trump_mask if pub.rules.trumps_only and pub.order is not None else 0
            for seat in range(n):
                if seat != me and pub.discarded[seat]:
                    places.append(Place("discards", seat, pub.discarded[seat], plain_only & ~known))
        pool = pub.deck.mask & ~known
        # Where discards keep trumps, a discard holds a trump only if its player kept nothing but
        # trumps: shuffles that break this are refused (the exact sampler does not know it).
        self._keep_trumps: tuple[tuple[int, int], ...] = ()
        self._scoring = 0  # scoring trumps stay in a discard of trumps, where the rules say so
        if pub.rules.keep_trumps and pub.order is not None and self.out is None:
            if pub.rules.keep_scoring_trumps:
                self._scoring = scoring_trumps(pub.rules, pub.order)
            plain = pub.deck.mask & ~pub.order.trump_mask
            self._keep_trumps = tuple(
                (seat, plain) for seat in range(n) if seat != me and pub.discarded[seat]
            )
        kept_trumps = self._kept_from_deal(pub)
        for seat in range(n):
            if seat != me and sizes[seat]:
                voids = self.voids[seat] & pool
                kept = kept_trumps.get(seat, 0)
                if not kept and seat == pub.to_act and pub.rules.trumps_only and pub.phase is Phase.PLAY:
                    kept = 1  # the seat to play holds a trump (one is set aside for it)
                if kept:  # a refilling seat kept only trumps from its deal
                    plain = pub.deck.mask & ~pub.order.trump_mask  # type: ignore[union-attr]
                    places.append(Place("hand", seat, kept, voids | plain & pool, part=1))
                if sizes[seat] > kept:
                    places.append(Place("hand", seat, sizes[seat] - kept, voids))
        if self.out is None:
            undealt = pool.bit_count() - sum(place.size for place in places)
            places.append(Place("out", -1, undealt, 0))
        if sum(place.size for place in places) != pool.bit_count() or any(p.size < 0 for p in places):
            raise ValueError("the view's card counts do not add up")
        self.pool = pool
        self.base_hands = tuple(hands)
        self.base_discards = tuple(discards)
        self._bits = [1 << card for card in iter_bits(pool)]
        self._cases: list[tuple[Determinizer, int]] | None = None
        self._set_places(places)

    def _kept_from_deal(self, pub: PublicState) -> dict[int, int]:
        """For each other seat that refilled from the stock: how many of the cards it holds are
        ones it kept from its deal, trumps all (the played trumps are counted as kept first).
        A seat whose refill emptied the stock may have kept non-trumps and is left out."""
        found: dict[int, int] = {}
        rules = pub.rules
        if not rules.refill or pub.order is None or self.out is not None:
            return found
        stock = pub.deck.mask.bit_count() - pub.players * pub.dealt_count - rules.widow - rules.kitty
        order = pub.discard_order()
        # Where only trumps are played every trump is kept, and a seat with no non-trump to trade
        # does not discard: once the round has passed a seat, what it kept from its deal is trumps.
        if pub.phase in (Phase.AUCTION, Phase.WIDOW, Phase.TRUMP):
            passed = 0
        elif pub.phase is Phase.DISCARD:
            passed = order.index(pub.to_act)
        else:
            passed = len(order)
        for position, seat in enumerate(order):
            refill = pub.refilled(seat)
            refilling = seat != pub.bidder or rules.refill_bidder
            if rules.trumps_only:
                kept_only_trumps = position < passed
            else:
                kept_only_trumps = bool(pub.discarded[seat]) and refilling and refill < stock
            if kept_only_trumps and seat != self.view.seat:
                kept = pub.held_before_discard(seat) - pub.discarded[seat]
                found[seat] = max(0, kept - (self.played[seat] & pub.order.trump_mask).bit_count())
            stock -= refill
        return found

    def _set_places(self, places: list[Place]) -> None:
        # Seats with voids first: a shuffle is checked, and the exact sampler fills, those first.
        places.sort(key=lambda place: not place.forbidden)
        self.places = tuple(places)
        self.constrained = sum(1 for place in places if place.forbidden)
        self._rejection_failed = False
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        # Each (place, cards left per class)'s options, counted once and drawn from at every sample.
        self._option_lists: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}
        self._classes: list[list[Card]] | None = None
        self._patterns: list[list[tuple[int, ...]]] = []

    # --- drawing the hidden cards -------------------------------------------------------------------

    def layout(self, rng: random.Random) -> tuple[int, ...]:
        """One uniformly random consistent layout: the cards of each place, as bitmasks."""
        if not self.constrained and not self._keep_trumps:
            masks = self._shuffle(rng, check=False)
            assert masks is not None
            return masks
        if not self._rejection_failed:
            for _ in range(self.attempts):
                masks = self._shuffle(rng, check=True)
                if masks is not None:
                    return masks
            # Valid shuffles are rare for this view: the exact sampler, its counts now cached, is
            # cheaper from here on.
            self._rejection_failed = True
        if self._keep_trumps:
            return self._exact_keeping_trumps(rng)
        return self._exact(rng)

    def _exact_keeping_trumps(self, rng: random.Random) -> tuple[int, ...]:
        """The exact sampler where discards keep trumps: each seat that discarded either discarded
        no trump or kept only trumps, two constraints the exact sampler can hold; one combination
        of them is drawn in proportion to its number of layouts (a layout fitting two of them is
        counted twice, a small bias), then a layout within it."""
        if self._cases is None:
            # Scoring trumps kept too where the rules say so; a player holding more than a hand
            # of them may have discarded one, so without that if nothing else fits.
            self._cases = self._keeping_trumps_cases(False)
            if not self._cases and self._scoring:
                self._cases = self._keeping_trumps_cases(True)
        if not self._cases:
            return self._exact(rng)  # no combination fits: the rule is let go
        case = _pick(self._cases, rng)
        layout = zip(case.places, case._exact(rng), strict=True)
        found = {(p.kind, p.seat, p.part): mask for p, mask in layout}
        return tuple(found[p.kind, p.seat, p.part] for p in self.places)  # in this sampler's order

    def _keeping_trumps_cases(self, only_scoring_kept: bool) -> list[tuple[Determinizer, int]]:
        """The combinations of constraints that have layouts, with their numbers of layouts. With
        ``only_scoring_kept``, a seat that discarded trumps kept nothing but scoring trumps."""
        cases = []
        for choice in itertools.product((False, True), repeat=len(self._keep_trumps)):
            hand_forbidden: dict[int, int] = {}
            discard_forbidden: dict[int, int] = {}
            possible = True
            for (seat, plain), kept_only_trumps in zip(self._keep_trumps, choice, strict=True):
                if kept_only_trumps:
                    # a seat that refilled discarded only non-trumps
                    possible &= not self.played[seat] & plain and not self.view.public.refilled(seat)
                    if only_scoring_kept:
                        hand_forbidden[seat] = ~self._scoring & self.pool
                    else:
                        hand_forbidden[seat] = plain & self.pool
                        discard_forbidden[seat] = self._scoring & self.pool
                else:
                    discard_forbidden[seat] = ~plain & self.pool
            if not possible:
                continue
            places = [
                place._replace(
                    forbidden=place.forbidden
                    | (hand_forbidden.get(place.seat, 0) if place.kind == "hand" else 0)
                    | (discard_forbidden.get(place.seat, 0) if place.kind == "discards" else 0)
                )
                for place in self.places
            ]
            case = copy.copy(self)
            case._keep_trumps = ()
            case._set_places(places)
            ways = case._count(0, tuple(len(cards) for cards in case._card_classes()))
            if ways:
                cases.append((case, ways))
        return cases

    def _shuffle(self, rng: random.Random, *, check: bool) -> tuple[int, ...] | None:
        """The hidden cards shuffled and dealt in place order; with ``check``, ``None`` as soon as
        a place breaks one of its voids."""
        bits = self._bits[:]  # a copy: one determinizer may serve several threads
        rng.shuffle(bits)
        masks = []
        start = 0
        for place in self.places:
            end = start + place.size
            mask = sum(bits[start:end])  # distinct bits: the sum is the union
            if check and mask & place.forbidden:
                return None
            masks.append(mask)
            start = end
        if check and self._keep_trumps and not self._keeps_trumps(masks):
            return None
        return tuple(masks)

    def _keeps_trumps(self, masks: Sequence[int]) -> bool:
        """Whether every discard that holds a trump belongs to a seat that kept only trumps."""
        hands: dict[int, int] = {}
        discards: dict[int, int] = {}
        for place, mask in zip(self.places, masks, strict=True):
            if place.kind == "hand":
                hands[place.seat] = hands.get(place.seat, 0) | mask
            elif place.kind == "discards":
                discards[place.seat] = mask
        public = self.view.public
        for seat, plain in self._keep_trumps:
            kept = hands.get(seat, 0) | self.played[seat]
            if discards.get(seat, 0) & ~plain and (kept & plain or public.refilled(seat)):
                return False
            if discards.get(seat, 0) & self._scoring and kept & ~self._scoring:
                return False
        return True

    def _exact(self, rng: random.Random) -> tuple[int, ...]:
        """Fill the seats with voids one at a time, choosing how many cards of each class a seat
        takes in proportion to the number of consistent layouts that choice leaves, then deal the
        rest at random: exactly uniform over the consistent layouts."""
        classes = self._card_classes()
        remaining = [list(cards) for cards in classes]
        if not self._count(0, tuple(len(cards) for cards in remaining)):
            raise ValueError("no deal is consistent with this view")
        masks: list[int] = []
        for index in range(self.constrained):
            split = _pick(self._options(index, tuple(len(cards) for cards in remaining)), rng)
            mask = 0
            for cls, take in enumerate(split):
                if take:
                    chosen = rng.sample(remaining[cls], take)
                    for card in chosen:
                        mask |= 1 << card
                    remaining[cls] = [card for card in remaining[cls] if not mask >> card & 1]
            masks.append(mask)
        rest = [1 << card for cards in remaining for card in cards]
        rng.shuffle(rest)
        start = 0
        for place in self.places[self.constrained :]:
            masks.append(sum(rest[start : start + place.size]))
            start += place.size
        return tuple(masks)

    def _card_classes(self) -> list[list[Card]]:
        """The hidden cards grouped by which seats may not hold them (cards alike for the voids),
        and for each seat with voids every way to make up its hand as counts per class."""
        if self._classes is None:
            groups: dict[tuple[bool, ...], list[Card]] = {}
            for card in iter_bits(self.pool):
                key = tuple(bool(p.forbidden >> card & 1) for p in self.places[: self.constrained])
                groups.setdefault(key, []).append(card)
            self._classes = list(groups.values())
            self._patterns = [
                _compositions(
                    self.places[j].size,
                    tuple(not self.places[j].forbidden >> cards[0] & 1 for cards in self._classes),
                )
                for j in range(self.constrained)
            ]
        return self._classes

    def _options(self, index: int, rem: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """Each way constrained place ``index`` can take its cards from ``rem`` cards per class,
        with the number of consistent layouts of the constrained places that it leaves."""
        key = (index, rem)
        options = self._option_lists.get(key)
        if options is None:
            options = self._option_lists[key] = self._count_options(index, rem)
        return options

    def _count_options(self, index: int, rem: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        options = []
        last = index + 1 == self.constrained
        for split in self._patterns[index]:
            ways = 1
            left = []
            for have, take in zip(rem, split, strict=True):
                if take > have:
                    break
                ways *= _COMB[have][take]
                left.append(have - take)
            else:
                if not last:
                    ways *= self._count(index + 1, tuple(left))
                if ways:
                    options.append((split, ways))
        return options

    def _count(self, index: int, rem: tuple[int, ...]) -> int:
        """Ways to fill constrained places ``index``.. from ``rem`` cards per class (the places
        without voids take what is left in a number of ways that is the same for every ``rem``)."""
        if index == self.constrained:
            return 1
        key = (index, rem)
        ways = self._ways.get(key)
        if ways is None:
            ways = self._ways[key] = sum(weight for _, weight in self._options(index, rem))
        return ways

    # --- building states ----------------------------------------------------------------------------

    def state(self, masks: Sequence[int]) -> State:
        """The full state for a layout from :meth:`layout`."""
        pub = self.view.public
        hands = list(self.base_hands)
        discards = list(self.base_discards)
        out = self.out
        for place, mask in zip(self.places, masks, strict=True):
            if place.kind == "hand":
                hands[place.seat] |= mask
            elif place.kind == "discards":
                discards[place.seat] = mask
            else:
                out = mask
        assert out is not None
        dealt = [hands[s] | self.played[s] | discards[s] for s in range(pub.players)]
        undealt = tuple(CARDS[card] for card in iter_bits(out))
        if pub.drawn:
            # Which cards a seat drew (the bidder's kitty, widow or stock; a refill) is not known:
            # any of the right number may have been; the state puts them back at the head of the
            # undealt cards.
            refilled: dict[int, tuple[Card, ...]] = {}
            for seat in range(pub.players):
                count = pub.refilled(seat)
                if count:
                    # A refill comes after the discard, so it is among the cards kept; it holds the
                    # non-trumps kept (the cards kept from the deal are trumps).
                    source = hands[seat] | self.played[seat]
                    plain = source & ~pub.order.trump_mask if pub.order is not None else source
                    ordered = [*iter_bits(plain), *iter_bits(source & ~plain)]
                    refilled[seat] = tuple(CARDS[card] for card in ordered)[:count]
                    for card in refilled[seat]:
                        dealt[seat] &= ~(1 << card)
            assert pub.bidder is not None
            taken = tuple(CARDS[card] for card in iter_bits(dealt[pub.bidder]))[: pub.took]
            for card in taken:
                dealt[pub.bidder] &= ~(1 << card)
            # In the order the engine draws: kitty or widow, the refills in turn, the stock.
            first = pub.rules.kitty + pub.rules.widow
            refills = [card for seat in pub.discard_order() for card in refilled.get(seat, ())]
            undealt = (*taken[:first], *refills, *taken[first:], *undealt)
        return State(pub, tuple(hands), tuple(dealt), undealt, tuple(discards), None, None)

    def sample(
        self, rng: random.Random, *, bid_prior: bool = False, bid_shifts: Sequence[float] | None = None
    ) -> State:
        """A consistent state; see :func:`sample_state`."""
        if not bid_prior:
            return self.state(self.layout(rng))
        candidates = [self.state(self.layout(rng)) for _ in range(BID_PRIOR_CANDIDATES)]
        shifts = bid_shifts or (0.0,) * self.view.public.players
        weights = [self._auction_weight(state, shifts) for state in candidates]
        return rng.choices(candidates, weights)[0]

    def _auction_weight(self, state: State, shifts: Sequence[float]) -> float:
        """How well the deal explains the auction of the other seats, by what the heuristic bot bids
        on (:func:`smear.bots.heuristic.bid_count`: a hand's count raised to what self-play shows it
        takes four times in five).

        A seat that bid is assumed to have counted about as many points in its hand as it bid: a
        deal loses a factor e for every point its hand falls short. A seat that passed when it
        could have bid (over an opponent, not a partner) is assumed to have counted too few points to
        bid more: a deal loses a factor e for every point its hand has beyond ``PASS_MARGIN`` over
        the highest bid (the heuristic bids a count rounded up from three quarters).

        Each seat's count is shifted by its entry in ``shifts`` (how it bids, as read from the match:
        :mod:`smear.bots.bidreads`).
        """
        pub = state.public
        rules = pub.rules
        miss = 0.0
        highest, leader = rules.min_bid - 1, None
        for seat, amount in pub.bid_history():
            if seat != self.view.seat:
                hand = state.dealt[seat]
                if amount is None:
                    if leader is None or pub.seat_side[leader] != pub.seat_side[seat]:
                        miss += max(0.0, bid_count(hand, pub) + shifts[seat] - highest - PASS_MARGIN)
                else:
                    suit = pub.trump if seat == pub.bidder else None
                    miss += max(0.0, amount - bid_count(hand, pub, suit) - shifts[seat])
            if amount is not None and amount > highest:
                highest, leader = amount, seat
        return math.exp(-miss)


def _pick(choices: Sequence[tuple[T, int]], rng: random.Random) -> T:
    """One of ``(value, weight)`` pairs, with probability in proportion to its (exact int) weight."""
    pick = rng.randrange(sum(weight for _, weight in choices))
    for value, weight in choices:
        if pick < weight:
            return value
        pick -= weight
    raise AssertionError("weights changed while picking")


# Binomial coefficients C(n, k) for every n a deck can hold.
_COMB: tuple[tuple[int, ...], ...] = tuple(tuple(math.comb(n, k) for k in range(n + 1)) for n in range(55))


def _compositions(size: int, allowed: tuple[bool, ...]) -> list[tuple[int, ...]]:
    """Every way to write ``size`` as a sum of counts, one per class, zero where not allowed."""
    if not allowed:
        return [()] if size == 0 else []
    found = []
    for take in range(size + 1 if allowed[0] else 1):
        for tail in _compositions(size - take, allowed[1:]):
            found.append((take, *tail))
    return found


def sample_state(
    view: PlayerView,
    rng: random.Random,
    *,
    bid_prior: bool = False,
    bid_shifts: Sequence[float] | None = None,
) -> State:
    """A full state consistent with everything the seat of ``view`` knows, drawn with ``rng``.

    The hidden cards (other hands, other seats' discards, undealt cards) are dealt uniformly at
    random among their places, subject to the voids play has revealed (see
    :func:`smear.knowledge.revealed_voids`).
    The state is of the current hand only: ``previous`` is ``None`` and so is ``seed`` (play it to
    the end of the hand, not beyond), and its ``public`` is the view's own.

    ``bid_prior=True`` leans towards deals that explain the auction: it draws
    ``BID_PRIOR_CANDIDATES`` uniform samples and picks one weighted by how well each seat's dealt hand
    explains its bid or pass by the heuristic bot's count, each seat's count shifted by its entry in
    ``bid_shifts`` (none: every seat bids as the heuristic). A coarse prior.

    The set-up for a view (what is hidden, where it may go) is kept for the last view seen, so a
    search that samples the same view object many times pays for it once; a
    :class:`Determinizer` does the same explicitly.
    """
    global _last
    last = _last
    if last is None or last.view is not view:
        last = _last = Determinizer(view)
    return last.sample(rng, bid_prior=bid_prior, bid_shifts=bid_shifts)


# The determinizer of the last view sampled (views are immutable, so reuse by identity is safe).
_last: Determinizer | None = None


__all__ = [
    "BID_PRIOR_CANDIDATES",
    "REJECTION_ATTEMPTS",
    "Determinizer",
    "Place",
    "sample_state",
]
