"""The determinization sampler: a sampled state is one the seat's view cannot tell from the real one.

Random matches of every preset, player count and team layout, driven by a mix of the heuristic
and random bots; at random points, for the seat to act and for another seat, a sample must give that
seat exactly its view, keep every card exactly once, respect every void play revealed, replay from
its own deal through this hand's actions to the same state, and play on to the end of the hand. Then:
literal hands for the void rules, randomness, the frequency of each card in each place, the exact
sampler against plain rejection, and the auction prior.
"""

from __future__ import annotations

import doctest
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from helpers import HOUSE, TEN_POINT, act, config_id, configurations, rules_named, start

from smear import (
    CardSet,
    Deal,
    Phase,
    PlayerView,
    PublicState,
    State,
    Suit,
    apply,
    effective_suit,
    legal_actions,
    new_match,
    next_hand,
    player_view,
)
from smear.bots import HeuristicBot, random_action
from smear.bots.heuristic import estimate
from smear.bots.sampler import Determinizer, sample_state
from smear.knowledge import revealed_voids
from smear.trick import is_trump, order_for

MATCHES = 4
HANDS_PER_MATCH = 4
CHECK_CHANCE = 0.5
SAMPLES_PER_VIEW = 2
HEURISTIC = HeuristicBot()


def walk(preset: str, players: int, teams: bool, seed: int, hands: int) -> Iterator[State]:
    """Every state of the first ``hands`` hands of a match; even seats play the heuristic bot,
    odd seats random legal actions (so some voids come from sensible play, some from chance)."""
    rng = random.Random(f"sampler-walk:{preset}:{players}:{teams}:{seed}")
    state = new_match(rules_named(preset), players, teams, seed=seed)
    yield state
    while state.public.phase is not Phase.MATCH_OVER:
        if state.public.phase is Phase.HAND_OVER:
            if state.public.hand_number >= hands:
                return
            state = next_hand(state)
        else:
            seat = state.public.to_act
            assert seat is not None
            if seat % 2 == 0:
                action = HEURISTIC.choose(player_view(state, seat), rng)
            else:
                action = random_action(legal_actions(state), rng)
            state = apply(state, action)
        yield state


def played_by(public: PublicState) -> list[int]:
    """The cards each seat played this hand, as bitmasks."""
    played = [0] * public.players
    for trick in public.tricks:
        for seat, card in trick.plays():
            played[seat] |= 1 << card
    for seat, card in public.trick_plays:
        played[seat] |= 1 << card
    return played


def voids_by_the_rules(public: PublicState) -> list[set[Suit]]:
    """The effective suits each seat has shown it holds none of, worked out from the rules as
    RULES.md states them (written apart from the sampler's own tables)."""
    voids: list[set[Suit]] = [set() for _ in range(public.players)]
    trump = public.trump
    if trump is None:
        return voids
    rules = public.rules
    tricks = [trick.plays() for trick in public.tricks]
    if public.trick:
        tricks.append(public.trick_plays)
    for number, plays in enumerate(tricks):
        leader, lead = plays[0]
        led = effective_suit(lead, trump, rules)
        assert led is not None
        if number == 0 and rules.bidder_leads_trump and not is_trump(lead, trump, rules):
            voids[leader].add(trump)  # the bidder must lead a trump if it holds one
        for seat, card in plays[1:]:
            if effective_suit(card, trump, rules) == led:
                continue
            if rules.may_trump_instead and is_trump(card, trump, rules):
                continue  # ten_point: trumping in is allowed while holding the suit led
            voids[seat].add(led)
    return voids


def replay_hand(sampled: State) -> State:
    """This hand dealt as the sample says and played again, action by action, from its deal."""
    pub = sampled.public
    before = [result for result in pub.results if result.number < pub.hand_number]
    scores = before[-1].scores if before else pub.start_scores
    teams = pub.sides if any(len(side) > 1 for side in pub.sides) else None
    deal = Deal(tuple(CardSet(mask) for mask in sampled.dealt), sampled.out)
    state = new_match(pub.rules, pub.players, teams, dealer=pub.dealer, deal=deal, scores=scores)
    for action in sampled.actions:
        state = apply(state, action)  # an inconsistent deal would make some action illegal
    return state


