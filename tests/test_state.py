"""The flow of a hand: the auction, trump, the discard, who may play what, and the errors."""

from __future__ import annotations

import pickle

import pytest
from helpers import HOUSE, TEN_POINT, act, cards, legal_cards, play_tricks, start

from smear import (
    Bid,
    Discard,
    IllegalActionError,
    NameTrump,
    NotYourTurnError,
    Pass,
    Phase,
    SmearError,
    State,
    Suit,
    apply,
    legal_actions,
    new_match,
    next_hand,
    parse_action,
)


def refusal(state: State, text: str, seat: int | None = None) -> IllegalActionError:
    """The error refusing ``text``; also checks that the state did not change."""
    before = pickle.dumps(state)
    with pytest.raises(IllegalActionError) as caught:
        apply(state, parse_action(text), seat)
    assert pickle.dumps(state) == before
    return caught.value


def bids(state: State) -> list[int]:
    return [a.amount for a in legal_actions(state) if isinstance(a, Bid)]


def may_pass(state: State) -> bool:
    return Pass() in legal_actions(state)


# --- the auction --------------------------------------------------------------------------------


def test_the_player_left_of_the_dealer_bids_first() -> None:
    state = new_match(HOUSE, 4, seed=1, dealer=2)
    assert state.public.dealer == 2
    assert state.public.phase is Phase.AUCTION
    assert state.public.to_act == 3


def test_house_bids_go_from_two_to_six() -> None:
    state = new_match(HOUSE, 4, seed=1)
    assert may_pass(state)
    assert bids(state) == [2, 3, 4, 5, 6]


def test_ten_point_bids_go_from_two_to_ten() -> None:
    state = new_match(TEN_POINT, 4, seed=1)
    assert may_pass(state)
    assert bids(state) == list(range(2, 11))


def test_each_bid_must_be_higher_than_the_last() -> None:
    state = act(new_match(HOUSE, 4, seed=1), "bid 3")
    assert bids(state) == [4, 5, 6]
    assert "the bid must be higher than 3" in str(refusal(state, "bid 3"))
    assert "higher than 3" in str(refusal(state, "bid 2"))


def test_after_a_bid_of_six_the_others_can_only_pass() -> None:
    state = act(new_match(HOUSE, 4, seed=1), "bid 6")
    assert legal_actions(state) == (Pass(),)


@pytest.mark.parametrize("amount", [-1, 0, 1, 7, 100])
def test_house_bids_outside_two_to_six_are_refused(amount: int) -> None:
    state = new_match(HOUSE, 4, seed=1)
    with pytest.raises(IllegalActionError, match="bids go from 2 to 6"):
        apply(state, Bid(amount))


@pytest.mark.parametrize("amount", [0, 1, 11, 12])
def test_ten_point_bids_outside_two_to_ten_are_refused(amount: int) -> None:
    state = new_match(TEN_POINT, 4, seed=1)
    assert "bids go from 2 to 10" in str(refusal(state, f"bid {amount}"))


def test_each_player_bids_once_and_the_highest_bidder_wins_the_auction() -> None:
    state = new_match(HOUSE, 4, seed=1, dealer=3)
    state = act(state, "pass", "bid 2", "bid 3", "pass")
    pub = state.public
    assert pub.bids == (None, 2, 3, None)
    assert pub.bid_history() == ((0, None), (1, 2), (2, 3), (3, None))
    assert (pub.bidder, pub.bid) == (2, 3)
    assert pub.phase is Phase.PLAY
    assert pub.to_act == 2


def test_a_pass_cannot_come_back() -> None:
    state = new_match(HOUSE, 4, seed=1, dealer=3)
    state = act(state, "pass")
    seen = []
    while state.public.phase is Phase.AUCTION:
        seen.append(state.public.to_act)
        with pytest.raises(NotYourTurnError):
            apply(state, Bid(6), seat=0)
        state = apply(state, legal_actions(state)[-1])
    assert seen == [1, 2, 3]
    assert state.public.bidder != 0


