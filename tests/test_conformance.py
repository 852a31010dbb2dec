"""Seeded random matches under every preset, player count and team layout, checking at every step
that cards are conserved, exactly one seat is to act, every legal action applies, other actions are
refused without changing anything, hands are scored and settled consistently, and the match ends.

Set ``SMEAR_CONFORMANCE_MATCHES`` to play more matches per configuration than the CI default.
"""

from __future__ import annotations

import os
import pickle
import random

import pytest
from helpers import (
    MAX_HANDS,
    config_id,
    configurations,
    deck,
    played_cards,
    random_match,
    rules_named,
    union,
)

from smear import (
    CARDS,
    PRESETS,
    Action,
    Bid,
    CardSet,
    Discard,
    IllegalActionError,
    NameTrump,
    NotYourTurnError,
    Pass,
    Phase,
    Play,
    State,
    Suit,
    apply,
    legal_actions,
    new_match,
    parse_card,
    trick_winner,
)
from smear.scoring import MatchEnd, scoring_trumps
from smear.trick import is_trump, order_for

MATCHES = int(os.environ.get("SMEAR_CONFORMANCE_MATCHES", "3"))
ACTING = (Phase.AUCTION, Phase.WIDOW, Phase.TRUMP, Phase.DISCARD, Phase.PLAY)


def check_cards_conserved(state: State) -> None:
    pub = state.public
    parts = [CardSet(mask) for mask in state.hands]
    parts += [CardSet(mask) for mask in state.discards]
    parts += [CardSet(trick.cards) for trick in pub.tricks]
    parts.append(CardSet(pub.trick))
    parts.append(CardSet(state.out[pub.drawn :]))  # the cards drawn are in hands now
    assert pub.took <= pub.drawn <= len(state.out)
    if pub.took:
        assert pub.bidder is not None
        bidders = state.hands[pub.bidder] | state.discards[pub.bidder] | played_cards(state).mask
        assert CardSet(state.out[: pub.rules.kitty + pub.rules.widow]) <= CardSet(bidders), (
            "the kitty went to the bidder"
        )
    assert sum(pub.refilled(seat) for seat in range(pub.players)) == pub.drawn - pub.took
    table_deck = deck(pub.rules, pub.players)
    assert sum(len(part) for part in parts) == len(table_deck), "a card is in two places"
    assert union(parts) == table_deck, "a card is missing or foreign to this table's deck"
    assert len(state.out) == len(CardSet(state.out))
    if not pub.rules.trumps_only:  # else seats drop out, and extra trumps go to the first trick
        assert all(len(trick.cards) == pub.players for trick in pub.tricks)
    assert pub.hand_sizes() == tuple(len(CardSet(mask)) for mask in state.hands)


def check_turn(state: State, legal: tuple[Action, ...]) -> None:
    pub = state.public
    if pub.phase in ACTING:
        assert pub.to_act is not None and 0 <= pub.to_act < pub.players
        assert legal, f"nothing legal for seat {pub.to_act} in {pub.phase}"
        assert len(set(legal)) == len(legal)
    else:
        assert pub.to_act is None
        assert legal == ()


def check_auction(state: State) -> None:
    pub = state.public
    amounts = [amount for amount in pub.bids if amount is not None]
    assert amounts == sorted(set(amounts)), f"bids not rising: {pub.bids}"
    assert all(pub.rules.min_bid <= amount <= pub.rules.top_bid for amount in amounts)
    assert pub.bid == (amounts[-1] if amounts else 0)
    if amounts:
        assert pub.bid_history()[pub.bids.index(amounts[-1])] == (pub.bidder, pub.bid)
    if pub.phase is Phase.AUCTION:
        assert pub.to_act == (pub.dealer + 1 + len(pub.bids)) % pub.players
    else:
        assert len(pub.bids) == pub.players


def check_play(state: State) -> None:
    pub = state.public
    if pub.phase is not Phase.PLAY and pub.phase not in (Phase.HAND_OVER, Phase.MATCH_OVER):
        return
    if pub.rules.trumps_only:
        check_trump_play(state)
        return
    if pub.phase is Phase.PLAY:
        assert pub.to_act == (pub.leader + len(pub.trick)) % pub.players
    first = pub.tricks[0].cards[0] if pub.tricks else (pub.trick[0] if pub.trick else None)
    if not pub.rules.trump_named:
        assert pub.trump == (None if first is None else first.suit)
        if first is not None:
            assert not first.is_joker, "a joker was led to the first trick"
    if pub.tricks:
        assert pub.tricks[0].leader == pub.bidder, "the bidder leads the first trick"
    for before, trick in zip((None, *pub.tricks), pub.tricks, strict=False):
        assert pub.trump is not None
        assert trick.winner == trick_winner(trick.plays(), pub.trump, pub.rules)
        if before is not None:
            assert trick.leader == before.winner, "the winner leads the next trick"


