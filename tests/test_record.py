"""Match records: parsing, writing, replaying (smear.record)."""

from __future__ import annotations

import copy
import io
import json
import sys
from typing import Any

import pytest
from helpers import rules_named

from smear import Phase, apply, find_rules, legal_actions, new_match, next_hand
from smear.cards import CardSet, parse_card
from smear.cli import selfplay_match
from smear.errors import RecordError
from smear.record import (
    HandRecord,
    ReplayError,
    dump_record,
    load_record,
    parse_record,
    record_of,
    replay,
)

NAMES = ["Ayse", "Kemal", "You", "Sam"]

# The worked example of RULES.md section 2 (seed 000), with the cards the text leaves open chosen
# to fit every stated fact. Sam deals; You (seat 2) bid 3, lead Ah, win High, the little joker and
# Game; Sam takes Low (the 8h he played) and Jack (Jh captured with Kh); the big joker sleeps.
EXAMPLE: dict[str, Any] = {
    "format": "smear-record/1",
    "rules": "house",
    "players": NAMES,
    "teams": None,
    "start_scores": None,
    "hands": [
        {
            "dealer": 3,
            "deal": [
                ["Td", "Qs", "Jd", "Kc", "Qc", "Js"],
                ["Qh", "8s", "8d", "Qd", "Kd", "Jc"],
                ["Ah", "Jh", "9h", "Ks", "10c", "LJ"],
                ["8h", "Kh", "9s", "9d", "8c", "9c"],
            ],
            "out": ["BJ", "Th", "As", "Ac", "Ts", "Ad"],
            "actions": [
                *("pass", "bid 2", "3", "pass"),
                *("Ah", "8h", "Td", "Qh"),  # trick 1: You win High and 16 game points
                *("Ks", "9s", "Qs", "8s"),
                *("Jh", "Kh", "Kc", "Jc"),  # trick 3: Sam's Kh takes the Jack
                *("9d", "Jd", "Kd", "9h"),  # You trump the last heart in
                *("LJ", "8c", "Qc", "8d"),  # trick 5: the joker led, nobody holds a trump
                *("Tc", "9c", "Js", "Qd"),
            ],
        }
    ],
}

EXAMPLE_SUMMARY = {
    "hands": [
        {
            "bidder": 2,
            "bid": 3,
            "trump": "h",
            "points": {"high": 2, "low": 3, "jack": 3, "big_joker": None, "little_joker": 2, "game": 2},
            "game_points": [0, 0, 40, 8],
            "taken": [0, 0, 3, 2],
            "made": True,
            "scores": [0, 0, 3, 2],
        }
    ],
    "scores": [0, 0, 3, 2],
    "winner": None,
    "complete": True,
}

CONFIGS = [
    ("house", 3, False),
    ("house", 4, True),
    ("house", 8, False),
    ("ten_point", 4, True),
    ("ten_point", 6, False),
    ("no_jick", 4, False),
    ("cutthroat", 3, False),
    ("five_point", 6, True),
    ("house+moon+elimination", 4, True),
    ("ten_point+moon+elimination", 3, False),
]


def example(**changes: Any) -> dict[str, Any]:
    """A deep copy of the example with top-level keys replaced."""
    data = copy.deepcopy(EXAMPLE)
    data.update(changes)
    return data


def example_hand(**changes: Any) -> dict[str, Any]:
    """The example with keys of its one hand replaced."""
    data = copy.deepcopy(EXAMPLE)
    data["hands"][0].update(changes)
    return data


def seat_cards(seat: int, *cards: str) -> list[list[str]]:
    """The example deal with one seat's cards replaced."""
    deal: list[list[str]] = copy.deepcopy(EXAMPLE["hands"][0]["deal"])
    deal[seat] = list(cards)
    return deal


# --- parsing and writing ----------------------------------------------------------------------------


def test_parse_reads_every_field() -> None:
    record = parse_record(json.dumps(EXAMPLE))
    assert record.rules == find_rules("house")
    assert record.rules_spec == "house"
    assert record.players == tuple(NAMES)
    assert record.teams is None and record.start_scores is None
    (hand,) = record.hands
    assert hand == HandRecord(
        dealer=3,
        deal=tuple(CardSet.parse(cards) for cards in EXAMPLE["hands"][0]["deal"]),
        out=tuple(parse_card(card) for card in EXAMPLE["hands"][0]["out"]),
        actions=tuple(EXAMPLE["hands"][0]["actions"]),
    )
    assert hand.actions[2] == "3", "actions are kept as written"