def check_sample(view: PlayerView, sampled: State, rng: random.Random) -> None:
    pub = view.public
    n = pub.players
    assert player_view(sampled, view.seat) == view
    assert sampled.public is pub
    assert sampled.previous is None

    # every card of the table exactly once: in a hand, played, discarded or out
    played = played_by(pub)
    assert len(CardSet(sampled.out)) == len(sampled.out)
    out = CardSet(sampled.out[pub.drawn :])  # the cards drawn (kitty, widow, stock, refills) are held
    drawn = CardSet(sampled.out[: pub.drawn]).mask
    places = [*sampled.hands, *played, *sampled.discards, out.mask]
    total = 0
    for mask in places:
        assert not total & mask, f"{CardSet(total & mask)} is in two places"
        total |= mask
    assert total == pub.deck.mask
    sizes = pub.hand_sizes()
    for seat in range(n):
        assert sampled.hands[seat].bit_count() == sizes[seat]
        held = sampled.hands[seat] | played[seat] | sampled.discards[seat]
        assert sampled.dealt[seat] == held & ~drawn, "a seat was dealt what it holds but did not draw"
        assert sampled.dealt[seat].bit_count() == pub.dealt_count
        assert sampled.discards[seat].bit_count() == pub.discarded[seat]
        if pub.rules.keep_trumps and sampled.discards[seat] and pub.order is not None:
            kept = sampled.hands[seat] | played[seat]
            trumps = pub.order.trump_mask
            assert not (sampled.discards[seat] & trumps and kept & ~trumps), "a trump discarded, a plain kept"

    # the voids play revealed
    if pub.trump is not None:
        order = order_for(pub.rules, pub.trump)
        for seat, suits in enumerate(voids_by_the_rules(pub)):
            for suit in suits:
                held = sampled.hands[seat] & order.suit_masks[suit]
                assert not held, f"seat {seat} showed no {suit.plural} but holds {CardSet(held)}"

    # the deal, played again through this hand's actions, comes back to the same state
    again = replay_hand(sampled)
    assert again.hands == sampled.hands
    assert again.discards == sampled.discards
    for field in ("phase", "to_act", "bids", "bidder", "bid", "trump", "leader", "trick", "tricks", "scores"):
        assert getattr(again.public, field) == getattr(pub, field), field

    # a working engine state: the same choices, and play goes on to the end of the hand
    if pub.to_act is not None:
        legal = legal_actions(sampled)
        if pub.to_act == view.seat:
            assert legal == view.legal_actions
        first = legal[rng.randrange(len(legal))]
        state = apply(sampled, first)
        while state.public.to_act is not None:
            state = apply(state, random_action(legal_actions(state), rng))
        assert state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)


