"""The replay view of a record (smear.replayview): what the browser steps through."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from helpers import NINE_CARD, NINE_DEAL, NINE_DISCARDS, NINE_OUT, act, rules_named, start
from webfixtures import engine_hand

from smear import find_rules
from smear.actionjson import record_action_json
from smear.actions import Play, parse_action
from smear.arena import ArenaConfig, play_match
from smear.cards import CardSet, parse_card, parse_suit
from smear.cli import selfplay_match
from smear.errors import RecordError
from smear.record import ReplayError, parse_record, record_of, replay
from smear.replayview import replay_view
from smear.state import State
from smear.trick import trick_winner

NAMES = ["Ayse", "Kemal", "You", "Sam"]

# The worked example of RULES.md section 2 (as in test_record): Sam deals, You (seat 2) bid 3.
EXAMPLE: dict[str, Any] = {
    "format": "smear-record/1",
    "rules": "house",
    "players": NAMES,
    "hands": [
        {
            "dealer": 3,
            "deal": [
                ["Td", "Qs", "Jd", "Kc", "Qc", "Js"],
                ["Qh", "8s", "8d", "Qd", "Kd", "Jc"],
                ["Ah", "Jh", "9h", "Ks", "Tc", "LJ"],
                ["8h", "Kh", "9s", "9d", "8c", "9c"],
            ],
            "out": ["BJ", "Th", "As", "Ac", "Ts", "Ad"],
            "actions": [
                *("pass", "bid 2", "bid 3", "pass"),
                *("Ah", "8h", "Td", "Qh"),
                *("Ks", "9s", "Qs", "8s"),
                *("Jh", "Kh", "Kc", "Jc"),
                *("9d", "Jd", "Kd", "9h"),
                *("LJ", "8c", "Qc", "8d"),
                *("Tc", "9c", "Js", "Qd"),
            ],
        }
    ],
}

# Every preset, and options with the moon and elimination.
MATCHES = [
    ("house", 4, True),
    ("house", 3, False),
    ("ten_point", 4, True),
    ("no_jick", 4, False),
    ("cutthroat", 3, False),
    ("five_point", 4, True),
    ("five_point+kitty", 4, True),
    ("mcleod", 4, True),
    ("widow", 3, False),
    ("nine_card", 4, False),
    ("house+moon+elimination", 4, True),
    ("ten_point+moon+elimination", 3, False),
]


def example(actions: list[str] | None = None, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLE)
    data.update(changes)
    if actions is not None:
        data["hands"][0]["actions"] = actions
    return data


def as_sets(lists: list[list[str]]) -> list[CardSet]:
    return [CardSet.parse(cards) for cards in lists]


def check_view(record: dict[str, Any]) -> dict[str, Any]:
    """The view of a record, checked against the record and its replay."""
    parsed = parse_record(record)
    summary = replay(parsed).summary
    view = replay_view(parsed)
    assert json.loads(json.dumps(view)) == view
    rules = parsed.rules
    assert view["rules"] == rules.name and view["target"] == rules.target
    assert view["players"] == record["players"]
    assert [view[key] for key in ("scores", "winner", "complete")] == [
        summary[key] for key in ("scores", "winner", "complete")
    ]
    assert len(view["hands"]) == len(record["hands"]) == len(summary["hands"])
    previous: list[int] | None = None
    for number, (hand, written, entry) in enumerate(
        zip(view["hands"], record["hands"], summary["hands"], strict=True), 1
    ):
        assert hand["number"] == number and hand["dealer"] == written["dealer"]
        assert as_sets(hand["deal"]) == as_sets(written["deal"])
        assert hand["out"] == [str(parse_card(card)) for card in written["out"]]
        # The view takes every action once, in the record's order.
        actions = [str(parse_action(text)) for text in written["actions"]]
        plays = [play["card"] for trick in hand["tricks"] for play in trick["plays"]]
        steps = [step["action"] for step in hand["auction"] + hand["before_play"]]
        # Each with what it is, for the viewer to word it without reading the text.
        assert [step["act"] for step in hand["auction"] + hand["before_play"]] == [
            record_action_json(step) for step in steps
        ]
        assert steps + plays == actions
        assert plays == [text for text in actions if isinstance(parse_action(text), Play)]
        # Trick winners as the engine's trick rules find them; a seat plays only cards it held.
        for index, trick in enumerate(hand["tricks"]):
            pairs = [(play["seat"], parse_card(play["card"])) for play in trick["plays"]]
            assert trick["leader"] == pairs[0][0]
            if trick["winner"] is None:  # only the last trick of a hand in progress
                assert index == len(hand["tricks"]) - 1 and hand["result"] is None
            else:
                assert trick["winner"] == trick_winner(pairs, parse_suit(hand["trump"]), rules)
            for seat, card in pairs:
                assert card in CardSet.parse(hand["held"][seat])
        if "scores" in entry:  # a finished hand
            assert hand["result"] == {
                key: entry[key] for key in ("points", "game_points", "taken", "made", "scores")
            }
            assert [hand["bidder"], hand["bid"], hand["trump"]] == [
                entry["bidder"],
                entry["bid"],
                entry["trump"],
            ]
        else:
            assert hand["result"] is None
            assert hand["bidder"] == entry.get("bidder") and hand["trump"] == entry.get("trump")
        start_scores = record.get("start_scores") or [0] * len(view["sides"])
        assert hand["scores_before"] == (start_scores if previous is None else previous)
        previous = hand["result"]["scores"] if hand["result"] else None
        check_steps(hand, len(actions))
    return view


def shown_cards(hand: dict[str, Any], step: dict[str, Any]) -> list[list[str]]:
    """Each seat's cards a step shows: its places in the hand's ``cards`` looked up."""
    return [[hand["cards"][seat][place] for place in places] for seat, places in enumerate(step["held"])]


def shown_trick(hand: dict[str, Any], step: dict[str, Any]) -> list[tuple[int, list[str]]]:
    """A trick step's plays by seat: (seat, cards) per group of places in the trick's plays."""
    plays = hand["tricks"][step["trick"]]["plays"]
    return [(plays[group[0]]["seat"], [plays[place]["card"] for place in group]) for group in step["by_seat"]]


def held_after(hand: dict[str, Any], tricks: int) -> list[list[str]]:
    """The cards held when play began less those played to the first ``tricks`` tricks."""
    played = {(play["seat"], play["card"]) for trick in hand["tricks"][:tricks] for play in trick["plays"]}
    return [[card for card in cards if (seat, card) not in played] for seat, cards in enumerate(hand["held"])]


def check_steps(hand: dict[str, Any], actions: int) -> None:
    """A hand's steps: the auction, each trick, the result once there is one; each with the cards it
    shows, the trick by seat, the scores, and its actions among the hand's in the record's order."""
    steps = hand["steps"]
    tricks = hand["tricks"]
    kinds = ["auction"] + ["trick"] * len(tricks) + (["result"] if hand["result"] else [])
    assert [step["kind"] for step in steps] == kinds
    assert [step["trick"] for step in steps if step["kind"] == "trick"] == list(range(len(tricks)))
    assert all("trick" not in step and "by_seat" not in step for step in steps if step["kind"] != "trick")
    # Every card a seat holds at some step is in its ``cards`` once, and every place is used.
    for seat, cards in enumerate(hand["cards"]):
        assert len(set(cards)) == len(cards)
        assert {place for step in steps for place in step["held"][seat]} == set(range(len(cards)))
    # The deal at the auction, then the cards held before each trick (those of a trick still being
    # played kept until its step), and what is left at the result.
    assert shown_cards(hand, steps[0]) == hand["deal"]
    for number, step in enumerate(steps[1:]):
        assert shown_cards(hand, step) == held_after(hand, number)
    for step in steps:
        if step["kind"] == "trick":
            trick = tricks[step["trick"]]
            groups = shown_trick(hand, step)
            assert [seat for seat, _ in groups] == list(
                dict.fromkeys(play["seat"] for play in trick["plays"])
            )
            assert sorted((seat, card) for seat, cards in groups for card in cards) == sorted(
                (play["seat"], play["card"]) for play in trick["plays"]
            )
        after = step["kind"] == "result"
        assert step["after"] is after
        assert step["scores"] == (hand["result"]["scores"] if after else hand["scores_before"])
    # The steps' actions follow one another: the auction's and those before play, then each trick's.
    assert steps[0]["actions"] == len(hand["auction"]) + len(hand["before_play"])
    assert [step["actions"] for step in steps[1:]] == [len(trick["plays"]) for trick in tricks] + (
        [0] if hand["result"] else []
    )
    ends = [step["first_action"] + step["actions"] for step in steps]
    assert [step["first_action"] for step in steps] == [0, *ends[:-1]]
    assert ends[-1] == actions


def test_the_worked_example() -> None:
    view = check_view(EXAMPLE)
    assert view["sides"] == [[0], [1], [2], [3]] and view["target"] == 21
    hand = view["hands"][0]
    assert [{"seat": step["seat"], "action": step["action"]} for step in hand["auction"]] == [
        {"seat": 0, "action": "pass"},
        {"seat": 1, "action": "bid 2"},
        {"seat": 2, "action": "bid 3"},
        {"seat": 3, "action": "pass"},
    ]
    assert (hand["bidder"], hand["bid"], hand["trump"]) == (2, 3, "h")
    assert hand["before_play"] == []
    assert [(trick["leader"], trick["winner"]) for trick in hand["tricks"]] == [
        (2, 2),
        (2, 2),
        (2, 3),  # Sam's Kh takes the Jack
        (3, 2),  # You trump the last heart in
        (2, 2),
        (2, 2),
    ]
    assert hand["tricks"][0]["plays"] == [
        {"seat": 2, "card": "Ah"},
        {"seat": 3, "card": "8h"},
        {"seat": 0, "card": "Td"},
        {"seat": 1, "card": "Qh"},
    ]
    assert as_sets(hand["held"]) == as_sets(EXAMPLE["hands"][0]["deal"])
    assert hand["held"][2] == ["Ah", "Jh", "9h", "LJ", "Tc", "Ks"]  # trumps first
    assert hand["result"] == {
        "points": {"high": 2, "low": 3, "jack": 3, "big_joker": None, "little_joker": 2, "game": 2},
        "game_points": [0, 0, 40, 8],
        "taken": [0, 0, 3, 2],
        "made": True,
        "scores": [0, 0, 3, 2],
    }
    assert hand["scores_before"] == [0, 0, 0, 0]
    assert view["scores"] == [0, 0, 3, 2] and view["winner"] is None and view["complete"] is True


def test_teams_and_start_scores() -> None:
    view = check_view(example(teams=[[1, 3], [0, 2]], start_scores=[4, 7]))
    assert view["sides"] == [[1, 3], [0, 2]]
    assert view["hands"][0]["scores_before"] == [4, 7]
    assert view["hands"][0]["result"]["taken"] == [2, 3]
    assert view["scores"] == [6, 10]


@pytest.mark.parametrize(("preset", "players", "teams"), MATCHES)
def test_a_random_match_in_every_preset(preset: str, players: int, teams: bool) -> None:
    state = selfplay_match(rules_named(preset), players, teams, seed=3)
    record = record_of(state, [f"P{seat}" for seat in range(players)])
    view = check_view(record)
    assert view["complete"] is True and view["winner"] == state.public.winner
    check_hands_against_engine(view, state)


@pytest.mark.parametrize(("preset", "players", "teams"), [("ten_point", 4, True), ("widow", 4, True)])
def test_a_heuristic_match(preset: str, players: int, teams: bool) -> None:
    config = ArenaConfig(preset, players, teams, ("heuristic",) * players, matches=1, seed=2)
    record = play_match(config, 0, keep_record=True).record
    assert record is not None
    view = check_view(record)
    check_hands_against_engine(view, replay(parse_record(record)).state)


def check_hands_against_engine(view: dict[str, Any], state: State) -> None:
    """Each hand's tricks, seats and held cards as the engine's hand states have them."""
    ends: list[State] = []
    current: State | None = state
    while current is not None:
        ends.append(current)
        current = current.previous
    rules = state.public.rules
    for hand, end in zip(view["hands"], reversed(ends), strict=True):
        pub = end.public
        assert [(t["leader"], t["winner"]) for t in hand["tricks"]] == [
            (trick.leader, trick.winner) for trick in pub.tricks
        ]
        for trick, engine in zip(hand["tricks"], pub.tricks, strict=True):
            assert [(play["seat"], play["card"]) for play in trick["plays"]] == [
                (seat, str(card)) for seat, card in engine.plays()
            ]
        auction = [(step["seat"], step["action"]) for step in hand["auction"]]
        assert auction == [
            (seat, "pass" if amount is None else f"bid {amount}") for seat, amount in pub.bid_history()
        ]
        for step in hand["before_play"]:
            if not step["action"].startswith("discard"):
                assert step["seat"] == pub.bidder  # the widow and trump
            else:
                assert CardSet.parse(step["action"].split()[1:]) == CardSet(end.discards[step["seat"]])
        # Cards held at the first play: what each seat then played, and what it still holds.
        for seat, held in enumerate(hand["held"]):
            played = CardSet(
                parse_card(play["card"])
                for trick in hand["tricks"]
                for play in trick["plays"]
                if play["seat"] == seat
            )
            assert CardSet.parse(held) == played | end.hand(seat)
            if not rules.trumps_only and pub.tricks:
                assert len(held) == rules.hand_size


@pytest.mark.parametrize("stop", [0, 2, 4, 6, 9, 12, 27])
def test_an_incomplete_record(stop: int) -> None:
    actions = EXAMPLE["hands"][0]["actions"][:stop]
    view = check_view(example(actions))
    hand = view["hands"][0]
    assert view["complete"] is False and view["winner"] is None and hand["result"] is None
    assert len(hand["auction"]) == min(stop, 4)
    if stop < 4:  # the auction goes on: nobody is the bidder yet
        assert (hand["bidder"], hand["bid"], hand["trump"]) == (None, None, None)
        assert hand["held"] == check_view(example([]))["hands"][0]["held"]
    else:
        assert (hand["bidder"], hand["bid"]) == (2, 3)
    plays = stop - 4 if stop > 4 else 0
    assert sum(len(trick["plays"]) for trick in hand["tricks"]) == plays
    assert len(hand["tricks"]) == (plays + 3) // 4
    if plays % 4:  # a trick in progress
        assert hand["tricks"][-1]["winner"] is None
        assert len(hand["tricks"][-1]["plays"]) == plays % 4
    assert all(trick["winner"] is not None for trick in hand["tricks"][: plays // 4])


def test_a_record_that_stops_as_the_next_hand_is_dealt() -> None:
    state = selfplay_match(find_rules("house"), 4, True, seed=8)
    record = record_of(state, NAMES)
    record["hands"] = record["hands"][:2]
    record["hands"][1]["actions"] = []
    view = check_view(record)
    second = view["hands"][1]
    assert second["auction"] == [] and second["tricks"] == [] and second["result"] is None
    assert as_sets(second["held"]) == as_sets(record["hands"][1]["deal"])
    assert second["scores_before"] == view["hands"][0]["result"]["scores"] == view["scores"]


def test_a_thrown_in_hand() -> None:
    data = example(["pass"] * 4, rules={"preset": "house", "dealer_must_bid": False})
    view = check_view(data)
    hand = view["hands"][0]
    assert [step["seat"] for step in hand["auction"]] == [0, 1, 2, 3]
    assert (hand["bidder"], hand["bid"], hand["trump"]) == (None, None, None)
    assert hand["before_play"] == [] and hand["tricks"] == []
    assert as_sets(hand["held"]) == as_sets(data["hands"][0]["deal"])
    assert hand["result"] is not None
    assert hand["result"]["made"] is None
    assert set(hand["result"]["points"]) == set(find_rules("house").points)
    assert all(side is None for side in hand["result"]["points"].values())
    assert hand["result"]["scores"] == [0, 0, 0, 0]
    assert view["rules"] == "house" and view["complete"] is True and view["winner"] is None


def test_nine_card_trades_and_refills() -> None:
    state = act(start(NINE_CARD, NINE_DEAL, dealer=3, out=NINE_OUT), "bid 5", "pass", "pass", "pass")
    state = act(state, "trump h", *NINE_DISCARDS)
    view = check_view(record_of(state, NAMES))
    hand = view["hands"][0]
    assert hand["trump"] == "h" and hand["bidder"] == 0
    assert [step["seat"] for step in hand["before_play"]] == [0, 0, 1, 2, 3]
    assert [step["action"] for step in hand["before_play"]] == ["trump h", *NINE_DISCARDS]
    # Play has not started: the cards held now, after the refills.
    assert [CardSet.parse(cards) for cards in hand["held"]] == [state.hand(seat) for seat in range(4)]
    assert hand["held"][0] == ["Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h"]


def test_widow_is_taken_by_the_bidder() -> None:
    state = selfplay_match(find_rules("widow"), 3, False, seed=4)
    view = check_view(record_of(state, NAMES[:3]))
    for hand in view["hands"]:
        steps = hand["before_play"]
        assert steps[0]["seat"] == steps[1]["seat"] == hand["bidder"]
        assert steps[0]["act"] == {"text": "widow", "kind": "widow"}
        assert steps[1]["act"] == {"text": f"trump {hand['trump']}", "kind": "trump", "suit": hand["trump"]}
        assert steps[-1]["seat"] == hand["bidder"]  # the bidder discards last, after the stock


def test_the_steps_of_a_widow_hand() -> None:
    hand = engine_hand("widow")["hand"]
    steps = hand["steps"]
    assert [step["kind"] for step in steps] == ["auction"] + ["trick"] * 6 + ["result"]
    # The auction step shows the deal, and holds the bids, the widow, trump and every discard.
    assert shown_cards(hand, steps[0]) == hand["deal"]
    assert (steps[0]["first_action"], steps[0]["actions"]) == (0, 8)
    # The bidder (seat 1) plays with the widow's cards and the rest of the stock it took.
    assert hand["bidder"] == 1
    assert shown_cards(hand, steps[1])[1] == hand["held"][1] == ["As", "Js", "LJ", "Ts", "3s", "2s"]
    taken = [card for card in hand["cards"][1] if card not in hand["deal"][1]]
    assert taken == ["As", "Js", "Ts", "2s"] and set(taken) <= set(hand["out"])
    assert shown_cards(hand, steps[3]) == [
        ["9s", "6s", "3c", "Jd"],
        ["As", "Js", "LJ", "Ts"],
        ["BJ", "4s", "8c", "Td"],
    ]
    assert shown_trick(hand, steps[3]) == [(1, ["As"]), (2, ["BJ"]), (0, ["6s"])]
    assert shown_cards(hand, steps[-1]) == [[], [], []]
    assert (steps[-1]["scores"], steps[-1]["after"]) == ([0, 9, 0], True)
    assert (steps[-2]["scores"], steps[-2]["after"]) == ([0, 0, 0], False)


def test_the_steps_of_a_nine_card_hand_where_seats_run_out_of_trumps() -> None:
    hand = engine_hand("nine_card")["hand"]
    steps = hand["steps"]
    assert [len(trick["plays"]) for trick in hand["tricks"]] == [3, 3, 3, 1, 1]
    # The last two tricks are Kemal's alone: the others hold no trump and keep their cards.
    assert [shown_trick(hand, step) for step in steps[4:6]] == [[(1, ["Js"])], [(1, ["LJ"])]]
    assert [step["actions"] for step in steps] == [7, 3, 3, 3, 1, 1, 0]
    assert [step["first_action"] for step in steps] == [0, 7, 10, 13, 16, 17, 18]
    kept = [["3c", "Jd", "5h"], ["8c", "Td", "4h"]]
    for step in steps[4:]:
        cards = shown_cards(hand, step)
        assert [cards[0], cards[2]] == kept
    assert [shown_cards(hand, step)[1] for step in steps[4:]] == [["Js", "LJ", "7d"], ["LJ", "7d"], ["7d"]]


@pytest.mark.parametrize(
    ("preset", "taken_from"), [("mcleod", "the stock"), ("five_point+kitty", "the kitty")]
)
def test_the_bidder_plays_the_cards_it_took(preset: str, taken_from: str) -> None:
    state = selfplay_match(rules_named(preset), 4, True, seed=5)
    view = check_view(record_of(state, NAMES))
    played = [hand for hand in view["hands"] if hand["tricks"]]
    assert played
    for hand in played:
        bidder = hand["bidder"]
        dealt = hand["deal"][bidder]
        assert shown_cards(hand, hand["steps"][0])[bidder] == dealt
        taken = [card for card in shown_cards(hand, hand["steps"][1])[bidder] if card not in dealt]
        assert taken, f"the bidder took nothing from {taken_from}"
        assert set(taken) <= set(hand["out"])
        assert hand["cards"][bidder][: len(dealt)] == dealt
        assert set(hand["cards"][bidder][len(dealt) :]) == set(taken)


def test_a_bad_record_raises_as_replay_does() -> None:
    bad = example(["pass", "bid 2", "bid 2"])
    with pytest.raises(ReplayError) as replayed:
        replay(parse_record(bad))
    with pytest.raises(ReplayError) as viewed:
        replay_view(parse_record(bad))
    assert str(viewed.value) == str(replayed.value)
    assert (viewed.value.hand, viewed.value.position) == (1, 3)
    with pytest.raises(RecordError):
        replay_view(parse_record(example(rules="nope")))
