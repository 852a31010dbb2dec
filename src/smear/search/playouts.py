"""Random and replayed play-outs of whole hands inside numba: deal, auction, trump, discards, tricks
and scoring, as the reference engine plays them (:mod:`smear.search.checks` compares the two).

>>> from smear import find_rules
>>> from smear.search.tables import S_ERROR, kernel_rules
>>> kr = kernel_rules(find_rules("house"), players=4)
>>> hands = play_random_hands(kr, 1000, seed=1)
>>> hands.summary.shape[0], bool((hands.summary[:, S_ERROR] == -1).all())
(1000, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from smear.search.codes import BID, DISCARD, KIND_AUCTION, KIND_DISCARD, KIND_PLAY, KIND_TRUMP, PASS, TRUMP
from smear.search.masks import lowest_index, nth_bit, play_mask, popcount, score_hand, trick_winner_index
from smear.search.tables import (
    MAX_PLAYERS,
    MAX_STEPS,
    P_DEALER_MUST_BID,
    P_DEALT,
    P_DECK_N,
    P_HAND,
    P_MAX_BID,
    P_MIN_BID,
    P_PLAYERS,
    P_SIDES,
    P_TRUMP_NAMED,
    S_BID,
    S_BIDDER,
    S_DEALER,
    S_ERROR,
    S_POINTS,
    S_SIZE,
    S_STEPS,
    S_TRUMP,
    S_WINNERS,
    T_DECK,
    T_SEAT_SIDE,
    Int64Array,
    KernelRules,
)


@njit(cache=True)
def _random_subset(mask: int, k: int) -> int:
    """``k`` cards of ``mask`` drawn uniformly (partial Fisher-Yates over its cards)."""
    cards = np.empty(64, dtype=np.int64)
    n = 0
    while mask:
        low = mask & -mask
        cards[n] = lowest_index(low)
        n += 1
        mask ^= low
    chosen = 0
    for i in range(k):
        j = i + np.random.randint(0, n - i)
        cards[i], cards[j] = cards[j], cards[i]
        chosen |= 1 << cards[i]
    return chosen


@njit(cache=True)
def _choose(
    kind: int,
    legal: int,
    step: int,
    given: Int64Array,
    n_given: int,
    extra: int,
) -> int:
    """The action of this step: the given one when there is one (-1 if it is illegal), else random.

    ``extra`` is the discard count for a discard.
    """
    if step < n_given:
        code = given[step]
        if kind == KIND_PLAY:
            return code if 0 <= code < 54 and legal >> code & 1 else -1
        if kind == KIND_AUCTION:
            amount = code - BID
            return code if 0 <= amount < 63 and legal >> amount & 1 else -1
        if kind == KIND_TRUMP:
            suit = code - TRUMP
            return code if 0 <= suit < 4 else -1
        if code & DISCARD and not code & ~(DISCARD | legal) and popcount(code & ~DISCARD) == extra:
            return code  # type: ignore[no-any-return]
        return -1
    if n_given != 0:
        return -2  # replaying and the actions ran out
    if kind == KIND_PLAY:
        return nth_bit(legal, np.random.randint(0, popcount(legal)))
    if kind == KIND_AUCTION:
        return BID + nth_bit(legal, np.random.randint(0, popcount(legal)))
    if kind == KIND_TRUMP:
        return TRUMP + np.random.randint(0, 4)
    return DISCARD | _random_subset(legal, extra)


@njit(cache=True)
def play_one(
    tab: Int64Array,
    dealt: Int64Array,
    dealer: int,
    given: Int64Array,
    n_given: int,
    codes: Int64Array,
    legals: Int64Array,
    seats: Int64Array,
    summary: Int64Array,
    scratch: Int64Array,
) -> None:
    """Play one hand from a deal: the ``given`` actions (replay), or random ones when ``n_given`` is 0.

    Logs each step's seat, legal mask and action code, and writes the hand's summary. A given action
    that is illegal (or missing) stops the hand with ``summary[S_ERROR]`` set to its step.
    ``scratch`` holds at least 80 int64.
    """
    n = tab[P_PLAYERS]
    sides = tab[P_SIDES]
    hand_size = tab[P_HAND]
    hands = scratch[0:8]
    captured = scratch[8:16]
    trick = scratch[16:24]
    who = scratch[24:78]
    for seat in range(n):
        hands[seat] = dealt[seat]
    for side in range(sides):
        captured[side] = 0
    for i in range(S_SIZE):
        summary[i] = 0
    summary[S_DEALER] = dealer
    summary[S_ERROR] = -1
    step = 0
    # The auction: one round from the dealer's left.
    bidder = -1
    amount = 0
    seat = (dealer + 1) % n
    for _ in range(n):
        lowest = max(tab[P_MIN_BID], amount + 1)
        legal = 0
        for b in range(lowest, tab[P_MAX_BID] + 1):
            legal |= 1 << b
        if not (tab[P_DEALER_MUST_BID] and seat == dealer and amount == 0):
            legal |= 1
        code = _choose(KIND_AUCTION, legal, step, given, n_given, 0)
        seats[step] = seat
        legals[step] = legal
        codes[step] = code
        if code < 0:
            summary[S_ERROR] = step
            summary[S_STEPS] = step
            return
        step += 1
        if code != PASS:
            bidder = seat
            amount = code - BID
        seat = (seat + 1) % n
    summary[S_BIDDER] = bidder
    summary[S_BID] = amount
    if bidder < 0:  # thrown in: nobody scores
        summary[S_TRUMP] = -1
        for p in range(8):
            summary[S_POINTS + p] = -1
        summary[S_STEPS] = step
        return
    trump = -1
    if tab[P_TRUMP_NAMED]:
        code = _choose(KIND_TRUMP, 15, step, given, n_given, 0)
        seats[step] = bidder
        legals[step] = 15
        codes[step] = code
        if code < 0:
            summary[S_ERROR] = step
            summary[S_STEPS] = step
            return
        step += 1
        trump = code - TRUMP
    if tab[P_DEALT] > hand_size:  # every player, bidder first, discards down to the hand size
        for offset in range(n):
            seat = (bidder + offset) % n
            legal = hands[seat]
            extra = popcount(legal) - hand_size
            code = _choose(KIND_DISCARD, legal, step, given, n_given, extra)
            seats[step] = seat
            legals[step] = legal
            codes[step] = code
            if code < 0:
                summary[S_ERROR] = step
                summary[S_STEPS] = step
                return
            step += 1
            hands[seat] &= ~(code & ~DISCARD)
    leader = bidder
    for t in range(hand_size):
        lead = -1
        for i in range(n):
            seat = (leader + i) % n
            legal = play_mask(tab, trump, hands[seat], lead, t == 0 and seat == bidder)
            code = _choose(KIND_PLAY, legal, step, given, n_given, 0)
            seats[step] = seat
            legals[step] = legal
            codes[step] = code
            if code < 0:
                summary[S_ERROR] = step
                summary[S_STEPS] = step
                return
            step += 1
            if trump < 0:
                trump = code // 13
                if trump > 3:  # a hand of jokers only led a joker: the engine has no trump for it
                    summary[S_ERROR] = step - 1
                    summary[S_STEPS] = step
                    return
            hands[seat] &= ~(1 << code)
            trick[i] = code
            who[code] = seat
            if i == 0:
                lead = code
        winner = (leader + trick_winner_index(tab, trump, trick, n)) % n
        won = 0
        for i in range(n):
            won |= 1 << trick[i]
        captured[tab[T_SEAT_SIDE + winner]] |= won
        summary[S_WINNERS + t] = winner
        leader = winner
    summary[S_TRUMP] = trump
    summary[S_STEPS] = step
    score_hand(tab, trump, captured, who, bidder, amount, summary)


@njit(cache=True)
def deal_random(tab: Int64Array, deck: Int64Array, dealt: Int64Array) -> None:
    """Shuffle the table's deck uniformly and deal it in blocks, seat 0 first (as ``smear.dealing``)."""
    count = tab[P_DECK_N]
    for i in range(count):
        deck[i] = tab[T_DECK + i]
    for i in range(count - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    per_seat = tab[P_DEALT]
    for seat in range(tab[P_PLAYERS]):
        mask = 0
        for k in range(seat * per_seat, seat * per_seat + per_seat):
            mask |= 1 << deck[k]
        dealt[seat] = mask


@njit(cache=True)
def _random_hands(
    tab: Int64Array,
    n_hands: int,
    seed: int,
    summaries: Int64Array,
    deals: Int64Array,
    codes: Int64Array,
    legals: Int64Array,
    seats: Int64Array,
    record: bool,
) -> None:
    np.random.seed(seed)
    deck = np.empty(64, dtype=np.int64)
    dealt = np.zeros(MAX_PLAYERS, dtype=np.int64)
    scratch = np.zeros(80, dtype=np.int64)
    code_log = np.zeros(MAX_STEPS, dtype=np.int64)
    legal_log = np.zeros(MAX_STEPS, dtype=np.int64)
    seat_log = np.zeros(MAX_STEPS, dtype=np.int64)
    no_actions = np.zeros(1, dtype=np.int64)
    n = tab[P_PLAYERS]
    for h in range(n_hands):
        deal_random(tab, deck, dealt)
        dealer = np.random.randint(0, n)
        if record:
            for seat in range(n):
                deals[h, seat] = dealt[seat]
            play_one(tab, dealt, dealer, no_actions, 0, codes[h], legals[h], seats[h], summaries[h], scratch)
        else:
            play_one(tab, dealt, dealer, no_actions, 0, code_log, legal_log, seat_log, summaries[h], scratch)


class RandomHands(NamedTuple):
    """Random hands played by the kernel: one summary row per hand (``S_*`` columns).

    With ``record``, also each hand's deal (a mask per seat) and every step's seat, legal mask and
    action code, so the reference engine can replay them.
    """

    summary: Int64Array
    deals: Int64Array | None
    codes: Int64Array | None
    legals: Int64Array | None
    seats: Int64Array | None


def play_random_hands(kr: KernelRules, n_hands: int, seed: int, record: bool = False) -> RandomHands:
    """Play ``n_hands`` complete random hands inside numba (uniform deal, dealer, legal actions).

    The same ``seed`` plays the same hands.
    """
    summary = np.zeros((n_hands, S_SIZE), dtype=np.int64)
    if record:
        deals = np.zeros((n_hands, MAX_PLAYERS), dtype=np.int64)
        codes = np.zeros((n_hands, MAX_STEPS), dtype=np.int64)
        legals = np.zeros((n_hands, MAX_STEPS), dtype=np.int64)
        seats = np.zeros((n_hands, MAX_STEPS), dtype=np.int64)
    else:
        deals = codes = legals = seats = np.zeros((1, MAX_STEPS), dtype=np.int64)
    _random_hands(kr.table, n_hands, seed & 0xFFFFFFFF, summary, deals, codes, legals, seats, record)
    if not record:
        return RandomHands(summary, None, None, None, None)
    return RandomHands(summary, deals, codes, legals, seats)


# --- one hand, step by step, for differential tests ------------------------------------------------


class HandTrace(NamedTuple):
    """A hand the kernel played from a given deal and actions."""

    seats: tuple[int, ...]  # the seat to act at each step
    legals: tuple[int, ...]  # each step's legal mask (see smear.search.codes)
    codes: tuple[int, ...]  # each step's action code
    summary: Int64Array  # S_* columns

    @property
    def error(self) -> int:
        """The step of the first illegal or missing action, or -1."""
        return int(self.summary[S_ERROR])


def play_hand(kr: KernelRules, dealt: Sequence[int], dealer: int, actions: Sequence[int]) -> HandTrace:
    """Replay one hand in the kernel: a deal (a mask per seat), the dealer and action codes."""
    given = np.array(list(actions) or [0], dtype=np.int64)
    deal = np.zeros(MAX_PLAYERS, dtype=np.int64)
    deal[: len(dealt)] = dealt
    codes = np.zeros(MAX_STEPS, dtype=np.int64)
    legals = np.zeros(MAX_STEPS, dtype=np.int64)
    seats = np.zeros(MAX_STEPS, dtype=np.int64)
    summary = np.zeros(S_SIZE, dtype=np.int64)
    scratch = np.zeros(80, dtype=np.int64)
    n_given = len(actions) if actions else -1  # -1: replaying nothing is an error, never random play
    play_one(kr.table, deal, dealer, given, n_given, codes, legals, seats, summary, scratch)
    steps = int(summary[S_STEPS]) + (1 if summary[S_ERROR] >= 0 else 0)
    return HandTrace(
        tuple(int(x) for x in seats[:steps]),
        tuple(int(x) for x in legals[:steps]),
        tuple(int(x) for x in codes[:steps]),
        summary,
    )
