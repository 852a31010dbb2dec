"""Ratings: openskill's Plackett–Luce model (Weng–Lin), one rating per profile and preset.

Pure computation; :mod:`smear.server.storage.playerstore` reads and writes the ratings around it. The choices
(documented for players in docs/players.md, "What counts as a rated match"):

- Every side of a match is a team (a single seat without teams), ranked by the match's end: the
  winner first, then the others by score, equal scores sharing a rank.
- Only a profile's seat counts (:func:`counted_seats`): a guest (a seat without a profile) and a
  person's second seat at one table are nobody's, and a side with no counted seat leaves the
  ranking. A match left with fewer than two sides rates nobody: a player alone with guests (the same
  script may be playing them all) measures nothing.
- A guest beside a counted seat plays as a new player would and is not kept (its side's strength).
- A bot level is one profile. Where it holds several seats of one match, each seat is rated from
  the level's rating before the match, and the level keeps the mean of its seats' new ratings.
- A bot level starts from a rating measured for it (:data:`BOT_START`) and with a small sigma, so
  that it anchors the scale: a new player's first matches against bots already say something.
- Bots and newcomers prove at most a step (with ``played``, as the server rates): a side that beat
  or tied no established person (:data:`ESTABLISHED` rated matches) rises at most :data:`STEP` above
  the best ``mu`` it beat or tied. Fresh profiles losing on purpose, or a weak bot beaten a thousand
  times, lift nobody past them; people who beat established people rise as openskill says.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

__all__ = [
    "BOT_PREFIX",
    "BOT_START",
    "ESTABLISHED",
    "NEW_PLAYER",
    "STEP",
    "Rating",
    "bot_level",
    "bot_profile_id",
    "counted_seats",
    "is_bot_profile",
    "rate_match",
]

_MODEL: Final = PlackettLuce()

# The shown rating: a new player (ordinal 0) at 1000 and 20 per point of ordinal, so the bots span
# about 1040 (random) to 1740 (expert), a range players know from chess, and one lost first match
# reads 996, not -0.2.
SHOWN_AT_ZERO: Final = 1000
SHOWN_PER_POINT: Final = 20

BOT_PREFIX: Final = "bot-"
# Rated matches in a game after which a person's results vouch for their opponents' wins.
ESTABLISHED: Final = 10
# The most a win over bots and newcomers alone lifts a player above the best of them: openskill's
# beta, the width of one class of skill.
STEP: Final = _MODEL.beta


@dataclass(frozen=True)
class Rating:
    """A skill estimate: the mean ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate the board is ordered by: mu - 3 sigma (a new player is at 0)."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The number players see: the ordinal on a familiar scale, a whole number never below 0.

        >>> NEW_PLAYER.shown, Rating(24.7, 8.3).shown, Rating(43.0, 2.0).shown, Rating(1.0, 8.3).shown
        (1000, 996, 1740, 522)
        >>> Rating(-40.0, 8.0).shown
        0
        """
        return max(0, round(SHOWN_AT_ZERO + SHOWN_PER_POINT * self.ordinal))


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
    return f"{BOT_PREFIX}{level}"


def is_bot_profile(player: str) -> bool:
    return player.startswith(BOT_PREFIX)


def bot_level(player: str | None) -> str | None:
    """The level whose profile ``player`` is (``bot-expert``: ``expert``), None for a person or a
    guest: what every view sends beside a bot's name, so that one naming shows everywhere."""
    if player is None or not is_bot_profile(player):
        return None
    return player[len(BOT_PREFIX) :]


def counted_seats(seats: Sequence[str | None]) -> list[str | None]:
    """``seats`` (a profile id per seat, None for a guest) with the seats that do not count for
    ratings made None: a person's seats after their first. A bot level counts on every seat.

    >>> counted_seats(["ann", None, "ann", "bot-expert", "bot-expert"])
    ['ann', None, None, 'bot-expert', 'bot-expert']
    """
    seen: set[str] = set()
    counted: list[str | None] = []
    for player in seats:
        if player is None or (player in seen and not is_bot_profile(player)):
            counted.append(None)
        else:
            seen.add(player)
            counted.append(player)
    return counted


def rate_match(
    seats: Sequence[str | None],
    ratings: Mapping[str, Rating],
    sides: Sequence[Sequence[int]],
    ranks: Sequence[int],
    played: Mapping[str, int] | None = None,
) -> dict[str, Rating]:
    """The new rating of every profile counted in ``seats`` (a profile id per seat, None for a
    guest) after a match whose ``sides`` (lists of seats) finished with ``ranks`` (1 = best); empty
    when fewer than two sides hold a counted seat.

    ``ratings`` holds the current rating of each profile; a profile missing from it starts at
    :data:`NEW_PLAYER`. ``played`` (the rated matches of each profile so far; missing is 0) bounds
    the wins over bots and newcomers, as the server rates; without it (measuring the bots against
    each other) openskill alone decides.
    """
    counted = counted_seats(seats)
    kept = [index for index, side in enumerate(sides) if any(counted[seat] is not None for seat in side)]
    if len(kept) < 2:
        return {}
    sides = [sides[index] for index in kept]
    ranks = [ranks[index] for index in kept]
    before = [NEW_PLAYER if p is None else ratings.get(p, NEW_PLAYER) for p in counted]
    teams = [[_MODEL.rating(before[seat].mu, before[seat].sigma) for seat in side] for side in sides]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    new: defaultdict[str, list[Rating]] = defaultdict(list)
    for index, (side, team) in enumerate(zip(sides, rated, strict=True)):
        ceiling = None if played is None else _ceiling(index, sides, ranks, counted, before, played)
        for seat, after in zip(side, team, strict=True):
            profile = counted[seat]
            if profile is None:
                continue
            mu = after.mu if ceiling is None else min(after.mu, max(before[seat].mu, ceiling))
            new[profile].append(Rating(mu, after.sigma))
    return {
        profile: Rating(
            sum(r.mu for r in results) / len(results), sum(r.sigma for r in results) / len(results)
        )
        for profile, results in new.items()
    }


def _ceiling(
    side: int,
    sides: Sequence[Sequence[int]],
    ranks: Sequence[int],
    counted: Sequence[str | None],
    before: Sequence[Rating],
    played: Mapping[str, int],
) -> float | None:
    """How high the ``mu`` of the seats of ``side`` may rise: None (as openskill says) when the side
    beat or tied an established person, else a step above the best it beat or tied (nobody: no
    rise at all)."""
    beaten = [
        seat
        for other, seats in enumerate(sides)
        if other != side and ranks[other] >= ranks[side]
        for seat in seats
        if counted[seat] is not None
    ]
    if any(_established(counted[seat], played) for seat in beaten):
        return None
    return max((before[seat].mu + STEP for seat in beaten), default=float("-inf"))


def _established(player: str | None, played: Mapping[str, int]) -> bool:
    return player is not None and not is_bot_profile(player) and played.get(player, 0) >= ESTABLISHED
