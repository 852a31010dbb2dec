"""Perfect-information solving of the card play of a hand, for search bots (PIMC).

Given every seat's cards (a sampled deal, for a bot), :func:`solve` finds the value of the rest of
the hand for the seat to act and its best card; :func:`solve_all_moves` gives the value of every
legal card. The rules come from :func:`smear.search.tables.kernel_rules` (tables built from the
reference engine) and the legal cards from the same ``play_mask`` the play-outs use, which the tests
check against the engine. The search itself is :mod:`smear.search.alphabeta`.

**What is maximised.** The *acting side* (the side of the seat to act at the root) maximises and every
other seat minimises, a paranoid search: with ``oppose=False`` the value is the points the acting side
takes in the whole hand (already won, settled by the deal, and still to win: High, Low, Jack, Jick,
jokers, Game, Trey at its value); with ``oppose=True`` it is that minus the points of every other side.
The bid does not enter: a bot can turn points into a score change itself.

:func:`solve_all_moves` may instead count the points of a ``side`` other than the acting one (its
seats maximise them, every other seat minimises them): with three or more sides, how many points the
bidder can be held to, whichever card another seat plays.

Where the first lead sets trump and it has not been made (``Position.trump`` is None), each suit the
leader may lead is solved with that suit as trump.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from smear.cards import BIG_JOKER_INDEX, JOKERS_MASK, LITTLE_JOKER_INDEX, SUIT_BITS
from smear.search.alphabeta import (
    MAX_DEPTH,
    MAX_MOVES,
    ST_GAME,
    ST_GEN,
    ST_HANDS,
    ST_MIN_WEIGHT,
    ST_N_POINTS,
    ST_NODES,
    ST_POINT_CARDS,
    ST_TRICK,
    ST_TRUMP,
    ST_US,
    ST_VAL,
    ST_WEIGHT,
    TT_BITS,
    TT_COLUMNS,
    solve_root,
)
from smear.search.masks import play_mask
from smear.search.playouts import deal_random
from smear.search.tables import (
    P_BIDDER_LEADS_TRUMP,
    P_HAND,
    P_JICK,
    P_LOW_TO_PLAYER,
    P_TREY,
    P_TRUMP_NAMED,
    T_GAME,
    T_JACK,
    T_JICK,
    T_NATURAL,
    T_POWER,
    T_SUIT_MASKS,
    T_TREY,
    Int64Array,
    KernelRules,
)
from smear.state import Phase, State

# A root mask (``among``) that leaves the seat to act no legal card.
NONE_ASKED = "no legal card is asked for"

# --- positions --------------------------------------------------------------------------------------


class Position(NamedTuple):
    """A moment of the card play with every card known (a real state, or a sampled deal)."""

    trump: int | None  # None before the first lead of a game whose first lead sets trump
    hands: tuple[int, ...]  # each seat's cards now, as masks
    leader: int  # the seat that led (or leads) the trick in progress
    trick: tuple[int, ...]  # the cards of the trick in progress, from the leader
    captured: tuple[int, ...]  # each side's cards from finished tricks
    played: tuple[int, ...]  # each seat's cards played this hand (finished tricks and this trick)
    bidder: int

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)


def position_of(state: State) -> Position:
    """The position of a state in the card play (the solver sees every hand)."""
    pub = state.public
    if pub.phase is not Phase.PLAY or pub.bidder is None:
        raise ValueError(f"not in the card play: {pub.phase.value}")
    captured = [0] * len(pub.sides)
    played = [0] * pub.players
    for trick in pub.tricks:
        for seat, card in trick.plays():
            captured[pub.seat_side[trick.winner]] |= 1 << card
            played[seat] |= 1 << card
    for seat, card in pub.trick_plays:
        played[seat] |= 1 << card
    return Position(
        trump=None if pub.trump is None else int(pub.trump),
        hands=tuple(state.hands),
        leader=pub.leader,
        trick=tuple(int(card) for card in pub.trick),
        captured=tuple(captured),
        played=tuple(played),
        bidder=pub.bidder,
    )


class Solution(NamedTuple):
    """The value of a position for the side to act, and its best card."""

    value: int
    card: int
    nodes: int


class Solver:
    """A transposition table and work space, reused from solve to solve (one per thread)."""

    def __init__(self) -> None:
        self.tt = np.zeros((1 << TT_BITS, TT_COLUMNS), dtype=np.int64)
        self.buf = np.zeros((MAX_DEPTH, 2 * MAX_MOVES), dtype=np.int64)
        self.generation = 0

    def solve_moves(
        self,
        kr: KernelRules,
        position: Position,
        oppose: bool,
        exact: bool,
        side: int | None = None,
        among: int | None = None,
    ) -> tuple[dict[int, int], int, int]:
        """Each root card's value (exact for all when ``exact``), the best card, and the nodes searched.

        The values are ``side``'s (default: the acting seat's); another side's need ``exact``, since
        the root search takes the acting seat for one that maximises them. ``among`` (a mask) keeps
        the root cards to those of it that are legal; at least one must be."""
        if side is not None and side != kr.seat_side[position.to_act] and not exact:
            raise ValueError("another side's values are searched exactly only")
        if position.trump is None:
            if kr.table[P_TRUMP_NAMED]:
                raise ValueError("trump is named in these rules: give it")
            return self._first_lead(kr, position, oppose, exact, side, among)
        tab = kr.table
        trump = position.trump
        seat = position.to_act
        hand = position.hands[seat]
        first_lead = not position.trick and not any(position.captured)
        if first_lead and not tab[P_TRUMP_NAMED]:
            moves_mask = hand & tab[T_SUIT_MASKS + 4 * trump + trump] & ~JOKERS_MASK
            if not moves_mask:
                raise ValueError("the first lead sets trump: the leader holds no card of that suit")
        elif first_lead:
            moves_mask = int(
                play_mask(tab, trump, hand, -1, seat == position.bidder and bool(tab[P_BIDDER_LEADS_TRUMP]))
            )
        else:
            lead = position.trick[0] if position.trick else -1
            moves_mask = int(play_mask(tab, trump, hand, lead, False))
        if among is not None:
            moves_mask &= among
        if not moves_mask:
            raise ValueError("the seat to act has no card" if among is None else NONE_ASKED)
        st = np.zeros(128, dtype=np.int64)
        base = self._prepare(kr, position, oppose, st, side)
        self.generation += 1
        st[ST_GEN] = self.generation
        rgame = _game_count(tab, _union(position.hands) | _mask(position.trick))
        cards = np.zeros(MAX_MOVES, dtype=np.int64)
        values = np.zeros(MAX_MOVES, dtype=np.int64)
        count = solve_root(
            tab,
            st,
            self.tt,
            self.buf,
            len(position.trick),
            position.leader,
            rgame,
            moves_mask,
            cards,
            values,
            exact,
        )
        result = {int(cards[i]): int(values[i]) + base for i in range(count)}
        best = max(range(count), key=lambda i: int(values[i]))  # the first of the best, in search order
        return result, int(cards[best]), int(st[ST_NODES])

    def _first_lead(
        self,
        kr: KernelRules,
        position: Position,
        oppose: bool,
        exact: bool,
        side: int | None,
        among: int | None,
    ) -> tuple[dict[int, int], int, int]:
        """Before trump is known (its first lead sets it): solve each suit the leader may lead."""
        hand = position.hands[position.to_act]
        if among is not None:
            hand &= among
            if not hand & ~JOKERS_MASK:  # a joker may not make the first lead that sets trump
                raise ValueError(NONE_ASKED)
        values: dict[int, int] = {}
        nodes = 0
        best_card = -1
        for suit in range(4):
            if not hand >> (13 * suit) & 0x1FFF:
                continue
            found, card, searched = self.solve_moves(
                kr, position._replace(trump=suit), oppose, exact, side, among
            )
            nodes += searched
            values.update(found)
            if best_card < 0 or found[card] > values[best_card]:
                best_card = card
        return values, best_card, nodes

    def _prepare(
        self, kr: KernelRules, position: Position, oppose: bool, st: Int64Array, counted: int | None
    ) -> int:
        """Fill the solver's state; return the points already decided, weighted for the side counted
        (default: the acting side)."""
        tab = kr.table
        trump = position.trump
        assert trump is not None
        n = kr.players
        sides = len(kr.sides)
        side_of = kr.seat_side
        us = side_of[position.to_act] if counted is None else counted
        weight = [1 if side == us else (-1 if oppose else 0) for side in range(sides)]
        for seat in range(n):
            st[ST_HANDS + seat] = position.hands[seat]
        for i, card in enumerate(position.trick):
            st[ST_TRICK + i] = card
        for side in range(sides):
            st[ST_GAME + side] = _game_count(tab, position.captured[side])
            st[ST_WEIGHT + side] = weight[side]
        st[ST_TRUMP] = trump
        st[ST_US] = us
        st[ST_MIN_WEIGHT] = min((weight[side] for side in range(sides) if side != us), default=0)
        # Who holds or played each card still to be captured.
        holder = {}
        for seat in range(n):
            for card in _cards(position.hands[seat]):
                holder[card] = seat
        for i, card in enumerate(position.trick):
            holder[card] = (position.leader + i) % n
        loose = _union(position.hands) | _mask(position.trick)
        in_play = loose | _union(position.captured)
        power = tab[T_POWER + 54 * trump : T_POWER + 54 * trump + 54]
        top_loose = max((int(power[c]) for c in _cards(loose)), default=0)
        settled = 0
        value = [0] * 54
        for card, worth, to_player in _point_cards(tab, trump, in_play):
            side = -1
            if to_player:
                player = holder.get(card)
                if player is None:
                    player = next(s for s in range(n) if position.played[s] >> card & 1)
                side = side_of[player]
            elif not loose >> card & 1:
                side = next(s for s in range(sides) if position.captured[s] >> card & 1)
            elif power[card] == top_loose:
                side = side_of[holder[card]]  # the highest trump left wins its trick
            if side >= 0:
                settled += worth * weight[side]
            else:
                value[card] += worth
        point_cards = [c for c in range(54) if value[c]]
        for c in point_cards:
            st[ST_VAL + c] = value[c]
        st[ST_N_POINTS] = len(point_cards)
        for k, c in enumerate(point_cards):
            st[ST_POINT_CARDS + k] = c
        return settled


def _point_cards(tab: Int64Array, trump: int, in_play: int) -> list[tuple[int, int, bool]]:
    """Each point card in play under ``trump`` as (card, value, goes to the player rather than the
    captor); Game is not among them."""
    points: list[tuple[int, int, bool]] = []
    natural = in_play & int(tab[T_NATURAL + trump])
    if natural:
        points.append((natural.bit_length() - 1, 1, False))
        points.append(((natural & -natural).bit_length() - 1, 1, bool(tab[P_LOW_TO_PLAYER])))
    points.append((int(tab[T_JACK + trump]), 1, False))
    if tab[P_JICK]:
        points.append((int(tab[T_JICK + trump]), 1, False))
    points.append((BIG_JOKER_INDEX, 1, False))
    points.append((LITTLE_JOKER_INDEX, 1, False))
    if tab[P_TREY]:
        points.append((int(tab[T_TREY + trump]), int(tab[P_TREY]), False))
    return [point for point in points if point[0] >= 0 and in_play >> point[0] & 1]


def points_in_play(kr: KernelRules, position: Position) -> int:
    """The points the cards of the hand are worth under ``position``'s trump, Game aside: every
    side's points at the end of the hand add up to this, plus 1 if a side wins Game."""
    assert position.trump is not None
    in_play = _union(position.hands) | _mask(position.trick) | _union(position.captured)
    return sum(worth for _, worth, _ in _point_cards(kr.table, position.trump, in_play))