def test_the_dealer_must_bid_when_everyone_else_passed() -> None:
    state = act(new_match(HOUSE, 4, seed=1, dealer=3), "pass", "pass", "pass")
    assert state.public.to_act == 3
    assert not may_pass(state)
    assert bids(state) == [2, 3, 4, 5, 6]
    assert "everyone else passed, so the dealer must bid" in str(refusal(state, "pass"))
    state = act(state, "bid 4")
    assert (state.public.bidder, state.public.bid) == (3, 4)


def test_ten_point_dealer_must_bid_too() -> None:
    state = act(new_match(TEN_POINT, 3, seed=1, dealer=2), "pass", "pass")
    assert not may_pass(state)
    assert bids(state) == list(range(2, 11))
    assert "the dealer must bid" in str(refusal(state, "pass"))


def test_the_dealer_may_pass_when_someone_bid() -> None:
    state = act(new_match(HOUSE, 4, seed=1, dealer=3), "bid 2", "pass", "pass")
    assert may_pass(state)
    state = act(state, "pass")
    assert (state.public.bidder, state.public.bid) == (0, 2)


# --- turns and phases ---------------------------------------------------------------------------


def test_acting_out_of_turn_is_refused() -> None:
    state = new_match(HOUSE, 4, seed=1, dealer=3)
    with pytest.raises(NotYourTurnError) as caught:
        apply(state, Bid(2), seat=2)
    assert isinstance(caught.value, IllegalActionError)
    assert "seat 0's turn" in str(caught.value)
    assert apply(state, Bid(2), seat=0) == apply(state, Bid(2))


@pytest.mark.parametrize("text", ["trump h", "Ah", "discard Ah"])
def test_an_action_of_another_phase_is_refused(text: str) -> None:
    state = new_match(HOUSE, 4, seed=1)
    assert "it is time to bid or pass" in str(refusal(state, text))


def test_nothing_can_be_done_once_the_hand_is_over_until_the_next_deal() -> None:
    state = new_match(HOUSE, 3, seed=4)
    while state.public.to_act is not None:
        state = apply(state, legal_actions(state)[0])
    assert state.public.phase is Phase.HAND_OVER
    assert legal_actions(state) == ()
    assert "the hand is over" in str(refusal(state, "pass"))
    assert "the hand is over" in str(refusal(state, "Ah", seat=0))


def test_the_next_hand_moves_the_deal_one_seat_clockwise() -> None:
    state = new_match(HOUSE, 4, seed=4, dealer=3)
    with pytest.raises(SmearError):
        next_hand(state)
    while state.public.to_act is not None:
        state = apply(state, legal_actions(state)[0])
    scores = state.public.scores
    second = next_hand(state)
    assert second.public.hand_number == 2
    assert second.public.dealer == 0
    assert second.public.to_act == 1
    assert second.public.phase is Phase.AUCTION
    assert second.public.scores == scores
    assert second.public.tricks == ()
    assert second.public.trump is None
    assert [mask.bit_count() for mask in second.hands] == [6, 6, 6, 6]


def test_the_same_seed_deals_the_same_match() -> None:
    assert new_match(HOUSE, 5, seed=9) == new_match(HOUSE, 5, seed=9)
    assert new_match(HOUSE, 5, seed=9).hands != new_match(HOUSE, 5, seed=10).hands


# --- house: the first lead makes trump ----------------------------------------------------------

# Hearts are led to the first trick and the bidder (seat 0) wins it, so seat 0 leads trick 2.
TRUMP_LED_HANDS = [
    "Ah LJ 8c 9c Tc Jc",
    "8h 9h BJ Qc Kc 8d",
    "Th 8s 9s Ts Js Qs",
    "Jh Ac 9d Td Jd Qd",
]