def check_the_real_deal_is_possible(state: State, sampler: Determinizer) -> None:
    """The sampler must not rule out the deal actually played: every hidden place it fills has
    the real number of cards, and no void it keeps is one the real holder breaks. A hand in two
    parts (a refilling seat's kept trumps and the rest) holds enough cards for each part."""
    hand_sizes: dict[int, int] = {}
    for place in sampler.places:
        if place.kind == "hand":
            real = state.hands[place.seat]
            hand_sizes[place.seat] = hand_sizes.get(place.seat, 0) + place.size
            if place.part:
                fits = real & ~place.forbidden
                assert fits.bit_count() >= place.size, f"{place} rules out the real {CardSet(real)}"
                continue
        elif place.kind == "discards":
            real = state.discards[place.seat]
        else:
            real = CardSet(state.out[state.public.drawn :]).mask  # cards drawn are in hands
        if place.kind != "hand":
            assert real.bit_count() == place.size, place
        assert not real & place.forbidden, f"{place} rules out the real {CardSet(real & place.forbidden)}"
    for seat, size in hand_sizes.items():
        assert state.hands[seat].bit_count() == size


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_a_sample_is_consistent_with_the_view(config: tuple[str, int, bool]) -> None:
    preset, players, teams = config
    rng = random.Random(f"sampler:{config}")
    checked = constrained = 0
    for seed in range(MATCHES):
        for state in walk(preset, players, teams, seed, HANDS_PER_MATCH):
            if rng.random() >= CHECK_CHANCE:
                continue
            to_act = state.public.to_act
            seats = {rng.randrange(players), rng.randrange(players)}
            if to_act is not None:
                seats.add(to_act)
            for seat in seats:
                view = player_view(state, seat)
                # a third of the views go straight to the exact sampler, so both paths are checked
                sampler = Determinizer(view, attempts=0 if rng.random() < 0.3 else 40)
                constrained += bool(sampler.constrained)
                check_the_real_deal_is_possible(state, sampler)
                for _ in range(SAMPLES_PER_VIEW):
                    check_sample(view, sampler.sample(rng, bid_prior=rng.random() < 0.2), rng)
                checked += 1
    assert checked > 100
    assert constrained > 10  # play shows voids in most hands


def test_every_view_of_one_hand_samples_consistently() -> None:
    """Every step of a whole hand, every seat, through sample_state itself."""
    rng = random.Random(5)
    for state in walk("ten_point", 4, False, 3, 1):
        for seat in range(4):
            view = player_view(state, seat)
            check_sample(view, sample_state(view, rng), rng)


# --- the void rules, on literal hands ---------------------------------------------------------------


def house_deal() -> State:
    """A house hand of four players, dealt and not yet bid."""
    return start(
        HOUSE,
        [
            "Ah Kh Kc Qc 9s LJ",
            "8h Ac Jc 9c Ts Js",
            "Td Qd Jd 9d 8d As",
            "Qh 9h Jh Ad Ks Qs",
        ],
        out="Th 8c Tc Kd 8s BJ",
    )


def house_two_tricks() -> State:
    """Hearts trump. Trick 1: seat 2 has no heart. Trick 2, clubs led: seat 2 throws a diamond,
    seat 3 trumps (house: only a player with no club may)."""
    return act(house_deal(), "bid 2", "pass", "pass", "pass", "Ah", "8h", "Td", "Qh", "Kc", "Ac", "Qd", "9h")


def ten_point_two_tricks() -> State:
    """Spades trump (Jc is the jick). The bidder keeps no trump and leads a heart; seat 1 trumps in
    with the jick; seat 2 throws a diamond. Trick 2, trump led: seat 2 and the bidder have none."""
    state = start(
        TEN_POINT,
        [
            "Ah Kh Qh Jh Th 9h 2s 3s 4s 5s",
            "Jc As 2c 3c 4c 5c 6c 7c 8c 9c",
            "Ad Kd Qd Jd Td 9d 8d 7d 6d 5d",
        ],
    )
    state = act(
        state,
        "bid 2",
        "pass",
        "pass",
        "trump s",
        "discard 2s 3s 4s 5s",
        "discard 5c 6c 7c 8c",
        "discard 9d 8d 7d 6d",
    )
    return act(state, "Ah", "Jc", "Ad", "As", "Kd", "Kh")


def test_house_voids() -> None:
    state = house_two_tricks()
    order = order_for(HOUSE, Suit.HEARTS)
    clubs = order.suit_masks[Suit.CLUBS]
    # seat 2: no trump (jokers included) after trick 1, no club after trick 2; seat 3 trumped clubs
    assert revealed_voids(state.public) == (0, 0, order.trump_mask | clubs, clubs)
    assert order.trump_mask >> 52 & 1 and order.trump_mask >> 53 & 1


