"""Facts the engine states about a hand, so that no client works them out again: what became of
the bid, which seats are dealt back from the stock after discarding, where the bidder's extra cards
came from, and the codes a refusal carries instead of words."""

from __future__ import annotations

import pytest
from helpers import HOUSE, MOON_HANDS, MOON_OUT, MOON_TRICKS, act, play_tricks, start, thrown_in

from smear import IllegalActionError, Phase, State, apply, find_rules, legal_actions, parse_action
from smear.state import BidderDraws, HandOutcome

MOON = HOUSE.with_changes(shoot_the_moon=True)


def outcome(state: State) -> HandOutcome:
    assert state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)
    return state.public.results[-1].outcome


@pytest.mark.parametrize(("bid", "expected"), [("bid 6", HandOutcome.MADE), ("bid 7", HandOutcome.MOON_MADE)])
def test_a_bid_made(bid: str, expected: HandOutcome) -> None:
    state = start(MOON, MOON_HANDS, dealer=3, out=MOON_OUT)
    assert outcome(play_tricks(act(state, bid, "pass", "pass", "pass"), *MOON_TRICKS)) is expected


def test_a_moon_made_from_below_zero_is_a_reset() -> None:
    state = start(MOON, MOON_HANDS, dealer=3, out=MOON_OUT, scores=[-4, 3, 0, 0])
    state = play_tricks(act(state, "bid 7", "pass", "pass", "pass"), *MOON_TRICKS)
    assert outcome(state) is HandOutcome.MOON_RESET and state.public.scores[0] == 0


@pytest.mark.parametrize(("bid", "expected"), [("bid 6", HandOutcome.SET), ("bid 7", HandOutcome.MOON_SET)])
def test_a_bid_set(bid: str, expected: HandOutcome) -> None:
    # The little joker sleeps: five points are in play, so neither six nor the moon can be made.
    hands = ["Ah Kh Qh Jh BJ 8c", *MOON_HANDS[1:]]
    state = start(MOON, hands, dealer=3, out="8h 9h Th LJ 8d 8s")
    state = play_tricks(act(state, bid, "pass", "pass", "pass"), *MOON_TRICKS[:5], "8c 9c 9d 9s")
    assert outcome(state) is expected and not state.public.results[-1].made


def test_a_hand_everyone_passes_is_thrown_in() -> None:
    state = thrown_in()
    assert outcome(state) is HandOutcome.THROWN_IN and state.public.results[-1].bidder is None


NINE_CARD = find_rules("nine_card")
WIDOW = find_rules("widow")
NINE_DEAL = [
    "Ah Kh Qh Jh Th 9h 8h 2c 3c",
    "BJ 7h 4c 5c 6c 7c 8c 9c Tc",
    "LJ 2h 3h 2d 3d 4d 5d 6d 7d",
    "4h 5h 6h Jc Qc Kc Ac 2s 3s",
]
NINE_OUT = "4s 5s 6s Jd 7s 8s 9s Ts Js Qs Ks As 8d 9d Td Qd Kd Ad"


def test_who_refills_after_discarding() -> None:
    # nine_card: everyone, the bidder first; before the auction ends nobody is known to.
    state = start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT)
    assert [state.public.refills_after_discard(seat) for seat in range(4)] == [False] * 4
    state = act(state, "bid 5", "pass", "pass", "pass")
    assert [state.public.refills_after_discard(seat) for seat in range(4)] == [True] * 4
    # widow: everyone but the bidder, who takes the rest of the stock instead.
    state = start(WIDOW, NINE_DEAL[:3], dealer=2)
    state = act(state, "bid 4", "pass", "pass")
    assert [state.public.refills_after_discard(seat) for seat in range(3)] == [False, True, True]
    # a preset without a stock: nobody.
    state = act(start(HOUSE, MOON_HANDS, dealer=3, out=MOON_OUT), "bid 2", "pass", "pass", "pass")
    assert not any(state.public.refills_after_discard(seat) for seat in range(4))


def test_the_bidders_draws_by_source() -> None:
    state = start(WIDOW, NINE_DEAL[:3], dealer=2)
    stock = state.public.stock_left - WIDOW.widow
    assert state.public.widow_left == 4 and state.public.bidder_draws() == BidderDraws(0, 0, 0)
    state = act(state, "bid 4", "pass", "pass", "widow")
    assert state.public.widow_left == 0 and state.public.bidder_draws() == BidderDraws(0, 4, 0)
    assert state.public.stock_left == stock
    state = act(state, "trump h")
    # The others trade first; then the bidder takes the rest of the stock before discarding.
    while state.public.to_act != state.public.bidder:
        state = apply(state, legal_actions(state)[0])
    draws = state.public.bidder_draws()
    assert draws.kitty == 0 and draws.widow == 4 and draws.stock == state.public.took - 4 > 0
    kitty = find_rules("five_point").with_changes(kitty=3)
    hands = ["Ah Kh Qh Jh Th 9h", "Ac Kc Qc Jc Tc 9c", "Ad Kd Qd Jd Td 9d", "As Ks Qs Js Ts 9s"]
    state = act(start(kitty, hands, teams=True), "bid 2", "pass", "pass", "pass")
    assert state.public.bidder_draws() == BidderDraws(3, 0, 0)


def refusal(state: State, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        apply(state, parse_action(text))
    return caught.value


def test_refusals_carry_codes_and_say_them_in_words() -> None:
    state = start(HOUSE, MOON_HANDS, dealer=3, out=MOON_OUT)
    err = refusal(state, "Ah")
    assert (err.code, err.args_map) == ("wrong_phase", {"phase": "auction"})
    assert str(err) == "you cannot play Ah: it is time to bid or pass"  # the words come from the code
    # Hearts are trump; clubs are led and Ben, holding the Qc, tries a diamond.
    hands = ["Ah Jh 9h Ks Tc LJ", "Qh Td Kd Qc Jd Ad", "8h Kh Js Qs As 9s", "Th Ac Kc Qd Jc 9c"]
    state = act(start(HOUSE, hands, dealer=3), "bid 3", "pass", "pass", "pass", "Ah", "Qh", "8h", "Th", "Tc")
    err = refusal(state, "Td")
    assert (err.code, err.args_map) == ("must_follow", {"led_suit": "c"})
    assert err.describe("Ben") == "Ben cannot play Td: clubs were led and Ben holds a club"
