"""Bots choose only legal actions, from a PlayerView, in every preset, table size and team layout."""

from __future__ import annotations

import random

import pytest
from helpers import config_id, configurations, rules_named

from smear import Deal, Phase, apply, find_rules, new_match, next_hand, parse_action, player_view
from smear.bots import BeginnerBot, ExpertBot, HeuristicBot, RandomBot, bot_names, make_bot
from smear.bots.beginner import count_points
from smear.bots.heuristic import best_suit, estimate
from smear.cards import CardSet, Suit
from smear.views import PlayerView


def play_match(preset: str, players: int, teams: bool, seed: int, lineup: list[str]) -> tuple[int, int]:
    """Play a match between bots, checking every choice; returns (winning side, hands played)."""
    rules = rules_named(preset)
    rng = random.Random(seed)
    bots = [make_bot(name) for name in lineup]
    state = new_match(rules, players, teams, seed=seed)
    hands = 1
    while state.public.phase is not Phase.MATCH_OVER:
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
            hands += 1
            assert hands < 300, "the match does not end"
            continue
        seat = state.public.to_act
        assert seat is not None
        view = player_view(state, seat)
        action = bots[seat].choose(view, rng)
        assert action in view.legal_actions, (lineup[seat], str(action), [str(a) for a in view.legal_actions])
        state = apply(state, action, seat)
    assert state.public.winner is not None
    return state.public.winner, hands


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_every_bot_plays_only_legal_actions(config: tuple[str, int, bool]) -> None:
    preset, players, teams = config
    for seed in range(2):
        lineup = [("heuristic", "random")[(seat + seed) % 2] for seat in range(players)]
        play_match(preset, players, teams, seed, lineup)
    play_match(preset, players, teams, 7, ["heuristic"] * players)