def test_ten_point_voids() -> None:
    state = ten_point_two_tricks()
    order = order_for(TEN_POINT, Suit.SPADES)
    hearts = order.suit_masks[Suit.HEARTS]
    # the bidder led no trump to the first trick; seat 1's jick shows nothing; seat 2 played a
    # diamond to hearts (no heart, trumps unknown) and a diamond to trump (no trump)
    assert revealed_voids(state.public) == (order.trump_mask, 0, hearts | order.trump_mask)
    assert order.jick is not None and order.trump_mask >> order.jick & 1
    assert not hearts >> order.jick & 1


@pytest.mark.parametrize("make", [house_two_tricks, ten_point_two_tricks])
def test_literal_hands_sample_consistently(make: Callable[[], State]) -> None:
    state = make()
    rng = random.Random(1)
    for seat in range(state.public.players):
        view = player_view(state, seat)
        sampler = Determinizer(view)
        for _ in range(30):
            check_sample(view, sampler.sample(rng), rng)


# --- randomness and frequencies -----------------------------------------------------------------------


def hidden_layout(sampled: State, seat: int) -> tuple[int, ...]:
    """Where the sample put the cards ``seat`` cannot see: other hands, other discards, the rest."""
    others = [s for s in range(sampled.public.players) if s != seat]
    return (
        *(sampled.hands[s] for s in others),
        *(sampled.discards[s] for s in others),
        CardSet(sampled.out).mask,
    )


@pytest.mark.parametrize("config", configurations(), ids=config_id)
def test_samples_differ(config: tuple[str, int, bool]) -> None:
    preset, players, teams = config
    state = new_match(rules_named(preset), players, teams, seed=11)
    view = player_view(state, state.public.to_act or 0)
    layouts = {hidden_layout(sample_state(view, random.Random(seed)), view.seat) for seed in range(50)}
    assert len(layouts) >= 45  # an early hand has far more layouts than 50 draws could repeat
    rng = random.Random(2)
    assert len({hidden_layout(sample_state(view, rng), view.seat) for _ in range(50)}) >= 45


def place_names(sampled: State, seat: int) -> dict[int, str]:
    """Each hidden card mapped to where the sample put it."""
    found = {}
    for other in range(sampled.public.players):
        if other != seat:
            for card in CardSet(sampled.hands[other]):
                found[int(card)] = f"hand {other}"
            for card in CardSet(sampled.discards[other]):
                found[int(card)] = f"discards {other}"
    for card in sampled.out:
        found[int(card)] = "out"
    return found


def check_frequencies(view: PlayerView, expected: dict[str, float], samples: int, rng: random.Random) -> None:
    """Each hidden card lands in each place about as often as that place's share of the hidden
    cards (within five standard deviations: loose, but it catches a biased sampler)."""
    counts: Counter[tuple[int, str]] = Counter()
    sampler = Determinizer(view)
    hidden: set[int] = set()
    for _ in range(samples):
        where = place_names(sampler.sample(rng), view.seat)
        hidden |= set(where)
        counts.update(where.items())
    assert set(where.values()) == set(expected)
    for card in hidden:
        for place, share in expected.items():
            mean = samples * share
            spread = 5 * (samples * share * (1 - share)) ** 0.5 + 2
            assert abs(counts[card, place] - mean) <= spread, (card, place, counts[card, place], mean)


def test_house_hidden_cards_land_evenly() -> None:
    state = new_match(HOUSE, 4, seed=21)
    view = player_view(state, state.public.to_act or 0)
    # 24 hidden cards: three hands of 6 and 6 sleeping cards, a quarter each
    expected = {f"hand {s}": 0.25 for s in range(4) if s != view.seat} | {"out": 0.25}
    check_frequencies(view, expected, 200, random.Random(3))


