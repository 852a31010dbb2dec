"""What the engine says of a hand's end, so that no client works it out again: what ended the match
(the target, the moon, elimination), why each side at the target has not won, which sides are
eliminated, and what a seat is dealt back from the stock after its discard."""

from __future__ import annotations

import random

import pytest
from helpers import HOUSE, MOON_HANDS, MOON_OUT, MOON_TRICKS, act, play_tricks, rules_named, start, thrown_in

from smear import Phase, State, apply, find_rules, legal_actions, new_match, next_hand
from smear.bots import random_action
from smear.legal import options_for_discard
from smear.scoring import MatchEnd, NotWon, above_target, eliminated_sides, settle_hand

MOON = HOUSE.with_changes(shoot_the_moon=True)
ELIMINATION = HOUSE.with_changes(elimination=-21)
NINE_CARD = find_rules("nine_card")


@pytest.mark.parametrize(
    ("scores", "taken", "bidder_side", "bid", "winner", "ended_by", "above"),
    [
        # Side 0 bids 2, makes it and reaches 21; side 1, at 21 too, is beaten to it.
        ([19, 18, 0], [2, 3, 1], 0, 2, 0, MatchEnd.TARGET, ((1, NotWon.BEATEN),)),
        # Side 2 bids and makes 2 below the target; sides 0 and 1 tie at 21: another hand.
        ([19, 19, 0], [2, 2, 2], 2, 2, None, None, ((0, NotWon.TIE), (1, NotWon.TIE))),
        # Side 0 is set from 25 and stays above the target, alone: a set side does not win by it.
        ([25, 3, 0], [2, 3, 1], 0, 4, None, None, ((0, NotWon.SET),)),
        # Side 0 sinks to -22: side 1, the best of the sides still in, wins.
        ([-19, 5, 0], [0, 4, 2], 0, 3, 1, MatchEnd.ELIMINATION, ()),
    ],
)
def test_what_ended_the_match_and_why_the_others_at_the_target_have_not_won(
    scores: list[int],
    taken: list[int],
    bidder_side: int,
    bid: int,
    winner: int | None,
    ended_by: MatchEnd | None,
    above: tuple[tuple[int, NotWon], ...],
) -> None:
    settled = settle_hand(ELIMINATION, scores, taken, bidder_side, bid)
    assert (settled.winner, settled.ended_by, settled.above_target) == (winner, ended_by, above)


def test_the_moon_ends_the_match_either_way() -> None:
    made = settle_hand(MOON, [3, 22, 0, 0], [6, 0, 0, 0], 0, 7)
    assert (made.winner, made.ended_by, made.above_target) == (0, MatchEnd.MOON_MADE, ((1, NotWon.BEATEN),))
    lost = settle_hand(MOON, [3, 5, 9, 0], [5, 1, 0, 0], 0, 7)
    assert (lost.winner, lost.ended_by, lost.above_target) == (2, MatchEnd.MOON_SET, ())
    # From below zero a moon made only resets the score, and the match goes on.
    reset = settle_hand(MOON, [-3, 5, 9, 0], [6, 0, 0, 0], 0, 7)
    assert (reset.scores[0], reset.winner, reset.ended_by) == (0, None, None)


def test_where_only_the_bidding_side_wins_the_others_wait_at_the_target() -> None:
    # nine_card: side 0 is set; side 1 takes 3 and passes the target, but did not bid.
    settled = settle_hand(NINE_CARD, [20, 20, 0, 0], [2, 3, 0, 0], 0, 5)
    assert settled.winner is None and settled.above_target == ((1, NotWon.BIDDER_ONLY),)
    # A hand thrown in settles nothing, whatever the rules.
    assert above_target(NINE_CARD, [20, 23, 0, 0], None, None, False) == ((1, NotWon.THROWN_IN),)


def test_where_the_highest_score_wins_a_set_bidder_below_a_tie_waits_for_the_tie() -> None:
    rules = find_rules("ten_point").with_changes(highest_score_wins=True)
    # Side 0 is set to 22; sides 1 and 2 tie at 25 above it: another hand, for all three.
    tied = settle_hand(rules, [25, 22, 22], [0, 3, 3], 0, 3)
    assert tied.scores == (22, 25, 25) and tied.winner is None
    assert tied.above_target == ((0, NotWon.TIE), (1, NotWon.TIE), (2, NotWon.TIE))
    # A tie at the top goes to the bidding side, set or not.
    won = settle_hand(rules, [29, 21, 0], [1, 6, 3], 0, 2)
    assert won.scores == (27, 27, 3) and won.winner == 0 and won.above_target == ((1, NotWon.BEATEN),)


