"""Ratings: openskill's Plackett–Luce model (Weng–Lin), one rating per profile and preset.

Pure computation; :mod:`smear.server.playerstore` reads and writes the ratings around it. The choices
(documented for players in docs/players.md):

- Every side of a match is a team (a single seat without teams), ranked by the match's end: the
  winner first, then the others by score, equal scores sharing a rank.
- A bot level is one profile. Where it holds several seats of one match, each seat is rated from
  the level's rating before the match, and the level keeps the mean of its seats' new ratings.
- A seat without a profile (a guest) plays as a new player would and is not kept.
- A bot level starts from a rating measured for it (:data:`BOT_START`) and with a small sigma, so
  that it anchors the scale: a new player's first matches against bots already say something.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

__all__ = ["BOT_START", "NEW_PLAYER", "Rating", "bot_profile_id", "rate_match"]

_MODEL: Final = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    """A skill estimate: the mean ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown to players: mu - 3 sigma (a new player is at 0)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> float:
        return round(self.ordinal, 1)


NEW_PLAYER: Final = Rating(_MODEL.mu, _MODEL.sigma)

# Where each bot level starts, on the same scale as players; unknown levels start as new players do.
# Measured by bench/botratings.py (60 house team matches per pair of levels, every level starting as a
# new player: random 8.4, beginner 20.0, heuristic 28.9, expert 43.5, after the heuristic's bids were
# fitted by self-play). Their average is 25.2, so the values are the run's less 0.2, rounded: a new
# player (25) still starts at the bots' average. The small sigma keeps them the scale's anchors. The
# bots kept for measuring start where their levels were last measured before they were replaced.
BOT_START: Final[dict[str, Rating]] = {
    "random": Rating(8.0, 2.0),
    "beginner": Rating(20.0, 2.0),
    "heuristic": Rating(29.0, 2.0),
    "expert": Rating(43.0, 2.0),
    "pimc": Rating(40.0, 2.0),  # the expert as it was measured, kept under this name
    "counting": Rating(27.0, 2.0),  # the heuristic as it was measured, kept under this name
}


def bot_profile_id(level: str) -> str:
    """The profile of a bot level: ``bot-heuristic``."""
    return f"bot-{level}"


def rate_match(
    seats: Sequence[str | None],
    ratings: dict[str, Rating],
    sides: Sequence[Sequence[int]],
    ranks: Sequence[int],
) -> dict[str, Rating]:
    """The new rating of every profile in ``seats`` (a profile id per seat, None for a guest) after a
    match whose ``sides`` (lists of seats) finished with ``ranks`` (1 = best).

    ``ratings`` holds the current rating of each profile; a profile missing from it starts at
    :data:`NEW_PLAYER`.
    """

    def before(seat: int) -> Rating:
        profile = seats[seat]
        return NEW_PLAYER if profile is None else ratings.get(profile, NEW_PLAYER)

    teams = [[_MODEL.rating(before(seat).mu, before(seat).sigma) for seat in side] for side in sides]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    new: defaultdict[str, list[Rating]] = defaultdict(list)
    for side, team in zip(sides, rated, strict=True):
        for seat, after in zip(side, team, strict=True):
            profile = seats[seat]
            if profile is not None:
                new[profile].append(Rating(after.mu, after.sigma))
    return {
        profile: Rating(
            sum(r.mu for r in results) / len(results), sum(r.sigma for r in results) / len(results)
        )
        for profile, results in new.items()
    }