def test_ten_point_hidden_cards_land_evenly_during_the_discard() -> None:
    state = act(new_match(TEN_POINT, 4, seed=8), "pass", "pass", "pass", "bid 2", "trump h")
    bidder = state.public.bidder
    assert state.public.phase is Phase.DISCARD and bidder is not None
    for _ in range(2):  # the bidder and the next seat discard; the third looks on
        state = apply(state, legal_actions(state)[0])
    pub = state.public
    view = player_view(state, pub.to_act or 0)
    discarded = {bidder, (bidder + 1) % 4}
    others = [s for s in range(4) if s != view.seat]
    # 44 hidden cards: hands of 6, 6 and 10, discards of 4 and 4, and 14 undealt
    expected = {f"hand {s}": pub.hand_sizes()[s] / 44 for s in others}
    expected |= {f"discards {s}": 4 / 44 for s in others if s in discarded}
    expected["out"] = 14 / 44
    assert sum(expected.values()) == pytest.approx(1)
    check_frequencies(view, expected, 300, random.Random(4))


def constrained_view() -> PlayerView:
    """A view with voids in more than one suit and more than one seat, early enough in the hand
    that plain shuffles often break them: the case the exact sampler is for."""
    for seed in itertools.count():
        for state in walk("house", 6, False, seed, 2):
            pub = state.public
            if pub.to_act is None or len(pub.tricks) != 2:
                continue
            view = player_view(state, pub.to_act)
            sampler = Determinizer(view)
            if sampler.constrained >= 2 and len({p.forbidden for p in sampler.places if p.forbidden}) >= 2:
                return view
    raise AssertionError("unreachable")


def test_the_exact_sampler_agrees_with_rejection() -> None:
    """Rejection sampling is uniform over the consistent deals by construction; the exact sampler
    (no shuffle at all) must give each card the same chance of each place."""
    view = constrained_view()
    rng = random.Random(6)
    samples = 600
    by_rejection: Counter[tuple[int, str]] = Counter()
    exact: Counter[tuple[int, str]] = Counter()
    rejection_sampler = Determinizer(view, attempts=10**6)
    exact_sampler = Determinizer(view, attempts=0)
    for _ in range(samples):
        by_rejection.update(place_names(rejection_sampler.sample(rng), view.seat).items())
        exact.update(place_names(exact_sampler.sample(rng), view.seat).items())
    for key in by_rejection.keys() | exact.keys():
        share = (by_rejection[key] + exact[key]) / (2 * samples)
        spread = 5 * (2 * samples * share * (1 - share)) ** 0.5 + 3
        assert abs(by_rejection[key] - exact[key]) <= spread, (key, by_rejection[key], exact[key])
    for sampled_voids in (rejection_sampler, exact_sampler):
        for place in sampled_voids.places:
            assert place.forbidden & ~sampled_voids.pool == 0


def layouts(sampler: Determinizer) -> tuple[int, set[tuple[int, ...]]]:
    """How many layouts of the hidden cards there are, and the set of those the voids allow."""
    every = valid = 0
    allowed = set()

    def fill(index: int, left: int, masks: tuple[int, ...]) -> None:
        nonlocal every, valid
        if index == len(sampler.places):
            every += 1
            place_masks = masks
            if not any(m & p.forbidden for m, p in zip(place_masks, sampler.places, strict=True)):
                allowed.add(place_masks)
            return
        for chosen in itertools.combinations(list(CardSet(left)), sampler.places[index].size):
            mask = sum(1 << card for card in chosen)
            fill(index + 1, left & ~mask, (*masks, mask))

    fill(0, sampler.pool, ())
    return every, allowed


def small_constrained_view() -> tuple[PlayerView, set[tuple[int, ...]]]:
    """Late in a three-player house hand, a view whose voids rule out some of the few layouts."""
    for seed in itertools.count():
        for state in walk("house", 3, False, seed, 3):
            pub = state.public
            if pub.to_act is None or len(pub.tricks) < 4:
                continue
            view = player_view(state, pub.to_act)
            sampler = Determinizer(view)
            if sampler.constrained:
                every, valid = layouts(sampler)
                if 3 <= len(valid) < every:
                    return view, valid
    raise AssertionError("unreachable")


