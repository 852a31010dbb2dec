"""The presets and options of RULES.md section 4 that differ from house and ten_point, from literal
deals: what each changes and nothing else."""

from __future__ import annotations

import math
import random

import pytest
from helpers import (
    HOUSE,
    MOON_HANDS,
    MOON_OUT,
    MOON_TRICKS,
    NINE_CARD,
    NINE_DEAL,
    NINE_DISCARDS,
    NINE_OUT,
    TEN_POINT,
    act,
    card,
    cards,
    deck,
    legal_cards,
    nine_card_in_play,
    play_tricks,
    start,
)

from smear import (
    IllegalActionError,
    Phase,
    PublicState,
    Rules,
    RulesError,
    Suit,
    discard_options,
    find_rules,
    legal_actions,
    new_match,
    player_view,
)
from smear.bots.sampler import Determinizer
from smear.dealing import team_sides
from smear.knowledge import revealed_voids

NO_JICK = find_rules("no_jick")
CUTTHROAT = find_rules("cutthroat")
FIVE_POINT = find_rules("five_point")
MOON = HOUSE.with_changes(shoot_the_moon=True)


# --- no_jick -----------------------------------------------------------------------------------


def _no_jick_hand() -> list[str]:
    return [
        "Kc 2d 3d 4d 5d 6d 7d 8d 9d Td",
        "Jc Ad Qd Kd 2c 3c 4c 5c 6c 7c",
        "2h 3h 4h 5h 6h 7h 8h 9h Th Jh",
        "As Ks Qs Js Ts 9s 8s 7s 6s BJ",
    ]


def test_no_jick_follow_suit_with_the_jack_of_the_same_colour() -> None:
    state = start(NO_JICK, _no_jick_hand(), dealer=2, out="Qh Kh Ah 5s 4s 3s 2s LJ 8c 9c Tc Qc Ac Jd")
    # Seat 3 bids first (left of dealer 2) and names spades.
    state = act(state, "bid 2", "pass", "pass", "pass", "trump s")
    state = act(
        state, "discard 9s 8s 7s 6s", "discard 2d 3d 4d 5d", "discard 2c 3c 4c 5c", "discard 2h 3h 4h 5h"
    )
    assert state.public.phase is Phase.PLAY
    assert NO_JICK.points == ("high", "low", "jack", "big_joker", "little_joker", "game")
    assert state.public.order is not None and state.public.order.jick is None
    state = act(state, "As", "Kc")  # seat 0 holds no spade
    # Seat 1 holds the Jc, which would be the jick (a trump it must play) in ten_point. Here it is a
    # club, seat 1 holds no trump, and any card may follow the spade lead.
    assert legal_cards(state) == cards("Jc Ad Qd Kd 6c 7c")


def test_no_jick_points_and_the_highest_bid_is_six() -> None:
    assert NO_JICK.max_bid == 6
    assert sum(NO_JICK.point_values.values()) == 6
    assert NO_JICK.trump_named and NO_JICK.bidder_leads_trump and NO_JICK.may_trump_instead


# --- cutthroat ---------------------------------------------------------------------------------


def test_cutthroat_is_three_players_on_their_own_bidding_three_or_more() -> None:
    assert CUTTHROAT.player_counts == (3,) and CUTTHROAT.team_player_counts == ()
    state = new_match(CUTTHROAT, 3, seed=4)
    assert [str(a) for a in legal_actions(state)][:2] == ["pass", "bid 3"]
    with pytest.raises(IllegalActionError, match="bids go from 3 to 10"):
        act(state, "bid 2")
    with pytest.raises(RulesError, match="cutthroat is played by 3 players without teams, not 4"):
        new_match(CUTTHROAT, 4, seed=1)
    for players in (4, 6):
        with pytest.raises(RulesError, match="cutthroat is not played with teams"):
            new_match(CUTTHROAT, players, True, seed=1)


# --- five_point --------------------------------------------------------------------------------