def test_house_the_bidder_leads_and_may_not_lead_a_joker_to_the_first_trick() -> None:
    state = act(start(HOUSE, TRUMP_LED_HANDS), "bid 2", "pass", "pass", "pass")
    assert state.public.to_act == 0
    assert state.public.trump is None
    assert legal_cards(state) == cards("Ah 8c 9c Tc Jc")
    assert "a joker may not be led to the first trick" in str(refusal(state, "LJ"))


@pytest.mark.parametrize(("lead", "trump"), [("Ah", Suit.HEARTS), ("8c", Suit.CLUBS)])
def test_house_the_suit_of_the_first_lead_is_trump(lead: str, trump: Suit) -> None:
    state = act(start(HOUSE, TRUMP_LED_HANDS), "bid 2", "pass", "pass", "pass", lead)
    assert state.public.trump is trump


def test_house_a_joker_may_be_led_from_the_second_trick() -> None:
    state = act(start(HOUSE, TRUMP_LED_HANDS), "bid 2", "pass", "pass", "pass")
    state = play_tricks(state, "Ah 8h Th Jh")
    assert state.public.to_act == 0
    assert legal_cards(state) == cards("LJ 8c 9c Tc Jc")


def test_house_a_joker_led_is_a_trump_lead() -> None:
    # RULES.md 3a: hearts are trump and LJ is led: a player holding a heart or BJ must play one.
    state = act(start(HOUSE, TRUMP_LED_HANDS), "bid 2", "pass", "pass", "pass")
    state = play_tricks(state, "Ah 8h Th Jh", "LJ")
    assert state.public.to_act == 1
    assert legal_cards(state) == cards("9h BJ")
    assert "trump (hearts) was led and you hold a trump" in str(refusal(state, "Qc"))
    state = act(state, "BJ")
    # seat 2 has neither a heart nor a joker: anything goes
    assert legal_cards(state) == cards("8s 9s Ts Js Qs")


def test_house_trump_led_must_be_followed_with_a_trump_or_a_joker() -> None:
    state = act(start(HOUSE, TRUMP_LED_HANDS), "bid 2", "pass", "pass", "pass", "Ah")
    assert legal_cards(state) == cards("8h 9h BJ")


# --- house: following suit (RULES.md 3a) --------------------------------------------------------


def test_house_you_must_follow_suit_and_may_neither_trump_nor_play_a_joker() -> None:
    # hearts are trump, Kc is led, seat 1 holds 9c and BJ: only 9c.
    hands = ["Ah Kc Qc 8s 9s Ts", "8h 9c BJ 8d 9d Td", "9h Jc Js Qs Ks As", "Th Jd Qd Kd Ad Tc"]
    state = act(start(HOUSE, hands), "bid 2", "pass", "pass", "pass")
    state = play_tricks(state, "Ah 8h 9h Th", "Kc")
    assert state.public.to_act == 1
    assert legal_cards(state) == cards("9c")
    assert "clubs were led and you hold a club, so you may not trump" in str(refusal(state, "BJ"))
    assert "clubs were led and you hold a club" in str(refusal(state, "8d"))


def test_house_with_no_card_of_the_suit_led_anything_goes() -> None:
    # hearts are trump, Kc is led, seat 0 holds Ah, BJ, Qd and no club: any of them.
    hands = ["Qh Ah BJ Qd 8d 9d", "8h Tc 8s 9s Ts Js", "9h Jc Qs Ks As Td", "Kh Kc Jd Kd Ad 9c"]
    state = act(start(HOUSE, hands), "bid 2", "pass", "pass", "pass")
    state = play_tricks(state, "Qh 8h 9h Kh", "Kc")
    assert state.public.to_act == 0
    assert legal_cards(state) == cards("Ah BJ Qd 8d 9d")


