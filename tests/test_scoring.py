"""The points of a hand, settlement and the end of the match, from whole hands played out."""

from __future__ import annotations

from collections.abc import Sequence

from helpers import HOUSE, TEN_POINT, act, card, play_tricks, start

from smear import HandResult, Phase, State, Suit

# --- the worked example of seed 000 (RULES.md section 2) ----------------------------------------
# Ayşe 0, Kemal 1, You 2, Sam 3 (Sam deals). The big joker and the ten of hearts sleep.
WORKED_HANDS = [
    "Td 9s 9d 8c 9c Qd",  # Ayşe
    "Qh Ts Jd Js Qs Jc",  # Kemal
    "Ah Jh 9h Ks Tc LJ",  # You
    "8h Kh 8s 8d Kd Ad",  # Sam
]
WORKED_TRICKS = [
    "Ah 8h Td Qh",  # You lead: hearts are trump; You win High and 16 game points
    "Ks 8s 9s Ts",
    "Jh Kh 8c Js",  # Sam wins the Jack with the Kh
    "8d 9d Jd 9h",
    "LJ Kd Qd Qs",  # no heart is left: the little joker wins
    "Tc Ad 9c Jc",
]


def worked_example(scores: Sequence[int] | None = None, teams: bool | None = None) -> State:
    state = start(HOUSE, WORKED_HANDS, dealer=3, scores=scores, teams=teams)
    state = act(state, "pass", "bid 2", "bid 3", "pass")
    return play_tricks(state, *WORKED_TRICKS)


def result(state: State) -> HandResult:
    return state.public.results[-1]


def test_worked_example_points() -> None:
    state = worked_example()
    outcome = result(state)
    assert state.public.phase is Phase.HAND_OVER
    assert outcome.trump is Suit.HEARTS
    assert state.public.tricks[0].winner == 2
    assert outcome.points == {
        "high": 2,  # Ah, captured by You
        "low": 3,  # 8h, played by Sam into a trick You won
        "jack": 3,  # Jh, captured by Sam
        "big_joker": None,  # sleeping
        "little_joker": 2,
        "game": 2,
    }
    assert outcome.game_points == (0, 15, 37, 5)
    assert outcome.taken == (0, 0, 3, 2)
    assert outcome.made
    assert state.public.scores == outcome.scores == (0, 0, 3, 2)


def test_house_low_played_into_a_trick_another_wins_is_the_players_and_counts_for_the_captor() -> None:
    # RULES.md 3a: Sam plays the 8h, the lowest heart in play, into a trick You win.
    state = worked_example()
    first = state.public.tricks[0]
    assert [str(c) for c in first.cards] == ["Ah", "8h", "Td", "Qh"]
    assert (first.leader, first.winner) == (2, 2)
    assert result(state).points["low"] == 3
    won_by_you = [c for trick in state.public.tricks if trick.winner == 2 for c in trick.cards]
    assert card("8h") in won_by_you
    assert result(state).game_points[2] == sum(c.game_value for c in won_by_you) == 37


def test_worked_example_with_teams_partners_score_as_one_side() -> None:
    # Ayşe and You (seats 0 and 2) against Kemal and Sam (seats 1 and 3).
    state = worked_example(teams=True)
    outcome = result(state)
    assert state.public.sides == ((0, 2), (1, 3))
    assert outcome.points == {
        "high": 0,
        "low": 1,
        "jack": 1,
        "big_joker": None,
        "little_joker": 0,
        "game": 0,
    }
    assert outcome.game_points == (37, 20)
    assert outcome.taken == (3, 2)
    assert state.public.scores == (3, 2)


# --- house: a set bidder ------------------------------------------------------------------------
# Three players: the deck is T-A and four cards sleep (here Qd Kd Ts LJ). Seat 1 bids 3 and
# leads Th: hearts are trump. Seat 0 captures it with the Ah.
SET_HANDS = ["Ah Kh Tc Ac Td Ad", "Th Jh Qc Kc Jd BJ", "Qh Js Qs Ks As Jc"]
SET_TRICKS = ["Th Qh Ah", "Kh Jh Jc", "Tc Kc Js", "BJ Qs Td", "Qc Ks Ac", "Ad Jd As"]


def set_hand(scores: Sequence[int] | None = None) -> State:
    state = act(start(HOUSE, SET_HANDS, scores=scores), "bid 2", "bid 3", "pass")
    return play_tricks(state, *SET_TRICKS)


def test_house_low_goes_to_the_player_who_played_it() -> None:
    outcome = result(set_hand())
    assert outcome.points["low"] == 1  # seat 1 played the Th; seat 0 captured it


