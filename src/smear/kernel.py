"""A numba kernel for random playouts, checked against the reference engine.

The reference engine (``smear.state``) is the authority on every rule; this module plays the same
rules on int bitmasks inside numba, for speed. Its tables are built *from* the reference tables
(``smear.trick.trump_order``, ``smear.cards.GAME_VALUES``, ``Rules.deck_mask``) so the two cannot
drift, and ``tests/test_kernel.py`` and ``bench/kernel.py --verify`` compare them hand by hand.

Only this module (and ``smear.kernel_solver``) imports numba: ``import smear`` stays fast.

A table's rules become one flat ``int64`` array (:func:`kernel_rules`): the scalar parameters first
(``P_*``), then per-trump tables at fixed offsets. Actions are ``int64`` codes:

- ``0..53``: play that card;
- ``PASS`` (100) and ``BID + n`` (100 + n): the auction;
- ``TRUMP + s`` (200 + s): name trump;
- ``DISCARD | mask`` (bit 60 set): discard the cards of ``mask``.

A step's legal set is an ``int64`` mask: the cards for a play; bit 0 (pass) and bit ``n`` (bid n) in
the auction; bits 0-3 (suits) for trump; and for a discard the hand, any ``popcount - hand_size``
cards of which may be discarded.

>>> from smear import find_rules
>>> kr = kernel_rules(find_rules("house"), players=4)
>>> hands = play_random_hands(kr, 1000, seed=1)
>>> hands.summary.shape[0], bool((hands.summary[:, S_ERROR] == -1).all())
(1000, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from smear.actions import PASS as PASS_ACTION
from smear.actions import PLAYS, TRUMPS, Action, Bid, Discard, NameTrump, Pass, Play, bid
from smear.cards import BIG_JOKER_INDEX, DECK_SIZE, GAME_VALUES, LITTLE_JOKER_INDEX, CardSet, Suit
from smear.errors import RulesError
from smear.rules import JokerRank, Rules
from smear.state import Deal, HandResult, State, new_match
from smear.trick import trump_order

Int64Array = npt.NDArray[np.int64]

# --- the flat rules array ------------------------------------------------------------------------

P_PLAYERS = 0
P_SIDES = 1
P_DEALT = 2  # cards dealt to each player
P_HAND = 3  # cards kept after the discard: the number of tricks
P_TRUMP_NAMED = 4  # 1: the bidder names trump; 0: the first lead's suit is trump
P_JICK = 5
P_JOKER_LOWEST = 6  # 1: JokerRank.LOWEST, 0: BELOW_JICK (only informative: powers come from smear.trick)
P_MAY_TRUMP_INSTEAD = 7
P_BIDDER_LEADS_TRUMP = 8
P_LOW_TO_PLAYER = 9
P_TREY = 10  # value of the three of trump, 0 when not played
P_MIN_BID = 11
P_MAX_BID = 12
P_DEALER_MUST_BID = 13
P_DECK_N = 14  # cards in the deck at this table
P_DECK_MASK = 15
N_PARAMS = 32

T_SEAT_SIDE = 32  # 8 entries: the side of each seat
T_DECK = 40  # P_DECK_N entries (54 reserved): the deck's cards in card order
T_SUIT_OF = 96  # [trump][card]: effective suit
T_POWER = T_SUIT_OF + 4 * 54  # [trump][card]: strength as a trump, 0 when not a trump
T_STRENGTH = T_POWER + 4 * 54  # [trump][led][card]: strength in a trick, -1 when it cannot win
T_SUIT_MASKS = T_STRENGTH + 16 * 54  # [trump][suit]: cards of each effective suit
T_TRUMP_MASK = T_SUIT_MASKS + 16  # [trump]
T_NATURAL = T_TRUMP_MASK + 4  # [trump]: the printed trump suit, no jick: High and Low come from it
T_JACK = T_NATURAL + 4  # [trump]: card index
T_JICK = T_JACK + 4  # [trump]: card index, -1 without a jick
T_TREY = T_JICK + 4  # [trump]: card index of the three of trump
T_GAME = T_TREY + 4  # [card]: game points
T_NEXT = T_GAME + 54  # [trump][card]: the next stronger card of its effective suit, -1 for the top one
T_TOP = T_NEXT + 4 * 54  # [trump]: the strongest trump
T_PREV = T_TOP + 4  # [trump][card]: the next weaker card of its effective suit, -1 for the lowest
T_SIZE = T_PREV + 4 * 54

MAX_PLAYERS = 8
MAX_SIDES = 8
MAX_TRICKS = 16
MAX_STEPS = 80

# --- action codes -------------------------------------------------------------------------------

PASS = 100
BID = 100  # BID + n is a bid of n (n >= 1, so it never meets PASS)
TRUMP = 200
DISCARD = 1 << 60

KIND_PLAY = 0
KIND_AUCTION = 1
KIND_TRUMP = 2
KIND_DISCARD = 3

# --- the summary of a hand ----------------------------------------------------------------------

S_DEALER = 0
S_BIDDER = 1  # -1 when the hand was thrown in
S_BID = 2
S_TRUMP = 3  # -1 when the hand was thrown in
S_MADE = 4
S_STEPS = 5  # actions taken
S_ERROR = 6  # -1, or the step of the first illegal or missing action
S_POINTS = 8  # 8 entries: the side that won each point of POINT_NAMES, -1 for nobody
S_GAME = 16  # game points of each side
S_TAKEN = 24  # points taken by each side
S_DELTA = 32  # score change of each side
S_WINNERS = 40  # the seat that won each trick
S_SIZE = 56

POINT_NAMES = ("high", "low", "jack", "jick", "big_joker", "little_joker", "game", "trey")
PT_HIGH, PT_LOW, PT_JACK, PT_JICK, PT_BIG, PT_LITTLE, PT_GAME, PT_TREY = range(8)


class KernelRules(NamedTuple):
    """A table's rules for the kernel: the flat array the numba code reads, and where it came from."""

    table: Int64Array
    rules: Rules
    players: int
    sides: tuple[tuple[int, ...], ...]
    seat_side: tuple[int, ...]

    @property
    def params(self) -> Int64Array:
        """The scalar parameters (``P_*`` offsets)."""
        return self.table[:N_PARAMS]


