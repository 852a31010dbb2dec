"""The omniscient bot and the sighted experts (arena only, for measuring): legal actions from the whole
State, the cards seen only where they may be, never at a table."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import smear.bots
from smear import Phase, apply, find_rules, new_match, player_view
from smear.actions import Play
from smear.arena import ArenaConfig, parse_lineup, run_arena, team_lineup
from smear.bots import HeuristicBot, bot_names
from smear.bots.expert import card_worths
from smear.bots.lookahead import CardSolver
from smear.bots.omniscient import SIGHTED_EXPERTS, OmniscientBot, SightedExpertBot
from smear.cli import cli
from smear.state import State
from smear.views import PlayerView

CONFIGS = [
    ("house", 4, True),
    ("house", 3, False),
    ("house", 6, True),
    ("ten_point", 4, True),
    ("ten_point", 5, False),
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}{'-teams' if c[2] else ''}")
def test_the_omniscient_bot_plays_only_legal_actions(config: tuple[str, int, bool]) -> None:
    preset, players, teams = config
    rules = find_rules(preset)
    rng = random.Random(3)
    omniscient = OmniscientBot(playouts=1)
    others = HeuristicBot()
    for seed in range(2):
        state = new_match(rules, players, teams, seed=seed)
        while state.public.to_act is not None:  # one whole hand, the omniscient bot in seats 0 and 1
            seat = state.public.to_act
            view = player_view(state, seat)
            chosen = omniscient.choose_with_state(state, seat, rng) if seat < 2 else None
            action = chosen or others.choose(view, rng)
            assert action in view.legal_actions, (str(action), [str(a) for a in view.legal_actions])
            state = apply(state, action, seat)
        assert state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)


def test_the_omniscient_bot_is_never_offered_at_a_table() -> None:
    assert "omniscient" not in bot_names()
    with pytest.raises(ValueError):
        smear.bots.make_bot("omniscient")
    assert not hasattr(OmniscientBot(), "choose")  # it cannot play from a PlayerView


def test_a_tiny_arena_with_the_omniscient_bot() -> None:
    assert parse_lineup("omniscient,heuristic", 4, True) == team_lineup("omniscient", "heuristic", 4)
    config = ArenaConfig("house", 4, True, team_lineup("omniscient", "heuristic", 4), matches=2, seed=1)
    report = run_arena(config, workers=1)
    rows = {row["bot"]: row for row in report.as_json()["bots"]}
    assert rows["omniscient"]["matches"] == rows["heuristic"]["matches"] == 2
    assert rows["omniscient"]["wins"] + rows["heuristic"]["wins"] == 2
    assert "omniscient" not in bot_names()


def test_the_arena_command_takes_the_omniscient_bot() -> None:
    result = CliRunner().invoke(
        cli,
        ["arena", "--teams", "--bots", "omniscient,heuristic", "--matches", "2", "--workers", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    assert '"omniscient"' in result.output


class RecordingSightedExpert(SightedExpertBot):
    """A sighted expert that keeps every deal its search draws, decision by decision."""

    def __init__(self, sees: frozenset[str]) -> None:
        super().__init__(sees)
        self.drawn: list[State] = []

    def sample(self, view: PlayerView, rng: random.Random) -> State:
        world = super().sample(view, rng)
        self.drawn.append(world)
        return world


@pytest.mark.parametrize("sees", [frozenset({"auction"}), frozenset({"trump"})], ids=sorted)
def test_a_sighted_expert_searches_the_true_deal_only_where_it_sees(sees: frozenset[str]) -> None:
    rules = find_rules("house")
    rng = random.Random(5)
    bot = RecordingSightedExpert(sees)
    others = HeuristicBot()
    seen_decisions = blind_decisions = 0
    for seed in range(3):
        state = new_match(rules, 4, True, seed=seed)
        while state.public.to_act is not None:
            seat = state.public.to_act
            view = player_view(state, seat)
            if seat % 2 or len(view.legal_actions) == 1:
                state = apply(state, others.choose(view, rng), seat)
                continue
            bot.drawn.clear()
            action = bot.choose_with_state(state, seat, rng)
            assert action in view.legal_actions
            assert bot.drawn, "every decision with a choice is searched"
            if bot.sees_at(view):
                seen_decisions += 1
                assert all(world.hands == state.hands for world in bot.drawn)
                assert all(world.previous is None and world.seed is None for world in bot.drawn)
            elif not state.public.tricks:
                # Before the first trick is taken, 18 or more cards are hidden from the seat: its own
                # deals are never all the true one.
                blind_decisions += 1
                assert any(world.hands != state.hands for world in bot.drawn)
            state = apply(state, action, seat)
    assert seen_decisions and blind_decisions
    assert bot.samples == SightedExpertBot(sees).samples  # the search's own budget is back after each


def test_shown_the_deal_at_the_first_lead_the_sighted_expert_leads_the_solver_s_best_card() -> None:
    rules = find_rules("house")
    rng = random.Random(2)
    bidder = HeuristicBot()
    solver = CardSolver()
    bot = SightedExpertBot(frozenset({"trump"}))
    leads = 0
    for seed in range(12):
        state = new_match(rules, 4, True, seed=seed)
        while state.public.phase is Phase.AUCTION:
            seat = state.public.to_act
            state = apply(state, bidder.choose(player_view(state, seat), rng), seat)
        seat = state.public.to_act
        view = player_view(state, seat)
        if len(view.legal_actions) == 1:
            continue
        assert bot.sees_at(view) and state.public.trump is None
        worths = {card: worth for card, (worth, _) in card_worths(solver, state, bot.match_worth).items()}
        lead = bot.choose_with_state(state, seat, rng)
        assert isinstance(lead, Play)
        assert worths[int(lead.card)] == max(worths.values())
        leads += 1
    assert leads >= 6


def test_a_sighted_expert_sees_the_trump_choice_where_it_is_named() -> None:
    rules = find_rules("ten_point")
    rng = random.Random(1)
    bot = SightedExpertBot(frozenset({"trump"}))
    state = new_match(rules, 4, True, seed=4)
    heuristic = HeuristicBot()
    while state.public.phase is Phase.AUCTION:
        seat = state.public.to_act
        state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    assert state.public.phase is Phase.TRUMP
    seat = state.public.to_act
    assert bot.sees_at(player_view(state, seat))
    assert bot.choose_with_state(state, seat, rng) in player_view(state, seat).legal_actions
    state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    while state.public.phase is not Phase.PLAY:
        seat = state.public.to_act
        state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    assert not bot.sees_at(player_view(state, state.public.to_act))  # trump is named: a lead is a lead


def test_sighted_experts_are_named_in_the_arena_only() -> None:
    for wrong in (frozenset({"discard"}), frozenset({"trump", "play"}), frozenset()):
        with pytest.raises(ValueError, match="at the auction, the trump or both"):
            SightedExpertBot(wrong)
    for name, sees in SIGHTED_EXPERTS.items():
        assert name not in bot_names()
        assert SightedExpertBot(sees).name == name
        assert parse_lineup(f"{name},counting", 4, True) == team_lineup(name, "counting", 4)
    # One match, to 7 points rather than 21: an arena plays it all the same.
    lineup = team_lineup("expert-sees-trump", "random", 4)
    config = ArenaConfig("house", 4, True, lineup, matches=1, seed=2, changes=(("target", 7),))
    rows = {row["bot"]: row for row in run_arena(config, workers=1).as_json()["bots"]}
    assert rows["expert-sees-trump"]["matches"] == rows["random"]["matches"] == 1