def test_five_point_decks_keep_the_twos_and_one_joker() -> None:
    four, six, eight = (deck(FIVE_POINT, n) for n in (4, 6, 8))
    assert len(four) == 29 and len(six) == 41 and len(eight) == 53
    assert cards("2c 2d 2h 2s 9c BJ") <= four and not cards("3c") & four and not cards("8h") & four
    assert cards("2c 6c 9s") <= six and not cards("3d 4d 5d") & six
    assert card("LJ") not in eight and card("BJ") in eight
    for players in (4, 6, 8):
        assert len(deck(FIVE_POINT, players)) - 6 * players == 5  # five sleeping cards


def test_five_point_is_two_teams_whose_members_alternate() -> None:
    state = new_match(FIVE_POINT, 6, True, seed=2)
    assert state.public.sides == ((0, 2, 4), (1, 3, 5)) == team_sides(6, alternate=True)
    assert new_match(FIVE_POINT, 8, True, seed=2).public.sides == ((0, 2, 4, 6), (1, 3, 5, 7))
    with pytest.raises(RulesError):
        new_match(FIVE_POINT, 6, False, seed=2)


FIVE_HANDS = [
    "Ah Kh 2h Tc 9c Jd",  # seat 0 bids first (seat 3 deals); seats 0 and 2 are side 0
    "Qh BJ Ac Kc Qc Jc",
    "Jh 9h As Ks Qs Js",
    "Th 2c 2d 2s Ad Kd",
]
FIVE_OUT = "Ts 9s Qd 9d Td"  # 4 players: the twos and 9 to A, one joker; five cards sleep


def test_five_point_points_low_to_the_player_and_the_joker_lowest_trump() -> None:
    state = start(FIVE_POINT, FIVE_HANDS, dealer=3, teams=True, out=FIVE_OUT)
    state = act(state, "bid 3", "pass", "pass", "pass")
    state = play_tricks(
        state,
        "Ah Qh Jh Th",  # hearts are trump; seat 0 takes High, the Jack and 17 game points
        "2h BJ 9h 2c",  # the joker is the lowest trump: seat 2's 9h beats it and takes it
        "As 2s Kh Jc",  # seat 2 leads; seat 0 has no spade and trumps
        "Tc Ac Js Kd",  # seat 1 takes the Tc with the Ac
        "Kc Qs Ad 9c",
        "Qc Ks 2d Jd",
    )
    outcome = state.public.results[-1]
    assert outcome.trump is Suit.HEARTS
    # Low is the 2h, played by seat 0 into a trick its partner won.
    assert outcome.points == {"high": 0, "low": 0, "jack": 0, "big_joker": 0, "game": 1}
    assert outcome.game_points == (25, 33)
    assert outcome.taken == (4, 1) and outcome.made
    assert state.public.scores == (4, 1)


def test_five_point_a_joker_may_not_set_trump_and_bids_stop_at_five() -> None:
    state = start(FIVE_POINT, FIVE_HANDS, dealer=3, teams=True, out=FIVE_OUT)
    assert FIVE_POINT.top_bid == 5 and "bid 6" not in [str(a) for a in legal_actions(state)]
    state = act(state, "pass", "bid 2", "pass", "pass")
    assert card("BJ") not in legal_cards(state)  # seat 1 leads first: any card but the joker


# --- shoot the moon ----------------------------------------------------------------------------


def test_the_moon_is_one_bid_above_the_top_and_only_with_the_option() -> None:
    state = start(MOON, MOON_HANDS, dealer=3, out=MOON_OUT)
    assert [str(a) for a in legal_actions(state)][-1] == "bid 7"
    with pytest.raises(IllegalActionError, match="bids go from 2 to 6"):
        act(start(HOUSE, MOON_HANDS, dealer=3, out=MOON_OUT), "bid 7")


@pytest.mark.parametrize("before", [5, 0])
def test_a_moon_made_wins_the_match_at_once(before: int) -> None:
    state = start(MOON, MOON_HANDS, dealer=3, out=MOON_OUT, scores=[before, 0, 0, 0])
    state = play_tricks(act(state, "bid 7", "pass", "pass", "pass"), *MOON_TRICKS)
    outcome = state.public.results[-1]
    assert outcome.taken == (6, 0, 0, 0) and outcome.made
    assert state.public.phase is Phase.MATCH_OVER and state.public.winner == 0
    assert state.public.scores == (before + 6, 0, 0, 0)


