"""Scoring, as pure functions: the points of a hand, settlement and the end of the match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from smear.cards import BIG_JOKER_INDEX, GAME_VALUES, LITTLE_JOKER_INDEX
from smear.rules import Rules
from smear.trick import Trick, TrumpOrder

# Game points of every 13-bit rank pattern of one suit, so a side's count is four lookups.
_GAME_BY_PATTERN: tuple[int, ...] = tuple(
    sum(GAME_VALUES[i] for i in range(13) if pattern >> i & 1) for pattern in range(1 << 13)
)


def game_points(mask: int) -> int:
    """The Game count of a set of cards (ten 10, ace 4, king 3, queen 2, jack 1)."""
    table = _GAME_BY_PATTERN
    return (
        table[mask & 0x1FFF]
        + table[mask >> 13 & 0x1FFF]
        + table[mask >> 26 & 0x1FFF]
        + table[mask >> 39 & 0x1FFF]
    )


@dataclass(frozen=True, slots=True)
class HandScore:
    """What a hand's cards earned, before settlement."""

    # Each point of the preset mapped to the side that won it, or None (out of play, Game tied).
    points: dict[str, int | None]
    # Each side's Game count.
    game_points: tuple[int, ...]
    # Each side's points taken (Trey counts its value).
    taken: tuple[int, ...]


def hand_points(
    rules: Rules,
    order: TrumpOrder,
    tricks: Sequence[Trick],
    seat_side: Sequence[int],
    sides: int,
) -> HandScore:
    """Score a finished hand from its tricks.

    Only cards played count: a point whose card was never played (sleeping, undealt, discarded)
    goes to nobody.
    """
    captured = [0] * sides
    for trick in tricks:
        won = 0
        for card in trick.cards:
            won |= 1 << card
        captured[seat_side[trick.winner]] |= won

    def captor(bit: int) -> int | None:
        for side in range(sides):
            if captured[side] & bit:
                return side
        return None

    played = 0
    for mask in captured:
        played |= mask
    natural = played & order.natural_trump_mask
    points: dict[str, int | None] = {}
    points["high"] = captor(1 << (natural.bit_length() - 1)) if natural else None
    if rules.two_points:
        # The Two goes back to the player who held it, whoever wins its trick.
        two = 13 * order.trump
        points["two"] = seat_side[_player_of(two, tricks)] if played >> two & 1 else None
    elif natural:
        low = (natural & -natural).bit_length() - 1
        points["low"] = seat_side[_player_of(low, tricks)] if rules.low_to_player else captor(1 << low)
    else:
        points["low"] = None
    points["jack"] = captor(1 << order.jack)
    if rules.jick:
        points["jick"] = None if order.jick is None else captor(1 << order.jick)
    if rules.jokers_to_holder:  # to the side of the player who held it, whoever captured it
        jokers = (("big_joker", BIG_JOKER_INDEX), ("little_joker", LITTLE_JOKER_INDEX))[: rules.jokers]
        for name, joker in jokers:
            points[name] = seat_side[_player_of(joker, tricks)] if played >> joker & 1 else None
    else:
        points["big_joker"] = captor(1 << BIG_JOKER_INDEX)
        if rules.jokers == 2:
            points["little_joker"] = captor(1 << LITTLE_JOKER_INDEX)
    counts = tuple(game_points(mask) for mask in captured)
    if rules.ten_for_game:
        points["ten"] = captor(1 << (13 * order.trump + 8))
    else:
        best = max(counts)
        leaders = [side for side, count in enumerate(counts) if count == best]
        points["game"] = leaders[0] if len(leaders) == 1 and best > 0 else None
    if rules.trey_points:
        points["trey"] = captor(1 << (13 * order.trump + 1))
    taken = [0] * sides
    for name, side in points.items():
        if side is not None:
            taken[side] += rules.trey_points if name == "trey" else rules.two_points if name == "two" else 1
    return HandScore(points=points, game_points=counts, taken=tuple(taken))