def test_parse_accepts_text_bytes_and_data_alike() -> None:
    text = json.dumps(EXAMPLE)
    assert parse_record(text) == parse_record(text.encode()) == parse_record(EXAMPLE)


def test_parse_accepts_tuples_from_python_callers() -> None:
    data = copy.deepcopy(EXAMPLE)
    data["players"] = tuple(NAMES)
    data["hands"] = (data["hands"][0],)
    data["hands"][0]["deal"] = tuple(tuple(cards) for cards in data["hands"][0]["deal"])
    assert parse_record(data) == parse_record(EXAMPLE)


def test_dump_then_parse_round_trips() -> None:
    text = dump_record(EXAMPLE)
    assert parse_record(text).to_dict() == parse_record(EXAMPLE).to_dict()
    assert dump_record(json.loads(text)) == text


def test_ten_is_read_as_10_and_written_as_t() -> None:
    text = dump_record(EXAMPLE)
    assert '"Tc"' in text
    assert "10c" not in text
    assert parse_record(text).hands[0].deal[2] == CardSet.parse("Ah Jh 9h Ks Tc LJ")


def test_bare_bid_is_written_as_bid() -> None:
    written = json.loads(dump_record(EXAMPLE))
    assert written["hands"][0]["actions"][:4] == ["pass", "bid 2", "bid 3", "pass"]


def test_dump_keeps_each_list_of_cards_or_actions_on_one_line() -> None:
    text = dump_record(EXAMPLE)
    lines = [line.strip() for line in text.splitlines()]
    actions = [line for line in lines if line.startswith('"actions": [')]
    assert len(actions) == 1 and actions[0].count('"') == 2 + 2 * 28
    assert '["Tc", "9h", "Jh", "Ah", "Ks", "LJ"],' in lines  # You's cards, in deck order
    assert text.endswith("}\n")


def test_dump_writes_rules_overrides_back_unchanged() -> None:
    spec = {"preset": "house", "target": 11}
    record = parse_record(example(rules=spec))
    assert record.rules.target == 11
    assert json.loads(dump_record(example(rules=spec)))["rules"] == spec


def test_out_may_be_omitted() -> None:
    data = copy.deepcopy(EXAMPLE)
    del data["hands"][0]["out"]
    record = parse_record(data)
    assert record.hands[0].out is None
    assert "out" not in json.loads(dump_record(data))["hands"][0]
    assert replay(record).summary == EXAMPLE_SUMMARY


