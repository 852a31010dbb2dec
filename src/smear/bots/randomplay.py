"""Random legal play that still lets a match end.

Uniformly random bids would set the bidder most hands and drive every score down for ever, so the
auction is cautious: pass three times in four when passing is allowed, and otherwise bid the minimum
half the time or any legal bid. Every legal action keeps a non-zero chance. Cards, trump and discards
are chosen uniformly.
"""

from __future__ import annotations

import random

from smear.actions import Action, Bid, Pass

PASS_CHANCE = 0.75
MINIMUM_BID_CHANCE = 0.5


def random_action(legal: tuple[Action, ...] | list[Action], rng: random.Random) -> Action:
    """One of ``legal``, drawn with ``rng``."""
    if not legal:
        raise ValueError("no legal action to choose from")
    first = legal[0]
    if type(first) is Pass or type(first) is Bid:
        bids = [action for action in legal if type(action) is Bid]
        if not bids or (type(first) is Pass and rng.random() < PASS_CHANCE):
            return first
        return bids[0] if rng.random() < MINIMUM_BID_CHANCE else bids[int(rng.random() * len(bids))]
    return legal[int(rng.random() * len(legal))]