def scoring_trumps(rules: Rules, order: TrumpOrder) -> int:
    """The trumps that score by themselves, as a bitmask: the ace (High), the jack, the jick and the
    jokers, and the Trey, the Two and the Ten where the rules score them. Low and Game are not
    tied to one card."""
    trump = 13 * order.trump
    mask = 1 << (trump + 12) | 1 << order.jack | rules.joker_mask
    if order.jick is not None:
        mask |= 1 << order.jick
    if rules.trey_points:
        mask |= 1 << (trump + 1)
    if rules.two_points:
        mask |= 1 << trump
    if rules.ten_for_game:
        mask |= 1 << (trump + 8)
    return mask


def _player_of(card: int, tricks: Sequence[Trick]) -> int:
    """The seat that played ``card``."""
    for trick in tricks:
        if card in trick.cards:
            return trick.plays()[trick.cards.index(card)][0]
    raise ValueError(f"card {card} was not played")


def settle(
    scores: Sequence[int], taken: Sequence[int], bidder_side: int, bid: int
) -> tuple[tuple[int, ...], bool]:
    """New scores after a hand, and whether the bid was made.

    A bidding side that took at least its bid adds all it took; otherwise it is set: it loses the
    bid and adds nothing. Every other side adds what it took.
    """
    made = taken[bidder_side] >= bid
    new = list(scores)
    for side, points in enumerate(taken):
        if side == bidder_side:
            new[side] += points if made else -bid
        else:
            new[side] += points
    return tuple(new), made


def match_winner(rules: Rules, scores: Sequence[int], bidder_side: int, made: bool) -> int | None:
    """The side that has won once a hand is settled, or None to play on.

    The bidding side is checked first: it wins if it made its bid and reached the target.
    Otherwise the highest other side at or over the target wins, and a tie at the top plays on.
    With ``highest_score_wins`` the highest side at or over the target wins, a tie going to the
    bidding side (and otherwise playing on). With ``only_bidder_wins`` only a bidding side that made
    its bid can win.
    """
    reached = [side for side, score in enumerate(scores) if score >= rules.target]
    if rules.only_bidder_wins:
        return bidder_side if made and bidder_side in reached else None
    if rules.highest_score_wins and reached:
        top = _top(scores, reached)
        if len(top) == 1:
            return top[0]
        return bidder_side if bidder_side in top else None
    if bidder_side in reached:
        if made:
            return bidder_side
        reached.remove(bidder_side)
    top = _top(scores, reached)
    return top[0] if len(top) == 1 else None


def _top(scores: Sequence[int], sides: Sequence[int]) -> list[int]:
    """Those of ``sides`` with the highest score (none when ``sides`` is empty)."""
    best = max((scores[side] for side in sides), default=None)
    return [side for side in sides if scores[side] == best]


class MatchEnd(Enum):
    """What ended a match: the rule that gave the winning side the match."""

    TARGET = "target"  # a side reached the target as the rules ask
    MOON_MADE = "moon_made"  # the bidding side made the moon
    MOON_SET = "moon_set"  # the bidding side was set on the moon and lost
    ELIMINATION = "elimination"  # a side fell to the elimination score


class NotWon(Enum):
    """Why a side at or above the target has not won the match after a hand."""

    BEATEN = "beaten"  # another side won the match in this hand
    THROWN_IN = "thrown_in"  # everyone passed: a hand thrown in settles nothing
    BIDDER_ONLY = "bidder_only"  # only a bidding side takes the match, in a hand where it makes its bid
    SET = "set"  # it bid and was set: a side that is set does not win by that hand
    TIE = "tie"  # the best scores at the target are tied: another hand is played


class Settlement(NamedTuple):
    """A hand settled: the new scores, whether the bid was made, and how the match stands."""

    scores: tuple[int, ...]
    made: bool
    winner: int | None  # the side that has won the match, or None to play on
    ended_by: MatchEnd | None  # what gave ``winner`` the match
    above_target: tuple[tuple[int, NotWon], ...]  # see :func:`above_target`


