"""The numba kernel against the reference engine: same deals and actions, same legal actions at every
step, same trick winners, same points and settlement; and the solver against a brute-force minimax
over the engine's own ``apply``/``legal_actions``.

Set ``SMEAR_KERNEL_HANDS`` to replay more hands per configuration than the CI default, and
``SMEAR_SOLVER_POSITIONS`` to check more endgames.
"""

from __future__ import annotations

import os
import random
import zlib

import numpy as np
import pytest
from helpers import HOUSE, TEN_POINT, cards, config_id, configurations

from smear import Phase, Rules, State, apply, find_rules, legal_actions, new_match
from smear.bots import random_action
from smear.search.checks import compare_with_engine, kernel_result, legal_mask, reference_result
from smear.search.codes import BID, DISCARD, PASS, TRUMP, action_code, code_action
from smear.search.masks import play_mask, trick_winner_index
from smear.search.playouts import play_hand, play_random_hands
from smear.search.solver import (
    Position,
    Solver,
    points_in_play,
    position_of,
    random_first_trick_positions,
    solve,
    solve_all_moves,
    solve_all_splits,
)
from smear.search.tables import S_ERROR, S_STEPS, KernelRules, kernel_rules, unsupported_rules

HANDS = int(os.environ.get("SMEAR_KERNEL_HANDS", "300"))
SOLVER_POSITIONS = int(os.environ.get("SMEAR_SOLVER_POSITIONS", "40"))

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
    tables = [(find_rules(name), players, teams) for name, players, teams in configurations(options=False)]
    return [table for table in tables if not unsupported_rules(table[0])] + VARIANTS


def _table_id(table: tuple[Rules, int, bool]) -> str:
    rules, players, teams = table
    if table in VARIANTS:
        return f"{rules.name}-variant{VARIANTS.index(table)}"
    return config_id((rules.name, players, teams))


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


# --- the solver against brute force over the engine --------------------------------------------------


def _brute_force(state: State, us: int, weight: list[int]) -> int:
    """Minimax over the engine's own moves: the acting side's (weighted) points at the end of the hand."""
    pub = state.public
    if pub.to_act is None:
        result = pub.results[-1]
        values = pub.rules.point_values
        return sum(values[name] * weight[side] for name, side in result.points.items() if side is not None)
    values_of = [_brute_force(apply(state, action), us, weight) for action in legal_actions(state)]
    return max(values_of) if pub.seat_side[pub.to_act] == us else min(values_of)


def _endgame(
    rules: Rules, players: int, teams: bool, seed: int, cards_left: int, in_trick: int
) -> State | None:
    """A state of a random hand with ``cards_left`` cards in the hand to act, ``in_trick`` cards led."""
    rng = random.Random(seed)
    state = new_match(rules, players, teams, seed=seed)
    while state.public.to_act is not None:
        pub = state.public
        seat = pub.to_act
        if (
            pub.phase is Phase.PLAY
            and state.hands[seat].bit_count() == cards_left
            and len(pub.trick) == in_trick
        ):
            return state
        state = apply(state, random_action(legal_actions(state), rng))
    return None


def _check_solver(kr: KernelRules, state: State, oppose: bool, counted: int | None = None) -> None:
    """The solver's values against brute force, for the acting side or the side ``counted``."""
    pub = state.public
    assert pub.to_act is not None
    us = pub.seat_side[pub.to_act] if counted is None else counted
    weight = [1 if side == us else (-1 if oppose else 0) for side in range(len(pub.sides))]
    expected = {action_code(a): _brute_force(apply(state, a), us, weight) for a in legal_actions(state)}
    position = position_of(state)
    assert solve_all_moves(kr, position, oppose, side=counted) == expected
    if counted is not None:
        with pytest.raises(ValueError, match="exactly"):
            Solver().solve_moves(kr, position, oppose, exact=False, side=counted)
        return
    best = max(expected.values())
    solution = solve(kr, position, oppose)
    assert solution.value == best
    assert expected[solution.card] == best, "the best card must reach the best value"


SOLVER_TABLES = [
    ("house", 4, False),
    ("house", 4, True),
    ("house", 3, False),
    ("house", 6, True),
    ("ten_point", 4, False),
    ("ten_point", 4, True),
    ("ten_point", 3, False),
    ("ten_point", 5, False),
]


@pytest.mark.parametrize("config", SOLVER_TABLES, ids=config_id)
def test_the_solver_matches_brute_force_on_endgames(config: tuple[str, int, bool]) -> None:
    name, players, teams = config
    rules = find_rules(name)
    kr = kernel_rules(rules, players, teams)
    checked = 0
    for seed in range(SOLVER_POSITIONS):
        cards_left = 3 if players <= 4 and seed % 3 else 2
        state = _endgame(rules, players, teams, seed, cards_left, seed % players)
        if state is not None:
            _check_solver(kr, state, oppose=seed % 2 == 1)
            checked += 1
    assert checked >= SOLVER_POSITIONS // 2


