"""The numba kernel against the reference engine: same deals and actions, same legal actions at every
step, same trick winners, same points and settlement; and the solver against a brute-force minimax
over the engine's own ``apply``/``legal_actions``.

Set ``SMEAR_KERNEL_HANDS`` to replay more hands per configuration than the CI default.
"""

from __future__ import annotations

import os
import random
import zlib

import numpy as np
import pytest
from helpers import HOUSE, TEN_POINT, cards, config_id, configurations

from smear import Rules, State, apply, find_rules, legal_actions, new_match
from smear.bots import random_action
from smear.kernel import (
    BID,
    DISCARD,
    PASS,
    S_ERROR,
    S_STEPS,
    TRUMP,
    KernelRules,
    action_code,
    code_action,
    compare_with_engine,
    kernel_result,
    kernel_rules,
    legal_mask,
    play_hand,
    play_mask,
    play_random_hands,
    reference_result,
    trick_winner_index,
)

HANDS = int(os.environ.get("SMEAR_KERNEL_HANDS", "300"))

# Rule variants beyond the presets, so every field the kernel reads is exercised both ways.
VARIANTS: list[tuple[Rules, int, bool]] = [
    (HOUSE.with_changes(dealer_must_bid=False), 4, False),  # hands thrown in
    (HOUSE.with_changes(trump_named=True, jick=True, may_trump_instead=True), 5, False),
    (TEN_POINT.with_changes(low_to_player=True, may_trump_instead=False, bidder_leads_trump=False), 4, True),
    (TEN_POINT.with_changes(trey_points=0, jick=False, joker_rank="lowest", min_bid=1), 3, False),
    (
        HOUSE.with_changes(cards_dealt=8, trim_deck=False, player_counts=[4], team_player_counts=[4]),
        4,
        False,
    ),  # a discard step with trump unnamed
]


def _all_tables() -> list[tuple[Rules, int, bool]]:
    tables = [(find_rules(name), players, teams) for name, players, teams in configurations()]
    return tables + VARIANTS


def _table_id(table: tuple[Rules, int, bool]) -> str:
    rules, players, teams = table
    if rules in (HOUSE, TEN_POINT):
        return config_id((rules.name, players, teams))
    return f"{rules.name}-variant{VARIANTS.index(table)}"


TABLES = _all_tables()


@pytest.mark.parametrize("table", TABLES, ids=[_table_id(t) for t in TABLES])
def test_kernel_hands_replay_identically_in_the_engine(table: tuple[Rules, int, bool]) -> None:
    rules, players, teams = table
    kr = kernel_rules(rules, players, teams)
    played = play_random_hands(kr, HANDS, seed=zlib.crc32(_table_id(table).encode()), record=True)
    assert played.deals is not None and played.seats is not None
    assert played.legals is not None and played.codes is not None
    assert (played.summary[:, S_ERROR] == -1).all()
    for h in range(HANDS):
        problem = compare_with_engine(
            kr,
            played.deals[h],
            played.seats[h],
            played.legals[h],
            played.codes[h],
            played.summary[h],
            full_discards=h < 10,
        )
        assert problem is None, f"hand {h}: {problem}"


def _engine_hand(kr: KernelRules, seed: int, rng: random.Random) -> tuple[State, list[tuple[int, int, int]]]:
    """A hand played by the engine with the library's random player: its start and (seat, legal, code)."""
    teams = kr.sides if any(len(side) > 1 for side in kr.sides) else None
    start = new_match(kr.rules, kr.players, teams, seed=seed)
    state = start
    steps = []
    while state.public.to_act is not None:
        legal = legal_actions(state)
        action = random_action(legal, rng)
        code = action_code(action)
        mask = state.hands[state.public.to_act] if code & DISCARD else legal_mask(legal)
        steps.append((state.public.to_act, mask, code))
        state = apply(state, action)
    return start, steps


