"""The alpha-beta search of the card play with every card known, inside numba: the engine of
:mod:`smear.search.solver`, which fills its state array (``ST_*``), settles the points it can
before the search, and reads the answers.

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
"""

from __future__ import annotations

from numba import njit

from smear.search.masks import lowest_index, play_mask
from smear.search.tables import (
    P_PLAYERS,
    P_SIDES,
    T_GAME,
    T_NEXT,
    T_POWER,
    T_PREV,
    T_SEAT_SIDE,
    T_STRENGTH,
    T_SUIT_OF,
    T_TOP,
    Int64Array,
)

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
def solve_root(
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
