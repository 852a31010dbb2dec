"""What a bid is worth where cards are drawn after the auction (``mcleod``, ``widow``, ``nine_card``,
and ``five_point`` with its kitty).

In these games the bidder's final hand is mostly cards it has not seen when it bids: the stock in
McLeod's game (14 cards more with four players), the widow and what is left of the stock in the
widow game, a refill from the stock in the nine-card game, the kitty's three cards in five-point
Smear. A count of the scoring cards in the dealt hand says little about what the bidder will take:
in McLeod's game with four players the bidder takes about 7.7 of the 10 points whatever its dealt
hand, and a bot that bids its count (2 or 3) lets the other side have the stock for nothing.

So for these games the heuristic bids from self-play instead: for each table (preset, players,
teams or not), the points a bidder takes when every seat plays as the heuristic does, as a line in
the number of trumps its dealt hand holds in its best suit, lowered to the points such a hand takes
four times in five (the 20th percentile). ``bench/draw_bids.py`` plays those hands and prints this
table; ``tests/test_heuristic_draws.py`` checks that a fresh fit still agrees with it.
"""

from __future__ import annotations

from smear.rules import Rules

# (preset, players, in teams) -> (points at no trumps, points per trump held in the best suit), the
# 20th percentile of what the bidder takes (five_point: with its kitty, the only way it draws); from
# `python bench/draw_bids.py --deals 2000`.
DRAW_BIDS: dict[tuple[str, int, bool], tuple[float, float]] = {
    ("five_point", 4, True): (2.32, 0.23),
    ("five_point", 6, True): (1.61, 0.19),
    ("five_point", 8, True): (1.5, 0.17),
    ("mcleod", 4, True): (4.68, 0.33),
    ("mcleod", 6, True): (0.89, 0.7),
    ("widow", 3, False): (3.2, 0.27),
    ("widow", 4, False): (-0.74, 0.58),
    ("widow", 4, True): (3.08, 0.31),
    ("nine_card", 3, False): (-1.97, 0.99),
    ("nine_card", 4, False): (-3.22, 1.07),
    ("nine_card", 5, False): (-2.21, 1.04),
    ("nine_card", 6, False): (-4.16, 1.39),
    ("nine_card", 4, True): (0.61, 0.6),
    ("nine_card", 6, True): (-2.13, 1.04),
}


def draws_after_auction(rules: Rules) -> bool:
    """Whether the rules deal cards to the bidder after the auction (a kitty, a widow, the stock, a
    refill)."""
    return bool(rules.kitty or rules.widow or rules.take_stock or rules.refill)


def draw_bid(rules: Rules, players: int, teams: bool, trumps: int) -> float | None:
    """The points a bidder holding ``trumps`` trumps of its best suit takes four times in five at
    this table, by self-play; None where no cards are drawn or the table is not in ``DRAW_BIDS``."""
    line = DRAW_BIDS.get((rules.name, players, teams)) if draws_after_auction(rules) else None
    if line is None:
        return None
    base, per_trump = line
    return base + per_trump * trumps