# Rule fields the kernel does not play: it refuses rules that set any of them.
KERNEL_UNSUPPORTED = (
    "shoot_the_moon",
    "kitty",
    "identical_jokers",
    "widow",
    "refill",
    "take_stock",
    "keep_trumps",
    "two_points",
    "ten_for_game",
    "trumps_only",
    "refill_bidder",
    "jokers_to_holder",
    "only_bidder_wins",
)


def unsupported_rules(rules: Rules) -> list[str]:
    """The fields of ``rules`` the kernel does not play (empty when it plays them all)."""
    return [name for name in KERNEL_UNSUPPORTED if getattr(rules, name)]


def kernel_rules(
    rules: Rules, players: int, teams: bool | Sequence[Sequence[int]] | None = None
) -> KernelRules:
    """The kernel's view of ``rules`` at a table of ``players`` (teams as :func:`smear.new_match`).

    Every table comes from the reference engine: the sides from a match it sets up, the deck from
    ``Rules.deck_mask``, trump orders from ``smear.trick.trump_order``.
    """
    probe = new_match(rules, players, teams, seed=0)  # the engine checks players and teams
    pub = probe.public
    unsupported = unsupported_rules(rules)
    if unsupported:
        raise RulesError(f"the kernel does not play these rules: {', '.join(unsupported)}")
    if rules.hand_size > MAX_TRICKS or len(pub.sides) > MAX_SIDES or players > MAX_PLAYERS:
        raise RulesError(f"the kernel plays at most {MAX_TRICKS} tricks and {MAX_PLAYERS} players")
    deck = pub.deck.mask
    table = np.zeros(T_SIZE, dtype=np.int64)
    table[P_PLAYERS] = players
    table[P_SIDES] = len(pub.sides)
    table[P_DEALT] = pub.dealt_count
    table[P_HAND] = rules.hand_size
    table[P_TRUMP_NAMED] = rules.trump_named
    table[P_JICK] = rules.jick
    table[P_JOKER_LOWEST] = rules.joker_rank is JokerRank.LOWEST
    table[P_MAY_TRUMP_INSTEAD] = rules.may_trump_instead
    table[P_BIDDER_LEADS_TRUMP] = rules.bidder_leads_trump
    table[P_LOW_TO_PLAYER] = rules.low_to_player
    table[P_TREY] = rules.trey_points
    table[P_MIN_BID] = rules.min_bid
    table[P_MAX_BID] = rules.max_bid
    table[P_DEALER_MUST_BID] = rules.dealer_must_bid
    table[P_DECK_N] = deck.bit_count()
    table[P_DECK_MASK] = deck
    for seat, side in enumerate(pub.seat_side):
        table[T_SEAT_SIDE + seat] = side
    for i, card in enumerate(c for c in range(DECK_SIZE) if deck >> c & 1):
        table[T_DECK + i] = card
    for trump in Suit:
        order = trump_order(trump, rules.jick, rules.joker_rank)
        table[T_SUIT_OF + 54 * trump : T_SUIT_OF + 54 * trump + 54] = order.suit_of
        table[T_POWER + 54 * trump : T_POWER + 54 * trump + 54] = order.power
        for led in range(4):
            at = T_STRENGTH + 54 * (4 * trump + led)
            table[at : at + 54] = order.strength_when_led[led]
            table[T_SUIT_MASKS + 4 * trump + led] = order.suit_masks[led]
        table[T_TRUMP_MASK + trump] = order.trump_mask
        table[T_NATURAL + trump] = order.natural_trump_mask
        table[T_JACK + trump] = order.jack
        table[T_JICK + trump] = -1 if order.jick is None else order.jick
        table[T_TREY + trump] = 13 * trump + 1  # the three of trump, as smear.scoring counts Trey
        table[T_NEXT + 54 * trump : T_NEXT + 54 * trump + 54] = -1
        table[T_PREV + 54 * trump : T_PREV + 54 * trump + 54] = -1
        for suit in range(4):
            strength = order.strength_when_led[suit]
            ranked = sorted(
                (c for c in range(DECK_SIZE) if order.suit_of[c] == suit), key=lambda c: strength[c]
            )
            for weaker, stronger in itertools.pairwise(ranked):
                table[T_NEXT + 54 * trump + weaker] = stronger
                table[T_PREV + 54 * trump + stronger] = weaker
            if suit == trump:
                table[T_TOP + trump] = ranked[-1]
    table[T_GAME : T_GAME + 54] = GAME_VALUES
    return KernelRules(table, rules, players, pub.sides, pub.seat_side)


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
def _nth_bit(mask: int, n: int) -> int:
    """Index of the ``n``-th set bit (from 0, lowest first)."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_index(mask)


# --- rules on bitmasks ---------------------------------------------------------------------------


@njit(cache=True)
def play_mask(tab: Int64Array, trump: int, hand: int, lead: int, first_lead_by_bidder: bool) -> int:
    """The cards of ``hand`` that may be played, as ``smear.state._play_mask`` decides.

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


