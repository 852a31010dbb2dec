"""The kernel's tables: a table's rules as one flat ``int64`` array, and the summary row of a hand.

The numba code reads every rule from the array :func:`kernel_rules` builds: the scalar parameters
first (``P_*``), then per-trump tables at fixed offsets (``T_*``). Every table is built *from* the
reference engine (``smear.trick.trump_order``, ``smear.cards.GAME_VALUES``, ``Rules.deck_mask``), so
the kernel cannot drift from it; :mod:`smear.search.checks` compares the two hand by hand.

A played hand is summed up in one ``int64`` row (``S_*`` columns).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from smear.cards import DECK_SIZE, GAME_VALUES, Suit
from smear.dealing import new_match
from smear.errors import RulesError
from smear.rules import JokerRank, Rules
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
