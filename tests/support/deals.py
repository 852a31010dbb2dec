"""Seeded deals for a test's in-process server: every match a table starts from then on is dealt
(and its seats drawn) from one seed, so that a test whose people choose alike, against the
heuristic bots (which draw nothing at random), plays the same match every run, as long each time.
"""

from __future__ import annotations

import random

import pytest

from smear.server.tables.table import Table


def seed_deals(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Until the test ends, a table draws its next match from ``seed`` rather than at random; a
    match started with a seed of its own keeps it."""
    draws = random.Random(seed)
    deal = getattr(Table._deal_match, "unseeded", Table._deal_match)  # a second call replaces the first

    def seeded(table: Table, given: int | None, reseat: bool) -> None:
        deal(table, draws.randrange(1 << 62) if given is None else given, reseat)

    seeded.unseeded = deal  # type: ignore[attr-defined]
    monkeypatch.setattr(Table, "_deal_match", seeded)