# --- playing a hand -------------------------------------------------------------------------------


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
        return _nth_bit(legal, np.random.randint(0, popcount(legal)))
    if kind == KIND_AUCTION:
        return BID + _nth_bit(legal, np.random.randint(0, popcount(legal)))
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
    """Shuffle the table's deck uniformly and deal it in blocks, seat 0 first (as ``smear.state``)."""
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
    legals: tuple[int, ...]  # each step's legal mask (see the module docstring)
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


# --- between action codes and the engine's actions ------------------------------------------------


def action_code(action: Action) -> int:
    """The kernel's code for an engine action."""
    if type(action) is Play:
        return int(action.card)
    if type(action) is Pass:
        return PASS
    if type(action) is Bid:
        return BID + action.amount
    if type(action) is NameTrump:
        return TRUMP + int(action.suit)
    if type(action) is Discard:
        return DISCARD | action.cards.mask
    raise TypeError(f"not an action: {action!r}")


def code_action(code: int) -> Action:
    """The engine action of a kernel code."""
    if code & DISCARD:
        return Discard(CardSet(code & ~DISCARD))
    if 0 <= code < DECK_SIZE:
        return PLAYS[code]
    if code == PASS:
        return PASS_ACTION
    if BID < code < TRUMP:
        return bid(code - BID)
    if TRUMP <= code < TRUMP + 4:
        return TRUMPS[code - TRUMP]
    raise ValueError(f"not an action code: {code}")


def legal_mask(actions: Sequence[Action]) -> int:
    """The kernel's legal mask for the engine's legal actions of a play, auction or trump step."""
    mask = 0
    for action in actions:
        kind = type(action)
        if kind is Play:
            mask |= 1 << action.card  # type: ignore[union-attr]
        elif kind is Bid:
            mask |= 1 << action.amount  # type: ignore[union-attr]
        elif kind is NameTrump:
            mask |= 1 << action.suit  # type: ignore[union-attr]
        elif kind is Pass:
            mask |= 1
        else:
            raise ValueError(f"no legal mask for {action!r}")
    return mask


def legal_codes(code: int, legal: int, hand_size: int) -> frozenset[int]:
    """Every action code a step's legal mask allows; ``code`` (the step's action) gives its kind."""
    if code & DISCARD:
        cards = [c for c in range(DECK_SIZE) if legal >> c & 1]
        return frozenset(
            DISCARD | sum(1 << c for c in combo)
            for combo in itertools.combinations(cards, len(cards) - hand_size)
        )
    bits = [b for b in range(64) if legal >> b & 1]
    if 0 <= code < DECK_SIZE:
        return frozenset(bits)
    if TRUMP <= code < TRUMP + 4:
        return frozenset(TRUMP + b for b in bits)
    return frozenset(BID + b for b in bits)


class KernelResult(NamedTuple):
    """A summary row in the engine's terms, to compare with a :class:`smear.HandResult`."""

    bidder: int | None
    bid: int
    trump: Suit | None
    points: dict[str, int | None]
    game_points: tuple[int, ...]
    taken: tuple[int, ...]
    made: bool
    scores: tuple[int, ...]  # score changes (the hand started from zero)
    winners: tuple[int, ...]