def test_a_moon_made_from_below_zero_only_resets_the_score_to_zero() -> None:
    state = start(MOON, MOON_HANDS, dealer=3, out=MOON_OUT, scores=[-4, 3, 0, 0])
    state = play_tricks(act(state, "bid 7", "pass", "pass", "pass"), *MOON_TRICKS)
    assert state.public.results[-1].made
    assert state.public.phase is Phase.HAND_OVER and state.public.winner is None
    assert state.public.scores == (0, 3, 0, 0)


def test_a_moon_set_loses_the_match_and_the_highest_other_side_wins() -> None:
    # The little joker sleeps: only five points are in play, so the moon cannot be made.
    hands = ["Ah Kh Qh Jh BJ 8c", *MOON_HANDS[1:]]
    state = start(MOON, hands, dealer=3, out="8h 9h Th LJ 8d 8s", scores=[20, 4, 9, 9])
    state = act(state, "bid 7", "pass", "pass", "pass")
    state = play_tricks(state, *MOON_TRICKS[:5], "8c 9c 9d 9s")
    outcome = state.public.results[-1]
    assert outcome.taken == (5, 0, 0, 0) and not outcome.made  # every point in play, not the moon
    assert state.public.scores == (13, 4, 9, 9)
    # Seats 2 and 3 tie at the top: the tie goes to the side that comes first after the loser.
    assert state.public.phase is Phase.MATCH_OVER and state.public.winner == 2


# --- elimination -------------------------------------------------------------------------------


def test_elimination_a_side_at_minus_21_loses_and_the_other_side_wins() -> None:
    rules = HOUSE.with_changes(elimination=-21)
    # The worked example of seed 000 with teams, but You (seat 2, side 0) bid 6 from -17: side 0
    # takes High, the little joker and Game, is set, and falls to -23.
    hands = [
        "Td 9s 9d 8c 9c Qd",
        "Qh Ts Jd Js Qs Jc",
        "Ah Jh 9h Ks Tc LJ",
        "8h Kh 8s 8d Kd Ad",
    ]
    state = start(rules, hands, dealer=3, teams=True, scores=[-17, 5])
    state = act(state, "pass", "pass", "bid 6", "pass")
    state = play_tricks(
        state, "Ah 8h Td Qh", "Ks 8s 9s Ts", "Jh Kh 8c Js", "8d 9d Jd 9h", "LJ Kd Qd Qs", "Tc Ad 9c Jc"
    )
    assert not state.public.results[-1].made
    assert state.public.scores[0] == -23
    assert state.public.phase is Phase.MATCH_OVER and state.public.winner == 1


def test_elimination_is_off_by_default_and_must_be_at_or_below_zero() -> None:
    assert HOUSE.elimination == 0 and TEN_POINT.elimination == 0
    with pytest.raises(RulesError):
        HOUSE.with_changes(elimination=5)


# --- the five_point kitty ----------------------------------------------------------------------

KITTY = FIVE_POINT.with_changes(kitty=3)


def test_the_kitty_goes_to_the_bidder_who_discards_as_many() -> None:
    # The first three undealt cards (Ts 9s Qd) are the kitty; 9d and Td sleep.
    state = start(KITTY, FIVE_HANDS, dealer=3, teams=True, out=FIVE_OUT)
    state = act(state, "pass", "pass", "bid 3", "pass")  # seat 2 bids
    pub = state.public
    assert (pub.phase, pub.to_act, pub.took) == (Phase.DISCARD, 2, 3)
    assert state.hand(2) == cards("Jh 9h As Ks Qs Js Ts 9s Qd")
    assert pub.hand_sizes() == (6, 6, 9, 6)
    assert len(legal_actions(state)) == 84  # any three of nine
    with pytest.raises(IllegalActionError):
        act(state, "discard Qd 9h")
    state = act(state, "discard Qd 9h Jh")
    # Only the bidder had cards to discard: it leads at once, and its first card sets trump.
    assert (state.public.phase, state.public.to_act) == (Phase.PLAY, 2)
    assert state.public.hand_sizes() == (6, 6, 6, 6)
    assert state.hand(2) == cards("As Ks Qs Js Ts 9s")
    state = play_tricks(state, "As 2s Tc BJ")  # the joker is a trump: seat 1 must play it
    assert state.public.trump is Suit.SPADES