def _cards(mask: int) -> list[int]:
    return [c for c in range(54) if mask >> c & 1]


def _union(masks: Sequence[int]) -> int:
    total = 0
    for mask in masks:
        total |= int(mask)
    return total


def _mask(cards: Sequence[int]) -> int:
    total = 0
    for card in cards:
        total |= 1 << card
    return total


def _game_count(tab: Int64Array, mask: int) -> int:
    return sum(int(tab[T_GAME + c]) for c in _cards(mask))


_DEFAULT: list[Solver] = []


def _default_solver() -> Solver:
    if not _DEFAULT:
        _DEFAULT.append(Solver())
    return _DEFAULT[0]


def solve(
    kr: KernelRules, position: Position, oppose: bool = False, solver: Solver | None = None
) -> Solution:
    """The value of ``position`` for the side to act and its best card (see the module docstring)."""
    values, card, nodes = (solver or _default_solver()).solve_moves(kr, position, oppose, exact=False)
    return Solution(values[card], card, nodes)


def solve_all_moves(
    kr: KernelRules,
    position: Position,
    oppose: bool = False,
    solver: Solver | None = None,
    side: int | None = None,
    among: int | None = None,
) -> dict[int, int]:
    """The exact value of every card the seat to act may play (of those in the mask ``among``, if
    given), to ``side`` (default: its own)."""
    solver = solver or _default_solver()
    values, _, _ = solver.solve_moves(kr, position, oppose, exact=True, side=side, among=among)
    return values


