"""Perfect-information solving of the card play of a hand, in numba, for search bots (PIMC).

Given every seat's cards (a sampled deal, for a bot), :func:`solve` finds the value of the rest of
the hand for the seat to act and its best card; :func:`solve_all_moves` gives the value of every
legal card. The rules come from :func:`smear.kernel.kernel_rules` (tables built from the reference
engine) and the legal cards from the same ``play_mask`` the playout kernel uses, which the tests
check against the engine.

**What is maximised.** The *acting side* (the side of the seat to act at the root) maximises and every
other seat minimises, a paranoid search: with ``oppose=False`` the value is the points the acting side
takes in the whole hand (already won, settled by the deal, and still to win: High, Low, Jack, Jick,
jokers, Game, Trey at its value); with ``oppose=True`` it is that minus the points of every other side.
The bid does not enter: a bot can turn points into a score change itself.

**How.** Fail-soft alpha-beta over the remaining cards; at the root, null-window tests find each
value (a test asks only "at least v?", which prunes far more than a wide window). With

- points settled before the search: a point card that is the highest trump still to be played wins
  its trick, so its holder's side takes it (in ``house`` that is always High: the ANCHORS insight),
  and ``house``'s Low goes to the side that plays it wherever it falls;
- bounds at every node: the loose points may all go to us or all away, except those of the run of
  strongest trumps left in one side's hands, which are that side's; and whether Game can still be
  won or lost;
- a transposition table at trick boundaries keyed by the remaining cards, the leader and each side's
  Game count (the only part of the past the rest of the hand depends on), storing bounds;
- equivalent cards searched once: cards next to each other in their suit among the live cards, in
  one hand, worth the same points and Game;
- move ordering: the table's best card first, then winning cheaply, smearing points onto a trick the
  player's coalition wins (every other side counts as one coalition against us) and throwing low.

Where the first lead sets trump and it has not been made (``Position.trump`` is None), each suit the
leader may lead is solved with that suit as trump.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from smear.cards import BIG_JOKER_INDEX, JOKERS_MASK, LITTLE_JOKER_INDEX
from smear.kernel import (
    P_BIDDER_LEADS_TRUMP,
    P_HAND,
    P_JICK,
    P_LOW_TO_PLAYER,
    P_PLAYERS,
    P_SIDES,
    P_TREY,
    P_TRUMP_NAMED,
    T_GAME,
    T_JACK,
    T_JICK,
    T_NATURAL,
    T_NEXT,
    T_POWER,
    T_PREV,
    T_SEAT_SIDE,
    T_STRENGTH,
    T_SUIT_MASKS,
    T_SUIT_OF,
    T_TOP,
    T_TREY,
    Int64Array,
    KernelRules,
    deal_random,
    lowest_index,
    play_mask,
)
from smear.state import Phase, State

INF = 1 << 20

# The solver's state array.
ST_HANDS = 0  # 8: each seat's cards
ST_TRICK = 8  # 8: the cards of the trick in progress, from its leader
ST_GAME = 16  # 8: each side's Game count so far
ST_VAL = 24  # 54: points to the side that captures each card (points not settled before the search)
ST_WEIGHT = 80  # 8: what a point taken by each side is worth to the acting side (1, 0 or -1)
ST_TRUMP = 88
ST_US = 89  # the acting side
ST_GEN = 90  # this search's stamp in the transposition table
ST_NODES = 91
ST_MIN_WEIGHT = 92  # the least weight of a side other than ours
ST_N_POINTS = 93
ST_POINT_CARDS = 96  # 16: the cards with a value in ST_VAL
ST_SIZE = 128

# Transposition table columns.
TT_KEY = 0  # remaining cards | leader << 56
TT_GAME = 1  # Game counts, 7 bits a side
TT_LO = 2
TT_HI = 3
TT_MOVE = 4
TT_GEN = 5
TT_COLUMNS = 6
TT_BITS = 16

MAX_DEPTH = 64
MAX_MOVES = 32


@njit(cache=True)
def _game_value(st: Int64Array, sides: int) -> int:
    """What the final Game counts are worth to the acting side: the Game point, if one side has most."""
    best = 0
    leaders = 0
    winner = -1
    for side in range(sides):
        count = st[ST_GAME + side]
        if count > best:
            best = count
            leaders = 1
            winner = side
        elif count == best:
            leaders += 1
    if best > 0 and leaders == 1:
        return st[ST_WEIGHT + winner]  # type: ignore[no-any-return]
    return 0


@njit(cache=True)
def _order_moves(
    tab: Int64Array,
    st: Int64Array,
    legal: int,
    seat: int,
    ntrick: int,
    leader: int,
    first: int,
    out: Int64Array,
) -> int:
    """Write the legal cards into ``out`` best-first for the seat to play; return how many."""
    trump = st[ST_TRUMP]
    n = tab[P_PLAYERS]
    my_side = tab[T_SEAT_SIDE + seat]
    us = st[ST_US]
    scores = out[MAX_MOVES:]
    count = 0
    base = 0
    best = -1
    partner_wins = False
    if ntrick > 0:
        led = tab[T_SUIT_OF + 54 * trump + st[ST_TRICK]]
        base = T_STRENGTH + 54 * (4 * trump + led)
        best_at = 0
        for i in range(ntrick):
            s = tab[base + st[ST_TRICK + i]]
            if s > best:
                best = s
                best_at = i
        # Paranoid search: every other side plays with the others against us.
        partner_wins = (tab[T_SEAT_SIDE + (leader + best_at) % n] == us) == (my_side == us)
    m = legal
    while m:
        low = m & -m
        m ^= low
        card = lowest_index(low)
        worth = 10 * st[ST_VAL + card] + tab[T_GAME + card]
        if card == first:
            score = 1 << 30
        elif ntrick == 0:
            score = 10 * tab[T_POWER + 54 * trump + card] + card % 13 - worth
        else:
            s = tab[base + card]
            if s > best:
                score = (-s - worth) if partner_wins else (10_000 - s + worth)
            else:
                score = (5_000 + worth) if partner_wins else (-worth - s)
        # Insertion: the lists are short.
        j = count
        while j > 0 and scores[j - 1] < score:
            out[j] = out[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        out[j] = card
        scores[j] = score
        count += 1
    return count


@njit(cache=True)
def _close_trick(
    tab: Int64Array, st: Int64Array, n: int, trump: int, leader: int
) -> tuple[int, int, int, int]:
    """Settle the full trick in the trick slots: its winner's position and side, the points it is
    worth to the acting side, and its Game count (added to the winning side's count)."""
    led = tab[T_SUIT_OF + 54 * trump + st[ST_TRICK]]
    base = T_STRENGTH + 54 * (4 * trump + led)
    top = -1
    top_at = 0
    won = 0
    count_game = 0
    for j in range(n):
        c = st[ST_TRICK + j]
        strength = tab[base + c]
        if strength > top:
            top = strength
            top_at = j
        won += st[ST_VAL + c]
        count_game += tab[T_GAME + c]
    side = tab[T_SEAT_SIDE + (leader + top_at) % n]
    st[ST_GAME + side] += count_game
    return top_at, side, won * st[ST_WEIGHT + side], count_game


@njit(
    "int64(int64[::1], int64[::1], int64[:, ::1], int64[:, ::1], int64, int64, int64, int64, int64, int64)",
    cache=True,
)
def _search(
    tab: Int64Array,
    st: Int64Array,
    tt: Int64Array,
    buf: Int64Array,
    ntrick: int,
    leader: int,
    rgame: int,
    alpha: int,
    beta: int,
    depth: int,
) -> int:
    """The value of the rest of the hand (points still to come and the Game point) for the acting side.

    ``ntrick`` cards of the trick led by ``leader`` are on the table; ``rgame`` is the Game count of
    every card not yet captured. Fail-soft: a value at or below ``alpha`` is an upper bound, at or
    above ``beta`` a lower bound.
    """
    n = tab[P_PLAYERS]
    sides = tab[P_SIDES]
    trump = st[ST_TRUMP]
    us = st[ST_US]
    st[ST_NODES] += 1
    rem = 0
    for s in range(n):
        rem |= st[ST_HANDS + s]
    if ntrick == 0 and rem == 0:
        return _game_value(st, sides)
    # Bounds: the loose points may all go to us or all to the side we like least; Game may be decided.
    loose = rem
    for i in range(ntrick):
        loose |= 1 << st[ST_TRICK + i]
    points = 0
    for k in range(st[ST_N_POINTS]):
        card = st[ST_POINT_CARDS + k]
        if loose >> card & 1:
            points += st[ST_VAL + card]
    # The strongest trumps left win their tricks: a run of them held by one side is that side's.
    fixed = 0
    owner = -1
    card = tab[T_TOP + trump]
    while card >= 0:
        if loose >> card & 1:
            holder = -1
            for s in range(n):
                if st[ST_HANDS + s] >> card & 1:
                    holder = s
            if holder < 0:  # in the trick
                for i in range(ntrick):
                    if st[ST_TRICK + i] == card:
                        holder = (leader + i) % n
            side = tab[T_SEAT_SIDE + holder]
            if owner < 0:
                owner = side
            elif side != owner:
                break
            worth = st[ST_VAL + card]
            fixed += worth * st[ST_WEIGHT + owner]
            points -= worth
        card = tab[T_PREV + 54 * trump + card]
    ours = st[ST_GAME + us]
    others = 0
    for side in range(sides):
        if side != us and st[ST_GAME + side] > others:
            others = st[ST_GAME + side]
    hi: int = fixed + points + (1 if ours + rgame > others else 0)
    lo: int = fixed + points * st[ST_MIN_WEIGHT] + (1 if ours > others + rgame else st[ST_MIN_WEIGHT])
    if hi <= alpha:
        return hi
    if lo >= beta:
        return lo
    if lo == hi:
        return lo
    # The transposition table, at trick boundaries.
    first = -1
    slot = -1
    key = 0
    game_key = 0
    if ntrick == 0:
        key = rem | (leader << 56)
        for side in range(sides):
            game_key |= st[ST_GAME + side] << (7 * side)
        h = (key ^ (game_key * 0x9E3779B97F4A7C15)) * 0xBF58476D1CE4E5B9
        slot = (h >> 29) & ((1 << TT_BITS) - 1)
        if tt[slot, TT_GEN] == st[ST_GEN] and tt[slot, TT_KEY] == key and tt[slot, TT_GAME] == game_key:
            if tt[slot, TT_LO] > lo:
                lo = tt[slot, TT_LO]
            if tt[slot, TT_HI] < hi:
                hi = tt[slot, TT_HI]
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            first = tt[slot, TT_MOVE]
        else:
            tt[slot, TT_KEY] = key
            tt[slot, TT_GAME] = game_key
            tt[slot, TT_GEN] = st[ST_GEN]
            tt[slot, TT_LO] = -INF
            tt[slot, TT_HI] = INF
            tt[slot, TT_MOVE] = -1
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    seat = (leader + ntrick) % n
    hand = st[ST_HANDS + seat]
    lead = st[ST_TRICK] if ntrick > 0 else -1
    legal = play_mask(tab, trump, hand, lead, False)
    # Of cards next to each other in their suit among the cards still live, worth the same to the
    # captor and the same in Game, search only the strongest: the others lead to the same values.
    m = legal
    while m:
        low = m & -m
        m ^= low
        card = lowest_index(low)
        above = tab[T_NEXT + 54 * trump + card]
        while above >= 0 and not loose >> above & 1:
            above = tab[T_NEXT + 54 * trump + above]
        if (
            above >= 0
            and hand >> above & 1
            and st[ST_VAL + above] == st[ST_VAL + card]
            and tab[T_GAME + above] == tab[T_GAME + card]
        ):
            legal ^= low
    moves = buf[depth]
    count = _order_moves(tab, st, legal, seat, ntrick, leader, first, moves)
    maximising = tab[T_SEAT_SIDE + seat] == us
    # A literal 0 in the recursive call would type as Literal[int], a second signature that numba's
    # cache cannot resolve when it loads this function ("Symbol not found ... _search"): pass an int64.
    next_trick = ntrick - ntrick
    best = -INF if maximising else INF
    best_card = -1
    a = alpha
    b = beta
    for i in range(count):
        card = moves[i]
        st[ST_HANDS + seat] = hand & ~(1 << card)
        st[ST_TRICK + ntrick] = card
        if ntrick + 1 == n:
            top_at, side, gain, count_game = _close_trick(tab, st, n, trump, leader)
            # The next trick reuses the trick slots: keep this one's (the move scores are spent).
            for j in range(n - 1):
                moves[MAX_MOVES + j] = st[ST_TRICK + j]
            value = gain + _search(
                tab,
                st,
                tt,
                buf,
                next_trick,
                (leader + top_at) % n,
                rgame - count_game,
                a - gain,
                b - gain,
                depth + 1,
            )
            for j in range(n - 1):
                st[ST_TRICK + j] = moves[MAX_MOVES + j]
            st[ST_GAME + side] -= count_game
        else:
            value = _search(tab, st, tt, buf, ntrick + 1, leader, rgame, a, b, depth + 1)
        if maximising:
            if value > best:
                best = value
                best_card = card
                if best > a:
                    a = best
        elif value < best:
            best = value
            best_card = card
            if best < b:
                b = best
        if a >= b:
            break
    st[ST_HANDS + seat] = hand
    # A deeper search may have taken this slot since the probe: check the key again.
    if (
        slot >= 0
        and tt[slot, TT_GEN] == st[ST_GEN]
        and tt[slot, TT_KEY] == key
        and tt[slot, TT_GAME] == game_key
    ):
        if best <= alpha:
            tt[slot, TT_HI] = min(tt[slot, TT_HI], best)
        elif best >= beta:
            tt[slot, TT_LO] = max(tt[slot, TT_LO], best)
        else:
            tt[slot, TT_LO] = best
            tt[slot, TT_HI] = best
        tt[slot, TT_MOVE] = best_card
    return best


@njit(cache=True)
def _child(
    tab: Int64Array,
    st: Int64Array,
    tt: Int64Array,
    buf: Int64Array,
    ntrick: int,
    leader: int,
    rgame: int,
    card: int,
    alpha: int,
    beta: int,
) -> int:
    """The value of the root seat playing ``card`` (fail-soft in the window ``alpha``, ``beta``)."""
    n = tab[P_PLAYERS]
    seat = (leader + ntrick) % n
    hand = st[ST_HANDS + seat]
    trump = st[ST_TRUMP]
    st[ST_HANDS + seat] = hand & ~(1 << card)
    st[ST_TRICK + ntrick] = card
    if ntrick + 1 < n:
        value = _search(tab, st, tt, buf, ntrick + 1, leader, rgame, alpha, beta, 1)
    else:
        top_at, side, gain, count_game = _close_trick(tab, st, n, trump, leader)
        saved = buf[MAX_DEPTH - 1]
        for j in range(n - 1):
            saved[j] = st[ST_TRICK + j]
        winner = (leader + top_at) % n
        value = gain + _search(
            tab, st, tt, buf, ntrick - ntrick, winner, rgame - count_game, alpha - gain, beta - gain, 1
        )
        for j in range(n - 1):
            st[ST_TRICK + j] = saved[j]
        st[ST_GAME + side] -= count_game
    st[ST_HANDS + seat] = hand
    return value


@njit(cache=True)
def _exact_child(
    tab: Int64Array,
    st: Int64Array,
    tt: Int64Array,
    buf: Int64Array,
    ntrick: int,
    leader: int,
    rgame: int,
    card: int,
    lower: int,
    upper: int,
) -> int:
    """The exact value of a root card known to lie in ``lower..upper``, by null-window tests.

    Each test asks only "is it at least ``mid``?", which prunes far more than a wide window; the
    transposition table carries what one test learnt to the next.
    """
    while lower < upper:
        mid = (lower + upper + 1) // 2
        g = _child(tab, st, tt, buf, ntrick, leader, rgame, card, mid - 1, mid)
        if g >= mid:
            lower = g
        else:
            upper = g
    return lower


@njit(cache=True)
def _solve_root(
    tab: Int64Array,
    st: Int64Array,
    tt: Int64Array,
    buf: Int64Array,
    ntrick: int,
    leader: int,
    rgame: int,
    moves_mask: int,
    cards: Int64Array,
    values: Int64Array,
    exact: bool,
) -> int:
    """Search the root cards of ``moves_mask`` (the acting seat is ours), best-first by the move
    ordering: ``cards`` and ``values`` get each card and its value, exact for every card when
    ``exact``, else exact for the best and an upper bound for the others. Returns how many cards."""
    n = tab[P_PLAYERS]
    seat = (leader + ntrick) % n
    order = buf[0]
    count = _order_moves(tab, st, moves_mask, seat, ntrick, leader, -1, order)
    points = 0
    for k in range(st[ST_N_POINTS]):
        points += st[ST_VAL + st[ST_POINT_CARDS + k]]
    lowest = st[ST_MIN_WEIGHT] * (points + 1)
    highest = points + 1
    best = -INF
    for i in range(count):
        card = order[i]
        cards[i] = card
        if exact or i == 0:
            value = _exact_child(tab, st, tt, buf, ntrick, leader, rgame, card, lowest, highest)
        else:
            value = _child(tab, st, tt, buf, ntrick, leader, rgame, card, best, best + 1)
            if value > best:
                value = _exact_child(tab, st, tt, buf, ntrick, leader, rgame, card, value, highest)
        values[i] = value
        if value > best:
            best = value
    return count


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
        self, kr: KernelRules, position: Position, oppose: bool, exact: bool
    ) -> tuple[dict[int, int], int, int]:
        """Each root card's value (exact for all when ``exact``), the best card, and the nodes searched."""
        if position.trump is None:
            if kr.table[P_TRUMP_NAMED]:
                raise ValueError("trump is named in these rules: give it")
            return self._first_lead(kr, position, oppose, exact)
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
        if not moves_mask:
            raise ValueError("the seat to act has no card")
        st = np.zeros(128, dtype=np.int64)
        base = self._prepare(kr, position, oppose, st)
        self.generation += 1
        st[ST_GEN] = self.generation
        rgame = _game_count(tab, _union(position.hands) | _mask(position.trick))
        cards = np.zeros(MAX_MOVES, dtype=np.int64)
        values = np.zeros(MAX_MOVES, dtype=np.int64)
        count = _solve_root(
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
        self, kr: KernelRules, position: Position, oppose: bool, exact: bool
    ) -> tuple[dict[int, int], int, int]:
        """Before trump is known (its first lead sets it): solve each suit the leader may lead."""
        hand = position.hands[position.to_act]
        values: dict[int, int] = {}
        nodes = 0
        best_card = -1
        for suit in range(4):
            if not hand >> (13 * suit) & 0x1FFF:
                continue
            found, card, searched = self.solve_moves(kr, position._replace(trump=suit), oppose, exact)
            nodes += searched
            values.update(found)
            if best_card < 0 or found[card] > values[best_card]:
                best_card = card
        return values, best_card, nodes

    def _prepare(self, kr: KernelRules, position: Position, oppose: bool, st: Int64Array) -> int:
        """Fill the solver's state; return the points already decided, weighted for the acting side."""
        tab = kr.table
        trump = position.trump
        assert trump is not None
        n = kr.players
        sides = len(kr.sides)
        side_of = kr.seat_side
        us = side_of[position.to_act]
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
        # Each point as (card, value, goes to the player rather than the captor).
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
        top_loose = max((int(power[c]) for c in _cards(loose)), default=0)
        settled = 0
        value = [0] * 54
        for card, worth, to_player in points:
            if card < 0 or not in_play >> card & 1:
                continue  # out of play: nobody takes it
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
    kr: KernelRules, position: Position, oppose: bool = False, solver: Solver | None = None
) -> dict[int, int]:
    """The exact value of every card the seat to act may play."""
    values, _, _ = (solver or _default_solver()).solve_moves(kr, position, oppose, exact=True)
    return values


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