@pytest.mark.parametrize("table", TABLES, ids=[_table_id(t) for t in TABLES])
def test_engine_hands_replay_identically_in_the_kernel(table: tuple[Rules, int, bool]) -> None:
    rules, players, teams = table
    kr = kernel_rules(rules, players, teams)
    rng = random.Random(_table_id(table))
    for seed in range(HANDS // 2):
        start, steps = _engine_hand(kr, seed, rng)
        trace = play_hand(kr, start.dealt, start.public.dealer, [code for _, _, code in steps])
        assert trace.error == -1
        assert list(zip(trace.seats, trace.legals, trace.codes, strict=True)) == steps
        end = start
        for _, _, code in steps:
            end = apply(end, code_action(code))
        winners = [trick.winner for trick in end.public.tricks]
        assert kernel_result(kr, trace.summary) == reference_result(end.public.results[-1], winners)


def test_an_illegal_or_missing_action_stops_the_replay() -> None:
    kr = kernel_rules(HOUSE, 4)
    deal = [
        cards(text).mask
        for text in ("Ah Jh 9h Ks Tc LJ", "8h Kh Qs 9s 8s Ac", "Td Qd Kd Ad 9d 8d", "Qh Th Js Ts As 9c")
    ]
    # Seat 3 deals; seat 0 bids 2, the others pass; seat 0 may not lead the little joker.
    auction = [BID + 2, PASS, PASS, PASS]
    trace = play_hand(kr, deal, 3, [*auction, 52])
    assert trace.error == 4
    assert trace.legals[4] == cards("Ah Jh 9h Ks Tc").mask
    assert play_hand(kr, deal, 3, [*auction, cards("Ah").mask.bit_length() - 1]).error == 5  # ran out
    assert play_hand(kr, deal, 3, [PASS, PASS, PASS, PASS]).error == 3  # the dealer must bid
    assert play_hand(kr, deal, 3, [BID + 2, BID + 2]).error == 1  # not higher
    ten = kernel_rules(TEN_POINT, 4)
    assert play_hand(ten, [0] * 4, 3, [BID + 2, PASS, PASS, PASS, TRUMP + 4]).error == 4


def test_the_same_seed_plays_the_same_hands() -> None:
    kr = kernel_rules(TEN_POINT, 5)
    first = play_random_hands(kr, 200, seed=9).summary
    assert np.array_equal(first, play_random_hands(kr, 200, seed=9).summary)
    assert not np.array_equal(first, play_random_hands(kr, 200, seed=10).summary)
    assert (first[:, S_STEPS] == 5 + 1 + 5 + 30).all()  # bids, trump, discards, six tricks of five


@pytest.mark.parametrize(
    ("rules", "trump", "hand", "lead", "legal"),
    [
        (HOUSE, "h", "9c BJ", "Kc", "9c"),
        (HOUSE, "h", "Ah BJ Qd", "Kc", "Ah BJ Qd"),
        (HOUSE, "h", "9h BJ Qd", "LJ", "9h BJ"),
        (TEN_POINT, "s", "Jc Ad", "Kc", "Jc Ad"),
        (TEN_POINT, "s", "5c Jc 2s Ad", "Kc", "5c Jc 2s"),
        (TEN_POINT, "s", "5c Jc 2s Ad", "Jc", "Jc 2s"),
    ],
)
def test_the_small_cases_of_rules_3a(rules: Rules, trump: str, hand: str, lead: str, legal: str) -> None:
    kr = kernel_rules(rules, 4)
    suit = "cdhs".index(trump)
    lead_card = cards(lead).mask.bit_length() - 1
    assert play_mask(kr.table, suit, cards(hand).mask, lead_card, False) == cards(legal).mask


@pytest.mark.parametrize(
    ("rules", "trump", "trick", "winner"),
    [
        (HOUSE, "h", "Kc LJ Ac BJ", 3),
        (HOUSE, "h", "Kc BJ 8h", 2),
        (TEN_POINT, "s", "As Js Jc BJ LJ", 0),
        (TEN_POINT, "s", "Jc BJ LJ 2s", 0),
    ],
)
def test_trick_winners_of_rules_3a(rules: Rules, trump: str, trick: str, winner: int) -> None:
    kr = kernel_rules(rules, 5)
    played = np.array([cards(text).mask.bit_length() - 1 for text in trick.split()], dtype=np.int64)
    assert trick_winner_index(kr.table, "cdhs".index(trump), played, len(played)) == winner