def test_the_registry_names_the_bots() -> None:
    assert {"random", "beginner", "heuristic", "expert"} <= set(bot_names())
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert isinstance(make_bot("beginner"), BeginnerBot)
    assert isinstance(make_bot("random"), RandomBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")


def test_the_heuristic_beats_random_play_in_teams() -> None:
    wins = 0
    for seed in range(12):
        lineup = [("heuristic", "random")[(seat + seed) % 2] for seat in range(4)]
        winner, _ = play_match("house", 4, True, 100 + seed, lineup)
        heuristic_side = 0 if seed % 2 == 0 else 1
        wins += winner == heuristic_side
    assert wins >= 9  # it wins nearly all of them; chance alone gives six


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_the_beginner_plays_only_legal_actions(config: tuple[str, int, bool]) -> None:
    preset, players, teams = config
    for seed, other in enumerate(("heuristic", "random")):
        lineup = [("beginner", other)[(seat + seed) % 2] for seat in range(players)]
        play_match(preset, players, teams, seed, lineup)
    play_match(preset, players, teams, 7, ["beginner"] * players)


def _beginner_match_actions(seed: int) -> list[str]:
    rules = find_rules("ten_point")
    rng = random.Random(seed)
    bot = BeginnerBot()
    state = new_match(rules, 4, True, seed=seed)
    actions = []
    while state.public.phase is not Phase.MATCH_OVER:
        if state.public.phase is Phase.HAND_OVER:
            state = next_hand(state)
            continue
        action = bot.choose(player_view(state, state.public.to_act), rng)  # type: ignore[arg-type]
        actions.append(str(action))
        state = apply(state, action)
    return actions


def test_the_beginner_is_deterministic_given_its_rng() -> None:
    assert _beginner_match_actions(3) == _beginner_match_actions(3)
    assert _beginner_match_actions(3) != _beginner_match_actions(4)


def test_the_beginner_loses_to_the_heuristic_and_beats_random_play_in_teams() -> None:
    def wins_against(other: str) -> int:
        wins = 0
        for seed in range(100):
            lineup = [("beginner", other)[(seat + seed) % 2] for seat in range(4)]
            winner, _ = play_match("house", 4, True, 200 + seed, lineup)
            wins += winner == (0 if seed % 2 == 0 else 1)
        return wins

    # Chance alone gives 50 of 100; these seeds give 93 and 34.
    assert wins_against("random") >= 80
    assert wins_against("heuristic") <= 45


def test_the_beginner_bids_what_it_counts_give_or_take_one() -> None:
    rules = find_rules("house")
    hand = CardSet.parse("Ah Kh Jh 9h Ts 8c")  # High, Jack and a ten for Game, in its longest suit
    assert count_points(hand.mask, rules, Suit.HEARTS) == 3
    state = new_match(rules, 4, seed=3)
    view = player_view(state, state.public.to_act)  # type: ignore[arg-type]
    view = PlayerView(view.seat, hand, view.discards, view.public, view.legal_actions)
    bids = {str(BeginnerBot().choose(view, random.Random(seed))) for seed in range(40)}
    assert bids == {"bid 2", "bid 3", "bid 4"}


def test_the_beginner_leads_its_highest_card_and_wins_with_its_highest() -> None:
    rules = find_rules("house")
    deal = Deal.parse(
        [
            "Ah Qh 8h BJ Ks 8c",  # seat 0, the bidder
            "9h Tc Jc Qc 9d Td",  # seat 1
            "Th Ac Qd Kd Ad 8d",  # seat 2
            "Jh 9c Qs As 8s Js",  # seat 3
        ]
    )
    state = new_match(rules, 4, True, dealer=3, deal=deal)
    for text in ("bid 2", "pass", "pass", "pass", "Ah", "9h", "Th", "Jh"):
        state = apply(state, parse_action(text))
    # The joker looks like the biggest card (in house it is the lowest trump): a beginner leads it.
    assert str(BeginnerBot().choose(player_view(state, 0), random.Random(0))) == "BJ"
    state = apply(state, parse_action("8c"))
    # Any of its clubs beats the eight: it plays the queen, where one would do.
    view = player_view(state, 1)
    assert {str(a) for a in view.legal_actions} == {"Tc", "Jc", "Qc"}
    assert str(BeginnerBot().choose(view, random.Random(0))) == "Qc"
    # Unable to beat the other side's ace, it throws its lowest club, though it is the ten (Game):
    # the heuristic keeps the ten back (test_the_last_player_smears_the_ten_onto_the_partners_trick).
    other = Deal.parse(
        [
            "Ah Ac 8h 9s Ts Js",
            "9h 8c Qs Ks As 8s",
            "Th 9c Qd Kd Ad 8d",
            "Jh Tc Jc Qc 9d Td",
        ]
    )
    state = new_match(rules, 4, True, dealer=3, deal=other)
    for text in ("bid 2", "pass", "pass", "pass", "Ah", "9h", "Th", "Jh", "Ac", "8c", "9c"):
        state = apply(state, parse_action(text))
    assert str(BeginnerBot().choose(player_view(state, 3), random.Random(0))) == "Tc"


def test_a_strong_trump_suit_is_valued_above_a_weak_one() -> None:
    rules = find_rules("house")
    hand = CardSet.parse("Ah Kh Jh 9h Ts 8c")
    deck = rules.deck_mask(4)
    assert estimate(hand.mask, deck, rules, Suit.HEARTS) > estimate(hand.mask, deck, rules, Suit.SPADES) + 2
    assert best_suit(hand.mask, deck, rules).suit is Suit.HEARTS


def test_the_heuristic_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    rules = find_rules("house")
    bot = HeuristicBot()
    strong = CardSet.parse("Ah Kh Qh Jh 8h BJ")
    weak = CardSet.parse("9c 9d 8s Qc 8d 9s")
    for hand, expect_bid in ((strong, True), (weak, False)):
        state = new_match(rules, 4, seed=3)
        view = player_view(state, state.public.to_act)  # type: ignore[arg-type]
        view = PlayerView(view.seat, hand, view.discards, view.public, view.legal_actions)
        action = bot.choose(view, random.Random(0))
        assert (str(action) != "pass") is expect_bid, str(action)


def test_the_last_player_smears_the_ten_onto_the_partners_trick() -> None:
    rules = find_rules("house")
    deal = Deal.parse(
        [
            "Ah 8c 8h 9s Ts Js",  # seat 0, the bidder
            "9h Ac Qs Ks As 8s",  # seat 1
            "Th 9c Qd Kd Ad 8d",  # seat 2
            "Jh Tc Jc Qc 9d Td",  # seat 3, partner of seat 1
        ]
    )
    state = new_match(rules, 4, True, dealer=3, deal=deal)
    # Hearts become trump; seat 0 wins the first trick, then leads a club that seat 1 takes with
    # the ace, and seat 3, last to play, has three clubs to choose from.
    for text in ("bid 2", "pass", "pass", "pass", "Ah", "9h", "Th", "Jh", "8c", "Ac", "9c"):
        state = apply(state, parse_action(text))
    view = player_view(state, 3)
    assert {str(a) for a in view.legal_actions} == {"Tc", "Jc", "Qc"}
    assert str(HeuristicBot().choose(view, random.Random(0))) == "Tc"
    # With the opponents winning instead, the ten is kept back.
    other = Deal.parse(
        [
            "Ah Ac 8h 9s Ts Js",
            "9h 8c Qs Ks As 8s",
            "Th 9c Qd Kd Ad 8d",
            "Jh Tc Jc Qc 9d Td",
        ]
    )
    state = new_match(rules, 4, True, dealer=3, deal=other)
    for text in ("bid 2", "pass", "pass", "pass", "Ah", "9h", "Th", "Jh", "Ac", "8c", "9c"):
        state = apply(state, parse_action(text))
    assert str(HeuristicBot().choose(player_view(state, 3), random.Random(0))) == "Jc"


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_the_expert_plays_only_legal_actions(config: tuple[str, int, bool]) -> None:
    preset, players, teams = config
    rules = rules_named(preset)
    rng = random.Random(5)
    expert = ExpertBot(samples=2, seconds=0.02)
    others = HeuristicBot()
    state = new_match(rules, players, teams, seed=5)
    while state.public.to_act is not None:  # one whole hand, the expert in seat 0
        seat = state.public.to_act
        view = player_view(state, seat)
        action = (expert if seat == 0 else others).choose(view, rng)
        assert action in view.legal_actions
        state = apply(state, action, seat)
    assert state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)