def test_the_kitty_is_hidden_from_the_others_and_shown_with_the_discard_after_the_hand() -> None:
    state = start(KITTY, FIVE_HANDS, dealer=3, teams=True, out=FIVE_OUT)
    state = act(state, "bid 2", "pass", "pass", "pass", "discard Tc 9c Jd")
    assert not player_view(state, 1).hand & cards("Ts 9s Qd")
    assert player_view(state, 0).hand == cards("Ah Kh 2h Ts 9s Qd")
    assert player_view(state, 1).public.hand_sizes()[0] == 6
    state = play_tricks(
        state, "Ah Qh Jh Th", "Kh BJ 9h 2c", "2h Ac As 2d", "Ts Kc Ks 2s", "Qs Ad 9s Qc", "Js Kd Qd Jc"
    )
    result = state.public.results[-1]
    assert result.out == cards("9d Td")  # the two sleeping cards
    assert result.discards[0] == cards("Tc 9c Jd")


# --- identical jokers (a rule field, for McLeod's game) --------------------------------------------


def test_identical_jokers_the_one_played_second_ranks_higher() -> None:
    from smear.trick import trick_winner

    rules = TEN_POINT.with_changes(identical_jokers=True)
    spades = Suit.SPADES
    plays = [(0, card("9s")), (1, card("BJ")), (2, card("LJ")), (3, card("2s"))]
    assert trick_winner(plays, spades, TEN_POINT) == 1  # normally the big joker wins
    assert trick_winner(plays, spades, rules) == 2  # identical: the second joker played
    reverse = [(0, card("9s")), (1, card("LJ")), (2, card("BJ")), (3, card("2s"))]
    assert trick_winner(reverse, spades, rules) == 2
    # Above them, the jick and the jack still win; below, the ten does not.
    assert trick_winner([(0, card("BJ")), (1, card("Jc")), (2, card("LJ"))], spades, rules) == 1
    assert trick_winner([(0, card("Ts")), (1, card("LJ")), (2, card("BJ"))], spades, rules) == 2


# --- the highest score wins (a rule field, for McLeod's game) --------------------------------------

WORKED = ["Td 9s 9d 8c 9c Qd", "Qh Ts Jd Js Qs Jc", "Ah Jh 9h Ks Tc LJ", "8h Kh 8s 8d Kd Ad"]
WORKED_TRICKS = ["Ah 8h Td Qh", "Ks 8s 9s Ts", "Jh Kh 8c Js", "8d 9d Jd 9h", "LJ Kd Qd Qs", "Tc Ad 9c Jc"]


def _worked(rules: Rules, scores: list[int]) -> PublicState:
    # You (seat 2) bid 3 and take 3; Sam (seat 3) takes 2 (seed 000's worked example).
    state = start(rules, WORKED, dealer=3, scores=scores)
    return play_tricks(act(state, "pass", "bid 2", "bid 3", "pass"), *WORKED_TRICKS).public


def test_highest_score_wins_instead_of_the_bidder_first() -> None:
    rules = HOUSE.with_changes(highest_score_wins=True)
    # You reach 21, Sam 22: the bidder first (house) gives it to You; the highest score, to Sam.
    assert _worked(HOUSE, [0, 0, 18, 20]).winner == 2
    assert _worked(rules, [0, 0, 18, 20]).winner == 3
    # A tie at the top goes to the bidding side.
    assert _worked(rules, [0, 0, 19, 20]).scores == (0, 0, 22, 22)
    assert _worked(rules, [0, 0, 19, 20]).winner == 2
    # Without the bidder in a tie at the top, another hand is played.
    tied = _worked(rules, [21, 0, 10, 19])
    assert tied.scores == (21, 0, 13, 21) and tied.winner is None and tied.phase is Phase.HAND_OVER


