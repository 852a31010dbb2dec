"""What one seat sees: its own cards and discards, the public state, and its legal actions."""

from __future__ import annotations

import random

import pytest
from helpers import (
    HOUSE,
    NINE_CARD,
    NINE_DEAL,
    NINE_OUT,
    TEN_POINT,
    act,
    cards,
    mentioned_cards,
    nine_card_in_play,
    play_tricks,
    public_facts,
    start,
)

from smear import CardSet, Phase, State, apply, legal_actions, new_match, player_view
from smear.bots import random_action

HANDS = [
    "As Kc Qc Jh Th 9h 2h 3h 4h 5h",
    "4s Jc Ad 2d 3d 4d 5d 6d 7d 8d",
    "5s 6s 7s 8s 9s Ts 2c 3c 4c 5c",
]


def discarded() -> State:
    state = act(start(TEN_POINT, HANDS), "bid 2", "pass", "pass", "trump s")
    return act(state, "discard 2h 3h 4h 5h", "discard 5d 6d 7d 8d", "discard 2c 3c 4c 5c")


def test_a_view_holds_the_seats_own_hand_and_discards() -> None:
    state = discarded()
    view = player_view(state, 1)
    assert view.seat == 1
    assert view.hand == cards("4s Jc Ad 2d 3d 4d")
    assert view.discards == cards("5d 6d 7d 8d")
    assert view.public == state.public
    assert view.side == 1


def test_only_the_seat_to_act_gets_legal_actions() -> None:
    state = discarded()
    assert state.public.to_act == 0
    me = player_view(state, 0)
    assert me.is_my_turn
    assert [str(a) for a in me.legal_actions] == ["As"]
    for seat in (1, 2):
        other = player_view(state, seat)
        assert not other.is_my_turn
        assert other.legal_actions == ()


def test_a_view_shows_trump_and_the_trick_in_progress() -> None:
    state = play_tricks(discarded(), "As 4s")
    view = player_view(state, 2)
    assert view.phase is Phase.PLAY
    assert view.trump is not None and view.trump.letter == "s"
    assert [(seat, str(c)) for seat, c in view.trick] == [(0, "As"), (1, "4s")]
    assert view.public.hand_sizes() == (5, 5, 6)


def test_a_view_mentions_no_card_of_another_hand_or_of_the_undealt_cards() -> None:
    state = play_tricks(discarded(), "As 4s")
    view = player_view(state, 2)
    seen = mentioned_cards(view, public_facts(view.public))
    assert seen == cards("5s 6s 7s 8s 9s Ts 2c 3c 4c 5c") | cards("As 4s")


def test_the_hidden_cards_are_shown_once_the_hand_is_over() -> None:
    state = start(HOUSE, ["Ah Kh Tc Ac Td Ad", "Th Jh Qc Kc Jd BJ", "Qh Js Qs Ks As Jc"])
    state = act(state, "bid 2", "bid 3", "pass")
    before_end = play_tricks(state, "Th Qh Ah", "Kh Jh Jc", "Tc Kc Js", "BJ Qs Td", "Qc Ks Ac", "Ad Jd")
    view = player_view(before_end, 0)
    assert cards("LJ").isdisjoint(mentioned_cards(view, public_facts(view.public)))
    over = act(before_end, "As")
    assert over.public.phase is Phase.HAND_OVER
    assert over.public.results[-1].out == cards("Qd Kd Ts LJ")
    view = player_view(over, 0)
    assert cards("Qd Kd Ts LJ") <= mentioned_cards(view, public_facts(view.public))


@pytest.mark.parametrize("seat", [-1, 3, 10])
def test_a_seat_outside_the_table_is_refused(seat: int) -> None:
    with pytest.raises(ValueError, match=str(seat)):
        player_view(discarded(), seat)


def test_a_seat_is_told_how_many_extra_trumps_it_plays_to_the_first_trick() -> None:
    # Ann keeps seven trumps of a six-card hand: two cards to the first trick, then one each.
    state = nine_card_in_play()
    assert [player_view(state, seat).extra_trumps() for seat in range(4)] == [2, 0, 0, 0]
    state = act(state, "8h")
    assert player_view(state, 0).extra_trumps() == 1  # her last extra card
    state = act(state, "9h")
    assert state.public.to_act == 1 and player_view(state, 1).extra_trumps() == 0


# Deals (found by trying seeds) where a seat keeps more trumps than a hand.
@pytest.mark.parametrize(("players", "seed"), [(3, 135), (4, 135), (5, 22), (5, 37), (5, 54)])
def test_the_extra_trumps_a_seat_is_told_of_are_the_cards_it_plays_in_a_row(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_match(NINE_CARD, players, seed=seed)
    told = 0
    while state.public.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
        seat = state.public.to_act
        assert seat is not None
        extra = player_view(state, seat).extra_trumps()
        if not extra:
            state = apply(state, random_action(legal_actions(state), rng))
            continue
        told += 1
        for _ in range(extra):  # the same seat plays them all, and then the turn moves on
            assert state.public.to_act == seat
            state = apply(state, random_action(legal_actions(state), rng))
        assert state.public.to_act != seat or state.public.tricks
    assert told == 1


def test_where_only_trumps_are_played_a_seat_is_told_its_dead_cards() -> None:
    state = nine_card_in_play()
    order = state.public.order
    assert order is not None
    dead = [player_view(state, seat).dead_cards() for seat in range(4)]
    assert dead == [CardSet(state.hands[seat] & ~order.trump_mask) for seat in range(4)]
    assert any(dead)  # the stock dealt some seat a non-trump
    # Not while discarding, and not where every card can be played.
    discarding = act(
        start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT), "bid 5", "pass", "pass", "pass", "trump h"
    )
    assert not any(player_view(discarding, seat).dead_cards() for seat in range(4))
    assert not player_view(discarded(), 0).dead_cards()