def test_the_expert_stops_at_its_time_budget_and_is_seeded() -> None:
    rules = find_rules("house")
    state = new_match(rules, 4, True, seed=8)
    view = player_view(state, state.public.to_act)  # type: ignore[arg-type]
    expert = ExpertBot(samples=100_000, seconds=0.05)
    expert.choose(view, random.Random(1))
    assert 4 <= expert.last_samples < 100_000  # the time limit ended the search, not the count
    small = ExpertBot(samples=6, seconds=60)
    assert small.choose(view, random.Random(2)) == small.choose(view, random.Random(2))
    assert small.last_samples == 6


def test_the_expert_advice_names_its_choice_and_the_points_it_expects() -> None:
    rules = find_rules("house")
    # Seat 0 (left of the dealer, first to bid) holds the top of hearts and both jokers: it bids and
    # expects its side to gain.
    strong = Deal.parse(
        ["Ah Kh Qh Jh BJ LJ", "8c 9c Tc Jc Qc Kc", "8d 9d Td Jd Qd Kd", "8s 9s Ts Js Qs Ks"],
        out="Ac Ad As Th 9h 8h",
    )
    state = new_match(rules, 4, False, dealer=3, deal=strong)
    view = player_view(state, 0)
    expert = ExpertBot(samples=12, seconds=60)
    advice = expert.advise(view, random.Random(3))
    assert advice.action in view.legal_actions and advice.action != parse_action("pass")
    assert advice.samples == 12
    assert advice.expected_points is not None and advice.expected_points >= 3, advice
    assert expert.choose(view, random.Random(3)) == advice.action  # the same search, the same choice

    # A forced move is not searched: no figure to give.
    forced = ExpertBot().advise(_one_legal_action_view(), random.Random(0))
    assert forced.expected_points is None and forced.samples == 0


def _one_legal_action_view() -> PlayerView:
    """The dealer after three passes in a 2-bid-only auction has a single choice."""
    rules = find_rules("house").with_changes(max_bid=2)
    state = new_match(rules, 4, False, dealer=3, seed=5)
    for seat in range(3):
        state = apply(state, parse_action("pass"), seat)
    view = player_view(state, 3)
    assert len(view.legal_actions) == 1
    return view


def test_the_experts_evaluation_ranks_every_candidate_over_the_same_deals() -> None:
    """What the bid advisor and the review read: each candidate's expected points and margin, best
    first, and in the auction how often the side wins the bid and makes it."""
    state = new_match(find_rules("house"), 4, ((0, 2), (1, 3)), seed=11)
    view = player_view(state, state.public.to_act)
    expert = ExpertBot(samples=12, seconds=5.0)
    evaluation = expert.evaluate(view, random.Random(3))
    assert evaluation.samples == 12
    margins = [found.margin for found in evaluation.estimates]
    assert margins == sorted(margins, reverse=True)
    by_action = {str(found.action): found for found in evaluation.estimates}
    assert "pass" in by_action and len(by_action) >= 2
    for found in by_action.values():
        assert 0.0 <= found.won <= 1.0
        assert (found.made is None) == (found.won == 0.0)
        assert found.made is None or 0.0 <= found.made <= 1.0
    # advise picks the first of the evaluation, over the same deals.
    advice = ExpertBot(samples=12, seconds=5.0).advise(view, random.Random(3))
    assert advice.action == evaluation.estimates[0].action
    assert advice.expected_points == evaluation.estimates[0].points
