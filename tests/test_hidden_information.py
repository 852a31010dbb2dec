"""No view shows a card its holder may not know: another seat's hand, the sleeping or undealt
cards, or anyone else's discards, until the hand is over (RULES.md section 5).

Random matches of every preset, player count and team layout; at every step, every seat's view
is walked whole and every card it mentions must be the seat's own (hand or discards), or played to
a trick, or part of the result of a finished hand. A spectator's public state mentions played
cards and finished results only. And a view must not change when the cards it may not know are
dealt differently.
"""

from __future__ import annotations

import os
import random

import pytest
from helpers import (
    TEN_POINT,
    act,
    cards,
    config_id,
    configurations,
    mentioned_cards,
    played_cards,
    public_facts,
    random_match,
    rules_named,
    start,
)

from smear import CardSet, Phase, PlayerView, PublicState, State, player_view

MATCHES = max(1, int(os.environ.get("SMEAR_CONFORMANCE_MATCHES", "3")) // 3)
ACTING = (Phase.AUCTION, Phase.TRUMP, Phase.DISCARD, Phase.PLAY)


def check_results_are_finished(public: PublicState) -> None:
    over = public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)
    for result in public.results:
        assert result.number < public.hand_number or (result.number == public.hand_number and over), (
            f"hand {result.number}'s result is shown during hand {public.hand_number}"
        )


def without_results(public: PublicState) -> PublicState:
    return public._replace(results=())


def public_cards(public: PublicState) -> CardSet:
    """The cards a public state mentions, leaving out public facts and finished results."""
    check_results_are_finished(public)
    return mentioned_cards(without_results(public), public_facts(public))


def check_spectator(state: State) -> CardSet:
    seen = public_cards(state.public)
    leaked = seen - played_cards(state)
    assert not leaked, f"the public state shows {leaked}"
    return seen


def check_view(state: State, seat: int, seen_in_public: CardSet) -> PlayerView:
    view = player_view(state, seat)
    # the public part is usually the state's own: walk it once per step, not once per seat
    seen = seen_in_public if view.public == state.public else public_cards(view.public)
    own_fields = tuple(getattr(view, name) for name in view._fields if name != "public")
    seen |= mentioned_cards(own_fields, public_facts(view.public))
    allowed = state.hand(seat) | CardSet(state.discards[seat]) | played_cards(state)
    leaked = seen - allowed
    assert not leaked, f"seat {seat} sees {leaked} in {state.public.phase} of hand {state.public.hand_number}"
    assert state.hand(seat) <= seen, "a seat must see its own hand"
    return view


def redeal_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same state with every card ``seat`` may not know dealt again at random among the other
    seats' hands and discards and the undealt cards, keeping every count."""
    n = state.public.players
    others = [s for s in range(n) if s != seat]
    pool = list(CardSet(state.out))
    for other in others:
        pool += list(CardSet(state.hands[other] | state.discards[other]))
    rng.shuffle(pool)
    hands = list(state.hands)
    discards = list(state.discards)
    dealt = list(state.dealt)
    for other in others:
        taken_hand = CardSet(pool[: len(CardSet(hands[other]))])
        del pool[: len(taken_hand)]
        taken_discards = CardSet(pool[: len(CardSet(discards[other]))])
        del pool[: len(taken_discards)]
        dealt[other] = (
            dealt[other] & ~(hands[other] | discards[other]) | taken_hand.mask | taken_discards.mask
        )
        hands[other] = taken_hand.mask
        discards[other] = taken_discards.mask
    return state._replace(hands=tuple(hands), discards=tuple(discards), dealt=tuple(dealt), out=tuple(pool))


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_no_view_shows_a_hidden_card(config: tuple[str, int, bool]) -> None:
    name, players, teams = config
    rng = random.Random(f"hidden:{config}")
    steps = 0
    for seed in range(100, 100 + MATCHES):
        for state in random_match(rules_named(name), players, teams, seed):
            seen_in_public = check_spectator(state)
            for seat in range(players):
                view = check_view(state, seat, seen_in_public)
                if state.public.phase in ACTING and rng.random() < 0.2:
                    assert player_view(redeal_hidden(state, seat, rng), seat) == view, (
                        f"seat {seat}'s view depends on cards it may not know"
                    )
            steps += 1
    assert steps > 50


def test_discards_of_others_are_hidden_until_the_hand_is_over() -> None:
    hands = [
        "As Kc Qc Jh Th 9h 2h 3h 4h 5h",
        "4s Jc Ad 2d 3d 4d 5d 6d 7d 8d",
        "5s 6s 7s 8s 9s Ts 2c 3c 4c 5c",
    ]
    state = act(start(TEN_POINT, hands), "bid 2", "pass", "pass", "trump s", "discard 2h 3h 4h 5h")
    for seat in (1, 2):
        view = player_view(state, seat)
        assert mentioned_cards(view, public_facts(view.public)).isdisjoint(cards("2h 3h 4h 5h"))
    view = player_view(state, 0)
    assert cards("2h 3h 4h 5h") <= mentioned_cards(view, public_facts(view.public))
