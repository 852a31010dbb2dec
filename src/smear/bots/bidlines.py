"""What the heuristic bids: the highest bid a hand like its own makes four times in five, by self-play.

A count of the scoring cards in a dealt hand (:func:`smear.bots.heuristic.estimate`) is a fair
guide to which suit is best, but a poor one to how many points the hand takes as the bidder. In
house with four in teams, a hand the heuristic counted at 2 took 3 or more points 86% of the time,
so by bidding its count it passed or bid low where it should have taken the auction. Where cards
are drawn after the auction it was worse: in McLeod's game the bidder takes the 14 cards of the
stock and, with four players, 7.7 of the 10 points on average whatever it was dealt, and a count of
2 or 3 left the stock to the other side.

So for each table (preset, the kitty or not, players, teams or not) this module holds a plane: the
points a bidder takes when every seat plays as the heuristic does, in the count of its best suit and
the number of trumps it holds there, lowered to the points such a hand takes four times in five
(the 20th percentile of what the plane misses). ``bench/bid_lines.py`` plays those hands and prints
the table; ``tests/test_heuristic_bids.py`` checks that a fresh fit still agrees with it.
"""

from __future__ import annotations

from smear.rules import Rules

# A line: the points at a count of 0 and no trumps, per point of count and per trump held.
Line = tuple[float, float, float]

# (table, players, in teams) -> (points, per point of count, per trump held in the best suit), the
# 20th percentile of what the bidder takes; the table is the preset's name, with "+kitty" where the
# bidder takes a kitty. From `python bench/bid_lines.py`.
BID_LINES: dict[tuple[str, int, bool], Line] = {
    ("house", 3, False): (-1.23, 0.55, 0.74),
    ("house", 4, False): (-1.3, 1.02, 0.39),
    ("house", 5, False): (-1.29, 1.13, 0.27),
    ("house", 6, False): (-1.13, 1.1, 0.23),
    ("house", 7, False): (-1.13, 1.19, 0.16),
    ("house", 8, False): (-1.03, 1.19, 0.13),
    ("house", 4, True): (0.08, 0.76, 0.26),
    ("house", 6, True): (-0.43, 0.93, 0.17),
    ("house", 8, True): (-0.63, 1.08, 0.09),
    ("ten_point", 3, False): (-2.93, 0.56, 0.8),
    ("ten_point", 4, False): (-3.76, 0.24, 1.06),
    ("ten_point", 5, False): (-3.83, -0.03, 1.3),
    ("ten_point", 6, False): (-3.53, 0.21, 1.12),
    ("ten_point", 4, True): (-0.45, 0.51, 0.56),
    ("ten_point", 6, True): (-1.69, 0.31, 0.81),
    ("ten_point", 8, True): (-1.45, 0.63, 0.6),
    ("no_jick", 3, False): (-1.37, 1.25, 0.22),
    ("no_jick", 4, False): (-1.81, 1.27, 0.28),
    ("no_jick", 5, False): (-2.07, 1.27, 0.33),
    ("no_jick", 6, False): (-1.49, 1.55, 0.11),
    ("no_jick", 4, True): (-0.34, 0.93, 0.22),
    ("no_jick", 6, True): (-0.7, 1.31, 0.1),
    ("no_jick", 8, True): (-0.42, 1.77, -0.16),
    ("cutthroat", 3, False): (-2.93, 0.56, 0.8),
    ("five_point", 4, True): (0.12, 0.75, 0.17),
    ("five_point", 6, True): (0.32, 0.76, 0.08),
    ("five_point", 8, True): (0.53, 0.77, 0.03),
    ("five_point+kitty", 4, True): (1.87, 0.56, -0.03),
    ("five_point+kitty", 6, True): (1.37, 0.57, 0.01),
    ("five_point+kitty", 8, True): (1.22, 0.59, 0.02),
    ("mcleod", 4, True): (4.6, 0.05, 0.32),
    ("mcleod", 6, True): (0.98, 0.15, 0.62),
    ("widow", 3, False): (3.53, -0.18, 0.32),
    ("widow", 4, False): (-0.66, -0.11, 0.66),
    ("widow", 4, True): (2.9, 0.11, 0.27),
    ("nine_card", 3, False): (-2.39, 0.11, 1.0),
    ("nine_card", 4, False): (-3.05, -0.11, 1.13),
    ("nine_card", 5, False): (-2.31, -0.19, 1.13),
    ("nine_card", 6, False): (-3.9, -0.21, 1.48),
    ("nine_card", 4, True): (0.42, 0.13, 0.57),
    ("nine_card", 6, True): (-2.15, -0.05, 1.1),
}


# A line at the 20th percentile L of the points taken is made whenever the bid is at most the whole
# number at or above L, which ``bid_of`` (a count rounded up from three quarters) gives for L + 0.75.
ROUND_UP = 0.75


def bid_of(count: float) -> int:
    """The bid the heuristic makes of a count: rounded up from three quarters."""
    return int(count + 0.25)


def line_worth(line: Line, count: float, trumps: int) -> float:
    """A hand's worth to bid by ``line`` (points, per point of count, per trump), as a count."""
    base, per_count, per_trump = line
    return base + per_count * count + per_trump * trumps + ROUND_UP


def table_name(rules: Rules) -> str:
    """The name a table's line is kept under: the preset's, and whether the bidder takes a kitty."""
    return f"{rules.name}+kitty" if rules.kitty else rules.name


def fitted_bid(rules: Rules, players: int, teams: bool, count: float, trumps: int) -> float | None:
    """What a hand with this count and ``trumps`` trumps in its best suit is worth to bid at this
    table, as a count: rounded as the heuristic rounds a count, the highest bid such a hand makes four
    times in five by self-play. None for a table not in ``BID_LINES``."""
    line = BID_LINES.get((table_name(rules), players, teams))
    return None if line is None else line_worth(line, count, trumps)
