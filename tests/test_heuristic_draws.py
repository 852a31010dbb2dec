"""The heuristic in the games where cards are drawn after the auction: it bids for what the draw
brings (by the self-play fit of :mod:`smear.bots.draws`), and a bidder made to throw trumps keeps the
scoring ones."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path

import draw_bids  # bench/ is on the tests' path (pyproject's pytest settings)
from draw_bids import draw_tables, fit, forced_bids

from smear import Phase, apply, find_rules, new_match, player_view
from smear.actions import PASS, Bid, Discard, bid
from smear.bots import HeuristicBot
from smear.bots.draws import DRAW_BIDS, draw_bid
from smear.bots.heuristic import best_suit, bid_count
from smear.scoring import scoring_trumps
from smear.trick import order_for


def test_every_table_that_draws_after_the_auction_has_a_fitted_bid() -> None:
    tables = {(table.preset, table.players, table.teams) for table in draw_tables()}
    assert {preset for preset, _, _ in tables} == {"mcleod", "widow", "nine_card", "five_point"}
    assert set(DRAW_BIDS) == tables


def test_the_fitted_bids_hold_on_fresh_deals() -> None:
    # Other deals than the fit's, and far fewer: each table's bid is made about four times in five,
    # and a fresh fit puts it within a point for a hand of the usual number of trumps.
    for table in draw_tables():
        rows = forced_bids(table, deals=60, seed=50_000)
        base, per_trump = DRAW_BIDS[table.preset, table.players, table.teams]
        made = sum(taken >= int(base + per_trump * trumps + 0.25) for trumps, taken in rows) / len(rows)
        assert 0.7 <= made <= 0.98, (table, made)
        fresh = fit(rows)
        usual = sum(trumps for trumps, _ in rows) / len(rows)
        shipped = base + per_trump * usual
        assert abs(fresh.base + fresh.per_trump * usual - shipped) < 1.0, table


def test_the_draw_raises_the_count_only_where_cards_are_drawn() -> None:
    plain = (("house", 4, True), ("ten_point", 4, True), ("cutthroat", 3, False), ("five_point", 4, True))
    for preset, players, teams in plain:  # five-point Smear draws only with its kitty
        rules = find_rules(preset)
        assert draw_bid(rules, players, teams, 3) is None
        state = new_match(rules, players, teams or None, seed=4)
        hand = state.dealt[0]
        assert bid_count(hand, state.public) == best_suit(hand, state.public.deck.mask, rules).points
    # McLeod's game with four: the bidder takes the 14 cards of the stock, so a hand with three
    # trumps in its best suit is worth a bid of five, whatever the count of its scoring cards.
    mcleod = find_rules("mcleod")
    base, per_trump = DRAW_BIDS["mcleod", 4, True]
    assert draw_bid(mcleod, 4, True, 3) == base + 3 * per_trump >= 5
    assert draw_bid(mcleod, 4, False, 3) is None  # McLeod's game is played in teams only


def test_the_first_to_speak_in_mcleod_bids_for_the_stock() -> None:
    rules = find_rules("mcleod")
    bot = HeuristicBot()
    bids = []
    for seed in range(30):
        state = new_match(rules, 4, True, seed=seed)
        seat = state.public.to_act
        assert seat is not None
        view = player_view(state, seat)
        action = bot.choose(view, random.Random(0))
        assert isinstance(action, Bid)
        suit = best_suit(view.hand.mask, state.public.deck.mask, rules)
        trumps = (view.hand.mask & order_for(rules, suit.suit).trump_mask).bit_count()
        level = max(suit.points, DRAW_BIDS["mcleod", 4, True][0] + DRAW_BIDS["mcleod", 4, True][1] * trumps)
        assert action == bid(min(int(level + 0.25), rules.max_bid))
        bids.append(action.amount)
    assert min(bids) >= 5  # a count of the dealt hand alone bids 2 to 4


def test_a_mcleod_bidder_with_more_trumps_than_it_keeps_throws_the_plain_ones() -> None:
    rules = find_rules("mcleod")
    bot = HeuristicBot()
    crowded = 0
    for seed in range(40):
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
        crowded += 1
        action = bot.choose(view, random.Random(0))
        assert isinstance(action, Discard)
        scoring = trumps & (scoring_trumps(rules, order) | 1 << 13 * order.trump)
        thrown = action.cards.mask & trumps
        kept = trumps & ~thrown
        # A scoring trump goes only once every plain trump has gone.
        assert not (thrown & scoring) or not (kept & ~scoring), seed
        assert kept.bit_count() == rules.hand_size
    assert crowded >= 10


def test_the_bench_prints_a_table_in_the_module_s_shape_and_refuses_too_few_deals() -> None:
    bench = Path(draw_bids.__file__)
    run = subprocess.run(
        [sys.executable, str(bench), "--deals", "3"], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    source = run.stdout[run.stdout.index("DRAW_BIDS") : run.stdout.index("}\n") + 2]
    printed = ast.literal_eval(source.split("=", 1)[1].strip())
    assert set(printed) == set(DRAW_BIDS)
    assert all(
        isinstance(base, float) and isinstance(per_trump, float) for base, per_trump in printed.values()
    )
    assert run.stdout.count("made the fitted bid") == len(DRAW_BIDS)
    refused = subprocess.run(
        [sys.executable, str(bench), "--deals", "1"], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2
    assert "--deals must be at least 2" in refused.stderr


def test_a_fit_of_hands_that_all_hold_as_many_trumps_is_flat() -> None:
    found = fit([(3, 5), (3, 7), (3, 9), (3, 6), (3, 8)])
    assert found.per_trump == 0.0
    assert found.base < 7.0 and found.mean_taken == 7.0
