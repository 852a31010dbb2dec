"""The server's outbound JSON shows a seat only what it may know (RULES.md section 5): the views of
random matches hold no card hidden from their reader, and the public state, discards and hands keep
their documented shape."""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from smear import (
    CardSet,
    Discard,
    Phase,
    State,
    apply,
    find_rules,
    legal_actions,
    new_match,
    next_hand,
    parse_card,
    player_view,
)
from smear.actionjson import action_json
from smear.bots import random_action
from smear.server.wire.protocol import (
    DISCARDS_LISTED,
    public_event,
    public_json,
    result_json,
    view_json,
)

CARD_TOKEN = re.compile(r"^(?:[2-9TJQKA][cdhs]|LJ|BJ)$")


def card_strings(value: Any) -> Iterator[str]:
    """Every card-like word in a JSON value (keys and values, inside longer strings too)."""
    if isinstance(value, str):
        yield from (word for word in value.split() if CARD_TOKEN.match(word))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_strings(key)
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)


def cards_in(value: Any) -> CardSet:
    return CardSet(parse_card(text) for text in card_strings(value))


def roundtrip(value: dict[str, Any]) -> Any:
    return json.loads(json.dumps(value, allow_nan=False))


def played(state: State) -> CardSet:
    pub = state.public
    return CardSet([*pub.trick, *(card for trick in pub.tricks for card in trick.cards)])


def hidden_from(state: State, seat: int | None) -> CardSet:
    """The cards of this hand that ``seat`` (or a spectator, None) may not see now."""
    hidden = CardSet(state.out)
    for other in range(state.public.players):
        if other != seat:
            hidden |= state.hand(other) | CardSet(state.discards[other])
    return hidden - played(state)


def without_results(public: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in public.items() if key != "results"}


def check_step(state: State) -> None:
    pub = state.public
    in_hand = pub.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER)
    public = roundtrip(public_json(pub))
    assert len(public["results"]) == len(pub.results)
    if in_hand:
        # every result belongs to an earlier, finished hand; the rest must show played cards only
        assert all(result["number"] < pub.hand_number for result in public["results"])
        assert not cards_in(without_results(public)) & hidden_from(state, None)
        assert cards_in(without_results(public)) <= played(state)
    for seat in range(pub.players):
        view = roundtrip(view_json(player_view(state, seat)))
        assert view["public"] == public
        assert cards_in(view["hand"]) == state.hand(seat)
        assert len(view["hand"]) == len(state.hand(seat)) == public["hand_sizes"][seat]
        if in_hand:
            seen = (
                cards_in(view["hand"])
                | cards_in(view["discards"])
                | cards_in([a["text"] for a in view["legal"]])
            )
            seen |= cards_in(without_results(view["public"]))
            leaked = seen & hidden_from(state, seat)
            assert not leaked, f"seat {seat} sees {leaked} in {pub.phase}"
        assert bool(view["legal"]) == (pub.to_act == seat)


CONFIGS = [
    ("house", 4, True, 11),
    ("house", 5, False, 5),
    ("ten_point", 4, False, 7),
    ("ten_point", 6, True, 2),
]


@pytest.mark.parametrize(("preset", "players", "teams", "seed"), CONFIGS)
def test_views_of_random_matches_show_only_what_a_seat_may_know(
    preset: str, players: int, teams: bool, seed: int
) -> None:
    rules = find_rules(preset).with_changes(target=11)  # short matches
    state = new_match(rules, players, teams, seed=seed)
    rng = random.Random(seed)
    discards = 0
    while True:
        check_step(state)
        phase = state.public.phase
        if phase is Phase.MATCH_OVER:
            break
        if phase is Phase.HAND_OVER:
            last = state.public.results[-1]
            shown = roundtrip(result_json(last))
            # now the hidden cards are face up, in the result only
            assert cards_in(shown["out"]) == last.out
            assert [cards_in(cards) for cards in shown["discards"]] == list(last.discards)
            state = next_hand(state)
            continue
        seat = state.public.to_act
        assert seat is not None
        action = random_action(legal_actions(state), rng)
        event = roundtrip(public_event(seat, action))
        assert event["seat"] == seat
        if isinstance(action, Discard):
            discards += 1
            assert event == {"seat": seat, "action": {"kind": "discard", "count": len(action.cards)}}
        else:
            assert event == {"seat": seat, "action": action_json(action)}
        assert not cards_in(event) & hidden_from(state, None) - action_cards(action)
        state = apply(state, action)
    assert discards or preset == "house"
    final = roundtrip(public_json(state.public))
    assert final["phase"] == "match_over" and final["winner"] == state.public.winner