def test_house_refusal_names_the_suit_led_and_the_card() -> None:
    # clubs are trump; hearts are led to trick 2 and seat 1 holds a heart but plays Ks.
    hands = ["Ac Ah 8s 9s Ts Qd", "8c 8h Ks 8d 9d Td", "9c Jc Js Qs As Jd", "Tc Qc Kc Kd Ad Th"]
    state = act(start(HOUSE, hands), "bid 2", "pass", "pass", "pass")
    state = play_tricks(state, "Ac 8c 9c Tc", "Ah")
    error = refusal(state, "Ks")
    assert "hearts were led and you hold a heart" in str(error)
    assert "Ks" in str(error)
    assert error.describe("Kemal") == "Kemal cannot play Ks: hearts were led and Kemal holds a heart"


def test_a_refusal_copied_to_another_process_keeps_its_code_its_seat_and_its_sentence() -> None:
    # As a worker process sends it back: pickled, then made again from its code and action.
    state = act(start(HOUSE, TRUMP_LED_HANDS), "bid 2", "pass", "pass")
    error = refusal(state, "pass", seat=1)
    copied = pickle.loads(pickle.dumps(error))
    assert type(copied) is NotYourTurnError
    assert (copied.code, copied.action, copied.seat, copied.args_map) == (
        "not_your_turn",
        "pass",
        1,
        {"to_act": 3},
    )
    assert str(copied) == str(error) == "you cannot pass: it is seat 3's turn"


def test_playing_a_card_you_do_not_hold_is_refused() -> None:
    state = act(start(HOUSE, TRUMP_LED_HANDS), "bid 2", "pass", "pass", "pass")
    assert "you do not hold Kh" in str(refusal(state, "Kh"))
    assert "you do not hold 2c" in str(refusal(state, "2c"))


def test_a_trick_is_won_by_the_highest_trump_and_its_winner_leads() -> None:
    hands = ["Qh Ah BJ Qd 8d 9d", "8h Tc 8s 9s Ts Js", "9h Jc Qs Ks As Td", "Kh Kc Jd Kd Ad 9c"]
    state = act(start(HOUSE, hands), "bid 2", "pass", "pass", "pass")
    state = play_tricks(state, "Qh 8h 9h Kh")
    trick = state.public.tricks[-1]
    assert (trick.leader, trick.winner) == (0, 3)
    assert [str(c) for c in trick.cards] == ["Qh", "8h", "9h", "Kh"]
    assert state.public.to_act == 3
    assert state.public.leader == 3


# --- ten_point: naming trump, the discard, the first lead ---------------------------------------


def test_ten_point_the_bidder_names_trump() -> None:
    state = act(new_match(TEN_POINT, 4, seed=2, dealer=3), "pass", "bid 3", "pass", "pass")
    assert state.public.phase is Phase.TRUMP
    assert state.public.to_act == 1
    assert set(legal_actions(state)) == {NameTrump(suit) for suit in Suit}
    assert "it is time to name trump" in str(refusal(state, "pass"))
    with pytest.raises(NotYourTurnError):
        apply(state, NameTrump(Suit.CLUBS), seat=0)
    state = act(state, "trump d")
    assert state.public.trump is Suit.DIAMONDS


def test_ten_point_discard_to_six_bidder_first_then_clockwise() -> None:
    state = act(new_match(TEN_POINT, 3, seed=2, dealer=2), "pass", "bid 3", "pass", "trump h")
    order = []
    while state.public.phase is Phase.DISCARD:
        seat = state.public.to_act
        assert seat is not None
        order.append(seat)
        legal = legal_actions(state)
        assert len(legal) == 210  # every choice of 4 of the 10 cards held
        assert all(
            isinstance(a, Discard) and len(a.cards) == 4 and a.cards <= state.hand(seat) for a in legal
        )
        state = apply(state, legal[0])
        assert len(state.hand(seat)) == 6
    assert order == [1, 2, 0]
    assert state.public.phase is Phase.PLAY
    assert state.public.to_act == 1


