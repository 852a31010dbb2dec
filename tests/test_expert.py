"""The expert: PIMC with inference, the solver in the card play, match-aware values and searched
discards; today's earlier expert stays as ``pimc``."""

from __future__ import annotations

import random

import pytest
from test_review import CLEO, JACK_THROWN, MISTAKE

from smear import find_rules, legal_actions, new_match, parse_action, player_view
from smear.actions import Discard
from smear.bots import ExpertBot, HeuristicBot, make_bot
from smear.bots.expert import (
    LEAD_SAMPLES_SCALE,
    MATCH_WORTH,
    PRUNE_EVERY,
    SOLVER_CARDS,
    WEIGHED_SAMPLES_SCALE,
    Advice,
    CardTally,
    bid_change,
    card_worths,
    discard_candidates,
    match_end,
)
from smear.bots.lookahead import CardSolver, Outcome, auction_candidates
from smear.bots.pimc import PimcBot
from smear.record import parse_record
from smear.review import positions
from smear.state import Phase, State
from smear.transitions import apply
from smear.views import PlayerView


def test_the_first_expert_stays_registered_as_pimc() -> None:
    assert type(make_bot("pimc")) is PimcBot
    assert type(make_bot("expert")) is ExpertBot


def cleo_before_the_jack() -> PlayerView:
    found = positions(parse_record(MISTAKE), [CLEO])
    return next(p.view for p in found if (p.hand, p.action_index) == JACK_THROWN)


def test_the_expert_keeps_the_jack_that_will_take_the_last_trick() -> None:
    view = cleo_before_the_jack()
    assert {str(action) for action in view.legal_actions} == {"Jh", "9h"}
    expert = ExpertBot(play_samples=24, seconds=60)
    advice = expert.advise(view, random.Random(1))
    assert str(advice.action) == "9h"
    # The card play is solved, deal by deal, until the deals (weighed by the play so far) are worth
    # 24 equal ones. Cleo did not bid: her expected score change is what she takes, Low (hers
    # already) and at most Jack and Game besides.
    assert 24 < advice.samples <= WEIGHED_SAMPLES_SCALE * 24
    assert advice.expected_points is not None and 1 <= advice.expected_points <= 3


def test_a_cards_worth_counts_the_bid() -> None:
    state = first_lead_near_the_target((0, 0), seed=1)
    pub = state.public
    assert 2 <= pub.bid <= 6
    # The bidder's side is set below its bid: it loses the bid, whatever it took.
    assert bid_change(pub, pub.bid - 1) == -pub.bid
    assert bid_change(pub, pub.bid) == pub.bid
    # A moon is made with every point of the hand and set with fewer.
    moon = pub._replace(bid=pub.rules.max_bid + 1)
    assert bid_change(moon, pub.rules.max_bid) == pub.rules.max_bid
    assert bid_change(moon, pub.rules.max_bid - 1) == -(pub.rules.max_bid + 1)
    # On a whole deal of two sides a card is worth its side's score change less the other's.
    solver = CardSolver()
    seat = pub.to_act
    assert seat is not None and pub.seat_side[seat] == pub.bidder_side
    for card, (worth, change) in card_worths(solver, state).items():
        ours, theirs = solver.card_points(state)[card]
        assert change == bid_change(pub, ours)
        assert worth == change - theirs


def test_a_hand_that_ends_the_match_is_worth_more_than_its_margin() -> None:
    view = cleo_before_the_jack()
    expert = ExpertBot()
    assert expert.value(Outcome(2, 1, True, 1), view) == 1 + MATCH_WORTH
    assert expert.value(Outcome(-4, -6, False, -1), view) == -6 - MATCH_WORTH
    assert expert.value(Outcome(2, 1, True, 0), view) == 1
    assert PimcBot().value(Outcome(2, 1, True, 1), view) == 1  # pimc plays for points alone


def first_lead_near_the_target(scores: tuple[int, int], seed: int) -> State:
    """A house match in teams started at ``scores``, its auction bid by the heuristic, at the first lead."""
    rng = random.Random(seed)
    heuristic = HeuristicBot()
    state = new_match(find_rules("house"), 4, True, seed=seed, scores=scores)
    while state.public.phase is not Phase.PLAY:
        seat = state.public.to_act
        assert seat is not None
        state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    return state


def test_a_hand_ends_the_match_as_the_rules_settle_it() -> None:
    state = first_lead_near_the_target((19, 19), seed=3)
    pub = state.public
    bidding = pub.bidder_side
    assert bidding is not None and pub.rules.target == 21
    other = 1 - bidding
    # The bidding side makes its bid and reaches 21: it wins, even with the other side higher.
    assert match_end(pub, bidding, ours=pub.bid, theirs=6 - pub.bid) == 1
    assert match_end(pub, other, ours=6 - pub.bid, theirs=pub.bid) == -1
    # Set, it drops below; the other side's points take it out.
    assert match_end(pub, bidding, ours=pub.bid - 1, theirs=2) == -1
    assert match_end(pub, other, ours=2, theirs=pub.bid - 1) == 1
    # Set, with the other side short of 21: the match goes on.
    assert match_end(pub, bidding, ours=pub.bid - 1, theirs=1) == 0