def action_cards(action: Any) -> CardSet:
    """The card a play makes public (a discard makes none)."""
    return CardSet() if isinstance(action, Discard) else cards_in(str(action))


def test_the_leak_check_can_fail() -> None:
    state = new_match(find_rules("house"), 4, seed=1)
    view = view_json(player_view(state, 0))
    view["public"]["trick"] = [[1, str(next(iter(state.hand(1))))]]
    assert cards_in(view["public"]) & hidden_from(state, 0)
    assert cards_in({"legal": ["discard 2c Th", "BJ"]}) == CardSet.parse("2c Th BJ")


def test_public_json_shape() -> None:
    state = new_match(find_rules("ten_point"), 4, seed=9)
    public = public_json(state.public)
    assert set(public) == {
        "rules",
        "players",
        "sides",
        "seat_side",
        "scores",
        "start_scores",
        "hand_number",
        "dealer",
        "phase",
        "to_act",
        "bids",
        "bidder",
        "bid",
        "trump",
        "leader",
        "trick",
        "tricks",
        "hand_sizes",
        "out_of_hand",
        "took",
        "bidder_took",
        "drawn",
        "discarded",
        "refilled",
        "refills",
        "stock_left",
        "widow_left",
        "stock",
        "results",
        "winner",
        "ended_by",
        "eliminated",
        "standings",
    }
    assert public["standings"] is None  # given once the match is over
    assert public["rules"]["name"] == "ten_point" and public["rules"]["trump_named"] is True
    assert public["rules"]["point_values"]["trey"] == 3
    assert public["hand_sizes"] == [10, 10, 10, 10]
    first = public["to_act"]
    state = apply(state, legal_actions(state)[0])  # a pass
    assert public_json(state.public)["bids"] == [[first, None]]


def test_a_discard_is_described_in_short_and_listed_only_when_few() -> None:
    # McLeod's bidder holds 24 cards: 10 dealt and the 14 of the stock.
    state = new_match(find_rules("mcleod"), 4, teams=True, seed=11)
    while state.public.phase is not Phase.DISCARD:
        state = apply(state, legal_actions(state)[-1])  # the top bid, then a trump
    bidder = state.public.bidder
    assert state.public.to_act == bidder
    view = view_json(player_view(state, bidder))
    spec = view["discard"]
    assert spec["count"] == 18
    assert set(spec["required"]) <= set(view["hand"]) and set(spec["choosable"]) <= set(view["hand"])
    assert not set(spec["required"]) & set(spec["choosable"])
    listed = [action for action in legal_actions(state)]
    if len(listed) <= DISCARDS_LISTED:
        assert [a["text"] for a in view["legal"]] == [str(action) for action in listed]
    else:
        assert view["legal"] == []
    every = math.comb(len(spec["choosable"]), spec["count"] - len(spec["required"]))
    assert every == len(listed)
    # the others see nothing of it
    other = view_json(player_view(state, (bidder + 1) % 4))
    assert other["discard"] is None and other["legal"] == []


def test_view_json_sorts_the_hand_trumps_first() -> None:
    rules = find_rules("house")
    state = new_match(rules, 4, seed=5)
    rng = random.Random(5)
    while state.public.trump is None:
        state = apply(state, random_action(legal_actions(state), rng))
    view = view_json(player_view(state, 0))
    trump = state.public.trump.letter
    suits = [card[1] if card[0] not in "LB" or card[1] != "J" else trump for card in view["hand"]]
    trumps = [suit == trump for suit in suits]
    assert trumps == sorted(trumps, reverse=True)
