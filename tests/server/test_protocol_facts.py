"""The facts a view carries so that a client works out nothing the engine knows: who is out of the
hand, who refills from the stock, where the bidder's cards came from, the card that won each trick,
the seat's own trumps, what became of each bid, what ended the match and why the sides at the target
have not won, who is eliminated, what a discard brings back from the stock and how many extra trumps
a seat plays; and none of them shows a hidden card."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

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
    nine_card_in_play,
    play_tricks,
    played_cards,
    start,
)

from smear import (
    PRESETS,
    CardSet,
    Deal,
    Phase,
    State,
    apply,
    find_rules,
    legal_actions,
    new_match,
    next_hand,
    parse_action,
    parse_card,
    player_view,
)
from smear.bots import random_action
from smear.server.wire.protocol import public_json, view_json
from smear.trick import is_trump


def act(state: State, *texts: str) -> State:
    for text in texts:
        state = apply(state, parse_action(text))
    return state


def roundtrip(value: dict[str, Any]) -> Any:
    return json.loads(json.dumps(value, allow_nan=False))


def test_the_card_that_won_each_trick() -> None:
    state = act(nine_card_in_play(), "8h", "9h", "7h", "2h", "4h")  # Ann's extra 8h, then her 9h
    trick = roundtrip(public_json(state.public))["tricks"][0]
    assert trick["winner"] == 0 and trick["winning_card"] == "9h"
    assert trick["seats"] == [0, 0, 1, 2, 3]


def test_who_is_out_of_the_hand_publicly_and_for_the_seat_itself() -> None:
    tricks = [
        "8h",
        "9h",
        "7h",
        "2h",
        "4h",
        "Ah",
        "BJ",
        "LJ",
        "5h",
        "Kh",
        "Jd",
        "3h",
        "6h",
    ]  # Ben, Cy and Di play their last trumps
    state = act(nine_card_in_play(), *tricks)
    views = [roundtrip(view_json(player_view(state, seat))) for seat in range(4)]
    assert views[0]["public"]["out_of_hand"] == []  # nobody has been passed over yet
    assert [view["out_of_hand"] for view in views] == [[], [1], [2], [3]]  # each knows it of itself
    state = act(state, "Qh")  # play goes straight back to Ann
    views = [roundtrip(view_json(player_view(state, seat))) for seat in range(4)]
    assert views[0]["public"]["out_of_hand"] == [1, 2, 3]
    assert all(view["out_of_hand"] == [1, 2, 3] for view in views)


def test_the_seats_own_trumps_in_hand_order() -> None:
    state = nine_card_in_play()
    view = roundtrip(view_json(player_view(state, 1)))
    assert view["hand"][:3] == view["trumps_in_hand"] == ["Jd", "BJ", "7h"]
    before_trump = new_match(NINE_CARD, 4, dealer=3, deal=Deal.parse(NINE_DEAL, out=NINE_OUT))
    assert roundtrip(view_json(player_view(before_trump, 1)))["trumps_in_hand"] == []


def test_refills_and_the_bidders_draws() -> None:
    state = new_match(NINE_CARD, 4, dealer=3, deal=Deal.parse(NINE_DEAL, out=NINE_OUT))
    public = roundtrip(public_json(state.public))
    assert public["refills"] == [False] * 4 and public["bidder_took"] == {"kitty": 0, "widow": 0, "stock": 0}
    public = roundtrip(public_json(nine_card_in_play().public))
    assert public["refills"] == [True] * 4  # nine_card: the bidder trades with the stock too
    assert public["refilled"] == [0, 4, 3, 3]
    widow = find_rules("widow")
    state = new_match(widow, 3, dealer=2, deal=Deal.parse(NINE_DEAL[:3]))
    public = roundtrip(public_json(state.public))
    assert public["widow_left"] == 4 and public["stock"] == public["stock_left"] - 4
    state = act(state, "bid 4", "pass", "pass", "widow", "trump h")
    public = roundtrip(public_json(state.public))
    assert public["refills"] == [False, True, True]  # the widow's bidder takes the stock instead
    assert public["bidder_took"] == {"kitty": 0, "widow": 4, "stock": 0}
    assert public["widow_left"] == 0 and public["stock"] == public["stock_left"]


@pytest.mark.parametrize(
    ("preset", "moon", "moon_bid", "jokers"),
    [
        ("house", True, 7, 2),
        ("house", False, None, 2),
        ("five_point", True, 6, 1),
        ("ten_point", True, 11, 2),
    ],
)
def test_the_moon_bid_and_the_jokers_in_the_deck(
    preset: str, moon: bool, moon_bid: int | None, jokers: int
) -> None:
    rules = find_rules(preset).with_changes(shoot_the_moon=moon)
    players = rules.team_player_counts[0] if not rules.player_counts else rules.player_counts[0]
    state = new_match(rules, players, teams=not rules.player_counts, seed=5)
    published = roundtrip(public_json(state.public))["rules"]
    assert (published["moon_bid"], published["jokers"]) == (moon_bid, jokers)
    # The moon is the one bid above the preset's highest, offered only with the option on.
    bids = [int(str(action)[4:]) for action in legal_actions(state) if str(action).startswith("bid ")]
    assert (max(bids) == moon_bid) if moon else (max(bids) == rules.max_bid)


def test_what_became_of_each_bid() -> None:
    moon = find_rules("house").with_changes(shoot_the_moon=True)
    hands = ["Ah Kh Qh Jh BJ LJ", "Ac Kc Qc Jc Tc 9c", "Ad Kd Qd Jd Td 9d", "As Ks Qs Js Ts 9s"]
    tricks = [
        "Ah",
        "Ac",
        "Ad",
        "As",
        "Kh",
        "Kc",
        "Kd",
        "Ks",
        "Qh",
        "Qc",
        "Qd",
        "Qs",
        "Jh",
        "Jc",
        "Jd",
        "Js",
        "BJ",
        "Tc",
        "Td",
        "Ts",
        "LJ",
        "9c",
        "9d",
        "9s",
    ]
    deal = Deal.parse(hands, out="8h 9h Th 8c 8d 8s")
    state = new_match(moon, 4, dealer=3, deal=deal, scores=[-4, 3, 0, 0])
    state = act(state, "bid 7", "pass", "pass", "pass", *tricks)
    result = roundtrip(public_json(state.public))["results"][-1]
    assert result["outcome"] == "moon_reset" and result["made"] is True


def test_what_ended_the_match_and_who_is_eliminated() -> None:
    state = start(HOUSE, MOON_HANDS, dealer=3, out=MOON_OUT, scores=[0, 22, 22, 0])
    state = play_tricks(act(state, "bid 2", "pass", "pass", "pass"), *MOON_TRICKS)
    public = roundtrip(public_json(state.public))
    assert (public["winner"], public["ended_by"], public["eliminated"]) == (None, None, [])
    result = public["results"][-1]
    assert result["ended_by"] is None
    assert result["above_target"] == [{"side": 1, "why": "tie"}, {"side": 2, "why": "tie"}]
    # Seat 0 is set on 6 holding only five points, and sinks to -23: out, and seat 3 wins.
    rules = HOUSE.with_changes(elimination=-21)
    hands = ["Ah Kh Qh Jh BJ 8c", *MOON_HANDS[1:]]
    state = start(rules, hands, dealer=3, out="8h 9h Th LJ 8d 8s", scores=[-17, 0, 0, 3])
    state = play_tricks(act(state, "bid 6", "pass", "pass", "pass"), *MOON_TRICKS[:5], "8c 9c 9d 9s")
    public = roundtrip(public_json(state.public))
    assert (public["winner"], public["ended_by"], public["eliminated"]) == (3, "elimination", [0])
    assert public["results"][-1]["ended_by"] == "elimination"
    moon = HOUSE.with_changes(shoot_the_moon=True)
    state = start(moon, MOON_HANDS, dealer=3, out=MOON_OUT)
    state = play_tricks(act(state, "bid 7", "pass", "pass", "pass"), *MOON_TRICKS)
    assert roundtrip(public_json(state.public))["ended_by"] == "moon_made"


def test_what_a_discard_brings_back_from_the_stock() -> None:
    state = act(
        start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT), "bid 5", "pass", "pass", "pass", "trump h"
    )
    told = []
    for discard in NINE_DISCARDS:
        seat = state.public.to_act
        assert seat is not None
        view = roundtrip(view_json(player_view(state, seat)))["discard"]
        told.append((view["draws"], view["holds"], view["stock_short"]))
        state = act(state, discard)
        assert view["draws"] == state.public.refilled(seat)
    # Ann keeps her seven trumps; the others draw back up to six from a stock that lasts.
    assert told == [(0, 7, False), (4, 6, False), (3, 6, False), (3, 6, False)]
    assert roundtrip(view_json(player_view(state, 1)))["discard"] is None
    # Six players deal the whole deck: nothing comes back, and a hand of trumps is short.
    state = new_match(NINE_CARD, 6, teams=True, seed=3)
    while state.public.phase is not Phase.DISCARD:
        state = apply(state, legal_actions(state)[-1])
    seat = state.public.to_act
    assert seat is not None
    view = roundtrip(view_json(player_view(state, seat)))
    trumps = len(view["trumps_in_hand"])
    assert view["discard"]["draws"] == 0 and view["discard"]["holds"] == trumps
    assert view["discard"]["stock_short"] == (trumps < NINE_CARD.hand_size)


def test_how_many_extra_trumps_a_seat_plays() -> None:
    state = nine_card_in_play()
    assert [roundtrip(view_json(player_view(state, seat)))["extra_trumps"] for seat in range(4)] == [
        2,
        0,
        0,
        0,
    ]


# --- random matches of every preset ----------------------------------------------------------------

CARD = re.compile(r"(?:10|[2-9TJQKA])[cdhs]|BJ|LJ")


def cards_named(value: Any) -> CardSet:
    """Every card named anywhere in a JSON value."""
    text = json.dumps(value)
    return CardSet(parse_card(word) for word in CARD.findall(text))


def walk(preset: str, players: int, teams: bool, seed: int) -> Iterator[State]:
    rng = random.Random(seed)
    state = new_match(PRESETS[preset].with_changes(target=11), players, teams, seed=seed)
    while state.public.phase is not Phase.MATCH_OVER and state.public.hand_number <= 3:
        yield state
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
        else:
            state = apply(state, random_action(legal_actions(state), rng))


NEW_PUBLIC = ("out_of_hand", "bidder_took", "refills", "widow_left", "stock", "ended_by", "eliminated")
CONFIGS = [
    ("house", 4, True),
    ("ten_point", 5, False),
    ("five_point", 6, True),
    ("mcleod", 4, True),
    ("widow", 3, False),
    ("nine_card", 4, False),
    ("nine_card", 6, True),
]


@pytest.mark.parametrize(("preset", "players", "teams"), CONFIGS)
def test_the_new_facts_hold_and_show_no_hidden_card(preset: str, players: int, teams: bool) -> None:
    outcomes = set()
    for state in walk(preset, players, teams, seed=players):
        pub = state.public
        public = roundtrip(public_json(pub))
        # The new public facts name no card at all; a winning card is one of its trick's.
        assert not cards_named({key: public[key] for key in NEW_PUBLIC})
        power = pub.order.power if pub.order is not None else ()
        for trick, shown in zip(pub.tricks, public["tricks"], strict=True):
            # The winner's card; where it played several (extra trumps), its strongest.
            winners_cards = [card for seat, card in trick.plays() if seat == trick.winner]
            best = winners_cards[0] if len(winners_cards) == 1 else max(winners_cards, key=power.__getitem__)
            assert shown["winning_card"] == str(best)
        assert cards_named([trick["winning_card"] for trick in public["tricks"]]) <= played_cards(state)
        outcomes |= {result["outcome"] for result in public["results"]}
        for result in public["results"]:
            assert (result["outcome"] in ("made", "moon_made", "moon_reset")) == (result["made"] is True)
            assert not cards_named([result["ended_by"], result["above_target"]])
        for seat in range(players):
            view = roundtrip(view_json(player_view(state, seat)))
            trump = pub.trump
            trumps = [
                card
                for card in view["hand"]
                if trump is not None and is_trump(parse_card(card), trump, pub.rules)
            ]
            assert view["trumps_in_hand"] == trumps
            assert cards_named(view["trumps_in_hand"]) <= state.hand(seat)
            assert not cards_named(view["out_of_hand"])
            told = (
                {key: view["discard"][key] for key in ("draws", "holds", "stock_short")}
                if view["discard"]
                else {}
            )
            assert not cards_named([told, view["extra_trumps"]])
            holds_trump = bool(pub.order and state.hands[seat] & pub.order.trump_mask)
            if pub.rules.trumps_only and pub.phase is Phase.PLAY:
                assert (seat in view["out_of_hand"]) == (not holds_trump)
                # Its dead cards are its own, the ones that are not trumps.
                assert view["dead_cards"] == [card for card in view["hand"] if card not in trumps]
            else:
                assert view["out_of_hand"] == [] and view["dead_cards"] == []
    assert outcomes <= {"made", "set", "moon_made", "moon_reset", "moon_set", "thrown_in"}
    assert outcomes & {"made", "set"}
