"""Rules as data: the presets, deck sizes, deals and the player counts they allow."""

from __future__ import annotations

import pytest
from helpers import HOUSE, TEN_POINT, act, cards, deck, union

from smear import PRESETS, CardSet, Phase, Rank, RulesError, State, find_rules, new_match


def test_the_presets_are_house_and_ten_point() -> None:
    assert set(PRESETS) >= {"house", "ten_point"}
    assert find_rules("house") is PRESETS["house"]
    assert find_rules("ten_point") is PRESETS["ten_point"]


def test_an_unknown_preset_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="'tenpoint'"):
        find_rules("tenpoint")


def test_house_rules() -> None:
    assert (HOUSE.min_bid, HOUSE.max_bid) == (2, 6)
    assert HOUSE.hand_size == 6
    assert HOUSE.target == 21
    assert HOUSE.points == ("high", "low", "jack", "big_joker", "little_joker", "game")
    assert sum(HOUSE.point_values.values()) == 6


def test_ten_point_rules() -> None:
    assert (TEN_POINT.min_bid, TEN_POINT.max_bid) == (2, 10)
    assert TEN_POINT.target == 21
    assert set(TEN_POINT.points) == {
        "high",
        "low",
        "jack",
        "jick",
        "big_joker",
        "little_joker",
        "game",
        "trey",
    }
    assert TEN_POINT.point_values["trey"] == 3
    assert sum(TEN_POINT.point_values.values()) == 10


# --- who may play -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players"), [("house", n) for n in range(3, 9)] + [("ten_point", n) for n in range(3, 7)]
)
def test_allowed_player_counts_without_teams(preset: str, players: int) -> None:
    state = new_match(find_rules(preset), players, seed=1)
    assert state.public.players == players
    assert len(state.public.sides) == players


@pytest.mark.parametrize(("preset", "players"), [(p, n) for p in ("house", "ten_point") for n in (4, 6, 8)])
def test_teams_are_partners_across_the_table(preset: str, players: int) -> None:
    state = new_match(find_rules(preset), players, teams=True, seed=1)
    half = players // 2
    assert len(state.public.sides) == half
    for seat in range(players):
        assert state.public.seat_side[seat] == state.public.seat_side[(seat + half) % players]
    assert len(set(state.public.seat_side[:half])) == half


@pytest.mark.parametrize(
    ("preset", "players", "teams"),
    [
        ("house", 2, False),
        ("house", 9, False),
        ("house", 3, True),
        ("house", 5, True),
        ("house", 7, True),
        ("ten_point", 2, False),
        ("ten_point", 7, False),
        ("ten_point", 8, False),
        ("ten_point", 5, True),
    ],
)
def test_a_player_count_the_rules_forbid_is_refused(preset: str, players: int, teams: bool) -> None:
    with pytest.raises(RulesError, match=str(players)):
        new_match(find_rules(preset), players, teams=teams, seed=1)


# --- the house deck -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "lowest", "size"),
    [
        (3, Rank.TEN, 22),
        (4, Rank.EIGHT, 30),
        (5, Rank.SEVEN, 34),
        (6, Rank.FIVE, 42),
        (7, Rank.FOUR, 46),
        (8, Rank.TWO, 54),
    ],
)
def test_house_deck_keeps_the_ranks_from_the_lowest_up(players: int, lowest: Rank, size: int) -> None:
    table_deck = deck(HOUSE, players)
    assert len(table_deck) == size
    assert cards("BJ LJ") <= table_deck
    for c in table_deck - cards("BJ LJ"):
        assert c.rank is not None and c.rank >= lowest
    # every suit has every rank from the lowest up
    plain = [c for c in table_deck if not c.is_joker]
    assert len(plain) == 4 * (Rank.ACE - lowest + 1)


@pytest.mark.parametrize(("players", "sleeping"), [(3, 4), (4, 6), (5, 4), (6, 6), (7, 4), (8, 6)])
def test_house_deals_six_cards_each_and_the_rest_sleep(players: int, sleeping: int) -> None:
    state = new_match(HOUSE, players, seed=5)
    hands = [state.hand(seat) for seat in range(players)]
    out = CardSet(state.out)
    assert [len(hand) for hand in hands] == [6] * players
    assert len(state.out) == len(out) == sleeping
    assert union([*hands, out]) == deck(HOUSE, players)
    assert sum(len(hand) for hand in hands) + sleeping == len(deck(HOUSE, players))


def test_house_three_players_deck_is_ten_to_ace() -> None:
    assert deck(HOUSE, 3) == cards("Tc Jc Qc Kc Ac Td Jd Qd Kd Ad Th Jh Qh Kh Ah Ts Js Qs Ks As BJ LJ")


# --- the ten-point deal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "teams", "dealt"),
    [
        (3, False, 10),
        (4, False, 10),
        (5, False, 10),
        (4, True, 10),
        (6, False, 8),
        (6, True, 8),
        (8, True, 6),
    ],
)
def test_ten_point_deal_sizes(players: int, teams: bool, dealt: int) -> None:
    state = new_match(TEN_POINT, players, teams=teams, seed=3)
    assert deck(TEN_POINT, players) == cards(
        " ".join(["BJ LJ"] + [r + s for r in "23456789TJQKA" for s in "cdhs"])
    )
    assert all(mask.bit_count() == dealt for mask in state.hands)
    assert len(state.out) == 54 - dealt * players


def _through_auction_and_trump(players: int, teams: bool) -> State:
    state = new_match(TEN_POINT, players, teams=teams, seed=11)
    state = act(state, *(["pass"] * (players - 1)), "bid 2", "trump h")
    return state


@pytest.mark.parametrize(
    ("players", "teams"), [(3, False), (4, False), (5, False), (6, False), (4, True), (6, True)]
)
def test_ten_point_discards_to_six_where_more_are_dealt(players: int, teams: bool) -> None:
    state = _through_auction_and_trump(players, teams)
    assert state.public.phase is Phase.DISCARD


def test_ten_point_with_eight_players_has_no_discard() -> None:
    state = _through_auction_and_trump(8, True)
    assert state.public.phase is Phase.PLAY
    assert state.public.to_act == state.public.dealer


# --- changing rules -----------------------------------------------------------------------------


def test_with_changes_copies_and_checks() -> None:
    short = HOUSE.with_changes(target=11)
    assert short.target == 11
    assert HOUSE.target == 21
    with pytest.raises(RulesError, match="'no_such_rule'"):
        HOUSE.with_changes(no_such_rule=1)
    with pytest.raises(RulesError):
        HOUSE.with_changes(target="eleven")
    with pytest.raises(RulesError):
        HOUSE.with_changes(min_bid=7)