def kernel_result(kr: KernelRules, summary: Int64Array) -> KernelResult:
    """Read a summary row."""
    sides = len(kr.sides)
    bidder = int(summary[S_BIDDER])
    names = kr.rules.points
    points = {name: _side_or_none(summary[S_POINTS + POINT_NAMES.index(name)]) for name in names}
    tricks = kr.rules.hand_size if bidder >= 0 else 0
    return KernelResult(
        bidder=None if bidder < 0 else bidder,
        bid=int(summary[S_BID]),
        trump=None if summary[S_TRUMP] < 0 else Suit(int(summary[S_TRUMP])),
        points=points,
        game_points=tuple(int(x) for x in summary[S_GAME : S_GAME + sides]),
        taken=tuple(int(x) for x in summary[S_TAKEN : S_TAKEN + sides]),
        made=bool(summary[S_MADE]),
        scores=tuple(int(x) for x in summary[S_DELTA : S_DELTA + sides]),
        winners=tuple(int(x) for x in summary[S_WINNERS : S_WINNERS + tricks]),
    )


def _side_or_none(value: Any) -> int | None:
    return None if value < 0 else int(value)


def reference_result(result: HandResult, tricks_winners: Sequence[int]) -> KernelResult:
    """A finished hand of the engine in the same terms (scores as changes from zero)."""
    return KernelResult(
        bidder=result.bidder,
        bid=result.bid,
        trump=result.trump,
        points=dict(result.points),
        game_points=result.game_points,
        taken=result.taken,
        made=result.made,
        scores=result.scores,
        winners=tuple(tricks_winners),
    )


def new_hand_state(kr: KernelRules, dealt: Sequence[int], dealer: int) -> State:
    """The engine's state for a kernel deal: a new match (scores at zero) with that deal and dealer."""
    deal = Deal(tuple(CardSet(int(mask)) for mask in dealt[: kr.players]))
    teams = kr.sides if any(len(side) > 1 for side in kr.sides) else None
    return new_match(kr.rules, kr.players, teams, dealer=dealer, deal=deal)


def compare_with_engine(
    kr: KernelRules,
    dealt: Sequence[int],
    seats: Sequence[int],
    legals: Sequence[int],
    codes: Sequence[int],
    summary: Int64Array,
    full_discards: bool = False,
) -> str | None:
    """Replay a kernel hand through the reference engine; describe the first disagreement, or None.

    At every step the seat to act and the legal actions must match, the kernel's action must apply;
    at the end the trick winners and the result (points, game points, taken, made, score changes)
    must match. Discard steps compare the hand and the count (the engine allows every combination of
    that many cards) unless ``full_discards`` lists the combinations.
    """
    from smear.state import apply, legal_actions

    state = new_hand_state(kr, dealt, int(summary[S_DEALER]))
    steps = int(summary[S_STEPS])
    # Plain ints: numpy scalars are slow to index one at a time and print as np.int64(...).
    seats = [int(x) for x in seats[:steps]]
    legals = [int(x) for x in legals[:steps]]
    codes = [int(x) for x in codes[:steps]]
    hand_size = kr.rules.hand_size
    for step in range(steps):
        pub = state.public
        if pub.to_act != seats[step]:
            return f"step {step}: the engine has seat {pub.to_act} to act, the kernel {seats[step]}"
        code = codes[step]
        if code & DISCARD and not full_discards:
            hand = state.hands[pub.to_act]
            if hand != legals[step]:
                return f"step {step}: discard from {CardSet(hand)} in the engine, {CardSet(legals[step])}"
        elif code & DISCARD:
            engine = frozenset(action_code(a) for a in legal_actions(state))
            kernel = legal_codes(code, legals[step], hand_size)
            if engine != kernel:
                return f"step {step}: the discards differ ({len(engine)} in the engine, {len(kernel)})"
        else:
            engine_mask = legal_mask(legal_actions(state))
            if engine_mask != legals[step]:
                kernel = legal_codes(code, legals[step], hand_size)
                engine = legal_codes(code, engine_mask, hand_size)
                return f"step {step}: legal actions {sorted(engine)} in the engine, {sorted(kernel)} here"
        state = apply(state, code_action(code))
    pub = state.public
    if pub.to_act is not None or not pub.results:
        return f"the engine's hand is not over after the kernel's {steps} steps"
    result = pub.results[-1]
    engine_result = reference_result(result, [trick.winner for trick in pub.tricks])
    ours = kernel_result(kr, summary)
    if engine_result != ours:
        return f"results differ: engine {engine_result}, kernel {ours}"
    return None
