"""Reading how closely each seat plays the heuristic's cards from the hands it showed earlier."""

from __future__ import annotations

import random

import pytest
from test_bidreads import played_match

from smear import player_view
from smear.bots import ExpertBot, HeuristicBot
from smear.bots.inference import AGREE, play_likelihood
from smear.bots.playreads import LEAST_AGREE, MOST_AGREE, PRIOR_CHOICES, hand_agreements, play_agreements
from smear.dealing import next_hand
from smear.state import Phase
from smear.transitions import apply


def each_hands_counts(names: tuple[str, ...], seed: int, hands: int) -> list[list[tuple[int, int]]]:
    """Each finished hand's ``(chosen, agreed)`` per seat, read against the heuristic."""
    pub = played_match(names, seed=seed, hands=hands).public
    scores = [pub.start_scores, *(result.scores for result in pub.results)]
    return [hand_agreements(result, scores[i], pub, HeuristicBot()) for i, result in enumerate(pub.results)]


def test_a_finished_hand_keeps_its_tricks_in_the_order_played() -> None:
    state = played_match(("heuristic",) * 4, seed=4, hands=1)
    pub = state.public
    assert pub.phase is Phase.HAND_OVER
    assert pub.results[-1].tricks == pub.tricks and len(pub.tricks) == 6
    # The next hand starts with no tricks; the finished hand keeps its own.
    assert next_hand(state).public.results[-1].tricks == pub.tricks


def test_seats_playing_the_heuristics_cards_agree_with_it_every_time() -> None:
    counts = each_hands_counts(("heuristic",) * 4, seed=3, hands=4)
    assert len(counts) == 4
    for hand in counts:
        assert all(agreed == chosen for chosen, agreed in hand)
    chosen = [sum(hand[seat][0] for hand in counts) for seat in range(4)]
    assert all(made > 4 for made in chosen)
    pub = played_match(("heuristic",) * 4, seed=3, hands=4).public
    read = play_agreements(pub, 0, HeuristicBot())
    assert read[0] == AGREE  # a seat does not read itself
    for seat in (1, 2, 3):
        expected = (chosen[seat] + AGREE * PRIOR_CHOICES) / (chosen[seat] + PRIOR_CHOICES)
        assert read[seat] == pytest.approx(min(MOST_AGREE, expected))
        assert read[seat] > AGREE


def test_a_seat_playing_other_cards_reads_below_the_prior() -> None:
    names = ("heuristic", "random", "heuristic", "heuristic")
    counts = each_hands_counts(names, seed=5, hands=5)
    random_chosen = sum(hand[1][0] for hand in counts)
    random_agreed = sum(hand[1][1] for hand in counts)
    assert random_chosen > 5 and random_agreed < random_chosen
    pub = played_match(names, seed=5, hands=5).public
    read = play_agreements(pub, 0, HeuristicBot())
    assert LEAST_AGREE <= read[1] < AGREE < read[2]


def test_nothing_is_read_where_cards_are_drawn_after_the_deal() -> None:
    pub = played_match(("heuristic",) * 4, seed=2, preset="mcleod", hands=2).public
    assert len(pub.results) == 2
    assert play_agreements(pub, 0, HeuristicBot()) == (AGREE,) * 4


def test_a_deal_is_weighed_by_each_seats_own_agreement() -> None:
    state = played_match(("heuristic",) * 4, seed=6, hands=0)
    heuristic, rng = HeuristicBot(), random.Random(0)
    # Into the third trick, every card the heuristic's.
    while (seat := state.public.to_act) is not None and len(state.public.tricks) < 2:
        state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    assert seat is not None
    view = player_view(state, seat)
    others = [other for other in range(4) if other != seat]
    # On the true deal every other seat's choices agreed: only the chance given to them counts.
    for other in others:
        agree = [1.0] * 4
        agree[other] = 0.5
        weight = play_likelihood(view, state, heuristic, agree)
        assert weight <= 1.0
        assert weight == 1.0 or weight in {0.5**n for n in range(1, 12)}
    assert play_likelihood(view, state, heuristic, [1.0] * 4) == 1.0
    alone = 1.0
    for other in others:
        agree = [1.0] * 4
        agree[other] = 0.5
        alone *= play_likelihood(view, state, heuristic, agree)
    everyone = [0.5 if other != seat else 1.0 for other in range(4)]
    assert play_likelihood(view, state, heuristic, everyone) == pytest.approx(alone)
    assert alone < 1.0
    # The seat's own entry is never used, and one number is the same for every seat.
    mine = list(everyone)
    mine[seat] = 0.1
    assert play_likelihood(view, state, heuristic, mine) == play_likelihood(view, state, heuristic, everyone)
    assert play_likelihood(view, state, heuristic, 0.5) == play_likelihood(view, state, heuristic, everyone)


def test_the_expert_weighs_the_deals_by_what_it_read_of_the_play() -> None:
    state = played_match(("heuristic",) * 4, seed=3, hands=4)
    state = next_hand(state)
    seat = state.public.to_act
    assert seat is not None
    view = player_view(state, seat)
    read = ExpertBot().play_agreements(view)
    assert read == play_agreements(view.public, seat, HeuristicBot())
    assert all(agree > AGREE for other, agree in enumerate(read) if other != seat)
    assert ExpertBot(read_play=False, agree=0.6).play_agreements(view) == (0.6,) * 4
