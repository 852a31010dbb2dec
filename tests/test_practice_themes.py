"""Themes of practice positions, on hand-made positions built to show each one (house, four players
in two teams: seats 0 and 2 against 1 and 3)."""

from __future__ import annotations

import random

from helpers import NINE_CARD, NINE_DEAL, NINE_OUT, act, card, start

from smear.actions import Action, parse_action
from smear.bots import HeuristicBot
from smear.cards import CardSet
from smear.practice.lines import PlayedLine, play_line
from smear.practice.themes import find_themes
from smear.rules import find_rules
from smear.state import State
from smear.trick import Trick
from smear.views import player_view

HOUSE = find_rules("house")
HANDS = ["Ah Kh 9h 9c 9d 9s", "Jh Qh Qc Td Qs Ts", "Th Tc Kc Kd Ks Js", "8h Ac Jc Ad Jd As"]
OUT = "BJ LJ 8c 8d Qd 8s"


def dealt() -> State:
    return start(HOUSE, HANDS, teams=True, out=OUT)


def after(*actions: str) -> State:
    return act(dealt(), "bid 2", "pass", "pass", "pass", *actions)


def themes(
    state: State, best: str, values: dict[str, float] | None = None, lines: list[PlayedLine] | None = None
) -> list[str]:
    seat = state.public.to_act
    assert seat is not None
    return find_themes(player_view(state, seat), parse_action(best), values or {}, lines or [])


def line_of(state: State, best: str) -> PlayedLine:
    seat = state.public.to_act
    assert seat is not None
    return play_line(state, seat, parse_action(best), HeuristicBot(), random.Random(0))


def made_line(*tricks: tuple[int, str, int]) -> PlayedLine:
    """A line given by its tricks only: (leader, cards in order, winner)."""
    found = tuple(
        Trick(leader, tuple(card(text) for text in cards.split()), winner) for leader, cards, winner in tricks
    )
    none: tuple[tuple[int, Action], ...] = ()
    return PlayedLine((CardSet(),) * 4, none, found)


def test_a_bid_is_bidding_the_hand() -> None:
    assert themes(dealt(), "bid 3", {"pass": 0.0, "bid 2": 0.5, "bid 3": 1.0}) == ["bid_the_hand"]


def test_the_moon_best_or_a_close_second_is_the_moon_and_far_behind_is_not() -> None:
    rules = HOUSE.with_changes(shoot_the_moon=True)
    state = start(rules, HANDS, teams=True, out=OUT)
    moon = f"bid {rules.top_bid}"
    assert themes(state, moon, {"pass": 0.0, "bid 4": 1.0, moon: 2.0}) == ["bid_the_hand", "moon"]
    assert themes(state, "bid 4", {"pass": 0.0, "bid 4": 2.0, moon: 1.0}) == ["bid_the_hand", "moon"]
    assert themes(state, "bid 4", {"pass": 1.0, "bid 4": 2.0, moon: -3.0}) == ["bid_the_hand"]


def test_the_first_lead_names_trump() -> None:
    assert themes(after(), "Ah") == ["trump_choice"]


def test_a_discard_is_what_to_keep() -> None:
    state = act(
        start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT), "bid 5", "pass", "pass", "pass", "trump h"
    )
    assert themes(state, "discard 2c 3c") == ["discard"]


def test_leading_the_king_of_trump_draws_trump_and_catches_the_jack() -> None:
    state = after("Ah", "Qh", "Th", "8h")  # seat 1 kept the Jack; seat 0 leads again
    found = themes(state, "Kh", lines=[line_of(state, "Kh")])
    assert "draw_trump" in found and "catch_the_jack" in found


def test_a_point_card_on_the_partner_s_trick_gives_partner_the_point() -> None:
    assert themes(after("Ah", "Qh"), "Th") == ["give_partner_the_point"]


def test_keeping_the_jack_for_a_trick_the_side_takes_saves_it() -> None:
    state = after("Ah")
    kept = made_line((0, "Ah Qh Th 8h", 0), (0, "9c Jh Kc Ac", 3))
    lost = made_line((0, "Ah Qh Th 8h", 0), (0, "Kh Jh Tc Jc", 0))
    assert themes(state, "Qh", lines=[kept]) == ["save_the_jack"]
    assert "save_the_jack" not in themes(state, "Qh", lines=[lost])


def test_winning_the_trick_with_the_lowest_trump_on_it_takes_low() -> None:
    state = after("Ah", "Qh", "Th", "8h", "9h")  # 9h, the lowest heart left, led into seat 1's Jack
    assert themes(state, "Jh") == ["take_low"]


def test_a_plain_lead_and_a_plain_follow() -> None:
    state = after("Ah", "Qh", "Th", "8h")
    assert themes(state, "9c") == ["lead"]
    assert themes(act(state, "9c"), "Qc") == ["follow"]
