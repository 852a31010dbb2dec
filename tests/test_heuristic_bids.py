"""What the heuristic bids: the highest bid a hand like its own makes four times in five by
self-play (:mod:`smear.bots.bidlines`), far above its count where cards are drawn after the auction;
a bidder made to throw trumps keeps the scoring ones; and the ``counting`` yardstick still bids and
throws as the heuristic did before."""

from __future__ import annotations

import ast
import random
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import bid_lines  # bench/ is on the tests' path (pyproject's pytest settings)
from bid_lines import Fit, Hand, fit, forced_bids, tables

from smear import Phase, apply, find_rules, new_match, player_view
from smear.actions import PASS, Action, Bid, Discard, bid
from smear.bots import HeuristicBot
from smear.bots.bidlines import BID_LINES, ROUND_UP, bid_of, fitted_bid, table_name
from smear.bots.heuristic import CountingBot, best_suit, bid_count
from smear.cards import iter_bits
from smear.rules import PRESETS
from smear.scoring import scoring_trumps
from smear.trick import TrumpOrder, order_for
from smear.views import PlayerView


def test_every_table_has_a_fitted_line() -> None:
    every = {(table.name, table.players, table.teams) for table in tables()}
    assert set(BID_LINES) == every
    assert {name for name, _, _ in every} == {*PRESETS, "five_point+kitty"}
    assert table_name(find_rules("five_point").with_changes(kitty=3)) == "five_point+kitty"


def test_the_fitted_bids_hold_on_fresh_deals() -> None:
    # Other deals than the fit's, and far fewer: each table's bid is made about four times in five,
    # and a fresh fit is within a point of it for a hand of the usual count and trumps.
    for table in tables():
        hands = forced_bids(table, deals=40, seed=50_000)
        base, per_count, per_trump = BID_LINES[table.name, table.players, table.teams]
        shipped = Fit(base, per_count, per_trump, hands=0, mean_taken=0.0, made=0.0)
        made = sum(hand.taken >= shipped.bid(hand.counted, hand.trumps) for hand in hands) / len(hands)
        assert 0.6 <= made <= 0.97, (table, made)
        fresh = fit(hands)
        counted = statistics.fmean(hand.counted for hand in hands)
        trumps = statistics.fmean(hand.trumps for hand in hands)
        moved = (
            fresh.base
            - base
            + (fresh.per_count - per_count) * counted
            + (fresh.per_trump - per_trump) * trumps
        )
        assert abs(moved) < 1.0, table


def test_a_hand_is_bid_on_its_fitted_worth_and_never_below_its_count() -> None:
    for preset, players, teams in (("house", 4, True), ("ten_point", 3, False), ("mcleod", 4, True)):
        rules = find_rules(preset)
        for seed in range(10):
            state = new_match(rules, players, teams or None, seed=seed)
            for hand in state.dealt:
                best = best_suit(hand, state.public.deck.mask, rules)
                trumps = (hand & order_for(rules, best.suit).trump_mask).bit_count()
                fitted = fitted_bid(rules, players, teams, best.points, trumps)
                assert fitted is not None
                assert bid_count(hand, state.public) == max(best.points, fitted) >= best.points
    base, per_count, per_trump = BID_LINES["house", 4, True]
    assert fitted_bid(find_rules("house"), 4, True, 2.0, 3) == base + 2 * per_count + 3 * per_trump + ROUND_UP


def first_bids(preset: str, deals: int) -> Iterator[tuple[PlayerView, Action]]:
    """The view of the first seat to speak at a table of four in teams, and the heuristic's bid
    there, deal by deal."""
    bot = HeuristicBot()
    for seed in range(deals):
        state = new_match(find_rules(preset), 4, True, seed=seed)
        seat = state.public.to_act
        assert seat is not None
        view = player_view(state, seat)
        yield view, bot.choose(view, random.Random(0))


def test_the_heuristic_bids_more_than_its_count_in_house() -> None:
    # Its count of a house hand is about what the hand takes on average; it bids what the hand
    # takes four times in five, which self-play shows is more.
    raised = 0
    for view, action in first_bids("house", 30):
        count = bid_of(best_suit(view.hand.mask, view.public.deck.mask, view.public.rules).points)
        amount = action.amount if isinstance(action, Bid) else 0
        assert amount >= count or count < view.public.rules.min_bid
        raised += amount > count
    assert raised >= 10