# --- mcleod ------------------------------------------------------------------------------------

MCLEOD = find_rules("mcleod")
WIDOW = find_rules("widow")


def _mcleod_deal() -> list[str]:
    return [
        "Js 6s Ah Kh Qh Jh 2d 3d 4d 5d",
        "As Ks Qs BJ Ts 4s 7c 8c 9c Tc",
        "LJ 9s Ad Kd Qd Jd 2h 3h 4h 5h",
        "3s 8s Ac Kc Qc 2c 3c 4c 5c 6c",
    ]


MCLEOD_STOCK = "Jc 7s 5s 2s 6d 7d 8d 9d Td 6h 7h 8h 9h Th"


def test_mcleod_bidder_takes_the_stock_after_naming_trump() -> None:
    state = start(MCLEOD, _mcleod_deal(), dealer=3, teams=True, out=MCLEOD_STOCK)
    state = act(state, "pass", "bid 1", "pass", "pass")
    assert state.public.phase is Phase.TRUMP and len(state.hand(1)) == 10  # trump before the stock
    state = act(state, "trump s")
    pub = state.public
    assert pub.phase is Phase.DISCARD and pub.to_act == 1
    assert len(state.hand(1)) == 24 and pub.took == pub.drawn == 14 and pub.stock_left == 0
    assert pub.hand_sizes() == (10, 24, 10, 10)
    options = discard_options(state)
    assert options is not None
    # ten trumps among 24: every non-trump goes, and four of the ten trumps
    assert options.size == 18 and len(options.required) == 14 and len(options.choosable) == 10
    assert len(legal_actions(state)) == math.comb(10, 4)


def test_mcleod_discards_keep_trumps() -> None:
    state = start(MCLEOD, _mcleod_deal(), dealer=3, teams=True, out=MCLEOD_STOCK)
    state = act(state, "pass", "bid 1", "pass", "pass", "trump s")
    state = act(state, "discard 7c 8c 9c Tc Jc 6d 7d 8d 9d Td 6h 7h 8h 9h Th 2s 5s 7s")
    assert state.public.to_act == 2 and state.public.discarded == (0, 18, 0, 0)
    options = discard_options(state)
    assert options is not None
    assert (options.size, options.required, options.choosable) == (
        4,
        cards(""),
        cards("Ad Kd Qd Jd 2h 3h 4h 5h"),
    )
    with pytest.raises(IllegalActionError, match="a trump may be discarded only with every non-trump"):
        act(state, "discard 2h 3h 4h LJ")
    assert legal_actions(state) == tuple(
        action for action in legal_actions(state) if not set(action.cards) & {card("LJ"), card("9s")}
    )


def test_mcleod_jokers_identical_second_played_wins() -> None:
    state = start(MCLEOD, _mcleod_deal(), dealer=3, teams=True, out=MCLEOD_STOCK)
    state = act(state, "pass", "bid 1", "pass", "pass", "trump s")
    state = act(
        state,
        "discard 7c 8c 9c Tc Jc 6d 7d 8d 9d Td 6h 7h 8h 9h Th 2s 5s 7s",
        "discard 2h 3h 4h 5h",
        "discard 3c 4c 5c 6c",
        "discard 2d 3d 4d 5d",
    )
    state = play_tricks(state, "As 9s 3s Js", "BJ LJ 8s 6s")
    assert state.public.tricks[-1].winner == 2  # the LJ, played second


def test_mcleod_is_for_teams_of_two() -> None:
    assert MCLEOD.player_counts == () and MCLEOD.team_player_counts == (4, 6)
    assert MCLEOD.dealt_for(6) == 8 and MCLEOD.min_bid == 1
    with pytest.raises(RulesError, match="mcleod is not played without teams"):
        new_match(MCLEOD, 4, seed=1)
    six = new_match(MCLEOD, 6, True, seed=2)
    assert six.public.hand_sizes() == (8,) * 6 and len(six.out) == 6


