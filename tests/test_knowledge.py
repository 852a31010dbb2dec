"""What a seat can infer from public play (smear.knowledge): the cards played and by whom, the cards
it has not seen, the voids play shows, and who is out of the hand where only trumps are played."""

from __future__ import annotations

import doctest
import random
from collections.abc import Iterator

import pytest
from helpers import (
    HOUSE,
    act,
    cards,
    config_id,
    configurations,
    nine_card_in_play,
    play_tricks,
    rules_named,
    start,
)

import smear.knowledge
from smear import CardSet, Phase, State, apply, legal_actions, new_match, next_hand, player_view
from smear.bots import random_action
from smear.knowledge import (
    out_of_hand,
    played_cards,
    plays_by_seat,
    revealed_voids,
    seat_out_of_hand,
    unseen_cards,
)


def house_trick_and_a_half() -> State:
    state = start(
        HOUSE,
        ["Ah Jh 9h Ks Tc LJ", "Qh Td Kd Qd Jd Ad", "8h Kh Js Qs As 9s", "Th Ac Kc Qc Jc 9c"],
        dealer=3,
    )
    state = act(state, "bid 3", "pass", "pass", "pass")
    return play_tricks(state, "Ah Qh 8h Th", "Tc Td")


def test_the_cards_played_and_by_whom() -> None:
    state = house_trick_and_a_half()
    assert CardSet(played_cards(state.public)) == cards("Ah Qh 8h Th Tc Td")
    assert [CardSet(mask) for mask in plays_by_seat(state.public)] == [
        cards("Ah Tc"),
        cards("Qh Td"),
        cards("8h"),
        cards("Th"),
    ]


def test_a_seat_has_not_seen_the_other_hands_and_the_sleeping_cards() -> None:
    state = house_trick_and_a_half()
    view = player_view(state, 2)
    others = state.hand(0) | state.hand(1) | state.hand(3) | CardSet(state.out)
    assert CardSet(unseen_cards(view)) == others
    assert not CardSet(unseen_cards(view)) & cards("Ah Qh 8h Th Tc Td Kh Js Qs As 9s")


def test_voids_shown_by_not_following() -> None:
    state = house_trick_and_a_half()
    order = state.public.order
    assert order is not None
    # Ben played a diamond to clubs: no club; nobody else has failed to follow.
    assert revealed_voids(state.public) == (0, order.suit_masks[0], 0, 0)


def test_nobody_is_out_of_the_hand_outside_trumps_only_play() -> None:
    state = house_trick_and_a_half()
    assert out_of_hand(state.public) == ()
    assert all(seat_out_of_hand(player_view(state, seat)) == () for seat in range(4))


def test_a_seat_passed_over_is_out_of_the_hand() -> None:
    state = nine_card_in_play()
    # Ann plays two trumps (her extra one first), then everyone; Ben's BJ and Jd go in tricks 2 and 3.
    state = play_tricks(state, "8h 9h 7h 2h 4h", "Ah BJ LJ 5h", "Kh Jd 3h 6h")
    assert state.public.to_act == 0 and not state.public.trick
    # Ben, Cy and Di hold no trump now, but nobody else knows it yet; each knows it of itself.
    assert out_of_hand(state.public) == ()
    assert [seat_out_of_hand(player_view(state, seat)) for seat in range(4)] == [(), (1,), (2,), (3,)]
    state = act(state, "Qh")  # play comes back to Ann at once: the three are passed over
    assert out_of_hand(state.public) == (1, 2, 3)
    assert seat_out_of_hand(player_view(state, 0)) == (1, 2, 3)
    trumps = state.public.order.trump_mask if state.public.order else 0
    assert revealed_voids(state.public) == (0, trumps, trumps, trumps)


def test_the_extra_trumps_to_the_first_trick_pass_nobody_over() -> None:
    state = act(nine_card_in_play(), "8h")
    assert state.public.to_act == 0
    assert out_of_hand(state.public) == () and not any(revealed_voids(state.public))


def walk(config: tuple[str, int, bool], seeds: int, hands: int) -> Iterator[State]:
    """Every state of the first ``hands`` hands of ``seeds`` random matches at this table."""
    preset, players, teams = config
    rng = random.Random(f"knowledge:{config}")
    for seed in range(seeds):
        state = new_match(rules_named(preset), players, teams, seed=seed)
        while state.public.phase is not Phase.MATCH_OVER:
            yield state
            if state.public.phase is Phase.HAND_OVER:
                if state.public.hand_number >= hands:
                    break
                state = next_hand(state)
            else:
                state = apply(state, random_action(legal_actions(state), rng))


TRUMPS_ONLY = [config for config in configurations() if rules_named(config[0]).trumps_only]


@pytest.mark.parametrize("config", TRUMPS_ONLY, ids=config_id)
def test_who_is_out_of_the_hand_is_always_true(config: tuple[str, int, bool]) -> None:
    """In random matches where only trumps are played: a seat shown out holds no trump, the seat
    to act is never shown out, and a seat knows itself out exactly when it holds no trump."""
    shown_out = 0
    for state in walk(config, seeds=3, hands=3):
        pub = state.public
        out = out_of_hand(pub)
        assert pub.to_act not in out
        trumps = pub.order.trump_mask if pub.order is not None else 0
        for seat in range(pub.players):
            known = seat_out_of_hand(player_view(state, seat))
            if pub.phase is Phase.PLAY:
                assert seat not in out or not state.hands[seat] & trumps
                assert (seat in known) == (not state.hands[seat] & trumps)
                assert set(known) - {seat} == set(out) - {seat}
            else:
                assert out == known == ()
        shown_out += len(out)
    assert shown_out  # the walk met seats out of the hand


@pytest.mark.parametrize("config", configurations(options=False)[::3], ids=config_id)
def test_what_a_seat_has_not_seen_is_the_other_hands_discards_and_undealt_cards(
    config: tuple[str, int, bool],
) -> None:
    for state in walk(config, seeds=1, hands=2):
        pub = state.public
        if pub.phase is Phase.HAND_OVER:
            continue
        undrawn = CardSet(state.out[pub.drawn :]).mask
        for seat in range(pub.players):
            others = 0
            for other in range(pub.players):
                if other != seat:
                    others |= state.hands[other] | state.discards[other]
            assert unseen_cards(player_view(state, seat)) == others | undrawn


def test_doctest() -> None:
    assert doctest.testmod(smear.knowledge).failed == 0
