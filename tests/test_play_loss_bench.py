"""bench/play_loss.py: where a bot's card play loses against the true deal."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import play_loss as bench  # bench/ is on the tests' path (pyproject's pytest settings)
import pytest
from helpers import closing_figures, run_bench

from smear import Phase, apply, find_rules, new_match, player_view
from smear.bots import HeuristicBot
from smear.bots.expert import card_worths
from smear.bots.lookahead import CardSolver
from smear.cards import parse_card

BENCH = Path(bench.__file__)


def card(name: str) -> int:
    return int(parse_card(name))


def test_a_trump_setting_lead_s_suit_part_is_the_best_card_against_the_best_of_the_suit_led() -> None:
    worths = {card("Ah"): 3.0, card("2h"): 1.0, card("Ks"): 5.0, card("3s"): 0.0}
    assert bench.suit_part(worths, card("2h")) == 2.0  # of a loss of 4: 2 for the suit, 2 for the card
    assert bench.suit_part(worths, card("Ah")) == 2.0
    assert bench.suit_part(worths, card("3s")) == 0.0  # the right suit, the wrong card


def test_each_legal_card_is_worth_its_side_s_margin_the_bid_counted() -> None:
    state = new_match(find_rules("house"), 4, True, seed=5)
    policy = HeuristicBot()
    rng = random.Random(5)
    while state.public.phase is not Phase.PLAY:
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, policy.choose(player_view(state, seat), rng), seat)
    solver = CardSolver()
    worths = {card: margin for card, (margin, _) in card_worths(solver, state).items()}
    seat = state.public.to_act
    assert seat is not None
    legal = {int(action.card) for action in player_view(state, seat).legal_actions}
    assert set(worths) == legal
    pub = state.public
    assert seat == pub.bidder
    for played, (ours, theirs) in solver.card_points(state).items():
        # The bidder leads the first trick: below its bid it loses the bid, whatever it took.
        expected = (ours if ours >= pub.bid else -pub.bid) - theirs
        assert worths[played] == expected


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_bench(BENCH, *args)


def figures(run: subprocess.CompletedProcess[str]) -> dict[str, float]:
    return closing_figures(run, ["loss_per_hand", "first_lead_share", "trump_suit_share"])


def test_random_play_loses_more_than_the_heuristic_and_the_shares_add_up() -> None:
    # A loss counts the bid, and who bids depends on the bot: over a dozen hands the side that bids
    # more can lose more whatever its play, so the comparison takes five dozen.
    heuristic = figures(run("--bot", "heuristic", "--hands", "60"))
    random_play = figures(run("--bot", "random", "--hands", "60"))
    assert 0 < heuristic["loss_per_hand"] < random_play["loss_per_hand"]
    for found in (heuristic, random_play):
        assert 0 <= found["trump_suit_share"] <= found["first_lead_share"] <= 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "nobody"], "unknown bot: 'nobody'"),
        (["--bot", "omniscient"], "unknown bot: 'omniscient'"),
        (["--hands", "0"], "--hands must be at least 1"),
        (["--rules", "nowhere"], "nowhere"),
        (["--players", "3"], "not 3"),
        (["--players", "6"], "36 cards in the hands are more than the solver takes (24)"),
    ],
)
def test_the_bench_refuses_what_it_cannot_measure(args: list[str], message: str) -> None:
    refused = run(*args)
    assert refused.returncode == 2
    assert message in refused.stderr, refused.stderr