def test_ten_point_discard_of_the_wrong_size_is_refused() -> None:
    hands = [
        "As Kc Qc Jh Th 9h 2h 3h 4h 5h",
        "4s Jc Ad 2d 3d 4d 5d 6d 7d 8d",
        "5s 6s 7s 8s 9s Ts 2c 3c 4c 5c",
    ]
    state = act(start(TEN_POINT, hands), "bid 2", "pass", "pass", "trump s")
    assert "you must discard exactly 4 cards, not 3" in str(refusal(state, "discard 2h 3h 4h"))
    assert "not 5" in str(refusal(state, "discard 2h 3h 4h 5h 9h"))
    assert "you do not hold" in str(refusal(state, "discard 2h 3h 4h 2c"))
    assert "it is time to discard" in str(refusal(state, "2h"))


# Spades are trump. Seat 0 bids, leads As and wins trick 1; it leads Kc to trick 2.
TEN_POINT_JICK_HANDS = [
    "As Kc Qc Jh Th 9h 2h 3h 4h 5h",
    "4s Jc Ad 2d 3d 4d 5d 6d 7d 8d",
    "5s 6s 7s 8s 9s Ts 2c 3c 4c 5c",
]
TEN_POINT_DISCARDS = ["discard 2h 3h 4h 5h", "discard 5d 6d 7d 8d", "discard 2c 3c 4c 5c"]


def jick_position() -> State:
    """Seat 0 has bid 2 and named spades; everyone has discarded; seat 0 leads."""
    state = start(TEN_POINT, TEN_POINT_JICK_HANDS)
    return act(state, "bid 2", "pass", "pass", "trump s", *TEN_POINT_DISCARDS)


def test_ten_point_the_jick_is_not_a_club() -> None:
    # RULES.md 3a: spades trump, Kc led, holding Jc and Ad: either (the Jc is a trump, not a club).
    state = jick_position()
    state = play_tricks(state, "As 4s 5s", "Kc")
    assert state.public.to_act == 1
    assert legal_cards(state) == cards("Jc Ad 2d 3d 4d")


def test_ten_point_follow_suit_or_trump_but_never_another_suit() -> None:
    # RULES.md 3a: spades trump, Kc led, holding 5c, Jc, 2s and Ad: 5c, Jc or 2s.
    hands = [
        "As Kc Qc Jh Th 9h 2h 3h 4h 5h",
        "4s 5c Jc 2s Ad 2d 6d 7d 8d 9d",
        "5s 6s 7s 8s 9s Ts 2c 3c 4c 6c",
    ]
    discards = ["discard 2h 3h 4h 5h", "discard 6d 7d 8d 9d", "discard 2c 3c 4c 6c"]
    state = act(start(TEN_POINT, hands), "bid 2", "pass", "pass", "trump s", *discards)
    state = play_tricks(state, "As 4s 5s", "Kc")
    assert legal_cards(state) == cards("5c Jc 2s")
    assert "clubs were led and you hold a club" in str(refusal(state, "Ad"))


def test_ten_point_a_jick_lead_is_a_trump_lead_and_counts_as_the_bidders_trump() -> None:
    hands = [
        "Jc Kc Qc Jh Th 9h 2h 3h 4h 5h",
        "4s 2c 3c Ad 2d 3d 5d 6d 7d 8d",
        "5s 6s 7s 8s 9s Ts 4c 5c 6c 7c",
    ]
    discards = ["discard 2h 3h 4h 5h", "discard 5d 6d 7d 8d", "discard 4c 5c 6c 7c"]
    state = act(start(TEN_POINT, hands), "bid 2", "pass", "pass", "trump s", *discards)
    # the jick is the bidder's only trump: it must be led
    assert legal_cards(state) == cards("Jc")
    assert "the bidder must lead a trump and you hold one" in str(refusal(state, "Kc"))
    state = act(state, "Jc")
    # spades are led: seat 1 holds clubs, but must play its trump
    assert legal_cards(state) == cards("4s")
    assert "trump (spades) was led" in str(refusal(state, "2c"))