def test_a_hand_thrown_in_settles_nothing() -> None:
    assert above_target(HOUSE, [22, 22, 3], None, None, False) == (
        (0, NotWon.THROWN_IN),
        (1, NotWon.THROWN_IN),
    )
    state = thrown_in()
    assert state.public.results[-1].above_target == () and state.public.results[-1].ended_by is None


def test_eliminated_sides() -> None:
    assert eliminated_sides(ELIMINATION, [-21, 5, -30]) == (0, 2)
    assert eliminated_sides(HOUSE, [-40, 5]) == ()  # elimination off


def test_a_hands_result_says_what_ended_the_match() -> None:
    state = start(MOON, MOON_HANDS, dealer=3, out=MOON_OUT)
    state = play_tricks(act(state, "bid 7", "pass", "pass", "pass"), *MOON_TRICKS)
    assert state.public.phase is Phase.MATCH_OVER and state.public.results[-1].ended_by is MatchEnd.MOON_MADE
    state = start(HOUSE, MOON_HANDS, dealer=3, out=MOON_OUT)
    state = play_tricks(act(state, "bid 6", "pass", "pass", "pass"), *MOON_TRICKS)
    assert state.public.phase is Phase.HAND_OVER and state.public.results[-1].ended_by is None
    state = start(HOUSE, MOON_HANDS, dealer=3, out=MOON_OUT, scores=[15, 0, 0, 0])
    state = play_tricks(act(state, "bid 6", "pass", "pass", "pass"), *MOON_TRICKS)
    assert state.public.results[-1].ended_by is MatchEnd.TARGET and state.public.winner == 0


# --- what a seat is dealt back after discarding ----------------------------------------------------


def discards(rules_name: str, players: int, teams: bool, seed: int) -> list[tuple[State, int]]:
    """Every discard of a seeded random match, as (the state before it, the seat discarding)."""
    rng = random.Random(seed)
    state = new_match(rules_named(rules_name), players, teams, seed=seed)
    found = []
    while state.public.phase is not Phase.MATCH_OVER and state.public.hand_number <= 4:
        pub = state.public
        if pub.phase is Phase.HAND_OVER:
            state = next_hand(state)
            continue
        if pub.phase is Phase.DISCARD:
            assert pub.to_act is not None
            found.append((state, pub.to_act))
        state = apply(state, random_action(legal_actions(state), rng))
    return found


@pytest.mark.parametrize(
    ("preset", "players", "teams"),
    [("widow", 3, False), ("nine_card", 4, False), ("nine_card", 5, False), ("nine_card", 6, True)],
)
def test_the_refill_a_seat_is_told_of_is_the_one_it_gets(preset: str, players: int, teams: bool) -> None:
    shorts = 0
    for before, seat in discards(preset, players, teams, seed=players):
        pub = before.public
        hand = before.hands[seat]
        options = options_for_discard(pub, hand, seat)
        refill = pub.refill_after(seat, hand, options.size)
        after = apply(before, legal_actions(before)[0])
        assert refill.draws == after.public.refilled(seat)
        assert refill.holds == after.hands[seat].bit_count()
        assert pub.order is not None
        trumps = (hand & pub.order.trump_mask).bit_count()
        keep = pub.rules.hand_size
        if pub.rules.trumps_only:  # short: less than a hand once dealt back
            assert refill.short == (refill.holds < keep)
        elif pub.refills_after_discard(seat):  # short: some non-trump is kept
            kept_plain = after.hands[seat] & ~pub.order.trump_mask & hand
            assert refill.short == bool(kept_plain)
        else:
            assert refill == (0, hand.bit_count() - options.size, False)
        shorts += refill.short
        assert refill.short == (pub.refills_after_discard(seat) and trumps + pub.stock_left < keep)
    assert preset == "widow" or players < 6 or shorts > 0  # six at nine_card: no stock at all