# --- widow -------------------------------------------------------------------------------------


def _widow_deal() -> list[str]:
    return [
        "Ah Kh Qh 2c 3c 4c 5c 6c 7c",
        "Th 2h 2d 3d 4d 5d 6d 7d 8d",
        "9h Jd 2s 3s 4s 5s 6s 7s 8s",
        "3h 4h LJ 9s Ts Js Qs Ks As",
    ]


WIDOW_OUT = "Jh BJ 8c 9c 8h 7h Tc Jc 6h 5h Qc Kc Ac 9d Td Qd Kd Ad"


def test_widow_the_bidder_takes_the_widow_then_names_trump() -> None:
    state = start(WIDOW, _widow_deal(), dealer=3, teams=True, out=WIDOW_OUT)
    state = act(state, "bid 4", "pass", "pass", "pass")
    assert state.public.phase is Phase.WIDOW and [str(a) for a in legal_actions(state)] == ["widow"]
    assert player_view(state, 1).legal_actions == ()
    with pytest.raises(IllegalActionError, match="it is time to take the widow"):
        act(state, "trump h")
    state = act(state, "widow")
    assert state.hand(0) == cards("Ah Kh Qh 2c 3c 4c 5c 6c 7c Jh BJ 8c 9c")
    assert state.public.phase is Phase.TRUMP and state.public.took == 4
    assert state.public.hand_sizes() == (13, 9, 9, 9)
    state = act(state, "trump h")
    assert state.public.to_act == 1  # the others discard first, from the bidder's left


def test_widow_others_trade_non_trumps_for_the_stock_then_the_bidder_takes_the_rest() -> None:
    state = start(WIDOW, _widow_deal(), dealer=3, teams=True, out=WIDOW_OUT)
    state = act(state, "bid 4", "pass", "pass", "pass", "widow", "trump h")
    options = discard_options(state)
    assert options is not None and (options.size, options.required) == (7, cards("2d 3d 4d 5d 6d 7d 8d"))
    assert len(legal_actions(state)) == 1
    state = act(state, "discard 2d 3d 4d 5d 6d 7d 8d")
    assert state.hand(1) == cards("Th 2h 8h 7h Tc Jc")  # drew four from the stock, in order
    pub = state.public
    assert pub.refilled(1) == 4 and pub.drawn == 8 and pub.stock_left == 10 and pub.to_act == 2
    state = act(state, "discard 2s 3s 4s 5s 6s 7s 8s", "discard 9s Ts Js Qs Ks As")
    pub = state.public
    assert pub.to_act == 0 and pub.took == 7 and pub.stock_left == 0  # the bidder took the last 3
    assert len(state.hand(0)) == 16 and pub.hand_sizes() == (16, 6, 6, 6)
    options = discard_options(state)
    assert (
        options is not None
        and options.size == 10
        and options.choosable == cards("2c 3c 4c 5c 6c 7c 8c 9c Qd Kd Ad")
    )
    state = act(state, "discard 2c 3c 4c 5c 6c 7c 8c 9c Qd Kd")
    assert state.public.phase is Phase.PLAY and state.public.to_act == 0
    assert legal_cards(state) == state.hand(0)  # the bidder need not lead a trump


def test_widow_scores_the_two_for_its_holder_and_the_ten_instead_of_game() -> None:
    assert WIDOW.points == ("high", "two", "jack", "jick", "big_joker", "little_joker", "ten", "trey")
    assert sum(WIDOW.point_values.values()) == WIDOW.max_bid == 10
    state = start(WIDOW, _widow_deal(), dealer=3, teams=True, out=WIDOW_OUT)
    state = act(state, "bid 4", "pass", "pass", "pass", "widow", "trump h")
    state = act(
        state,
        "discard 2d 3d 4d 5d 6d 7d 8d",
        "discard 2s 3s 4s 5s 6s 7s 8s",
        "discard 9s Ts Js Qs Ks As",
        "discard 2c 3c 4c 5c 6c 7c 8c 9c Qd Kd",
    )
    state = play_tricks(
        state, "Ad Jc Qc 9d", "Ah 7h 5h 4h", "Kh 8h 6h 3h", "Qh 2h 9h LJ", "Jh Th Jd Td", "BJ Tc Kc Ac"
    )
    result = state.public.results[-1]
    assert result.points["two"] == 1  # Ben's 2h fell to Ann's Qh, but it is his side's point
    assert result.points["ten"] == 0 and "game" not in result.points and "low" not in result.points
    assert result.taken == (9, 1)


