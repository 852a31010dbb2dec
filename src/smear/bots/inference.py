"""What the other seats' plays say about their cards: how likely a sampled deal makes them.

A sampled deal (:mod:`smear.bots.sampler`) agrees with everything a seat has seen, but not every
such deal explains the play equally well: a player who ducked under a trick it could have taken
cheaply probably could not. :func:`play_likelihood` replays the hand so far on the sampled deal
and, at each card another seat chose (more than one legal), asks the heuristic what it would have
played there: the deal keeps a factor ``agree`` when the card is the heuristic's, else
``(1 - agree)`` shared among the other legal cards. ``agree`` may differ seat by seat, as read
from the match (:mod:`smear.bots.playreads`); it stays short of 1, so the model leans on the
deals rather than ruling any out.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from smear.actions import PASS, PLAYS, TAKE_WIDOW, TRUMPS, Action, Discard, Play, bid
from smear.bots.base import Bot
from smear.cards import CardSet, Suit
from smear.dealing import new_match
from smear.errors import SmearError
from smear.state import Deal, Phase, PublicState, State
from smear.transitions import apply
from smear.views import PlayerView, player_view

# The chance that a player plays the card the heuristic would, where it has a choice.
AGREE = 0.7


def plays_so_far(pub: PublicState) -> list[tuple[int, int]]:
    """Every card played this hand, in order, as ``(seat, card)``."""
    found: list[tuple[int, int]] = []
    n = pub.players
    for trick in pub.tricks:
        seats = trick.seats or tuple((trick.leader + i) % n for i in range(len(trick.cards)))
        found.extend(zip(seats, (int(card) for card in trick.cards), strict=True))
    found.extend((seat, int(card)) for seat, card in pub.trick_plays)
    return found


def play_likelihood(
    view: PlayerView, world: State, policy: Bot, agree: float | Sequence[float] = AGREE
) -> float:
    """How likely the other seats' plays this hand are on ``world`` (a deal consistent with
    ``view``) if each plays like ``policy``: a product of one factor per card chosen. ``agree`` is
    the chance that a seat plays ``policy``'s card, for every seat or seat by seat.

    Returns 1.0 when the hand cannot be replayed from the deal (nothing is then inferred)."""
    pub = view.public
    plays = plays_so_far(pub)
    if not plays:
        return 1.0
    agrees_by_seat = [agree] * pub.players if isinstance(agree, float) else agree
    rng = random.Random(0)  # the policy's tie-breaks, the same for every deal
    hands = tuple(CardSet(mask) for mask in world.dealt)
    weight = 1.0
    try:
        start = new_match(
            pub.rules,
            pub.players,
            pub.sides,
            dealer=pub.dealer,
            deal=Deal(hands, world.out),
            scores=pub.scores,
        )
        setup = Setup(pub.bids, world.public.trump, tuple(CardSet(mask) for mask in world.discards))
        for state, seat, card in replay_plays(start, setup, plays):
            if seat != view.seat:
                choices, agrees = policy_agrees(state, seat, card, policy, rng)
                if choices > 1:
                    share = agrees_by_seat[seat]
                    weight *= share if agrees else (1.0 - share) / (choices - 1)
    except SmearError:
        return 1.0
    return weight


def policy_agrees(state: State, seat: int, card: int, policy: Bot, rng: random.Random) -> tuple[int, bool]:
    """How many cards ``seat`` could play in ``state``, and whether ``card`` is ``policy``'s choice."""
    actor = player_view(state, seat)
    choices = len(actor.legal_actions)
    if choices < 2:
        return choices, True
    chosen = policy.choose(actor, rng)
    return choices, isinstance(chosen, Play) and int(chosen.card) == card


class Setup(NamedTuple):
    """What a hand's replay needs from before its card play: the auction, trump and discards."""

    bids: tuple[int | None, ...]
    trump: Suit | None
    discards: tuple[CardSet, ...]


def replay_plays(
    start: State, setup: Setup, plays: list[tuple[int, int]]
) -> Iterator[tuple[State, int, int]]:
    """Replay a hand from its deal (``start``): before each card of ``plays`` (as ``(seat, card)``),
    the state then, the seat and the card. Raises :class:`SmearError` where the deal cannot have
    led to the plays."""
    state = start
    bids = iter(setup.bids)
    for seat, card in plays:
        while state.public.phase is not Phase.PLAY:
            state = _setup_step(state, bids, setup)
        if state.public.to_act != seat:
            raise SmearError(f"seat {seat} is not to play on this deal")
        yield state, seat, card
        state = apply(state, PLAYS[card], seat)


def _setup_step(state: State, bids: Iterator[int | None], setup: Setup) -> State:
    """Apply the next action before the card play, as the hand went."""
    pub = state.public
    seat = pub.to_act
    assert seat is not None
    action: Action
    if pub.phase is Phase.AUCTION:
        amount = next(bids, -1)
        if amount == -1:
            raise SmearError("the auction ran past its bids on this deal")
        action = PASS if amount is None else bid(amount)
    elif pub.phase is Phase.TRUMP:
        if setup.trump is None:
            raise SmearError("no trump to name")
        action = TRUMPS[setup.trump]
    elif pub.phase is Phase.WIDOW:
        action = TAKE_WIDOW
    elif pub.phase is Phase.DISCARD:
        action = Discard(setup.discards[seat])
    else:
        raise SmearError(f"the hand cannot be replayed from {pub.phase.name}")
    return apply(state, action, seat)