@pytest.mark.parametrize("joker", ["BJ", "LJ"])
def test_ten_point_a_joker_is_a_trump_the_bidder_may_lead_first(joker: str) -> None:
    hands = [
        f"{joker} Kc Qc Jh Th 9h 2h 3h 4h 5h",
        "4s 2c 3c Ad 2d 3d 5d 6d 7d 8d",
        "5s 6s 7s 8s 9s Ts 4c 5c 6c 7c",
    ]
    discards = ["discard 2h 3h 4h 5h", "discard 5d 6d 7d 8d", "discard 4c 5c 6c 7c"]
    state = act(start(TEN_POINT, hands), "bid 2", "pass", "pass", "trump s", *discards)
    assert legal_cards(state) == cards(joker)


def test_ten_point_a_bidder_without_trump_may_lead_anything() -> None:
    hands = [
        "Ah Kc Qc Jh Th 9h 2h 3h 4h 5h",
        "4s 2c 3c Ad 2d 3d 5d 6d 7d 8d",
        "5s 6s 7s 8s 9s Ts 4c 5c 6c 7c",
    ]
    discards = ["discard 2h 3h 4h 5h", "discard 5d 6d 7d 8d", "discard 4c 5c 6c 7c"]
    state = act(start(TEN_POINT, hands), "bid 2", "pass", "pass", "trump s", *discards)
    assert legal_cards(state) == cards("Ah Kc Qc Jh Th 9h")


def test_ten_point_only_the_first_lead_must_be_trump() -> None:
    state = jick_position()
    assert legal_cards(state) == cards("As")
    state = play_tricks(state, "As 4s 5s")
    assert legal_cards(state) == cards("Kc Qc Jh Th 9h")


def test_ten_point_the_jick_played_on_a_club_lead_wins_as_a_trump() -> None:
    state = jick_position()
    state = play_tricks(state, "As 4s 5s", "Kc", "Jc")
    # seat 2 holds no club: any card; its 6s is a lower trump than the jick
    assert legal_cards(state) == cards("6s 7s 8s 9s Ts")
    state = act(state, "6s")
    assert state.public.tricks[-1].winner == 1


# --- dealing --------------------------------------------------------------------------------------


def test_an_explicit_deal_must_fit_the_table() -> None:
    good = ["Ah Kc Qc 8s 9s Ts", "8h 9c BJ 8d 9d Td", "9h Jc Js Qs Ks As", "Th Jd Qd Kd Ad Tc"]
    assert start(HOUSE, good).hand(1) == cards("8h 9c BJ 8d 9d Td")
    with pytest.raises(SmearError, match="2c"):  # the 4-player house deck is 8 to ace
        start(HOUSE, [good[0], "2c 9c BJ 8d 9d Td", good[2], good[3]])
    with pytest.raises(SmearError, match="Ah"):
        start(HOUSE, [good[0], "Ah 9c BJ 8d 9d Td", good[2], good[3]])
    with pytest.raises(SmearError, match="5 cards"):
        start(HOUSE, [good[0], "9c BJ 8d 9d Td", good[2], good[3]])
    with pytest.raises(SmearError):
        start(HOUSE, good[:3])


def test_without_the_forced_dealer_bid_a_hand_everyone_passes_is_thrown_in() -> None:
    rules = HOUSE.with_changes(dealer_must_bid=False)
    state = act(new_match(rules, 4, seed=6, dealer=3), "pass", "pass", "pass")
    assert may_pass(state)
    state = act(state, "pass")
    pub = state.public
    assert pub.phase is Phase.HAND_OVER
    assert pub.scores == (0, 0, 0, 0)
    assert pub.results[-1].bidder is None
    assert all(side is None for side in pub.results[-1].points.values())
    assert next_hand(state).public.dealer == 0