def test_a_cards_worth_on_a_whole_deal_counts_the_match_it_ends() -> None:
    solver = CardSolver()
    split = 0
    for seed in range(3):
        state = first_lead_near_the_target((18, 19), seed)
        pub = state.public
        seat = pub.to_act
        assert seat is not None
        side = pub.seat_side[seat]
        points = solver.card_points(state)
        plain = card_worths(solver, state)
        counted = card_worths(solver, state, match_worth=5.0)
        assert plain.keys() == counted.keys() == points.keys()
        ends = {card: match_end(pub, side, ours, theirs) for card, (ours, theirs) in points.items()}
        for card, (worth, change) in counted.items():
            assert worth == plain[card][0] + 5.0 * ends[card]
            assert change == plain[card][1]
        split += len(set(ends.values())) > 1
    # Some of these leads decide the match: one card ends it where another does not.
    assert split > 0


def test_with_three_sides_a_card_that_sets_the_bidder_beats_one_that_takes_most() -> None:
    # Counting every other side as one (points less theirs) can prefer a card that lets the bidder
    # make its bid; the worth counts the bid, so the expert sets the bidder where any card can.
    solver = CardSolver()
    heuristic = HeuristicBot()
    setting = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = new_match(find_rules("cutthroat"), 3, False, seed=seed)
        while state.public.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
            pub = state.public
            seat = pub.to_act
            assert seat is not None
            if pub.phase is Phase.PLAY and seat != pub.bidder and len(legal_actions(state)) > 1:
                assert pub.bidder_side is not None
                worths = card_worths(solver, state)
                chosen = max(worths, key=lambda card: worths[card][0])
                held = solver.side_points(state, pub.bidder_side)
                margins = solver.card_values(state)
                widest = max(margins, key=lambda card: margins[card])
                if held[widest] >= pub.bid > min(held.values()):
                    assert held[chosen] < pub.bid
                    assert worths[chosen][1] == solver.side_points(state)[chosen]
                    setting += 1
            state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    assert setting >= 3


def test_the_expert_searches_the_moon_where_pimc_does_not() -> None:
    rules = find_rules("house").with_changes(shoot_the_moon=True)
    state = new_match(rules, 4, True, seed=2)
    view = player_view(state, state.public.to_act)  # type: ignore[arg-type]
    moon = parse_action(f"bid {rules.top_bid}")
    assert moon in view.legal_actions
    heuristic = HeuristicBot()
    assert heuristic.choose(view, random.Random(0)) != moon  # a plain hand: the policy does not shoot
    assert moon in ExpertBot().candidates(view, random.Random(0))
    assert moon not in PimcBot().candidates(view, random.Random(0))
    assert moon not in auction_candidates(view, heuristic, random.Random(0))


def first_discard(preset: str, seed: int) -> PlayerView:
    """The first seat with a real choice of discard in a hand of ``preset`` played by the heuristic."""
    rng = random.Random(seed)
    heuristic = HeuristicBot()
    state = new_match(find_rules(preset), 4, True, seed=seed)
    while True:
        seat = state.public.to_act
        assert seat is not None, "the hand ended without a discard to choose"
        view = player_view(state, seat)
        options = view.discard_options()
        if options is not None and 2 <= options.free < len(options.choosable):
            return view
        state = apply(state, heuristic.choose(view, rng), seat)


def test_discard_candidates_are_the_heuristics_discard_and_its_neighbours() -> None:
    for preset, seed in (("mcleod", 1), ("ten_point", 4)):
        view = first_discard(preset, seed)
        found = discard_candidates(view, HeuristicBot())
        assert found[0] == HeuristicBot().choose(view, random.Random(0))
        assert len({str(action) for action in found}) == len(found) > 1
        assert all(isinstance(action, Discard) and action in view.legal_actions for action in found)
        # Each neighbour keeps one card the first throws, and throws one it keeps.
        first = found[0].cards.mask  # type: ignore[union-attr]
        for other in found[1:]:
            assert (first ^ other.cards.mask).bit_count() == 2  # type: ignore[union-attr]


def test_the_expert_chooses_its_discard_by_search() -> None:
    view = first_discard("mcleod", 1)
    expert = ExpertBot(samples=6, seconds=60)
    advice = expert.advise(view, random.Random(2))
    assert advice.action in discard_candidates(view, expert.policy)
    assert advice.samples == 6 and advice.expected_points is not None