def test_widow_scoring_trumps_are_discarded_last() -> None:
    deal = [
        "6h 5h 4h 2c 3c 4c 5c 6c 7c",
        "Ah Kh Qh Jh Th 9h 8h 7h 8c",
        "3h 2h 2s 3s 4s 5s 6s 7s 8s",
        "Jd LJ 9s Ts Js Qs Ks As 9c",
    ]
    state = start(
        WIDOW, deal, dealer=3, teams=True, out="BJ Tc Jc Qc Kc Ac 2d 3d 4d 5d 6d 7d 8d 9d Td Qd Kd Ad"
    )
    state = act(state, "bid 4", "pass", "pass", "pass", "widow", "trump h")
    options = discard_options(state)
    assert options is not None
    assert (options.size, options.required, options.choosable) == (3, cards("8c"), cards("Kh Qh 9h 8h 7h"))
    with pytest.raises(
        IllegalActionError, match="a scoring trump may be discarded only with every other card"
    ):
        act(state, "discard 8c 7h Ah")
    state = act(state, "discard 8c 7h 8h")
    assert state.public.refilled(1) == 0 and len(state.hand(1)) == 6


def test_widow_short_stock_limits_the_discard() -> None:
    deal = [
        "Ah Kh Qh Jh Th 9h 8h 7h 6h",
        "2c 3c 4c 5c 6c 7c 8c 9c Tc",
        "2s 3s 4s 5s 6s 7s 8s 9s Ts",
        "Jc Qc Kc Ac Js Qs Ks As 2h",
    ]
    out = "5h 4h 3h BJ LJ Jd 2d 3d 4d 5d 6d 7d 8d 9d Td Qd Kd Ad"
    state = start(WIDOW, deal, dealer=3, out=out)
    state = act(state, "bid 4", "pass", "pass", "pass", "widow", "trump h")
    state = act(state, "discard 2c 3c 4c 5c 6c 7c 8c 9c Tc", "discard 2s 3s 4s 5s 6s 7s 8s 9s Ts")
    assert state.public.stock_left == 2
    options = discard_options(state)
    assert options is not None  # eight non-trumps, but the stock can bring Dot back to six only from 4
    assert (options.size, options.required, len(options.choosable)) == (5, cards(""), 8)
    state = act(state, "discard Jc Qc Kc Js Qs")
    assert state.hand(3) == cards("Ac Ks As 2h Kd Ad") and state.public.stock_left == 0
    assert state.public.took == 4 and len(state.hand(0)) == 13  # nothing left for the bidder to take


def test_widow_is_for_three_or_four() -> None:
    assert WIDOW.player_counts == (3, 4) and WIDOW.team_player_counts == (4,)
    with pytest.raises(RulesError, match="widow is played by 3, 4 players without teams, not 5"):
        new_match(WIDOW, 5, seed=1)


# --- nine_card ---------------------------------------------------------------------------------


def test_nine_card_everyone_trades_non_trumps_bidder_first() -> None:
    state = start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT)
    state = act(state, "bid 5", "pass", "pass", "pass", "trump h")
    assert state.public.to_act == 0  # the bidder discards first
    options = discard_options(state)
    assert options is not None and (options.size, options.required, options.choosable) == (
        2,
        cards("2c 3c"),
        cards(""),
    )
    state = act(state, *NINE_DISCARDS)
    pub = state.public
    assert pub.refills == (0, 4, 3, 3) and pub.took == 0 and pub.drawn == 10
    assert state.hand(0) == cards("Ah Kh Qh Jh Th 9h 8h")  # seven trumps, all kept
    assert state.hand(1) == cards("BJ 7h 4s 5s 6s Jd")
    assert pub.hand_sizes() == (7, 6, 6, 6)
    assert legal_cards(nine_card_in_play()) == state.hand(0)


