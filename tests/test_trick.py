"""Effective suits and trick winners: where the jick and the jokers belong."""

from __future__ import annotations

import itertools

import pytest
from helpers import HOUSE, TEN_POINT, card

from smear import Rules, Suit, effective_suit, trick_winner


def winner(rules: Rules, trump: Suit, plays: str, leader: int = 0) -> str:
    """The card that wins a trick given in the order played."""
    words = plays.split()
    n = len(words)
    seat = trick_winner([((leader + i) % n, card(w)) for i, w in enumerate(words)], trump, rules)
    return words[(seat - leader) % n]


# --- effective suit -----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [HOUSE, TEN_POINT], ids=["house", "ten_point"])
@pytest.mark.parametrize("joker", ["BJ", "LJ"])
@pytest.mark.parametrize("trump", list(Suit))
def test_jokers_belong_to_trump(rules: Rules, joker: str, trump: Suit) -> None:
    assert effective_suit(card(joker), trump, rules) is trump


def test_before_trump_is_known_a_joker_has_no_suit() -> None:
    assert effective_suit(card("BJ"), None, HOUSE) is None
    assert effective_suit(card("Kc"), None, HOUSE) is Suit.CLUBS


@pytest.mark.parametrize(
    ("trump", "jick"), [(Suit.SPADES, "Jc"), (Suit.CLUBS, "Js"), (Suit.HEARTS, "Jd"), (Suit.DIAMONDS, "Jh")]
)
def test_ten_point_jick_belongs_to_trump_not_its_printed_suit(trump: Suit, jick: str) -> None:
    assert effective_suit(card(jick), trump, TEN_POINT) is trump


def test_house_has_no_jick() -> None:
    assert effective_suit(card("Jc"), Suit.SPADES, HOUSE) is Suit.CLUBS


def test_other_jacks_keep_their_suit_in_ten_point() -> None:
    assert effective_suit(card("Jd"), Suit.SPADES, TEN_POINT) is Suit.DIAMONDS
    assert effective_suit(card("Jh"), Suit.SPADES, TEN_POINT) is Suit.HEARTS


# --- house trick winners (RULES.md 3a) ----------------------------------------------------------


def test_house_both_jokers_and_no_other_trump_big_joker_wins() -> None:
    assert winner(HOUSE, Suit.HEARTS, "Kc LJ Ac BJ") == "BJ"


def test_house_any_trump_beats_a_joker() -> None:
    assert winner(HOUSE, Suit.HEARTS, "Kc BJ 8h") == "8h"


def test_house_a_lone_joker_wins_a_trick_without_other_trumps() -> None:
    assert winner(HOUSE, Suit.HEARTS, "LJ Ks Qd Ac") == "LJ"


def test_house_trump_order_ace_down_then_big_then_little_joker() -> None:
    order = ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h", "7h", "6h", "5h", "4h", "3h", "2h", "BJ", "LJ"]
    for higher, lower in itertools.pairwise(order):
        assert winner(HOUSE, Suit.HEARTS, f"{lower} {higher}") == higher
        assert winner(HOUSE, Suit.HEARTS, f"{higher} {lower}") == higher


def test_house_the_other_jack_of_the_colour_is_no_trump() -> None:
    assert winner(HOUSE, Suit.SPADES, "Ac Jc") == "Ac"
    assert winner(HOUSE, Suit.SPADES, "Jc 2s") == "2s"


# --- ten_point trick winners --------------------------------------------------------------------


def test_ten_point_ace_of_trump_beats_jack_jick_and_jokers() -> None:
    assert winner(TEN_POINT, Suit.SPADES, "As Js Jc BJ LJ") == "As"


def test_ten_point_trump_order() -> None:
    order = ["As", "Ks", "Qs", "Js", "Jc", "BJ", "LJ", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s", "2s"]
    for higher, lower in itertools.pairwise(order):
        assert winner(TEN_POINT, Suit.SPADES, f"{lower} {higher}") == higher
        assert winner(TEN_POINT, Suit.SPADES, f"{higher} {lower}") == higher


def test_ten_point_jick_led_is_beaten_by_any_higher_trump_only() -> None:
    assert winner(TEN_POINT, Suit.HEARTS, "Jd Ad Kd Th") == "Jd"
    assert winner(TEN_POINT, Suit.HEARTS, "Jd Ad Qh Th") == "Qh"


def test_ten_point_any_trump_beats_the_suit_led() -> None:
    assert winner(TEN_POINT, Suit.SPADES, "Ac Kc 2s") == "2s"


# --- both presets -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [HOUSE, TEN_POINT], ids=["house", "ten_point"])
def test_without_trump_the_highest_card_of_the_suit_led_wins(rules: Rules) -> None:
    assert winner(rules, Suit.SPADES, "9d Ac Kd Ah") == "Kd"
    assert winner(rules, Suit.SPADES, "9d 2d") == "9d"


@pytest.mark.parametrize("leader", [0, 1, 2, 3])
def test_the_winner_is_reported_by_seat_whoever_led(leader: int) -> None:
    plays = [((leader + i) % 4, card(w)) for i, w in enumerate(["Kc", "LJ", "Ac", "BJ"])]
    assert trick_winner(plays, Suit.HEARTS, HOUSE) == (leader + 3) % 4