def check_trump_play(state: State) -> None:
    """Only trumps: every card played is a trump; a seat plays once a trick, more only to the first
    trick while it holds more than a hand; everyone holding a trump plays in every trick; the winner
    (or, out of trumps, the next seat holding one) leads; the hand ends when no trump is held."""
    pub = state.public
    if pub.trump is None:
        return
    order = order_for(pub.rules, pub.trump)
    trumps = order.trump_mask
    for number, trick in enumerate(pub.tricks):
        assert all(order.power[card] for card in trick.cards), "a non-trump was played"
        seats = [seat for seat, _ in trick.plays()]
        if number:
            assert len(set(seats)) == len(seats), "a seat played twice after the first trick"
            previous = pub.tricks[number - 1]
            assert trick.leader == previous.winner or previous.winner not in seats
        best = max(trick.plays(), key=lambda play: order.power[play[1]])
        assert trick.winner == best[0]
    if pub.phase is Phase.PLAY:
        assert pub.to_act is not None and state.hands[pub.to_act] & trumps, "to act without a trump"
    if pub.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
        assert not any(hand & trumps for hand in state.hands), "the hand ended with trumps held"


def expected_scores(previous: tuple[int, ...], state: State) -> tuple[int, ...]:
    result = state.public.results[-1]
    bidder_side = state.public.seat_side[result.bidder] if result.bidder is not None else None
    moon = result.bid > state.public.rules.max_bid
    scores = []
    for side, (score, taken) in enumerate(zip(previous, result.taken, strict=True)):
        if side == bidder_side and not result.made:
            scores.append(score - result.bid)
        elif side == bidder_side and moon and score < 0:
            scores.append(0)  # a moon made from below zero only resets the score
        else:
            scores.append(score + taken)
    return tuple(scores)


def check_hand_result(previous: State, state: State) -> None:
    pub = state.public
    rules = pub.rules
    result = pub.results[-1]
    assert rules.trumps_only or len(pub.tricks) == rules.hand_size
    assert result.trump == pub.trump
    assert (result.bidder, result.bid) == (pub.bidder, pub.bid)
    assert result.bidder is not None
    values = rules.point_values
    assert set(result.points) == set(rules.points)
    sides = range(len(pub.sides))
    taken = [0] * len(pub.sides)
    for name, side in result.points.items():
        assert side is None or side in sides
        if side is not None:
            taken[side] += values[name]
    assert tuple(taken) == result.taken
    captured_value = sum(c.game_value for trick in pub.tricks for c in trick.cards)
    assert sum(result.game_points) == captured_value
    check_discards_kept_trumps(state)
    if rules.jokers_to_holder:
        for trick in pub.tricks:
            for seat, card in trick.plays():
                if card.is_joker:
                    name = "big_joker" if str(card) == "BJ" else "little_joker"
                    assert result.points[name] == pub.seat_side[seat], "a joker scores for its holder"
    if rules.two_points or rules.ten_for_game:
        check_two_and_ten(state)
    if rules.ten_for_game:
        assert "game" not in result.points
    elif result.points["game"] is not None:
        best = result.game_points[result.points["game"]]
        assert best == max(result.game_points) > 0
        assert result.game_points.count(best) == 1, "Game given despite a tie"
    elif max(result.game_points) > 0:
        assert result.game_points.count(max(result.game_points)) > 1, "Game untaken without a tie"
    bidder_side = pub.seat_side[result.bidder]
    moon = result.bid > rules.max_bid
    needed = rules.max_bid if moon else result.bid  # a moon needs every point of the hand
    assert result.made == (result.taken[bidder_side] >= needed)
    assert pub.scores == result.scores == expected_scores(previous.public.scores, state)
    assert result.out == CardSet(state.out[pub.drawn :])
    assert result.discards == tuple(CardSet(mask) for mask in state.discards)
    check_match_end(state, previous.public.scores[bidder_side], bidder_side, moon)


def check_discards_kept_trumps(state: State) -> None:
    """Where discards keep trumps, a discard holds a trump (a scoring trump) only if the seat kept
    nothing but trumps (scoring trumps)."""
    pub = state.public
    rules = pub.rules
    if not rules.keep_trumps:
        return
    assert pub.trump is not None
    trumps = CardSet(card for card in pub.deck if is_trump(card, pub.trump, rules))
    scoring = CardSet(scoring_trumps(rules, order_for(rules, pub.trump)))
    for seat, discards in enumerate(state.discards):
        kept = CardSet(card for trick in pub.tricks for who, card in trick.plays() if who == seat)
        if CardSet(discards) & trumps:
            assert kept <= trumps, f"seat {seat} discarded a trump and kept a non-trump"
        if rules.keep_scoring_trumps and CardSet(discards) & scoring:
            assert kept <= scoring, f"seat {seat} discarded a scoring trump and kept another card"