@pytest.mark.parametrize(
    ("preset", "players", "teams"),
    [
        ("house", 4, True),
        ("house", 3, False),
        ("house", 6, True),
        ("ten_point", 4, True),
        ("mcleod", 4, True),
    ],
)
def test_the_expert_solves_the_card_play_where_the_kernel_plays_the_rules(
    preset: str, players: int, teams: bool
) -> None:
    solved: list[PlayerView] = []

    class Watched(ExpertBot):
        def _solve_play(self, view: PlayerView, rng: random.Random) -> Advice:
            solved.append(view)
            return super()._solve_play(view, rng)

    rng = random.Random(4)
    expert = Watched(samples=3, play_samples=3, seconds=0.02)
    others = HeuristicBot()
    state = new_match(find_rules(preset), players, teams, seed=6)
    searched = 0
    while state.public.to_act is not None:  # one whole hand, the expert in seat 0
        seat = state.public.to_act
        view = player_view(state, seat)
        if seat == 0:
            advice = expert.advise(view, rng)
            action = advice.action
            if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
                searched += len(view.hand) * players <= SOLVER_CARDS
                if advice.expected_points is not None:  # the side's expected score change
                    assert -view.public.bid <= advice.expected_points <= 10
        else:
            action = others.choose(view, rng)
        assert action in view.legal_actions
        state = apply(state, action, seat)
    assert state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)
    # Every card chosen once few enough cards are left is solved, where the kernel plays the rules
    # (house and ten_point, not mcleod).
    assert searched
    assert len(solved) == (0 if preset == "mcleod" else searched)


def test_a_card_clearly_worse_than_the_best_leaves_the_running() -> None:
    tally = CardTally([10, 20, 30])
    deals = random.Random(2)
    for _ in range(PRUNE_EVERY):
        base = deals.uniform(-4, 4)  # the deal moves every card alike
        noise = deals.uniform(-0.5, 0.5)
        tally.add(1.0, {10: (base, 1), 20: (base + 0.1 + noise, 2), 30: (base - 3, -1)})
    assert tally.live_mask() == 1 << 10 | 1 << 20 | 1 << 30
    # 30 trails by 3 points on every deal; 20 is within the noise of 10 and stays.
    assert tally.prune() == 2
    assert list(tally.live) == [10, 20]
    assert tally.live_mask() == 1 << 10 | 1 << 20
    tally.add(1.0, {10: (0.0, 1), 20: (0.0, 2)})  # only the live cards are solved now
    assert tally.expected(20) == pytest.approx(2.0)


def test_the_first_lead_gets_more_deals_than_a_later_card() -> None:
    state = first_lead_near_the_target((0, 0), seed=1)
    seat = state.public.to_act
    assert seat is not None
    expert = ExpertBot(play_samples=8, seconds=60)
    lead = expert.advise(player_view(state, seat), random.Random(0))
    # Up to LEAD_SAMPLES_SCALE times the deals; it stops early only when one card is left in the
    # running, which is checked every PRUNE_EVERY deals.
    assert PRUNE_EVERY <= lead.samples <= LEAD_SAMPLES_SCALE * 8
    state = apply(state, lead.action, seat)
    # The next card with a choice, whoever plays it, gets no more than the usual deals.
    heuristic, rng = HeuristicBot(), random.Random(0)
    while (seat := state.public.to_act) is not None and len(legal_actions(state)) == 1:
        state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    assert seat is not None and (state.public.tricks or state.public.trick_plays)
    later = expert.advise(player_view(state, seat), random.Random(0)).samples
    # Weighed deals may take it past 8 (see the next test), never to the first lead's allowance.
    assert later <= WEIGHED_SAMPLES_SCALE * 8 < LEAD_SAMPLES_SCALE * 8


def test_deals_weighed_by_the_play_count_for_fewer() -> None:
    tally = CardTally([10])
    for weight in (1.0, 0.25, 0.25, 0.25, 0.25):
        tally.add(weight, {10: (0.0, 0)})
    assert tally.effective() == pytest.approx(2.0**2 / 1.25)  # five deals worth 3.2 equal ones
    even = CardTally([10])
    for _ in range(5):
        even.add(0.5, {10: (0.0, 0)})
    assert even.effective() == pytest.approx(5.0)


def test_a_later_card_solves_deals_until_their_effective_number_reaches_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tallies: list[CardTally] = []

    class Kept(CardTally):
        def __init__(self, cards: list[int]) -> None:
            super().__init__(cards)
            tallies.append(self)

    monkeypatch.setattr("smear.bots.expert.CardTally", Kept)
    state = first_lead_near_the_target((0, 0), seed=1)
    heuristic, rng = HeuristicBot(), random.Random(0)
    # Into the second trick: the plays so far make some deals likelier than others.
    while (seat := state.public.to_act) is not None and (
        len(state.public.tricks) < 2 or len(legal_actions(state)) == 1
    ):
        state = apply(state, heuristic.choose(player_view(state, seat), rng), seat)
    assert seat is not None
    view = player_view(state, seat)
    weighed = ExpertBot(play_samples=8, seconds=60).advise(view, random.Random(0))
    tally = tallies[-1]
    assert len(set(tally.weights)) > 1
    assert weighed.samples == len(tally.weights) > 8
    assert tally.effective() >= 8 or weighed.samples == WEIGHED_SAMPLES_SCALE * 8
    # Unweighed, the limit is the number of deals.
    assert ExpertBot(play_samples=8, seconds=60, infer=False).advise(view, random.Random(0)).samples == 8
