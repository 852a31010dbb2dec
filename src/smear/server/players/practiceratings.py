"""Practice ratings: openskill's Plackett–Luce model, the profile against the position it tried.

Pure computation, kept apart from the game ratings (:mod:`smear.server.players.ratings`): a profile's
practice rating never moves its game rating, nor the other way. An attempt is a match of two
single-seat teams, the profile and the position: the best choice wins it for the profile, any
other choice for the position; both move. The number shown is :func:`shown`:
``1500 + 60 * (mu - 25)``, the same mapping for profiles and positions.

>>> before = NEW_PRACTICE
>>> won, _ = rate_attempt(before, position_rating(1500.0), correct=True)
>>> lost, _ = rate_attempt(before, position_rating(1500.0), correct=False)
>>> lost.mu < before.mu < won.mu
True
>>> shown(NEW_PRACTICE), shown(position_rating(1620.0))
(1500.0, 1620.0)
"""

from __future__ import annotations

from typing import Final

from openskill.models import PlackettLuce

from smear.server.players.ratings import Rating

__all__ = ["NEW_PRACTICE", "SHOWN_AT_MU", "SHOWN_PER_MU", "position_rating", "rate_attempt", "shown"]

_MODEL: Final = PlackettLuce()

SHOWN_AT_MU: Final = 1500.0  # the number shown for mu = 25, openskill's starting mean
SHOWN_PER_MU: Final = 60.0

NEW_PRACTICE: Final = Rating(_MODEL.mu, _MODEL.sigma)


def shown(rating: Rating) -> float:
    """The display number of a practice rating, to one decimal."""
    return round(SHOWN_AT_MU + SHOWN_PER_MU * (rating.mu - _MODEL.mu), 1)


def position_rating(start: float) -> Rating:
    """A new position's rating from the display number its build gave it (openskill's starting
    sigma: the first attempts at it move it most)."""
    return Rating(_MODEL.mu + (start - SHOWN_AT_MU) / SHOWN_PER_MU, _MODEL.sigma)


def rate_attempt(profile: Rating, position: Rating, correct: bool) -> tuple[Rating, Rating]:
    """The profile's and the position's ratings after an attempt (``correct``: the best choice)."""
    teams = [[_MODEL.rating(profile.mu, profile.sigma)], [_MODEL.rating(position.mu, position.sigma)]]
    ranks = [1.0, 2.0] if correct else [2.0, 1.0]
    [[player], [puzzle]] = _MODEL.rate(teams, ranks=ranks)
    return Rating(player.mu, player.sigma), Rating(puzzle.mu, puzzle.sigma)