def test_nine_card_extra_trumps_and_only_trumps_played() -> None:
    state = act(nine_card_in_play(), "8h")
    assert state.public.to_act == 0  # seven cards: the extra one goes to the first trick too
    state = act(state, "9h")
    assert state.public.to_act == 1
    assert legal_cards(state) == cards("BJ 7h Jd")  # the spades from the stock are dead
    with pytest.raises(IllegalActionError, match="only trumps are played"):
        act(state, "4s")
    state = act(state, "7h", "2h", "4h")
    trick = state.public.tricks[0]
    assert [seat for seat, _ in trick.plays()] == [0, 0, 1, 2, 3] and trick.winner == 0


def test_nine_card_players_drop_out_and_the_hand_ends_when_trumps_run_out() -> None:
    state = play_tricks(nine_card_in_play(), "8h 9h 7h 2h 4h", "Ah BJ LJ 5h", "Kh Jd 3h 6h")
    assert state.public.to_act == 0 and state.public.hand_sizes() == (3, 3, 3, 3)
    state = play_tricks(state, "Qh", "Jh")  # the others hold only dead spades: Ann plays alone
    assert [len(trick.cards) for trick in state.public.tricks][-2:] == [1, 1]
    state = act(state, "Th")
    assert state.public.phase is Phase.HAND_OVER and len(state.public.tricks) == 6
    result = state.public.results[-1]
    assert (result.points["big_joker"], result.points["little_joker"]) == (1, 2)  # to their holders


def test_nine_card_the_next_seat_with_a_trump_leads_when_the_winner_has_none() -> None:
    deal = [
        "Ah 2c 3c 4c 5c 6c 7c 8c 9c",
        "Kh Qh Jh Th 9h 8h Tc Jc Qc",
        "7h 6h 2d 3d 4d 5d 6d 7d 8d",
        "5h 4h 3h Kc Ac 2s 3s 4s 5s",
    ]
    out = "6s 7s 8s 9s Ts Js Qs Ks As 9d Td Jd Qd Kd Ad 2h BJ LJ"
    state = start(NINE_CARD, deal, dealer=3, out=out)
    state = act(state, "bid 2", "pass", "pass", "pass", "trump h")
    state = act(
        state,
        "discard 2c 3c 4c 5c 6c 7c 8c 9c",  # Ann keeps the Ah and draws five spades
        "discard Tc Jc Qc",
        "discard 2d 3d 4d 5d 6d 7d 8d",
        "discard Kc Ac 2s 3s 4s 5s",
    )
    state = act(state, "Ah", "8h", "6h", "3h")
    assert state.public.tricks[0].winner == 0
    assert state.public.to_act == 1  # Ann won with her last trump: Ben, the next holding one, leads


def test_nine_card_only_the_bidding_side_wins() -> None:
    assert NINE_CARD.only_bidder_wins and NINE_CARD.player_counts == (3, 4, 5, 6)
    state = start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT, scores=[10, 20, 0, 0])
    state = act(state, "bid 5", "pass", "pass", "pass", "trump h", *NINE_DISCARDS)
    state = play_tricks(state, "8h 9h 7h 2h 4h", "Ah BJ LJ 5h", "Kh Jd 3h 6h", "Qh", "Jh", "Th")
    assert state.public.scores == (18, 21, 1, 0) and state.public.phase is Phase.HAND_OVER


def test_nine_card_sampling_while_extra_trumps_are_played() -> None:
    # Ann plays again after her 8h: nobody was passed over, so nobody is shown out of trumps.
    state = act(nine_card_in_play(), "8h")
    assert state.public.to_act == 0
    for seat in range(4):
        view = player_view(state, seat)
        assert not any(revealed_voids(state.public))
        sampler = Determinizer(view, attempts=0)  # the exact sampler, which fails on a false void
        assert player_view(sampler.sample(random.Random(seat)), seat) == view