def settle_hand(
    rules: Rules, scores: Sequence[int], taken: Sequence[int], bidder_side: int, bid: int
) -> Settlement:
    """New scores, whether the bid was made, and the side that has won the match (or None).

    Ordinary bids settle as :func:`settle`. A moon (a bid above ``max_bid``) is made only by taking
    every point of the hand (``max_bid``): the bidding side then wins at once, unless its score was
    below zero, which is only reset to 0; a moon that is set loses the match for the bidding side.
    Otherwise the match ends as :func:`match_winner` says, then as elimination does.
    """
    ended_by: MatchEnd | None = None
    if bid > rules.max_bid:
        new, made, winner = _settle_moon(rules, scores, taken, bidder_side, bid)
        if winner is not None:
            ended_by = MatchEnd.MOON_MADE if made else MatchEnd.MOON_SET
    else:
        new, made = settle(scores, taken, bidder_side, bid)
        winner = None
    if ended_by is None:
        winner = match_winner(rules, new, bidder_side, made)
        if winner is not None:
            ended_by = MatchEnd.TARGET
        elif rules.elimination:
            winner = eliminated_winner(rules, new)
            ended_by = None if winner is None else MatchEnd.ELIMINATION
    return Settlement(new, made, winner, ended_by, above_target(rules, new, winner, bidder_side, made))


def above_target(
    rules: Rules, scores: Sequence[int], winner: int | None, bidder_side: int | None, made: bool
) -> tuple[tuple[int, NotWon], ...]:
    """The sides at or above the target that have not won the match after a hand, each with why:
    ``winner`` won it instead, the hand was thrown in (``bidder_side`` None), only a bidding side
    that makes its bid may win, the side was set, or the best scores are tied (as
    :func:`match_winner` plays on for each)."""
    found = []
    for side, score in enumerate(scores):
        if score < rules.target or side == winner:
            continue
        if winner is not None:
            why = NotWon.BEATEN
        elif bidder_side is None:
            why = NotWon.THROWN_IN
        elif rules.only_bidder_wins:
            why = NotWon.BIDDER_ONLY
        elif side == bidder_side and not made and not rules.highest_score_wins:
            why = NotWon.SET
        else:  # the best score at the target is shared: another hand is played
            why = NotWon.TIE
        found.append((side, why))
    return tuple(found)


def _settle_moon(
    rules: Rules, scores: Sequence[int], taken: Sequence[int], bidder_side: int, bid: int
) -> tuple[tuple[int, ...], bool, int | None]:
    """New scores, made, and the side the moon makes win outright (None: the match goes on)."""
    made = taken[bidder_side] >= rules.max_bid
    new = list(scores)
    for side, points in enumerate(taken):
        if side != bidder_side:
            new[side] += points
    if not made:
        new[bidder_side] -= bid
        return tuple(new), False, best_other_side(new, bidder_side)
    if scores[bidder_side] < 0:
        new[bidder_side] = 0
        return tuple(new), True, None
    new[bidder_side] += taken[bidder_side]
    return tuple(new), True, bidder_side


def best_other_side(scores: Sequence[int], loser: int) -> int:
    """The side that wins when ``loser`` loses the match outright: the highest other score, a tie
    going to the side whose number follows the loser's first (clockwise from the losing side)."""
    sides = len(scores)
    others = [(loser + step) % sides for step in range(1, sides)]
    return max(others, key=lambda side: (scores[side], -others.index(side)))


def eliminated_winner(rules: Rules, scores: Sequence[int]) -> int | None:
    """With elimination: once a side is at or below ``rules.elimination``, the highest side that
    is not wins; a tie at the top plays on (and an eliminated side can no longer win)."""
    out = eliminated_sides(rules, scores)
    if not out:
        return None
    alive = [side for side in range(len(scores)) if side not in out]
    top = _top(scores, alive)
    return top[0] if len(top) == 1 else None


def eliminated_sides(rules: Rules, scores: Sequence[int]) -> tuple[int, ...]:
    """The sides at or below ``rules.elimination``, out of the match (none with elimination off)."""
    if not rules.elimination:
        return ()
    return tuple(side for side, score in enumerate(scores) if score <= rules.elimination)