def check_two_and_ten(state: State) -> None:
    """The Two scores for the player who held it, the Ten for the side that captured it."""
    pub = state.public
    result = pub.results[-1]
    assert pub.trump is not None
    two, ten = parse_card(f"2{pub.trump.letter}"), parse_card(f"T{pub.trump.letter}")
    for trick in pub.tricks:
        for seat, card in trick.plays():
            if card == two and pub.rules.two_points:
                assert result.points["two"] == pub.seat_side[seat]
            if card == ten and pub.rules.ten_for_game:
                assert result.points["ten"] == pub.seat_side[trick.winner]


def check_match_end(state: State, bidder_before: int, bidder_side: int, moon: bool) -> None:
    """Who wins, from the target, the moon and elimination, worked out again from the scores; and
    what the hand's result says ended the match, and which sides at the target have not won."""
    pub = state.public
    rules = pub.rules
    result = pub.results[-1]
    sides = range(len(pub.sides))
    reached = [side for side in sides if pub.scores[side] >= rules.target]
    assert [side for side, _ in result.above_target] == [side for side in reached if side != pub.winner]
    assert (result.ended_by is None) == (pub.phase is not Phase.MATCH_OVER)
    if moon and result.made and bidder_before >= 0:
        assert pub.phase is Phase.MATCH_OVER and pub.winner == bidder_side, "a moon made wins"
        assert result.ended_by is MatchEnd.MOON_MADE
        return
    if moon and not result.made:
        others = [side for side in sides if side != bidder_side]
        assert pub.phase is Phase.MATCH_OVER and pub.winner in others, "a moon set loses"
        assert pub.scores[pub.winner] == max(pub.scores[side] for side in others)
        assert result.ended_by is MatchEnd.MOON_SET
        return
    # Elimination ends a match only where no side wins by the target.
    by_elimination = result.ended_by is MatchEnd.ELIMINATION
    assert not by_elimination or any(pub.scores[side] <= rules.elimination for side in sides)
    if rules.only_bidder_wins:
        won = result.made and bidder_side in reached
        others_win = pub.winner is not None and pub.winner != bidder_side  # a moon set, elimination
        assert (pub.phase is Phase.MATCH_OVER) == (won or others_win)
        if won:
            assert pub.winner == bidder_side and result.ended_by is MatchEnd.TARGET
        return
    if rules.highest_score_wins and reached:
        best = max(pub.scores[side] for side in reached)
        top = [side for side in reached if pub.scores[side] == best]
        if len(top) == 1 or bidder_side in top:
            assert pub.phase is Phase.MATCH_OVER, "the highest score at the target wins"
            assert pub.winner == (top[0] if len(top) == 1 else bidder_side)
            assert result.ended_by is MatchEnd.TARGET
        else:  # a tie at the top without the bidding side plays on (unless elimination ends it)
            assert pub.phase is not Phase.MATCH_OVER or pub.winner not in reached
            assert pub.phase is Phase.MATCH_OVER or pub.winner is None
        return
    if pub.phase is not Phase.MATCH_OVER:
        assert pub.winner is None
        assert not (result.made and bidder_side in reached)
    elif result.made and bidder_side in reached:
        assert pub.winner == bidder_side, "the bidding side wins when it reaches the target"
        assert result.ended_by is MatchEnd.TARGET
    elif pub.winner in reached and not by_elimination:
        assert pub.winner != bidder_side, "a set bidder does not win by reaching the target"
        assert result.ended_by is MatchEnd.TARGET
    else:
        assert by_elimination
        out = [side for side in sides if rules.elimination and pub.scores[side] <= rules.elimination]
        assert out, f"the match ended with nobody at the target or eliminated: {pub.scores}"
        alive = [side for side in sides if side not in out]
        assert pub.winner in alive
        assert pub.scores[pub.winner] == max(pub.scores[side] for side in alive)