def bad_records() -> list[tuple[str, Any]]:
    deal = EXAMPLE["hands"][0]["deal"]
    return [
        ("bad JSON", '{"format": "smear-record/1",'),
        ("not UTF-8", b'{"format": "\xff"}'),
        ("not an object", "[1, 2]"),
        ("no format", {key: value for key, value in EXAMPLE.items() if key != "format"}),
        ("wrong format", example(format="smear-record/2")),
        ("unknown preset", example(rules="pinochle")),
        ("rules of the wrong type", example(rules=3)),
        ("rules object without preset", example(rules={"target": 11})),
        ("unknown rule field", example(rules={"preset": "house", "colour": "red"})),
        ("bad rule value", example(rules={"preset": "house", "target": "eleven"})),
        ("players not a list", example(players="Ayse Kemal You Sam")),
        ("a name that is not text", example(players=["Ayse", "Kemal", 3, "Sam"])),
        ("an empty name", example(players=["Ayse", "", "You", "Sam"])),
        ("a name twice", example(players=["Ayse", "Kemal", "Ayse", "Sam"])),
        ("too few players", example(players=["Ayse", "Kemal"])),
        ("teams not covering every seat", example(teams=[[0, 2], [1]])),
        ("teams with a seat twice", example(teams=[[0, 2], [1, 2]])),
        ("teams of the wrong type", example(teams=[0, 1, 2, 3])),
        ("one team", example(teams=[[0, 1, 2, 3]])),
        ("teams at a table that cannot have them", example(players=NAMES[:3], teams=[[0], [1, 2]])),
        ("start scores of the wrong length", example(start_scores=[0, 0])),
        ("start scores not whole numbers", example(start_scores=[0, 0, 1.5, 0])),
        ("start scores true", example(start_scores=[True, 0, 0, 0])),
        ("no hands", example(hands=[])),
        ("hands not a list", example(hands={"dealer": 3})),
        ("a hand not an object", example(hands=[3])),
        ("a hand without deal", example(hands=[{"dealer": 3}])),
        ("dealer outside the table", example_hand(dealer=4)),
        ("dealer not a number", example_hand(dealer="Sam")),
        ("a card that does not exist", example_hand(deal=seat_cards(0, "Td", "Qs", "Jd", "Kc", "Qc", "Zz"))),
        (
            "a card outside the deck for 4 players",
            example_hand(deal=seat_cards(0, "Td", "Qs", "Jd", "Kc", "Qc", "7s")),
        ),
        ("a card dealt twice", example_hand(deal=seat_cards(0, "Td", "Qs", "Jd", "Kc", "Qc", "Ah"))),
        ("a card twice in one hand", example_hand(deal=seat_cards(0, "Td", "Qs", "Jd", "Kc", "Qc", "Td"))),
        ("five cards", example_hand(deal=seat_cards(0, "Td", "Qs", "Jd", "Kc", "Qc"))),
        ("seven cards", example_hand(deal=seat_cards(0, "Td", "Qs", "Jd", "Kc", "Qc", "Js", "As"))),
        ("cards not a list", example_hand(deal=seat_cards(0, "Td Qs Jd Kc Qc Js"))),
        ("a deal for three seats", example_hand(deal=deal[:3])),
        ("out missing a card", example_hand(out=["BJ", "Th", "As", "Ac", "Ts"])),
        ("out holding a dealt card", example_hand(out=["BJ", "Th", "As", "Ac", "Ts", "Ah"])),
        ("out listing a card twice", example_hand(out=["BJ", "Th", "As", "Ac", "Ts", "Ts"])),
        ("out holding a card outside the deck", example_hand(out=["BJ", "Th", "As", "Ac", "Ts", "Ad", "2c"])),
        ("actions not a list", example_hand(actions="pass bid 2")),
        ("an action that is not text", example_hand(actions=["pass", 2])),
    ]


@pytest.mark.parametrize(("what", "data"), bad_records(), ids=[what for what, _ in bad_records()])
def test_invalid_records_raise_record_error(what: str, data: Any) -> None:
    with pytest.raises(RecordError) as refused:
        parse_record(data)
    assert "\n" not in str(refused.value), "the message is one line"


def test_record_errors_name_the_place_and_the_card() -> None:
    twice = example_hand(deal=seat_cards(0, "Td", "Qs", "Jd", "Kc", "Qc", "Ah"))
    with pytest.raises(RecordError, match=r"^hand 1, seat 2 \(You\): Ah is dealt twice$"):
        parse_record(twice)
    outside = example_hand(deal=seat_cards(1, "Qh", "8s", "8d", "Qd", "Kd", "7c"))
    with pytest.raises(
        RecordError, match=r"^hand 1, seat 1 \(Kemal\): 7c is not in the house deck at a table of 4$"
    ):
        parse_record(outside)
    with pytest.raises(RecordError, match="unknown preset: 'pinochle'"):
        parse_record(example(rules="pinochle"))


def test_load_record_reads_a_file_or_standard_input(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert load_record(str(path)) == parse_record(EXAMPLE)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(EXAMPLE).encode())))
    assert load_record("-") == parse_record(EXAMPLE)


def test_load_record_of_a_missing_file_is_a_record_error(tmp_path: Any) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(str(tmp_path / "nowhere.json"))


# --- replaying ----------------------------------------------------------------------------------------


def test_worked_example_replays_to_its_summary() -> None:
    result = replay(parse_record(EXAMPLE))
    assert result.summary == EXAMPLE_SUMMARY
    assert result.state.public.phase is Phase.HAND_OVER
    assert json.loads(json.dumps(result.summary)) == result.summary, "the summary is plain JSON"


def test_illegal_action_names_hand_position_player_and_reason() -> None:
    actions = list(EXAMPLE["hands"][0]["actions"])
    actions[10] = "Kc"  # Ayse holds Qs and Js: she must follow the Ks led
    with pytest.raises(ReplayError) as refused:
        replay(parse_record(example_hand(actions=actions)))
    err = refused.value
    assert (err.hand, err.position, err.action) == (1, 11, "Kc")
    assert err.reason == "Ayse cannot play Kc: spades were led and Ayse holds a spade"
    assert str(err) == "hand 1, action 11: Ayse cannot play Kc: spades were led and Ayse holds a spade"