def test_the_exact_sampler_is_uniform_over_a_small_case() -> None:
    """List every consistent layout of a small case; the exact sampler draws each about equally."""
    view, valid = small_constrained_view()
    sampler = Determinizer(view, attempts=0)
    rng = random.Random(7)
    per_layout = 40
    drawn = Counter(sampler.layout(rng) for _ in range(per_layout * len(valid)))
    assert set(drawn) == valid
    spread = 5 * per_layout**0.5 + 2
    assert all(abs(count - per_layout) <= spread for count in drawn.values()), drawn


# --- the auction prior ----------------------------------------------------------------------------


def test_the_bid_prior_leans_towards_hands_that_explain_the_bid() -> None:
    state = act(house_deal(), "pass", "pass", "bid 5")  # seat 2 bids five: it should look strong
    view = player_view(state, 3)
    sampler = Determinizer(view)
    rng = random.Random(9)

    def strength(sampled: State) -> float:
        hand = sampled.dealt[2]
        return max(estimate(hand, view.public.deck.mask, HOUSE, suit) for suit in Suit)

    plain = sum(strength(sampler.sample(rng)) for _ in range(150)) / 150
    leaning = sum(strength(sampler.sample(rng, bid_prior=True)) for _ in range(150)) / 150
    assert leaning > plain + 0.2
    check_sample(view, sampler.sample(rng, bid_prior=True), rng)


def test_the_bid_prior_leans_a_seat_that_passed_towards_a_weaker_hand() -> None:
    state = act(house_deal(), "pass", "pass")  # seats 0 and 1 pass with no bid to beat
    view = player_view(state, 2)
    sampler = Determinizer(view)
    rng = random.Random(5)

    def strength(sampled: State) -> float:
        hands = (sampled.dealt[0], sampled.dealt[1])
        return sum(max(estimate(hand, view.public.deck.mask, HOUSE, suit) for suit in Suit) for hand in hands)

    plain = sum(strength(sampler.sample(rng)) for _ in range(200)) / 200
    leaning = sum(strength(sampler.sample(rng, bid_prior=True)) for _ in range(200)) / 200
    assert leaning < plain - 0.2
    check_sample(view, sampler.sample(rng, bid_prior=True), rng)


def test_a_seat_read_as_bidding_less_than_the_heuristic_is_given_a_stronger_hand_for_its_bid() -> None:
    state = act(house_deal(), "pass", "pass", "bid 3")
    view = player_view(state, 3)
    sampler = Determinizer(view)
    rng = random.Random(3)

    def strength(sampled: State) -> float:
        return max(estimate(sampled.dealt[2], view.public.deck.mask, HOUSE, suit) for suit in Suit)

    as_heuristic = sum(strength(sampler.sample(rng, bid_prior=True)) for _ in range(200)) / 200
    shifts = (0.0, 0.0, -1.5, 0.0)
    shifted = sum(strength(sampler.sample(rng, bid_prior=True, bid_shifts=shifts)) for _ in range(200)) / 200
    assert shifted > as_heuristic + 0.1
    check_sample(view, sampler.sample(rng, bid_prior=True, bid_shifts=shifts), rng)


def test_a_view_with_nothing_hidden_samples_the_only_state() -> None:
    state = house_two_tricks()
    while state.public.to_act is not None:
        state = apply(state, legal_actions(state)[0])
    view = player_view(state, 1)
    sampled = sample_state(view, random.Random(1))
    assert sampled.hands == state.hands
    assert sampled.discards == state.discards
    assert CardSet(sampled.out) == CardSet(state.out)
    check_sample(view, sampled, random.Random(2))


def test_the_module_example_runs() -> None:
    import smear.bots.sampler

    result = doctest.testmod(smear.bots.sampler)
    assert result.attempted > 0
    assert result.failed == 0
