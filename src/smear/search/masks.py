"""The rules on int bitmasks, inside numba: bit helpers, the cards that may be played, the winner of
a trick, and the scoring of a finished hand. The play-outs and the solver share them, and
:mod:`smear.search.checks` holds them to the reference engine.
"""

from __future__ import annotations

from numba import njit

from smear.cards import BIG_JOKER_INDEX, LITTLE_JOKER_INDEX
from smear.search.tables import (
    P_BIDDER_LEADS_TRUMP,
    P_JICK,
    P_LOW_TO_PLAYER,
    P_MAY_TRUMP_INSTEAD,
    P_SIDES,
    P_TREY,
    PT_BIG,
    PT_GAME,
    PT_HIGH,
    PT_JACK,
    PT_JICK,
    PT_LITTLE,
    PT_LOW,
    PT_TREY,
    S_DELTA,
    S_GAME,
    S_MADE,
    S_POINTS,
    S_TAKEN,
    T_GAME,
    T_JACK,
    T_JICK,
    T_NATURAL,
    T_SEAT_SIDE,
    T_STRENGTH,
    T_SUIT_MASKS,
    T_SUIT_OF,
    T_TREY,
    T_TRUMP_MASK,
    Int64Array,
)

# --- bit helpers ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def popcount(x: int) -> int:
    """Set bits of a non-negative int64 (SWAR: no loop, no intrinsic needed)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True, inline="always")
def lowest_index(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return popcount((x & -x) - 1)


@njit(cache=True, inline="always")
def highest_index(x: int) -> int:
    """Index of the highest set bit of a non-zero mask."""
    i = 0
    while x >> (i + 1):
        i += 1
    return i


@njit(cache=True)
def nth_bit(mask: int, n: int) -> int:
    """Index of the ``n``-th set bit (from 0, lowest first)."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_index(mask)


# --- rules on bitmasks ---------------------------------------------------------------------------


@njit(cache=True)
def play_mask(tab: Int64Array, trump: int, hand: int, lead: int, first_lead_by_bidder: bool) -> int:
    """The cards of ``hand`` that may be played, as ``smear.legal.play_mask`` decides.

    ``lead`` is the card led to this trick, or -1 when leading; ``trump`` is -1 before the first lead
    of a game whose first lead sets trump.
    """
    if lead < 0:
        if trump < 0:  # the first lead sets trump: no joker
            plain = hand & ~((1 << LITTLE_JOKER_INDEX) | (1 << BIG_JOKER_INDEX))
            return plain if plain else hand
        if first_lead_by_bidder and tab[P_BIDDER_LEADS_TRUMP]:
            trumps = hand & tab[T_TRUMP_MASK + trump]
            return trumps if trumps else hand
        return hand
    led = tab[T_SUIT_OF + 54 * trump + lead]
    follow = hand & tab[T_SUIT_MASKS + 4 * trump + led]
    if not follow:
        return hand
    if led != trump and tab[P_MAY_TRUMP_INSTEAD]:
        return follow | (hand & tab[T_TRUMP_MASK + trump])  # type: ignore[no-any-return]
    return follow  # type: ignore[no-any-return]


@njit(cache=True)
def trick_winner_index(tab: Int64Array, trump: int, trick: Int64Array, n: int) -> int:
    """Position in the trick of the winning card (as ``smear.trick.winning_index``)."""
    led = tab[T_SUIT_OF + 54 * trump + trick[0]]
    base = T_STRENGTH + 54 * (4 * trump + led)
    best = 0
    best_strength = tab[base + trick[0]]
    for i in range(1, n):
        s = tab[base + trick[i]]
        if s > best_strength:
            best_strength = s
            best = i
    return best


@njit(cache=True)
def game_count(tab: Int64Array, mask: int) -> int:
    """Game points of the cards of ``mask``."""
    total = 0
    while mask:
        low = mask & -mask
        total += tab[T_GAME + lowest_index(low)]
        mask ^= low
    return total


@njit(cache=True)
def _captor(captured: Int64Array, sides: int, card: int) -> int:
    if card < 0:
        return -1
    for side in range(sides):
        if captured[side] >> card & 1:
            return side
    return -1


@njit(cache=True)
def score_hand(
    tab: Int64Array,
    trump: int,
    captured: Int64Array,
    who: Int64Array,
    bidder: int,
    amount: int,
    summary: Int64Array,
) -> None:
    """Points, game points, taken, made and score changes of a finished hand, as ``smear.scoring``."""
    sides = tab[P_SIDES]
    played = 0
    for side in range(sides):
        played |= captured[side]
    for p in range(8):
        summary[S_POINTS + p] = -1
    natural = played & tab[T_NATURAL + trump]
    if natural:
        high = highest_index(natural)
        low = lowest_index(natural)
        summary[S_POINTS + PT_HIGH] = _captor(captured, sides, high)
        if tab[P_LOW_TO_PLAYER]:
            summary[S_POINTS + PT_LOW] = tab[T_SEAT_SIDE + who[low]]
        else:
            summary[S_POINTS + PT_LOW] = _captor(captured, sides, low)
    summary[S_POINTS + PT_JACK] = _captor(captured, sides, tab[T_JACK + trump])
    if tab[P_JICK]:
        summary[S_POINTS + PT_JICK] = _captor(captured, sides, tab[T_JICK + trump])
    summary[S_POINTS + PT_BIG] = _captor(captured, sides, BIG_JOKER_INDEX)
    summary[S_POINTS + PT_LITTLE] = _captor(captured, sides, LITTLE_JOKER_INDEX)
    best = 0
    leaders = 0
    leader = -1
    for side in range(sides):
        count = game_count(tab, captured[side])
        summary[S_GAME + side] = count
        if count > best:
            best = count
            leaders = 1
            leader = side
        elif count == best:
            leaders += 1
    if best > 0 and leaders == 1:
        summary[S_POINTS + PT_GAME] = leader
    if tab[P_TREY]:
        summary[S_POINTS + PT_TREY] = _captor(captured, sides, tab[T_TREY + trump])
    for side in range(sides):
        summary[S_TAKEN + side] = 0
    for p in range(8):
        side = summary[S_POINTS + p]
        if side >= 0:
            summary[S_TAKEN + side] += tab[P_TREY] if p == PT_TREY else 1
    bidder_side = tab[T_SEAT_SIDE + bidder]
    made = summary[S_TAKEN + bidder_side] >= amount
    summary[S_MADE] = made
    for side in range(sides):
        taken = summary[S_TAKEN + side]
        if side == bidder_side and not made:
            summary[S_DELTA + side] = -amount
        else:
            summary[S_DELTA + side] = taken