def test_malformed_action_is_a_replay_error() -> None:
    with pytest.raises(ReplayError) as refused:
        replay(parse_record(example_hand(actions=["pass", "bid two"])))
    err = refused.value
    assert (err.hand, err.position, err.action) == (1, 2, "bid two")
    assert str(err).startswith("hand 1, action 2: ")
    assert "'bid two'" in err.reason


def test_dealer_may_not_pass_when_everyone_else_did() -> None:
    with pytest.raises(ReplayError) as refused:
        replay(parse_record(example_hand(actions=["pass", "pass", "pass", "pass"])))
    assert (
        str(refused.value)
        == "hand 1, action 4: Sam cannot pass: everyone else passed, so the dealer must bid"
    )


def test_action_after_the_hand_is_over_is_refused() -> None:
    actions = [*EXAMPLE["hands"][0]["actions"], "Ah"]
    with pytest.raises(ReplayError) as refused:
        replay(parse_record(example_hand(actions=actions)))
    assert refused.value.position == 29
    assert str(refused.value).startswith("hand 1, action 29: nobody can play Ah: the hand is over")


def second_hand(dealer: int, actions: list[str] | None = None) -> dict[str, Any]:
    hand = copy.deepcopy(EXAMPLE["hands"][0])
    hand["dealer"] = dealer
    hand["actions"] = actions or []
    return hand


def test_next_hand_must_be_dealt_by_the_next_seat() -> None:
    data = example(hands=[*EXAMPLE["hands"], second_hand(dealer=2)])
    with pytest.raises(ReplayError) as refused:
        replay(parse_record(data))
    err = refused.value
    assert (err.hand, err.position) == (2, 0)
    assert (
        str(err)
        == "hand 2: the dealer must be seat 0 (Ayse), the seat after hand 1's dealer, not seat 2 (You)"
    )


def test_next_hand_once_the_previous_one_is_over() -> None:
    data = example(hands=[*EXAMPLE["hands"], second_hand(dealer=0, actions=["pass"])])
    result = replay(parse_record(data))
    assert result.summary["complete"] is False
    assert result.summary["hands"][1] == {}
    assert result.state.public.hand_number == 2
    assert result.state.public.to_act == 2


def test_hand_listed_before_the_previous_one_ends_is_refused() -> None:
    first = copy.deepcopy(EXAMPLE["hands"][0])
    first["actions"] = first["actions"][:10]
    data = example(hands=[first, second_hand(dealer=0)])
    with pytest.raises(ReplayError) as refused:
        replay(parse_record(data))
    assert (
        str(refused.value)
        == "hand 2: hand 1 is not over: it stops after 10 actions, with Ayse to play a card"
    )


def test_hand_listed_after_the_match_is_over_is_refused() -> None:
    data = example(start_scores=[0, 0, 19, 0], hands=[*EXAMPLE["hands"], second_hand(dealer=0)])
    with pytest.raises(ReplayError) as refused:
        replay(parse_record(data))
    assert str(refused.value) == "hand 2: the match was over after hand 1"


def test_start_scores_count_towards_the_target() -> None:
    result = replay(parse_record(example(start_scores=[0, 20, 19, 0])))
    assert result.summary["scores"] == [0, 20, 22, 2]
    assert result.summary["winner"] == 2
    assert result.state.public.phase is Phase.MATCH_OVER


def test_teams_number_the_sides_as_listed() -> None:
    result = replay(parse_record(example(teams=[[1, 3], [0, 2]])))
    hand = result.summary["hands"][0]
    # You (seat 2) are side 1 with Ayse; Sam (seat 3) is side 0 with Kemal.
    assert hand["points"] == {"high": 1, "low": 0, "jack": 0, "big_joker": None, "little_joker": 1, "game": 1}
    assert hand["taken"] == [2, 3]
    assert hand["game_points"] == [8, 40]
    assert result.summary["scores"] == [2, 3]