def test_house_high_and_jack_go_to_the_captor() -> None:
    outcome = result(set_hand())
    assert outcome.points["high"] == 0
    assert outcome.points["jack"] == 0  # seat 1 played the Jh under seat 0's Kh


def test_house_a_joker_is_never_low() -> None:
    # the BJ was the lowest trump played, but Low is the lowest heart
    assert result(set_hand()).points["low"] == 1
    assert result(set_hand()).points["big_joker"] == 1  # captured by seat 1, who led it


def test_house_a_sleeping_card_scores_for_nobody() -> None:
    assert result(set_hand()).points["little_joker"] is None


def test_game_counts_captured_cards_of_every_suit() -> None:
    outcome = result(set_hand())
    # seat 0: Th Qh Ah Kh Jh Jc Qc Ks Ac Ad Jd As = 39; seat 1: Tc Kc Js BJ Qs Td = 26
    assert outcome.game_points == (39, 26, 0)
    assert outcome.points["game"] == 0


def test_a_set_bidder_loses_the_bid_and_scores_nothing_else() -> None:
    outcome = result(set_hand())
    assert outcome.taken == (3, 2, 0)
    assert not outcome.made
    assert outcome.scores == (3, -3, 0)


def test_scores_go_below_zero_and_keep_falling() -> None:
    state = set_hand(scores=(0, -5, 0))
    assert state.public.scores == (3, -8, 0)


def test_a_bidder_who_takes_the_bid_adds_every_point_taken() -> None:
    state = worked_example(scores=(1, 2, 3, 4))
    assert state.public.scores == (1, 2, 6, 6)


# --- house: Game tied ---------------------------------------------------------------------------


def test_a_tie_for_game_gives_it_to_nobody() -> None:
    hands = ["Jc Kc Ac Qh Kh LJ", "Qc Qd Jh Ts Js Qs", "Tc Jd Kd Th As BJ"]
    state = act(start(HOUSE, hands), "pass", "pass", "bid 2")
    state = play_tricks(state, "Jd LJ Qd", "Qs As Kh", "Th Qh Jh", "Kc Qc Tc", "Jc Ts BJ", "Kd Ac Js")
    outcome = result(state)
    assert outcome.trump is Suit.DIAMONDS
    assert outcome.game_points == (28, 3, 28)
    assert outcome.points["game"] is None
    assert outcome.taken == (0, 2, 3)
    assert outcome.scores == (0, 2, 3)


# --- ten_point ----------------------------------------------------------------------------------
# Three players, ten cards each. Seat 0 bids, names spades; Js is discarded by seat 2.
TEN_HANDS = [
    "As Jc BJ 3s Ah Kh 4h 5h 6h 7h",
    "2s LJ Td Kd Qd Jd 2d 3d 4d 5d",
    "Ks 4s Ac Kc Qc Tc Js 2c 4c 5c",
]
TEN_DISCARDS = ["discard 4h 5h 6h 7h", "discard 2d 3d 4d 5d", "discard Js 2c 4c 5c"]
TEN_TRICKS = ["As 2s 4s", "3s LJ Ks", "Ac Jc Td", "BJ Kd Kc", "Ah Qd Qc", "Kh Jd Tc"]


def ten_point_hand(bid: int = 5, scores: Sequence[int] | None = None) -> State:
    state = start(TEN_POINT, TEN_HANDS, scores=scores)
    state = act(state, f"bid {bid}", "pass", "pass", "trump s", *TEN_DISCARDS)
    return play_tricks(state, *TEN_TRICKS)


def test_ten_point_points() -> None:
    outcome = result(ten_point_hand())
    assert outcome.points == {
        "high": 0,  # As
        "low": 0,  # 2s: played by seat 1, captured by seat 0
        "jack": None,  # Js was discarded
        "jick": 0,  # Jc trumped seat 2's Ac
        "big_joker": 0,
        "little_joker": 2,
        "game": 0,
        "trey": 2,  # 3s, led by seat 0 and captured by seat 2's Ks
    }
    assert outcome.game_points == (47, 0, 3)
    assert outcome.taken == (5, 0, 4)
    assert outcome.made
    assert outcome.scores == (5, 0, 4)


def test_ten_point_low_goes_to_the_captor() -> None:
    state = ten_point_hand()
    first = state.public.tricks[0]
    assert [str(c) for c in first.cards] == ["As", "2s", "4s"]  # the 2s is seat 1's
    assert (first.leader, first.winner) == (0, 0)
    assert result(state).points["low"] == 0


def test_ten_point_trey_is_worth_three() -> None:
    assert result(ten_point_hand()).taken[2] == 4  # the trey and the little joker


