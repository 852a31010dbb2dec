"""The rating players see (smear.server.players.ratings.Rating.shown): decided once on the server, on a
familiar scale, never negative, a whole number; the board still orders by the ordinal."""

from __future__ import annotations

import doctest

import smear.server.players.ratings
from smear.server.players.ratings import BOT_START, NEW_PLAYER, SHOWN_AT_ZERO, rate_match


def test_a_first_lost_match_reads_a_little_below_a_new_players_rating_never_negative() -> None:
    after = rate_match(["ann", "ben"], {}, [[0], [1]], [1, 2], played={})
    assert after["ben"].ordinal < 0  # what players used to see: a negative number
    assert 0 < after["ben"].shown < NEW_PLAYER.shown == SHOWN_AT_ZERO
    assert after["ann"].shown > NEW_PLAYER.shown
    assert all(isinstance(rating.shown, int) for rating in after.values())


def test_the_shown_scale_keeps_the_order_and_places_the_bots() -> None:
    levels = sorted(BOT_START.values(), key=lambda rating: rating.ordinal)
    shown = [rating.shown for rating in levels]
    assert shown == sorted(shown) and min(shown) > 0
    assert BOT_START["expert"].shown > NEW_PLAYER.shown


def test_doctest() -> None:
    assert doctest.testmod(smear.server.players.ratings).failed == 0
