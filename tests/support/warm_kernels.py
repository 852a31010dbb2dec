"""Compiles the search's numba kernels into their cache once, before the test workers start.

numba keeps each compiled kernel beside its source (``src/smear/search/__pycache__``), but a fresh
clone has none: each pytest worker whose first server warms its hints, or whose test plays out hands,
would compile the same kernels at the same moment, about ten CPU-seconds each. ``scripts/test`` runs
this first, beside mypy, and every worker then loads them from the cache.

    python tests/support/warm_kernels.py
"""

from __future__ import annotations

from smear import find_rules
from smear.search.playouts import play_hand, play_random_hands
from smear.search.tables import S_DEALER, S_STEPS, kernel_rules
from smear.server.players.hints import warm_search


def main() -> None:
    warm_search()  # the solver, as each server warms it for its hints
    rules = kernel_rules(find_rules("house"), players=4)
    play_random_hands(rules, 2, seed=1)
    recorded = play_random_hands(rules, 1, seed=1, record=True)
    assert recorded.deals is not None and recorded.codes is not None
    summary = recorded.summary[0]
    actions = [int(code) for code in recorded.codes[0][: summary[S_STEPS]]]
    play_hand(rules, [int(mask) for mask in recorded.deals[0]], int(summary[S_DEALER]), actions)
    print("search kernels compiled")


if __name__ == "__main__":
    main()
