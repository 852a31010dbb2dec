"""How each seat bids, read from the hands it showed earlier in the match.

The expert's search first assumes that every other seat bids as the heuristic does
(:func:`smear.bots.heuristic.bid_count`, a count raised to what self-play shows such a hand takes).
Players differ: some bid their bare count, some stretch. Once a hand is over, every card a seat
played is public, so where nothing is drawn after the deal the seat's whole hand is known, and with
it how its bid or pass compares with the heuristic's count of that hand.

:func:`bid_shifts` finds, for each seat, the shift of the heuristic's count that best explains its
bids and passes so far: each bid or pass costs as much as the shifted count falls outside what it
says (the measure the sampler weighs deals by), and a prior keeps the shift near zero until the
seat has shown enough. The expert then reads that seat's bids in the sampler and plays its bids in
its play-outs with the shift (:class:`ShiftedBids`).
"""

from __future__ import annotations

import math

from smear.bots.bidlines import ROUND_UP, bid_of
from smear.bots.heuristic import HeuristicBot, SuitEstimate, bid_count, raised_count
from smear.state import HandResult, PublicState

# The shifts tried, in points of count.
SHIFTS = tuple(step / 4 for step in range(-10, 7))
# The prior's cost of a shift ``s``: PRIOR * s**2 (a normal prior with a spread of one point).
PRIOR = 0.5
# A bid ``b`` is what the heuristic bids on a count from ``b - 1 + ROUND_UP`` up to ``b + ROUND_UP``.
BID_BELOW = 1.0 - ROUND_UP


class Reading:
    """What one bid or pass says about the count its seat bids on: somewhere in [low, high)."""

    __slots__ = ("count", "high", "low")

    def __init__(self, count: float, low: float, high: float) -> None:
        self.count = count
        self.low = low
        self.high = high

    def miss(self, shift: float) -> float:
        """How far the count shifted by ``shift`` falls outside [low, high)."""
        value = self.count + shift
        return max(0.0, self.low - value) + max(0.0, value - self.high)


def hands_shown(result: HandResult, pub: PublicState) -> list[int | None]:
    """Each seat's hand as dealt in a finished hand, where the end of the hand shows it: every card
    it held was played or discarded, and nothing was drawn after the deal (else None)."""
    rules = pub.rules
    if rules.kitty or rules.widow or rules.refill or rules.take_stock or result.bidder is None:
        return [None] * pub.players
    shown: list[int | None] = []
    for seat in range(pub.players):
        cards = result.played[seat].mask | result.discards[seat].mask
        shown.append(cards if cards.bit_count() == pub.dealt_count else None)
    return shown


def readings(pub: PublicState) -> list[list[Reading]]:
    """For each seat, what its bids and passes in the finished hands of the match say about the
    count it bids on (hands whose cards the end did not show say nothing)."""
    rules = pub.rules
    found: list[list[Reading]] = [[] for _ in range(pub.players)]
    for result in pub.results:
        hands = hands_shown(result, pub)
        highest, leader = rules.min_bid - 1, None
        for index, amount in enumerate(result.bids):
            seat = (result.dealer + 1 + index) % pub.players
            hand = hands[seat]
            if hand is not None:
                reading = _reading(pub, seat, hand, amount, highest, leader, result.dealer)
                if reading is not None:
                    found[seat].append(reading)
            if amount is not None and amount > highest:
                highest, leader = amount, seat
    return found


def _reading(
    pub: PublicState, seat: int, hand: int, amount: int | None, highest: int, leader: int | None, dealer: int
) -> Reading | None:
    rules = pub.rules
    if amount is None:
        if leader is not None and pub.seat_side[leader] == pub.seat_side[seat]:
            return None  # a pass over a partner's bid says little
        return Reading(bid_count(hand, pub), -math.inf, highest + ROUND_UP)
    if amount > rules.max_bid:
        return None  # the moon
    if seat == dealer and leader is None and amount == rules.min_bid:
        return None  # the dealer made to bid
    high = math.inf if amount == rules.max_bid else amount + ROUND_UP
    return Reading(bid_count(hand, pub), amount - BID_BELOW, high)


def best_shift(seen: list[Reading]) -> float:
    """The shift of the count that best explains ``seen``, against the prior (0 when nothing is seen;
    among equally good shifts, the one nearest zero)."""
    if not seen:
        return 0.0

    def cost(shift: float) -> tuple[float, float]:
        return sum(reading.miss(shift) for reading in seen) + PRIOR * shift * shift, abs(shift)

    return min(SHIFTS, key=cost)


def bid_shifts(pub: PublicState, seat: int) -> tuple[float, ...]:
    """For each seat, the shift of the heuristic's count it bids on, as read from the match so far by
    ``seat`` (whose own shift is 0: it knows how it bids)."""
    return tuple(0.0 if other == seat else best_shift(seen) for other, seen in enumerate(readings(pub)))


class ShiftedBids(HeuristicBot):
    """The heuristic, each seat bidding on its count shifted by its entry in ``shifts``."""

    name = "shifted"

    def __init__(self, shifts: tuple[float, ...]) -> None:
        self.shifts = shifts

    def opening_bid(self, seat: int, hand: int, pub: PublicState, best: SuitEstimate) -> int:
        return bid_of(raised_count(hand, pub, best.suit, best.points) + self.shifts[seat])