def test_the_first_to_speak_in_mcleod_bids_for_the_stock() -> None:
    bids = [action for _, action in first_bids("mcleod", 30)]
    assert all(isinstance(action, Bid) and action.amount >= 5 for action in bids)  # a count bids 2 to 4


def crowded_discards(bot: HeuristicBot, deals: int) -> Iterator[tuple[TrumpOrder, int, int, int]]:
    """McLeod deals (four in teams) where the bidder, the first seat, holds more trumps than it keeps
    after the stock: the trump order, its trumps, the scoring ones among them and those ``bot`` throws."""
    rules = find_rules("mcleod")
    for seed in range(deals):
        state = new_match(rules, 4, True, seed=seed)
        while state.public.phase is Phase.AUCTION:  # the first seat bids, the others pass
            seat = state.public.to_act
            assert seat is not None
            state = apply(state, bid(rules.min_bid) if state.public.bidder is None else PASS, seat)
        bidder = state.public.bidder
        while not (state.public.phase is Phase.DISCARD and state.public.to_act == bidder):
            seat = state.public.to_act
            assert seat is not None
            state = apply(state, bot.choose(player_view(state, seat), random.Random(0)), seat)
        view = player_view(state, bidder)
        order = state.public.order
        assert order is not None
        trumps = view.hand.mask & order.trump_mask
        if trumps.bit_count() <= rules.hand_size:
            continue
        action = bot.choose(view, random.Random(0))
        assert isinstance(action, Discard)
        assert (trumps & ~action.cards.mask).bit_count() == rules.hand_size
        yield (
            order,
            trumps,
            trumps & (scoring_trumps(rules, order) | 1 << 13 * order.trump),
            action.cards.mask & trumps,
        )


def test_a_mcleod_bidder_with_more_trumps_than_it_keeps_throws_the_plain_ones() -> None:
    crowded = 0
    for _, trumps, scoring, thrown in crowded_discards(HeuristicBot(), 40):
        crowded += 1
        kept = trumps & ~thrown
        # A scoring trump goes only once every plain trump has gone.
        assert not (thrown & scoring) or not (kept & ~scoring)
    assert crowded >= 10


def test_the_counting_yardstick_bids_its_count_and_throws_trumps_by_power() -> None:
    # The heuristic as it was before the fit, kept unchanged for bench/gap.py.
    counting = CountingBot()
    outbid = 0
    for view, action in first_bids("house", 30):
        count = bid_of(best_suit(view.hand.mask, view.public.deck.mask, view.public.rules).points)
        taken = counting.choose(view, random.Random(0))
        assert taken == (bid(count) if count >= view.public.rules.min_bid else PASS)
        outbid += isinstance(action, Bid) and (not isinstance(taken, Bid) or action.amount > taken.amount)
    assert outbid >= 10
    thrown_by_power = 0
    for order, trumps, scoring, thrown in crowded_discards(counting, 40):
        kept = trumps & ~thrown
        assert min(order.power[card] for card in iter_bits(kept)) > max(
            order.power[card] for card in iter_bits(thrown)
        )
        thrown_by_power += bool(thrown & scoring) and bool(kept & ~scoring)
    assert thrown_by_power >= 3  # a scoring trump thrown while a plain one is kept


def test_the_bench_prints_a_table_in_the_module_s_shape_and_refuses_too_few_deals() -> None:
    bench = Path(bid_lines.__file__)
    run = subprocess.run(
        [sys.executable, str(bench), "--deals", "2"], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr
    source = run.stdout[run.stdout.index("BID_LINES") : run.stdout.index("}\n") + 2]
    printed = ast.literal_eval(source.split("=", 1)[1].strip())
    assert set(printed) == set(BID_LINES)
    assert all(
        len(line) == 3 and all(isinstance(weight, float) for weight in line) for line in printed.values()
    )
    assert run.stdout.count("made the fitted bid") == len(BID_LINES)
    refused = subprocess.run(
        [sys.executable, str(bench), "--deals", "1"], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2
    assert "--deals must be at least 2" in refused.stderr


def test_a_feature_that_does_not_vary_gets_no_weight() -> None:
    found = fit([Hand(2.5, 3, taken) for taken in (5, 7, 9, 6, 8)])
    assert found.per_count == 0.0 and found.per_trump == 0.0
    assert found.base < 7.0 and found.mean_taken == 7.0
