"""Reading how each seat bids from the hands it showed earlier in the match."""

from __future__ import annotations

import math
import random

from smear import find_rules, new_match, player_view
from smear.actions import Action, Bid
from smear.bots import ExpertBot, HeuristicBot, make_bot
from smear.bots.bidreads import PRIOR, Reading, ShiftedBids, best_shift, bid_shifts, hands_shown, readings
from smear.dealing import next_hand
from smear.state import Phase, State
from smear.transitions import apply

HOUSE = find_rules("house")


def played_match(names: tuple[str, ...], seed: int, preset: str = "house", hands: int = 99) -> State:
    """A match of four in teams played by the named bots, stopped after ``hands`` finished hands."""
    bots = [make_bot(name) for name in names]
    rng = random.Random(seed)
    state = new_match(find_rules(preset), 4, True, seed=seed)
    while state.public.phase is not Phase.MATCH_OVER and len(state.public.results) < hands:
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
            continue
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, bots[seat].choose(player_view(state, seat), rng), seat)
    return state


def test_a_finished_hand_keeps_its_auction_and_the_cards_each_seat_played() -> None:
    state = played_match(("heuristic",) * 4, seed=4, hands=1)
    pub = state.public
    result = pub.results[-1]
    assert result.bids == pub.bids and len(result.bids) == 4
    for trick in pub.tricks:
        for seat, card in trick.plays():
            assert card in result.played[seat]
    assert sum(len(cards) for cards in result.played) == len(pub.tricks) * 4
    # In house every card dealt is played: the hand each seat was dealt is shown.
    assert hands_shown(result, pub) == list(state.dealt)


def test_nothing_is_read_from_a_hand_where_cards_are_drawn_after_the_deal() -> None:
    state = played_match(("heuristic",) * 4, seed=2, preset="mcleod", hands=2)
    assert len(state.public.results) == 2
    assert readings(state.public) == [[], [], [], []]
    assert bid_shifts(state.public, 0) == (0.0, 0.0, 0.0, 0.0)


def test_a_reading_misses_by_how_far_the_shifted_count_falls_outside_it() -> None:
    bid_three = Reading(count=4.0, low=2.75, high=3.75)
    assert bid_three.miss(0.0) == 0.25
    assert bid_three.miss(-0.5) == 0.0
    assert bid_three.miss(-2.0) == 0.75
    passed = Reading(count=4.0, low=-math.inf, high=2.75)
    assert passed.miss(-1.5) == 0.0
    assert passed.miss(0.0) == 1.25


def test_the_best_shift_follows_what_a_seat_shows_against_the_prior() -> None:
    assert best_shift([]) == 0.0
    # A seat that bid a point under the heuristic's count every time.
    under = Reading(count=4.0, low=2.75, high=3.75)
    once = best_shift([under])
    often = best_shift([under] * 6)
    assert -1.25 <= often <= -0.25
    assert once >= often  # one hand moves the shift less than six, against the prior
    assert PRIOR * once * once <= under.miss(0.0)
    # Passing on good hands says the same.
    assert best_shift([Reading(count=4.0, low=-math.inf, high=2.75)] * 6) <= -1.0
    # Bids that agree with the heuristic keep it at zero.
    assert best_shift([Reading(count=3.2, low=2.75, high=3.75)] * 6) == 0.0


def test_a_seat_that_bids_its_bare_count_is_read_as_bidding_less_than_the_heuristic() -> None:
    names = ("heuristic", "counting", "heuristic", "heuristic")
    shifts = [bid_shifts(played_match(names, seed).public, 0) for seed in range(4)]
    for shift in shifts:
        assert shift[0] == 0.0  # its own seat
        assert shift[1] <= -0.5
        assert abs(shift[2]) <= 0.25 and abs(shift[3]) <= 0.25
    # The first hand has nothing to read.
    assert bid_shifts(new_match(HOUSE, 4, True, seed=1).public, 2) == (0.0,) * 4


def bid_amount(action: Action) -> int:
    return action.amount if isinstance(action, Bid) else 0


def test_shifted_bids_bid_as_the_heuristic_unshifted_and_lower_shifted_down() -> None:
    heuristic = HeuristicBot()
    unshifted = ShiftedBids((0.0,) * 4)
    lower = ShiftedBids((-1.5,) * 4)
    lowered = 0
    for seed in range(40):
        state = new_match(HOUSE, 4, True, seed=seed)
        for _ in range(seed % 4):  # each seat of the auction in turn
            seat = state.public.to_act
            assert seat is not None
            state = apply(state, heuristic.choose(player_view(state, seat), random.Random(0)), seat)
        seat = state.public.to_act
        assert seat is not None
        view = player_view(state, seat)
        rng = random.Random(seed)
        chosen = heuristic.choose(view, rng)
        assert unshifted.choose(view, rng) == chosen
        shifted = lower.choose(view, rng)
        assert bid_amount(shifted) <= bid_amount(chosen)
        lowered += bid_amount(shifted) < bid_amount(chosen)
    assert lowered >= 10


def test_the_expert_plays_out_the_auction_with_the_shifts_it_read() -> None:
    names = ("heuristic", "counting", "heuristic", "heuristic")
    state = played_match(names, seed=0, hands=3)
    state = next_hand(state)
    seat = state.public.to_act
    assert seat is not None
    view = player_view(state, seat)
    expert = ExpertBot()
    shifts = expert.bid_shifts(view)
    assert shifts == bid_shifts(view.public, seat) and shifts[1] < 0
    policy = expert.playout_policy(view)
    assert isinstance(policy, ShiftedBids) and policy.shifts == shifts
    assert ExpertBot(infer=False).playout_policy(view) is not policy
    assert not isinstance(ExpertBot(infer=False).playout_policy(view), ShiftedBids)
    # Before anything is shown the play-outs bid as the heuristic.
    fresh = new_match(HOUSE, 4, True, seed=0)
    first = player_view(fresh, fresh.public.to_act or 0)
    assert expert.playout_policy(first) is expert.policy
