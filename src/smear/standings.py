"""Where each side of a match stands: its place, and the figures of its match so far.

The one home of two decisions that the ratings, the match-over screen and the replay viewer share:

**Places.** The winner is first. A side that is *out of the match* (at or below the elimination
score, or set on the moon) has lost it outright (docs/rules.md: a moon set "loses the match"; "a side
at or below this score loses"), so it comes after every side still in, whatever its score: the sides still in
by score, then the sides out by score. Equal scores in the same group share a place ("1st, 2nd,
2nd, 4th"). Before the match is over there is no winner, and the same order holds.

**Points per hand.** Points taken per hand *played*. A hand thrown in (everyone passed) is not
played: nobody bid, no card was played, no point could be taken and it settles nothing (the rules'
"thrown_in" reason), so counting it would lower a side's average for what nobody did.

>>> from smear import find_rules, new_match
>>> state = new_match(find_rules("house"), players=3, seed=1)
>>> [(row.side, row.place, row.score, row.points_per_hand) for row in standings(state.public)]
[(0, 1, 0, None), (1, 1, 0, None), (2, 1, 0, None)]
>>> points_per_hand(7, 3)
2.33
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from smear.scoring import MatchEnd, eliminated_sides
from smear.state import HandOutcome, HandResult, PublicState

__all__ = [
    "Standing",
    "hand_played",
    "hands_played",
    "out_sides",
    "places",
    "points_per_hand",
    "standings",
    "standings_json",
]


class Standing(NamedTuple):
    """One side's place and the figures of its match."""

    side: int
    place: int  # 1 the best; equal places for sides tied in the same group
    score: int
    out: bool  # out of the match: eliminated, or set on the moon
    bids: int  # hands its side won the auction in
    made: int  # of those, the bids made (a moon made or reset counts)
    set: int  # of those, the bids set
    points: int  # points taken over the hands played (before a set bid is taken off)
    hands: int  # hands played (a hand thrown in is not played)
    points_per_hand: float | None  # ``points`` per hand played, None before any


def hand_played(result: HandResult) -> bool:
    """Whether a hand was played: every hand but one thrown in because everyone passed."""
    return result.outcome is not HandOutcome.THROWN_IN


def hands_played(results: Iterable[HandResult]) -> int:
    """How many of ``results`` were played (see :func:`hand_played`)."""
    return sum(hand_played(result) for result in results)


def points_per_hand(points: float, hands: float) -> float | None:
    """Points taken per hand played, to two decimals; None when no hand was played."""
    return round(points / hands, 2) if hands else None


def out_sides(pub: PublicState) -> frozenset[int]:
    """The sides out of the match: at or below the elimination score, and the side set on the moon."""
    out = set(eliminated_sides(pub.rules, pub.scores))
    last = pub.results[-1] if pub.results else None
    if pub.winner is not None and last is not None and last.ended_by is MatchEnd.MOON_SET:
        assert last.bidder is not None  # only a bid can be set on the moon
        out.add(pub.seat_side[last.bidder])
    return frozenset(out)


def places(pub: PublicState) -> list[int]:
    """Each side's place, by side: the winner, then the sides still in by score, then the sides out
    by score; equal scores in the same group share a place (``[1, 2, 2, 4]``)."""
    out = out_sides(pub)
    keys = [(side != pub.winner, side in out, -score) for side, score in enumerate(pub.scores)]
    return [1 + sum(other < key for other in keys) for key in keys]


def standings(pub: PublicState) -> list[Standing]:
    """Every side's :class:`Standing`, best place first (a shared place in side order)."""
    out = out_sides(pub)
    played = [result for result in pub.results if hand_played(result)]
    rows = []
    for side, place in enumerate(places(pub)):
        bid = [r for r in played if r.bidder is not None and pub.seat_side[r.bidder] == side]
        points = sum(result.taken[side] for result in played)
        rows.append(
            Standing(
                side=side,
                place=place,
                score=pub.scores[side],
                out=side in out,
                bids=len(bid),
                made=sum(result.made for result in bid),
                set=sum(not result.made for result in bid),
                points=points,
                hands=len(played),
                points_per_hand=points_per_hand(points, len(played)),
            )
        )
    return sorted(rows, key=lambda row: (row.place, row.side))


def standings_json(pub: PublicState) -> list[dict[str, Any]]:
    """:func:`standings` as JSON-ready data: what the match-over screen and the replay viewer show."""
    return [row._asdict() for row in standings(pub)]
