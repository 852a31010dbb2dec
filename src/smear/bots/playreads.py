"""How each seat chooses its cards, read from the hands it showed earlier in the match.

The expert weighs a sampled deal by how well it explains the cards the others chose, each seat
taken to play the heuristic's card with a chance ``AGREE`` (:func:`smear.bots.inference.play_likelihood`).
Seats differ: a player who plays by the heuristic's rules of thumb plays its card nearly always, a
searching player or a person less often. Once a hand is over, where nothing was drawn after the
deal, every seat's hand is known (:func:`smear.bots.bidreads.hands_shown`): the hand can be replayed
and each card a seat chose set beside the heuristic's choice on what that seat could see then.

:func:`play_agreements` gives each seat's share of agreeing cards so far, drawn towards ``AGREE``
by a prior worth ``PRIOR_CHOICES`` choices and kept within [``LEAST_AGREE``, ``MOST_AGREE``], so
that no deal is ever ruled out on a model's word.
"""

from __future__ import annotations

import random

from smear.bots.base import Bot
from smear.bots.bidreads import hands_shown
from smear.bots.inference import AGREE, Setup, policy_agrees, replay_plays
from smear.cards import CardSet
from smear.dealing import new_match
from smear.errors import SmearError
from smear.state import Deal, HandResult, PublicState

# The prior: as if each seat had already made this many choices, ``AGREE`` of them the heuristic's.
PRIOR_CHOICES = 4.0
# The bounds of a seat's read agreement.
MOST_AGREE = 0.97
LEAST_AGREE = 0.4


def hand_agreements(
    result: HandResult, scores: tuple[int, ...], pub: PublicState, policy: Bot
) -> list[tuple[int, int]]:
    """For each seat, in one finished hand whose end showed every hand: how many of its cards were
    chosen (more than one legal) and how many of those were ``policy``'s. ``scores`` are the
    scores before the hand. All zeros where the hand cannot be replayed."""
    counts = [(0, 0)] * pub.players
    hands = hands_shown(result, pub)
    if not result.tricks or any(hand is None for hand in hands):
        return counts
    rng = random.Random(0)  # the policy's tie-breaks
    deal = Deal(tuple(CardSet(hand or 0) for hand in hands))
    plays = [(seat, int(card)) for trick in result.tricks for seat, card in trick.plays()]
    tally = [[0, 0] for _ in range(pub.players)]
    try:
        start = new_match(pub.rules, pub.players, pub.sides, dealer=result.dealer, deal=deal, scores=scores)
        for state, seat, card in replay_plays(
            start, Setup(result.bids, result.trump, result.discards), plays
        ):
            choices, agrees = policy_agrees(state, seat, card, policy, rng)
            if choices > 1:
                tally[seat][0] += 1
                tally[seat][1] += agrees
    except SmearError:
        return counts
    return [(chosen, agreed) for chosen, agreed in tally]


def play_agreements(pub: PublicState, seat: int, policy: Bot) -> tuple[float, ...]:
    """For each seat, the chance that it plays ``policy``'s card where it has a choice, as read from
    the finished hands of the match by ``seat`` (whose own entry is ``AGREE``: it is never read)."""
    chosen = [0] * pub.players
    agreed = [0] * pub.players
    scores = pub.start_scores
    for result in pub.results:
        for other, (made, same) in enumerate(hand_agreements(result, scores, pub, policy)):
            chosen[other] += made
            agreed[other] += same
        scores = result.scores
    return tuple(
        AGREE
        if other == seat
        else min(
            MOST_AGREE,
            max(LEAST_AGREE, (agreed[other] + AGREE * PRIOR_CHOICES) / (chosen[other] + PRIOR_CHOICES)),
        )
        for other in range(pub.players)
    )