def test_ten_point_discards_are_out_of_play_and_shown_after_the_hand() -> None:
    outcome = result(ten_point_hand())
    assert [str(d) for d in outcome.discards] == ["4h 5h 6h 7h", "2d 3d 4d 5d", "2c 4c 5c Js"]
    assert outcome.points["jack"] is None


def test_ten_point_jokers_are_never_high_or_low_and_undealt_cards_score_for_nobody() -> None:
    # Spades are trump. The only natural trump played is the 4s; the little joker outranks it.
    # The big joker and the trey were not dealt; the jack and the jick were discarded.
    hands = [
        "3c 6c 9c Jc Kc Jd Kd 2h 3h 6s",
        "4c 3d 5d 7d Td Ad 5h Jh 7s Ts",
        "5c 4d 6h 9h Th 4s Js Ks As LJ",
    ]
    state = start(TEN_POINT, hands)
    state = act(
        state,
        "pass",
        "bid 2",
        "pass",
        "trump s",
        "discard Ad 5h 7s Ts",
        "discard Th Js Ks As",
        "discard 9c Jc Kd 6s",
    )
    # the bidder holds no trump after the discard: it may lead anything
    state = play_tricks(state, "Td 4s Jd", "5c 3c 4c", "LJ 6c Jh", "4d 3h 5d", "7d 9h Kc", "3d 6h 2h")
    outcome = result(state)
    assert outcome.points == {
        "high": 2,
        "low": 2,
        "jack": None,
        "jick": None,
        "big_joker": None,
        "little_joker": 2,
        "game": 2,
        "trey": None,
    }
    assert outcome.taken == (0, 0, 4)
    assert outcome.scores == (0, -2, 4)


# --- the end of the match -----------------------------------------------------------------------


def test_the_match_goes_on_while_nobody_reaches_21() -> None:
    state = worked_example(scores=(0, 0, 17, 18))
    assert state.public.scores == (0, 0, 20, 20)
    assert state.public.phase is Phase.HAND_OVER
    assert state.public.winner is None


def test_the_bidder_wins_when_it_and_another_side_reach_21_in_the_same_hand() -> None:
    state = worked_example(scores=(0, 0, 18, 20))
    assert state.public.scores == (0, 0, 21, 22)
    assert state.public.phase is Phase.MATCH_OVER
    assert state.public.winner == 2
    assert state.public.to_act is None


def test_a_non_bidder_reaching_21_alone_wins() -> None:
    state = worked_example(scores=(0, 0, 0, 19))
    assert state.public.phase is Phase.MATCH_OVER
    assert state.public.winner == 3


# Seat 2 bids 3 and is set; seat 0 takes 2 points and seat 1 takes 3.
SET_TWO_GAIN_HANDS = ["Tc Qc Qd Qh Js BJ", "Kc Ac Kh Ah Ks As", "Jc Jd Kd Ts Qs LJ"]
SET_TWO_GAIN_TRICKS = ["Qs Js As", "Ac Jc Tc", "Kc Ts Qc", "Jd Qd Ks", "Kh Kd Qh", "Ah LJ BJ"]


def set_two_gain(scores: Sequence[int]) -> State:
    state = act(start(HOUSE, SET_TWO_GAIN_HANDS, scores=scores), "pass", "bid 2", "bid 3")
    return play_tricks(state, *SET_TWO_GAIN_TRICKS)


def test_when_only_other_sides_reach_21_the_highest_wins() -> None:
    state = set_two_gain(scores=(19, 19, 0))
    assert result(state).taken == (2, 3, 1)
    assert state.public.scores == (21, 22, -3)
    assert state.public.winner == 1


def test_a_tie_at_the_top_plays_another_hand() -> None:
    state = set_two_gain(scores=(19, 18, 0))
    assert state.public.scores == (21, 21, -3)
    assert state.public.phase is Phase.HAND_OVER
    assert state.public.winner is None


def test_ten_point_the_bidder_wins_when_it_and_another_side_reach_21() -> None:
    state = ten_point_hand(bid=5, scores=(16, 0, 20))
    assert state.public.scores == (21, 0, 24)
    assert state.public.winner == 0


def test_ten_point_a_set_bidder_does_not_win_even_at_21() -> None:
    # RULES.md 3: "if several sides reach it in the same hand the bidding side is checked first: it
    # wins if it made its bid, otherwise the highest-scoring other side wins". Seats 0 and 2 come
    # in tied at 27 (a tie at the top plays on); seat 0 bids 6, takes 5 and is set to 21, seat 2
    # takes 4 and reaches 31.
    state = ten_point_hand(bid=6, scores=(27, 0, 27))
    assert not result(state).made
    assert state.public.scores == (21, 0, 31)
    assert state.public.phase is Phase.MATCH_OVER
    assert state.public.winner == 2
