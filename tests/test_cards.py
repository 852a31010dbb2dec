"""Cards, suits and sets of cards in record notation, and actions written the same way."""

from __future__ import annotations

import pytest
from helpers import card, cards

from smear import (
    CARDS,
    ActionError,
    Bid,
    CardError,
    CardSet,
    Discard,
    NameTrump,
    Pass,
    Play,
    Rank,
    Suit,
    parse_action,
    parse_card,
    parse_suit,
)

# --- single cards -------------------------------------------------------------------------------


def test_a_card_reads_and_prints_in_record_notation() -> None:
    ace = parse_card("Ah")
    assert str(ace) == "Ah"
    assert ace.rank is Rank.ACE
    assert ace.suit is Suit.HEARTS
    assert not ace.is_joker


def test_ten_is_accepted_as_10_and_printed_as_t() -> None:
    assert parse_card("10d") == parse_card("Td")
    assert str(parse_card("10d")) == "Td"
    assert parse_card("10d").rank is Rank.TEN


@pytest.mark.parametrize("text", ["ah", "AH", "aH", " Ah "])
def test_card_notation_ignores_case_and_surrounding_space(text: str) -> None:
    assert parse_card(text) == parse_card("Ah")


def test_jokers_have_no_suit_and_no_rank() -> None:
    big, little = parse_card("BJ"), parse_card("LJ")
    assert big != little
    assert (str(big), str(little)) == ("BJ", "LJ")
    for joker in (big, little):
        assert joker.is_joker
        assert joker.suit is None
        assert joker.rank is None
    assert parse_card("bj") == big


@pytest.mark.parametrize("text", ["", "A", "1h", "11h", "Ahh", "Zz", "Ax", "J", "10", "1 0d", "XJ"])
def test_text_that_is_not_a_card_is_refused_and_quoted(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert repr(text) in str(caught.value)


def test_the_deck_has_54_distinct_cards_with_distinct_names() -> None:
    assert len(CARDS) == 54
    assert len(set(CARDS)) == 54
    assert len({str(c) for c in CARDS}) == 54
    assert all(parse_card(str(c)) == c for c in CARDS)


@pytest.mark.parametrize(
    ("text", "value"),
    [("Tc", 10), ("As", 4), ("Kd", 3), ("Qh", 2), ("Jc", 1), ("9s", 0), ("2d", 0), ("BJ", 0), ("LJ", 0)],
)
def test_game_point_values(text: str, value: int) -> None:
    assert card(text).game_value == value


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("c", Suit.CLUBS),
        ("D", Suit.DIAMONDS),
        ("hearts", Suit.HEARTS),
        ("heart", Suit.HEARTS),
        ("s", Suit.SPADES),
    ],
)
def test_suits_read_by_letter_or_name(text: str, suit: Suit) -> None:
    assert parse_suit(text) is suit


def test_a_word_that_is_not_a_suit_is_refused() -> None:
    with pytest.raises(CardError, match="'x'"):
        parse_suit("x")


def test_the_jick_suit_is_the_other_suit_of_the_same_colour() -> None:
    assert Suit.HEARTS.partner is Suit.DIAMONDS
    assert Suit.DIAMONDS.partner is Suit.HEARTS
    assert Suit.CLUBS.partner is Suit.SPADES
    assert Suit.SPADES.partner is Suit.CLUBS


# --- sets of cards ------------------------------------------------------------------------------


def test_a_hand_behaves_as_a_set() -> None:
    hand = cards("Ah Jh 9h Ks Tc LJ")
    assert len(hand) == 6
    assert card("Ah") in hand
    assert card("Kh") not in hand
    assert card("LJ") in hand
    assert hand == {card(t) for t in ["Ah", "Jh", "9h", "Ks", "Tc", "LJ"]}
    assert set(hand) == {card(t) for t in ["Ah", "Jh", "9h", "Ks", "Tc", "LJ"]}


def test_set_operations_return_card_sets() -> None:
    hand = cards("Ah Jh 9h Ks")
    other = cards("Ah Ks Qd")
    assert hand & other == cards("Ah Ks")
    assert hand | other == cards("Ah Jh 9h Ks Qd")
    assert hand - other == cards("Jh 9h")
    assert hand ^ other == cards("Jh 9h Qd")
    for result in (hand & other, hand | other, hand - other, hand ^ other):
        assert isinstance(result, CardSet)
    assert cards("Ah Ks") <= hand
    assert not cards("Ah Qd") <= hand
    assert hand.isdisjoint(cards("Qd Td"))


def test_order_and_commas_do_not_matter_and_printing_is_canonical() -> None:
    assert cards("Ks, Ah 10c") == cards("Tc Ks Ah")
    assert str(cards("Ks, Ah 10c")) == str(cards("Tc Ks Ah"))
    assert "10" not in str(cards("10c 10d"))
    assert cards(str(cards("LJ BJ 2c Ah"))) == cards("LJ BJ 2c Ah")


def test_equal_sets_hash_alike() -> None:
    assert hash(cards("Ah Ks")) == hash(cards("Ks Ah"))
    assert len({cards("Ah Ks"), cards("Ks Ah"), cards("Ah")}) == 2


def test_an_empty_set_is_false_and_a_full_one_has_every_card() -> None:
    assert not CardSet()
    assert len(CardSet()) == 0
    assert len(CardSet(CARDS)) == 54
    assert CardSet(CARDS) == set(CARDS)


def test_a_card_listed_twice_is_refused() -> None:
    with pytest.raises(CardError, match="twice"):
        cards("Ah Ks Ah")


def test_a_card_set_refuses_a_word_that_is_not_a_card() -> None:
    with pytest.raises(CardError, match="'Xy'"):
        cards("Ah Xy")


def test_iteration_yields_each_card_once() -> None:
    hand = cards("2c Ac BJ LJ Ts")
    listed = list(hand)
    assert len(listed) == 5
    assert set(listed) == set(hand)


# --- actions in record notation -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action", "canonical"),
    [
        ("pass", Pass(), "pass"),
        ("bid 3", Bid(3), "bid 3"),
        ("trump h", NameTrump(Suit.HEARTS), "trump h"),
        ("trump spades", NameTrump(Suit.SPADES), "trump s"),
        ("Ah", Play(card("Ah")), "Ah"),
        ("10d", Play(card("Td")), "Td"),
        ("BJ", Play(card("BJ")), "BJ"),
        ("discard 2c 10d", Discard(cards("2c Td")), "discard 2c Td"),
    ],
)
def test_actions_read_and_print_in_record_notation(text: str, action: object, canonical: str) -> None:
    parsed = parse_action(text)
    assert parsed == action
    assert str(parsed) == canonical
    assert parse_action(str(parsed)) == parsed


@pytest.mark.parametrize(
    "text", ["", "   ", "bid", "bid x", "bid 3 4", "trump", "trump q", "Ahh", "play Ah", "passes"]
)
def test_text_that_is_not_an_action_is_refused_and_quoted(text: str) -> None:
    with pytest.raises(ActionError):
        parse_action(text)


def test_a_refused_action_quotes_the_text() -> None:
    with pytest.raises(ActionError, match="'trump q'"):
        parse_action("trump q")
