"""Properties over arbitrary input: any action from any seat in any reachable state is either
applied (exactly when it is legal) or refused with an IllegalActionError that changes nothing;
card and action notation either parses to a value that prints back the same, or is refused with
a CardError or an ActionError."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from helpers import choose, configurations, rules_named
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from smear import (
    CARDS,
    Action,
    ActionError,
    Bid,
    CardError,
    CardSet,
    Discard,
    IllegalActionError,
    NameTrump,
    NotYourTurnError,
    Pass,
    Phase,
    Play,
    SmearError,
    State,
    Suit,
    apply,
    legal_actions,
    new_match,
    next_hand,
    parse_action,
    parse_card,
)

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FULL_MASK = (1 << 54) - 1


@st.composite
def reachable_states(draw: st.DrawFn) -> State:
    """A state met in a seeded random match: any phase, including a hand or match just over."""
    name, players, teams = draw(st.sampled_from(configurations()))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, 300))
    rng = random.Random(seed)
    state = new_match(rules_named(name), players, teams, seed=seed)
    for _ in range(steps):
        phase = state.public.phase
        if phase is Phase.MATCH_OVER:
            break
        state = next_hand(state) if phase is Phase.HAND_OVER else apply(state, choose(state, rng))
    return state


any_action: st.SearchStrategy[Action] = st.one_of(
    st.builds(Play, st.sampled_from(CARDS)),
    st.builds(Bid, st.one_of(st.integers(-3, 12), st.integers())),
    st.just(Pass()),
    st.builds(NameTrump, st.sampled_from(list(Suit))),
    st.builds(Discard, st.builds(CardSet, st.integers(0, FULL_MASK))),
)
any_seat = st.one_of(st.none(), st.integers(-2, 9))


def fingerprint(state: State) -> bytes:
    return pickle.dumps(state)


def check_apply(state: State, action: Action, seat: int | None) -> None:
    to_act = state.public.to_act
    legal = legal_actions(state)
    before = fingerprint(state)
    try:
        after = apply(state, action, seat)
    except SmearError as error:
        assert type(error) in (IllegalActionError, NotYourTurnError), f"{type(error).__name__}: {error}"
        assert fingerprint(state) == before, "a refused action changed the state"
        wrong_seat = to_act is not None and seat is not None and seat != to_act
        assert isinstance(error, NotYourTurnError) == wrong_seat
        assert wrong_seat or action not in legal, f"legal {action} refused: {error}"
        assert str(error), "a refusal needs a message"
    else:
        assert action in legal, f"{action} accepted but not among the legal actions"
        assert seat is None or seat == to_act
        assert fingerprint(state) == before, "apply changed the state it was given"
        assert after != state


@SETTINGS
@given(state=reachable_states(), action=any_action, seat=any_seat)
def test_any_action_is_applied_only_when_legal_and_refused_cleanly_otherwise(
    state: State, action: Action, seat: int | None
) -> None:
    check_apply(state, action, seat)


@SETTINGS
@given(state=reachable_states(), data=st.data())
def test_every_legal_action_applies_for_the_seat_to_act(state: State, data: st.DataObject) -> None:
    legal = legal_actions(state)
    if not legal:
        assert state.public.to_act is None
        return
    action = data.draw(st.sampled_from(legal))
    check_apply(state, action, data.draw(st.sampled_from([None, state.public.to_act])))


# --- notation -----------------------------------------------------------------------------------

card_words = st.one_of(
    st.sampled_from([str(c) for c in CARDS] + ["10c", "10d", "10h", "10s", "bj", "lj", "th"]),
    st.text(alphabet="0123456789TJQKAtjqkacdhsBLJx ", max_size=4),
)
number_like = st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=3)
words = st.one_of(
    card_words,
    number_like,
    st.sampled_from(["pass", "bid", "trump", "discard", "h", "spades", "club", "-1", "+2", "1e3"]),
    st.text(max_size=6),
)
action_texts = st.one_of(
    st.text(),
    st.lists(words, min_size=1, max_size=5).map(" ".join),
)


@SETTINGS
@given(text=st.one_of(st.text(), card_words))
def test_card_notation_parses_and_prints_back_or_is_refused(text: str) -> None:
    try:
        card = parse_card(text)
    except CardError:
        return
    assert parse_card(str(card)) == card
    assert str(parse_card(str(card))) == str(card)


@SETTINGS
@given(text=action_texts)
@example(text="bid 3")
@example(text="²")
@example(text="bid ²")
def test_action_notation_parses_and_prints_back_or_is_refused(text: str) -> None:
    try:
        action = parse_action(text)
    except ActionError:
        return
    assert parse_action(str(action)) == action
    assert str(parse_action(str(action))) == str(action)


@SETTINGS
@given(a=st.integers(0, FULL_MASK), b=st.integers(0, FULL_MASK))
def test_card_sets_behave_as_python_sets(a: int, b: int) -> None:
    first, second = CardSet(a), CardSet(b)
    plain_first, plain_second = set(first), set(second)
    assert len(first) == len(plain_first) == a.bit_count()
    assert set(first | second) == plain_first | plain_second
    assert set(first & second) == plain_first & plain_second
    assert set(first - second) == plain_first - plain_second
    assert set(first ^ second) == plain_first ^ plain_second
    assert (first <= second) == (plain_first <= plain_second)
    assert (first == second) == (plain_first == plain_second)
    assert CardSet.parse(str(first)) == first
    assert all(c in first for c in plain_first)
    assert all(c not in first for c in set(CARDS) - plain_first)


@pytest.mark.parametrize(
    "make",
    [
        lambda: Bid(2.5),  # type: ignore[arg-type]
        lambda: Bid(True),
        lambda: Play(-1),  # type: ignore[arg-type]
        lambda: Play(54),  # type: ignore[arg-type]
        lambda: Play("Ah"),  # type: ignore[arg-type]
        lambda: NameTrump(2),  # type: ignore[arg-type]
        lambda: Discard([1]),  # type: ignore[arg-type]
    ],
)
def test_actions_with_values_of_the_wrong_kind_cannot_be_made(make: Any) -> None:
    with pytest.raises(ActionError):
        make()