@pytest.mark.parametrize("config", [c for c in SOLVER_TABLES if not c[2]], ids=config_id)
def test_the_solver_counts_another_sides_points_as_brute_force_does(config: tuple[str, int, bool]) -> None:
    # With three or more sides a seat asks how few points the bidder can be held to: the bidder's
    # seats maximise them and every other seat, the one to act included, minimises them.
    name, players, _ = config
    rules = find_rules(name)
    kr = kernel_rules(rules, players, None)
    checked = 0
    for seed in range(SOLVER_POSITIONS):
        state = _endgame(rules, players, False, seed, 3 if players <= 4 else 2, seed % players)
        if state is None or state.public.to_act == state.public.bidder:
            continue
        bidder = state.public.bidder
        assert bidder is not None
        _check_solver(kr, state, oppose=False, counted=state.public.seat_side[bidder])
        checked += 1
    assert checked >= SOLVER_POSITIONS // 3


# Tiny hands so brute force reaches back to the first lead: trump set by it, or the bidder's trump lead.
FIRST_LEAD_TABLES = [
    (HOUSE.with_changes(cards_dealt=2, hand_size=2, player_counts=[4], team_player_counts=[4]), 4, True),
    (HOUSE.with_changes(cards_dealt=3, hand_size=3, player_counts=[4], team_player_counts=[]), 4, False),
    (TEN_POINT.with_changes(cards_dealt=4, hand_size=2, deal_by_players=[]), 4, False),
    (TEN_POINT.with_changes(cards_dealt=3, hand_size=3, deal_by_players=[]), 3, False),
]


@pytest.mark.parametrize("table", FIRST_LEAD_TABLES, ids=["house-2", "house-3", "ten_point-2", "ten_point-3"])
def test_the_solver_matches_brute_force_from_the_first_lead(table: tuple[Rules, int, bool]) -> None:
    rules, players, teams = table
    kr = kernel_rules(rules, players, teams)
    for seed in range(SOLVER_POSITIONS // 2):
        state = _endgame(rules, players, teams, seed, rules.hand_size, 0)
        assert state is not None and not state.public.tricks
        _check_solver(kr, state, oppose=seed % 2 == 0)


@pytest.mark.parametrize(
    "config", [("house", 4, False), ("ten_point", 4, True), ("house", 5, False)], ids=config_id
)
def test_full_hands_the_best_value_is_the_best_of_all_moves(config: tuple[str, int, bool]) -> None:
    # Whole six-card hands are out of brute force's reach: check that alpha-beta with a moving window
    # (solve) and with full windows for every card (solve_all_moves) agree.
    name, players, teams = config
    kr = kernel_rules(find_rules(name), players, teams)
    for position in random_first_trick_positions(kr, 30, seed=3):
        for oppose in (False, True):
            assert solve(kr, position, oppose).value == max(solve_all_moves(kr, position, oppose).values())


def test_the_solver_values_only_the_cards_asked_for_and_each_as_among_all() -> None:
    # Tiny house hands at the first lead, trump not yet set (the cards asked for may leave out whole
    # suits), and whole six-card hands with trump set.
    rules, players, teams = FIRST_LEAD_TABLES[1]
    tables: list[tuple[KernelRules, Position]] = []
    for seed in range(6):
        state = _endgame(rules, players, teams, seed, rules.hand_size, 0)
        assert state is not None and state.public.trump is None
        tables.append((kernel_rules(rules, players, teams), position_of(state)))
    house = kernel_rules(HOUSE, 4, True)
    tables += [(house, position) for position in random_first_trick_positions(house, 6, seed=5)]
    for kr, position in tables:
        for oppose in (False, True):
            every = solve_all_moves(kr, position, oppose)
            kept = sorted(every)[::2]
            among = sum(1 << card for card in kept)
            assert solve_all_moves(kr, position, oppose, among=among) == {card: every[card] for card in kept}
        unheld = ~position.hands[position.to_act] & ((1 << 54) - 1)
        with pytest.raises(ValueError, match="no legal card"):
            solve_all_moves(kr, position, False, among=unheld)


def test_one_search_of_the_margin_splits_the_points_as_two_searches_do() -> None:
    # Each side's points from the margin alone: the most the side to act can take, and the rest.
    tables: list[tuple[KernelRules, Position]] = []
    for name, players, teams in SOLVER_TABLES:
        rules = find_rules(name)
        kr = kernel_rules(rules, players, teams)
        for seed in range(SOLVER_POSITIONS // 4):
            state = _endgame(rules, players, teams, seed, 3 if players <= 4 else 2, seed % players)
            if state is not None:
                tables.append((kr, position_of(state)))
    for rules, players, teams in FIRST_LEAD_TABLES:
        for seed in range(SOLVER_POSITIONS // 4):
            state = _endgame(rules, players, teams, seed, rules.hand_size, 0)
            assert state is not None
            tables.append((kernel_rules(rules, players, teams), position_of(state)))
    house = kernel_rules(HOUSE, 4, True)
    tables += [(house, position) for position in random_first_trick_positions(house, 10, seed=7)]
    game_points = set()
    for kr, position in tables:
        points = solve_all_moves(kr, position, oppose=False)
        margins = solve_all_moves(kr, position, oppose=True)
        splits = solve_all_splits(kr, position)
        assert splits == {card: (points[card], points[card] - margins[card]) for card in points}
        for card, (ours, theirs) in splits.items():
            trump = card // 13 if position.trump is None else position.trump
            game_points.add(ours + theirs - points_in_play(kr, position._replace(trump=trump)))
    # Lines where a side wins Game and lines where it ties.
    assert game_points == {0, 1}
    assert len(tables) >= 40
