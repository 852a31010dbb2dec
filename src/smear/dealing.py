"""Setting a match up: the sides, the first deal (``new_match``) and every later one (``next_hand``),
each shuffled from the match's seed alone or given explicitly (a :class:`~smear.state.Deal`)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence

from smear.cards import CARDS, Card, CardSet, iter_bits
from smear.errors import RulesError, SmearError
from smear.rules import Rules
from smear.state import Deal, Phase, PublicState, State


def team_sides(players: int, alternate: bool = False) -> tuple[tuple[int, ...], ...]:
    """Partners across the table: seat s with seat s + players/2; or (``alternate``) two teams
    whose members alternate seats: the even seats against the odd ones."""
    if alternate:
        return (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
    half = players // 2
    return tuple((seat, seat + half) for seat in range(half))


def _check_sides(
    rules: Rules, players: int, teams: bool | Sequence[Sequence[int]] | None
) -> tuple[tuple[int, ...], ...]:
    if not isinstance(players, int) or isinstance(players, bool):
        raise RulesError(f"the number of players must be a whole number, not {players!r}")
    with_teams = bool(teams)
    refusal = rules.refusal(players, with_teams)
    if refusal is not None:
        raise RulesError(refusal)
    if not teams:
        return tuple((seat,) for seat in range(players))
    if teams is True:
        return team_sides(players, rules.alternate_teams)
    sides = tuple(tuple(side) for side in teams)
    seats = sorted(seat for side in sides for seat in side)
    if seats != list(range(players)) or len(sides) < 2 or any(len(s) < 1 for s in sides):
        raise RulesError(f"teams must split seats 0..{players - 1} into sides: {teams!r}")
    if rules.alternate_teams and sorted(sides) != sorted(team_sides(players, alternate=True)):
        given = [list(side) for side in sides]
        raise RulesError(f"{rules.name} is played by two teams whose members alternate seats, not {given}")
    return sides


def new_match(
    rules: Rules,
    players: int,
    teams: bool | Sequence[Sequence[int]] | None = None,
    *,
    seed: int | None = None,
    dealer: int | None = None,
    deal: Deal | None = None,
    scores: Sequence[int] | None = None,
) -> State:
    """Start a match and deal its first hand.

    ``teams``: ``None``/``False`` for every player a side, ``True`` for partners across the table, or
    an explicit list of sides (lists of seats). Give a ``seed`` (the first dealer and every deal
    follow from it) or an explicit ``deal`` (and ``dealer``) for the first hand.
    """
    rules.check()
    sides = _check_sides(rules, players, teams)
    seat_side = [0] * players
    for side, seats in enumerate(sides):
        for seat in seats:
            seat_side[seat] = side
    if scores is None:
        start = (0,) * len(sides)
    else:
        start = tuple(scores)
        if len(start) != len(sides) or not all(isinstance(x, int) and not isinstance(x, bool) for x in start):
            raise RulesError(f"start scores need one whole number per side: {list(scores)!r}")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RulesError(f"the seed must be a whole number, not {seed!r}")
    if deal is None and seed is None:
        raise RulesError("give a seed or an explicit deal")
    if dealer is None:
        dealer = shuffled(range(players), f"smear:{seed}:dealer")[0] if seed is not None else 0
    elif not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise RulesError(f"the dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
    public = PublicState(
        rules=rules,
        players=players,
        sides=sides,
        seat_side=tuple(seat_side),
        scores=start,
        hand_number=0,
        dealer=(dealer - 1) % players,
        phase=Phase.HAND_OVER,
        to_act=None,
        bids=(),
        bidder=None,
        bid=0,
        trump=None,
        leader=0,
        trick=(),
        tricks=(),
        dealt_count=rules.dealt_for(players),
        results=(),
        winner=None,
        start_scores=start,
        deck=CardSet(rules.deck_mask(players)),
        order=None,
    )
    empty = (0,) * players
    return _deal(State(public, empty, empty, (), empty, None, seed), deal, previous=None)


def next_hand(state: State, deal: Deal | None = None) -> State:
    """Deal the next hand once a hand is over; the deal passes one seat clockwise."""
    if state.public.phase is not Phase.HAND_OVER:
        if state.public.phase is Phase.MATCH_OVER:
            raise SmearError("the match is over")
        raise SmearError("the hand is not over yet")
    if deal is None and state.seed is None:
        raise SmearError("this match has no seed: give the next hand's deal")
    return _deal(state, deal, previous=state)


@functools.cache
def _deck_indices(mask: int) -> tuple[int, ...]:
    return tuple(int(card) for card in iter_bits(mask))


def shuffled(cards: Iterable[int], key: str) -> list[int]:
    """The cards in an order that depends only on ``key`` (Fisher-Yates driven by BLAKE2b).

    Independent of Python's ``random`` so that a seed deals the same cards on every version.
    """
    deck = list(cards)
    entropy = int.from_bytes(hashlib.blake2b(key.encode()).digest(), "big")
    for i in range(len(deck) - 1, 0, -1):
        entropy, j = divmod(entropy, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _deal(state: State, deal: Deal | None, previous: State | None) -> State:
    pub = state.public
    n = pub.players
    number = pub.hand_number + 1
    dealer = (pub.dealer + 1) % n
    per_seat = pub.dealt_count
    if deal is None:
        deck = shuffled(_deck_indices(pub.deck.mask), f"smear:{state.seed}:hand:{number}")
        hands = []
        for start in range(0, n * per_seat, per_seat):
            mask = 0
            for index in deck[start : start + per_seat]:
                mask |= 1 << index
            hands.append(mask)
        out = tuple(CARDS[index] for index in deck[n * per_seat :])
    else:
        hands, out = _check_deal(pub.rules, n, per_seat, deal)
    first = (dealer + 1) % n
    public = pub._replace(
        hand_number=number,
        dealer=dealer,
        phase=Phase.AUCTION,
        to_act=first,
        bids=(),
        bidder=None,
        bid=0,
        trump=None,
        leader=first,
        trick=(),
        tricks=(),
        order=None,
        took=0,
        drawn=0,
        discarded=(0,) * n,
        refills=(0,) * n,
        trick_seats=(),
    )
    dealt = tuple(hands)
    return State(public, dealt, dealt, out, (0,) * n, previous, state.seed)


def _check_deal(rules: Rules, players: int, per_seat: int, deal: Deal) -> tuple[list[int], tuple[Card, ...]]:
    deck = rules.deck_mask(players)
    if len(deal.hands) != players:
        raise SmearError(f"the deal has {len(deal.hands)} hands for {players} players")
    seen = 0
    hands = []
    for seat, hand in enumerate(deal.hands):
        if len(hand) != per_seat:
            raise SmearError(f"seat {seat} is dealt {len(hand)} cards, not {per_seat}")
        _check_in_deck(hand.mask, deck, seen, rules)
        seen |= hand.mask
        hands.append(hand.mask)
    rest = deck & ~seen
    if deal.out is None:
        out = tuple(iter_bits(rest))
    else:
        out_mask = 0
        for card in deal.out:
            _check_in_deck(1 << card, deck, seen | out_mask, rules)
            out_mask |= 1 << card
        if out_mask != rest:
            missing = CardSet(rest & ~out_mask)
            raise SmearError(f"the undealt cards leave out {missing}")
        out = tuple(deal.out)
    return hands, out


def _check_in_deck(mask: int, deck: int, seen: int, rules: Rules) -> None:
    if mask & ~deck:
        raise SmearError(f"not in the {rules.name} deck at this table: {CardSet(mask & ~deck)}")
    if mask & seen:
        raise SmearError(f"dealt twice: {CardSet(mask & seen)}")
