"""The tests' seeded deals (``support.deals``): a browser test that plays a match to its end names a
seed, so that it plays the same match, as long, on every run. These check that the seed decides each
match's deal, and that a match started with a seed of its own keeps it."""

from __future__ import annotations

import pytest
from support.deals import seed_deals

from smear.server.tables.table import Table, TableSettings


def started(seed: int | None = None) -> Table:
    """A table of four, one person and three bots, its match started (with ``seed``, if given)."""
    table, token = Table.create(TableSettings(preset="house", players=4), "Ann")
    for bot in range(1, 4):
        table.set_bot(token, bot, True)
    table.start(token, seed=seed)
    return table


def first_deals(monkeypatch: pytest.MonkeyPatch, seed: int, tables: int = 2) -> list[tuple[int, ...]]:
    seed_deals(monkeypatch, seed)
    dealt = []
    for _ in range(tables):
        table = started()
        assert table.state is not None
        dealt.append(table.state.dealt)
    return dealt


def test_a_seed_deals_the_same_matches_in_the_same_order(monkeypatch: pytest.MonkeyPatch) -> None:
    first = first_deals(monkeypatch, 4)
    assert first == first_deals(monkeypatch, 4)
    assert first[0] != first[1]  # each match draws its own deal from the seed
    assert first != first_deals(monkeypatch, 5)


def test_without_a_seed_every_match_is_dealt_at_random() -> None:
    deals = set()
    for _ in range(3):
        table = started()
        assert table.state is not None
        deals.add(table.state.dealt)
    assert len(deals) == 3


def test_a_match_started_with_its_own_seed_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    mine = started(seed=11)
    seed_deals(monkeypatch, 4)
    again = started(seed=11)
    assert mine.state is not None and again.state is not None
    assert again.state.dealt == mine.state.dealt and again.seed == mine.seed
