"""What the other seats' plays say about their cards: how likely a sampled deal makes them.

A sampled deal (:mod:`smear.bots.sampler`) agrees with everything a seat has seen, but not every
such deal explains the play equally well: a player who ducked under a trick it could have taken
cheaply probably could not. :func:`play_likelihood` replays the hand so far on the sampled deal
and, at each card another seat chose (more than one legal), asks the heuristic what it would have
played there: the deal keeps a factor ``agree`` when the card is the heuristic's, else
``(1 - agree)`` shared among the other legal cards. A model of play, not of any one player, so it
leans on the deals rather than ruling any out.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from smear.actions import PASS, PLAYS, TAKE_WIDOW, TRUMPS, Action, Discard, Play, bid
from smear.bots.base import Bot
from smear.cards import CardSet
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


def play_likelihood(view: PlayerView, world: State, policy: Bot, agree: float = AGREE) -> float:
    """How likely the other seats' plays this hand are on ``world`` (a deal consistent with
    ``view``) if each plays like ``policy``: a product of one factor per card chosen.

    Returns 1.0 when the hand cannot be replayed from the deal (nothing is then inferred)."""
    pub = view.public
    plays = plays_so_far(pub)
    if not plays:
        return 1.0
    rng = random.Random(0)  # the policy's tie-breaks, the same for every deal
    hands = tuple(CardSet(mask) for mask in world.dealt)
    try:
        deal = Deal(hands, world.out)
        state = new_match(pub.rules, pub.players, pub.sides, dealer=pub.dealer, deal=deal, scores=pub.scores)
        weight = 1.0
        bids = iter(pub.bids)
        for seat, card in plays:
            while state.public.phase is not Phase.PLAY:
                state = _setup_step(state, bids, world)
            if state.public.to_act != seat:
                return 1.0
            if seat != view.seat:
                actor = player_view(state, seat)
                choices = len(actor.legal_actions)
                if choices > 1:
                    chosen = policy.choose(actor, rng)
                    agrees = isinstance(chosen, Play) and int(chosen.card) == card
                    weight *= agree if agrees else (1.0 - agree) / (choices - 1)
            state = apply(state, PLAYS[card], seat)
    except (SmearError, StopIteration):
        return 1.0
    return weight


def _setup_step(state: State, bids: Iterator[int | None], world: State) -> State:
    """Apply the next action before the card play, as the hand went (the discards as sampled)."""
    pub = state.public
    seat = pub.to_act
    assert seat is not None
    action: Action
    if pub.phase is Phase.AUCTION:
        amount = next(bids)
        action = PASS if amount is None else bid(amount)
    elif pub.phase is Phase.TRUMP:
        assert world.public.trump is not None
        action = TRUMPS[world.public.trump]
    elif pub.phase is Phase.WIDOW:
        action = TAKE_WIDOW
    elif pub.phase is Phase.DISCARD:
        action = Discard(CardSet(world.discards[seat]))
    else:
        raise StopIteration
    return apply(state, action, seat)
