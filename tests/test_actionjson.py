"""Actions as the server sends them (smear.actionjson): every legal action of random matches of every
preset and table size reads back, from its text and from its fields, as the same action."""

from __future__ import annotations

import random
from typing import Any

import pytest

from smear import Phase, apply, legal_actions, new_match, next_hand, parse_action
from smear.actionjson import ACTION_KINDS, action_json, public_action_json, record_action_json
from smear.actions import PASS, TAKE_WIDOW, Action, Discard, NameTrump, bid, play
from smear.bots import random_action
from smear.cards import CardSet, parse_suit
from smear.rules import PRESETS

# The most actions of one match looked at (McLeod's bidder may list a hundred thousand discards).
LISTED = 300


def from_fields(value: dict[str, Any]) -> Action:
    """The action a client reads from the fields alone, as the client's words module does."""
    kind = value["kind"]
    if kind == "pass":
        return PASS
    if kind == "widow":
        return TAKE_WIDOW
    if kind == "bid":
        return bid(value["amount"])
    if kind == "trump":
        return NameTrump(parse_suit(value["suit"]))
    if kind == "discard":
        return Discard(CardSet.parse(value["cards"]))
    assert kind == "play"
    return play(value["card"])


def check(action: Action) -> str:
    shown = action_json(action)
    assert shown["kind"] in ACTION_KINDS
    assert parse_action(shown["text"]) == action
    assert from_fields(shown) == action
    assert record_action_json(str(action)) == shown
    public = public_action_json(action)
    if isinstance(action, Discard):
        assert public == {"kind": "discard", "count": len(action.cards)}  # never its cards
    else:
        assert public == shown
    return str(shown["kind"])


def sizes() -> list[tuple[str, int, bool]]:
    return [
        (name, players, teams)
        for name, rules in PRESETS.items()
        for teams, counts in ((False, rules.player_counts), (True, rules.team_player_counts))
        for players in counts
    ]


@pytest.mark.parametrize(("preset", "players", "teams"), sizes())
def test_every_legal_action_reads_back_from_its_text_and_its_fields(
    preset: str, players: int, teams: bool
) -> None:
    rules = PRESETS[preset].with_changes(target=11)
    state = new_match(rules, players, teams, seed=players)
    rng = random.Random(players)
    kinds: set[str] = set()
    hands = 0
    while state.public.phase is not Phase.MATCH_OVER and hands < 3:
        if state.public.phase is Phase.HAND_OVER:
            state, hands = next_hand(state), hands + 1
            continue
        legal = legal_actions(state)
        for action in legal[:LISTED]:
            kinds.add(check(action))
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, random_action(legal, rng), seat)
    assert {"pass", "bid", "play"} <= kinds
    if rules.widow:
        assert "widow" in kinds
    if rules.trump_named:
        assert "trump" in kinds


def test_every_kind_of_action_is_covered() -> None:
    """One action of each class; an empty discard is a discard of no cards."""
    samples = [
        PASS,
        bid(3),
        TAKE_WIDOW,
        NameTrump(parse_suit("h")),
        Discard(CardSet.parse("2c 3d")),
        play("Ah"),
    ]
    assert [check(action) for action in samples] == list(ACTION_KINDS)
    assert action_json(Discard(CardSet())) == {"text": "discard", "kind": "discard", "cards": []}