def other_actions(state: State, legal: tuple[Action, ...], rng: random.Random) -> list[Action]:
    """A sample of actions that should be refused in this state: in play, every card of the deck
    but the legal ones; bids outside the legal range; actions of other phases; discards of the
    wrong size or of cards not held."""
    pub = state.public
    rules = pub.rules
    hand = list(CardSet(state.hands[pub.to_act])) if pub.to_act is not None else []
    some_card = rng.choice(hand) if hand else rng.choice(CARDS)
    wrong: list[Action] = []
    if pub.phase is Phase.PLAY:
        wrong += [Play(c) for c in CARDS]
    else:
        wrong += [Play(c) for c in hand] + [Play(c) for c in rng.sample(CARDS, 6)]
    if pub.phase is Phase.AUCTION:
        wrong += [Bid(amount) for amount in range(rules.min_bid - 2, rules.max_bid + 3)]
        wrong += [Bid(-(10**9)), Bid(10**9)]
    else:
        wrong += [Bid(rng.randint(rules.min_bid, rules.max_bid)), Bid(0)]
    wrong += [Pass(), NameTrump(rng.choice(list(Suit))), Discard(CardSet([some_card])), Discard(CardSet())]
    if pub.phase is Phase.DISCARD:
        count = len(hand) - rules.hand_size
        wrong.append(Discard(CardSet(hand[: count - 1])))
        wrong.append(Discard(CardSet(hand[: count + 1])))
        outside = [c for c in deck(rules, pub.players) if c not in hand]
        wrong.append(Discard(CardSet([*hand[: count - 1], rng.choice(outside)])))
    legal_set = set(legal)
    return [action for action in wrong if action not in legal_set]


def refused(state: State, action: Action, seat: int | None = None) -> IllegalActionError:
    try:
        apply(state, action, seat)
    except IllegalActionError as error:
        return error
    raise AssertionError(f"{action} by seat {seat} was accepted in {state.public.phase}")


def fingerprint(state: State) -> bytes:
    """The state of the hand in progress, serialized (earlier hands are left out: an action has no
    business with them, and they would make a long match quadratic to check)."""
    trimmed = state.public._replace(results=state.public.results[-1:])
    return pickle.dumps(state._replace(public=trimmed, previous=None))


def check_actions(state: State, legal: tuple[Action, ...], rng: random.Random) -> None:
    pub = state.public
    before = fingerprint(state)
    for action in legal:
        assert apply(state, action) != state
    if pub.to_act is not None:
        action = rng.choice(legal)
        assert apply(state, action, seat=pub.to_act) == apply(state, action)
        for seat in range(pub.players):
            if seat != pub.to_act:
                assert isinstance(refused(state, action, seat), NotYourTurnError)
    hand = state.hand(pub.to_act) if pub.to_act is not None else CardSet()
    for action in other_actions(state, legal, rng):
        error = refused(state, action)
        assert not isinstance(error, NotYourTurnError)
        if pub.phase is Phase.PLAY and isinstance(action, Play):
            # a card not held is refused as such; a card held is refused for a rule of play
            assert (error.code == "not_in_hand") == (action.card not in hand), str(error)
    assert fingerprint(state) == before, "an action changed the state it was applied to"


def play_and_check(name: str, players: int, teams: bool, seed: int) -> State:
    rules = rules_named(name)
    rng = random.Random(seed)
    previous: State | None = None
    state: State | None = None
    for state in random_match(rules, players, teams, seed):
        legal = legal_actions(state)
        check_turn(state, legal)
        check_cards_conserved(state)
        check_auction(state)
        check_play(state)
        check_actions(state, legal, rng)
        if previous is not None:
            pub, before = state.public, previous.public
            if pub.hand_number == before.hand_number + 1:
                assert before.phase is Phase.HAND_OVER
                assert pub.dealer == (before.dealer + 1) % players
                assert pub.scores == before.scores
                assert pub.phase is Phase.AUCTION
            else:
                assert pub.hand_number == before.hand_number
                assert len(state.actions) == len(previous.actions) + 1
                assert state.actions[-1] in legal_actions(previous)
                if pub.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
                    check_hand_result(previous, state)
                else:
                    assert pub.results == before.results
        previous = state
    assert state is not None
    return state


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_random_matches_keep_the_rules(config: tuple[str, int, bool]) -> None:
    name, players, teams = config
    for seed in range(MATCHES):
        final = play_and_check(name, players, teams, seed)
        pub = final.public
        assert pub.phase is Phase.MATCH_OVER, f"no winner after {MAX_HANDS} hands: {pub.scores}"
        assert pub.winner is not None
        rules, last = pub.rules, pub.results[-1]
        eliminated = rules.elimination and any(score <= rules.elimination for score in pub.scores)
        if last.bid <= rules.max_bid and not eliminated:
            assert pub.scores[pub.winner] >= rules.target  # not a moon, nobody eliminated
        assert len(pub.results) == pub.hand_number


def test_the_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {new_match(PRESETS["house"], 5, seed=seed).public.dealer for seed in range(40)}
    assert dealers == set(range(5))
