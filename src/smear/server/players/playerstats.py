"""A player's statistics and a match's ranking, from the state a match ended in (pure functions).

:func:`seat_stats` counts one seat's match; :func:`add_stats` sums such counts (a profile's total
per preset); :func:`stats_json` turns a total into the ``Stats`` of the players contract.
:func:`side_ranks` ranks the sides of a match for the ratings.

>>> stats_json(add_stats({}, {"matches": 1, "hands": 4, "points": 7, "bids_won": 2, "bid_total": 7}))
{'matches': 1, 'wins': 0, 'hands': 4, 'points': 7, 'points_per_hand': 1.75, 'bids_won': 2, \
'bids_made': 0, 'average_bid': 3.5, 'sets': 0, 'moons_tried': 0, 'moons_made': 0, 'high': 0, \
'jack': 0, 'game': 0}
"""

from __future__ import annotations

from collections.abc import Mapping

from smear.standings import hand_played, places, points_per_hand
from smear.state import HandOutcome, State

Stats = dict[str, int | float | None]

# The counts of one seat, in the order the contract lists them; ``bid_total`` lets averages add up.
COUNTS = (
    "matches",
    "wins",
    "hands",
    "points",
    "bids_won",
    "bids_made",
    "bid_total",
    "sets",
    "moons_tried",
    "moons_made",
    "high",
    "jack",
    "game",
)

# The points counted per hand (a preset without one, e.g. the Ten in place of Game, counts 0).
_POINTS = ("high", "jack", "game")
_MOONS = (HandOutcome.MOON_MADE, HandOutcome.MOON_RESET, HandOutcome.MOON_SET)


def seat_stats(state: State, seat: int) -> Stats:
    """The counts of ``seat`` over the hands of a match (finished or not) that ended in ``state``:
    ``hands`` counts the hands played (:func:`smear.standings.hand_played`), not one thrown in."""
    pub = state.public
    side = pub.seat_side[seat]
    counts: dict[str, int] = dict.fromkeys(COUNTS, 0)
    counts["matches"] = 1
    counts["wins"] = int(pub.winner is not None and pub.winner == side)
    for result in pub.results:
        if not hand_played(result):
            continue
        counts["hands"] += 1
        counts["points"] += result.taken[side]
        for name in _POINTS:
            counts[name] += result.points.get(name) == side
        if result.bidder != seat:
            continue
        counts["bids_won"] += 1
        counts["bid_total"] += result.bid
        counts["bids_made"] += result.made
        counts["sets"] += not result.made
        if result.outcome in _MOONS:
            counts["moons_tried"] += 1
            counts["moons_made"] += result.outcome is not HandOutcome.MOON_SET
    return dict(counts)


def add_stats(total: Mapping[str, int | float | None], one: Mapping[str, int | float | None]) -> Stats:
    """The sum of two sets of counts (a missing count is 0)."""
    return {key: (total.get(key) or 0) + (one.get(key) or 0) for key in COUNTS}


def stats_json(total: Mapping[str, int | float | None]) -> Stats:
    """The ``Stats`` of the contract from summed counts: with ``points_per_hand`` and ``average_bid``
    (None without a bid won), without ``bid_total``."""
    counts = {key: total.get(key) or 0 for key in COUNTS}
    hands = counts["hands"]
    bids = counts["bids_won"]
    stats: Stats = {}
    for key in COUNTS:
        if key == "bid_total":
            continue
        stats[key] = counts[key]
        if key == "points":
            stats["points_per_hand"] = points_per_hand(counts["points"], hands) or 0.0
        elif key == "bids_made":
            stats["average_bid"] = round(counts["bid_total"] / bids, 1) if bids else None
    return stats


def side_ranks(state: State) -> list[int]:
    """Each side's place in the match, 1 the best, as the match-over screen shows it
    (:func:`smear.standings.places`)."""
    return places(state.public)


__all__ = ["COUNTS", "Stats", "add_stats", "seat_stats", "side_ranks", "stats_json"]


def finish_rate(finished: int, left: int) -> float:
    """How surely a player finishes the matches it starts, for finding a game to prefer those who
    finish: matches finished over matches started, counted as if each player had finished two of two
    first, so that a newcomer starts near 1 and one match left does not sink it.

    >>> finish_rate(0, 0), finish_rate(0, 1), finish_rate(18, 0) > finish_rate(8, 2)
    (1.0, 0.6666666666666666, True)
    """
    return (finished + 2) / (finished + left + 2)