def solve_all_splits(
    kr: KernelRules, position: Position, solver: Solver | None = None, among: int | None = None
) -> dict[int, tuple[int, int]]:
    """For every card the seat to act may play (of those in ``among``, if given): the points its
    side takes in the hand and those every other side takes together, on the line best for its
    margin. The first are also the most its side can take (``solve_all_moves`` without ``oppose``).

    One search, of the margin, instead of two: the sides' points add up to the card points in play
    (:func:`points_in_play`) plus Game's 1 when a side wins it, so the margin is twice the side's
    points less that total and Game's 1; its parity says whether Game was won, and it ranks lines by
    the side's points first."""
    margins = solve_all_moves(kr, position, oppose=True, solver=solver, among=among)
    totals: dict[int, int] = {}
    splits: dict[int, tuple[int, int]] = {}
    for card, margin in margins.items():
        # Where the first lead sets trump, the card led names it (a joker may not make that lead).
        trump = card // SUIT_BITS if position.trump is None else position.trump
        total = totals.get(trump)
        if total is None:
            total = totals[trump] = points_in_play(kr, position._replace(trump=trump))
        ours = (margin + total + 1) // 2
        splits[card] = (ours, ours - margin)
    return splits


def random_first_trick_positions(kr: KernelRules, count: int, seed: int) -> list[Position]:
    """Random deals with a random bidder to lead the first trick and trump known (for benchmarks).

    Where the first lead sets trump, trump is the suit of one of the bidder's cards; where it is
    named, any suit. Discards, where the rules have them, keep the first cards of the hand.
    """
    rng = np.random.default_rng(seed)
    n = kr.players
    hand_size = int(kr.table[P_HAND])
    deck = np.zeros(64, dtype=np.int64)
    dealt = np.zeros(8, dtype=np.int64)
    found = []
    np_seed = int(rng.integers(1 << 31))
    _seed_numba(np_seed)
    for _ in range(count):
        deal_random(kr.table, deck, dealt)
        hands = tuple(_keep(int(dealt[seat]), hand_size) for seat in range(n))
        bidder = int(rng.integers(n))
        if kr.table[P_TRUMP_NAMED]:
            trump = int(rng.integers(4))
        else:
            suits = sorted({c // 13 for c in _cards(hands[bidder]) if c < 52})
            trump = suits[int(rng.integers(len(suits)))]
        found.append(Position(trump, hands, bidder, (), (0,) * len(kr.sides), (0,) * n, bidder))
    return found


def _keep(mask: int, count: int) -> int:
    cards = _cards(mask)[:count]
    return _mask(cards)


@njit(cache=True)
def _seed_numba(seed: int) -> None:
    np.random.seed(seed)