@pytest.mark.parametrize(
    ("stop", "known"),
    [
        (0, {}),
        (3, {}),  # the auction is not over: nobody is the bidder yet
        (4, {"bidder": 2, "bid": 3}),
        (5, {"bidder": 2, "bid": 3, "trump": "h"}),
        (27, {"bidder": 2, "bid": 3, "trump": "h"}),
    ],
)
def test_incomplete_record_reports_what_is_known(stop: int, known: dict[str, Any]) -> None:
    actions = EXAMPLE["hands"][0]["actions"][:stop]
    summary = replay(parse_record(example_hand(actions=actions))).summary
    assert summary == {"hands": [known], "scores": [0, 0, 0, 0], "winner": None, "complete": False}


def test_thrown_in_hand_when_the_dealer_may_pass() -> None:
    rules = {"preset": "house", "dealer_must_bid": False}
    data = example(rules=rules)
    data["hands"][0]["actions"] = ["pass"] * 4
    data["hands"].append(second_hand(dealer=0))
    summary = replay(parse_record(data)).summary
    thrown = summary["hands"][0]
    assert thrown["bidder"] is None and thrown["made"] is None and thrown["trump"] is None
    assert set(thrown["points"]) == set(find_rules("house").points)
    assert all(side is None for side in thrown["points"].values())
    assert summary["complete"] is False


# --- writing matches as records -------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "players", "teams"), CONFIGS)
def test_same_seed_writes_the_same_bytes(preset: str, players: int, teams: bool) -> None:
    names = [f"P{seat}" for seat in range(players)]
    first = dump_record(record_of(selfplay_match(rules_named(preset), players, teams, seed=11), names))
    again = dump_record(record_of(selfplay_match(rules_named(preset), players, teams, seed=11), names))
    other = dump_record(record_of(selfplay_match(rules_named(preset), players, teams, seed=12), names))
    assert first == again
    assert first != other


@pytest.mark.parametrize(("preset", "players", "teams"), CONFIGS)
def test_record_of_a_finished_match_replays_to_the_same_state(preset: str, players: int, teams: bool) -> None:
    state = selfplay_match(rules_named(preset), players, teams, seed=5)
    names = [f"P{seat}" for seat in range(players)]
    result = replay(parse_record(dump_record(record_of(state, names))))
    assert result.state.public == state.public
    assert result.summary["scores"] == list(state.public.scores)
    assert state.public.winner is not None
    assert result.summary["winner"] == state.public.winner
    assert result.summary["complete"] is True
    assert len(result.summary["hands"]) == len(state.public.results)


def test_record_of_a_match_stopped_anywhere_replays_to_the_same_state() -> None:
    state = new_match(find_rules("ten_point"), 4, seed=2, scores=[5, -3, 0, 2])
    steps = 0
    while state.public.phase is not Phase.MATCH_OVER and steps < 120:
        record = record_of(state, NAMES)
        assert record["start_scores"] == [5, -3, 0, 2]
        replayed = replay(parse_record(record)).state
        assert replayed.public == state.public
        assert replayed.hands == state.hands and replayed.actions == state.actions
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
        else:
            state = apply(state, legal_actions(state)[-1])
        steps += 1
    assert state.public.hand_number >= 2, "the walk crossed at least one hand"


def test_record_of_recovers_start_scores_after_a_made_bid() -> None:
    state = replay(parse_record(example(start_scores=[1, 2, 3, 4]))).state
    assert state.public.scores == (1, 2, 6, 6)
    record = record_of(state, NAMES)
    assert record["start_scores"] == [1, 2, 3, 4]
    assert record["hands"][0]["actions"][2] == "bid 3"


def test_record_of_writes_null_start_scores_when_all_zero() -> None:
    state = replay(parse_record(EXAMPLE)).state
    assert record_of(state, NAMES)["start_scores"] is None


def test_record_of_names_changed_rules() -> None:
    rules = find_rules("house").with_changes(target=11, player_counts=(3, 4))
    state = new_match(rules, 4, seed=1)
    record = record_of(state, NAMES)
    assert record["rules"] == {"preset": "house", "player_counts": [3, 4], "target": 11}
    assert parse_record(record).rules == rules
    assert record_of(state, NAMES, rules_spec="house")["rules"] == "house"
    assert record_of(new_match(find_rules("house"), 4, seed=1), NAMES)["rules"] == "house"


def test_record_of_needs_a_name_per_seat() -> None:
    state = new_match(find_rules("house"), 4, seed=1)
    with pytest.raises(ValueError, match="3 names for 4 seats"):
        record_of(state, NAMES[:3])
