"""The kernel's action codes, and the engine's actions they stand for.

Actions are ``int64`` codes:

- ``0..53``: play that card;
- ``PASS`` (100) and ``BID + n`` (100 + n): the auction;
- ``TRUMP + s`` (200 + s): name trump;
- ``DISCARD | mask`` (bit 60 set): discard the cards of ``mask``.

A step's legal set is an ``int64`` mask: the cards for a play; bit 0 (pass) and bit ``n`` (bid n) in
the auction; bits 0-3 (suits) for trump; and for a discard the hand, any ``popcount - hand_size``
cards of which may be discarded.

>>> from smear.actions import parse_action
>>> action_code(parse_action("bid 3")), code_action(BID + 3), code_action(action_code(parse_action("Td")))
(103, Bid(3), Play(Card('Td')))
"""

from __future__ import annotations

from smear.actions import PASS as PASS_ACTION
from smear.actions import PLAYS, TRUMPS, Action, Bid, Discard, NameTrump, Pass, Play, bid
from smear.cards import DECK_SIZE, CardSet

PASS = 100
BID = 100  # BID + n is a bid of n (n >= 1, so it never meets PASS)
TRUMP = 200
DISCARD = 1 << 60

KIND_PLAY = 0
KIND_AUCTION = 1
KIND_TRUMP = 2
KIND_DISCARD = 3


def action_code(action: Action) -> int:
    """The kernel's code for an engine action."""
    if type(action) is Play:
        return int(action.card)
    if type(action) is Pass:
        return PASS
    if type(action) is Bid:
        return BID + action.amount
    if type(action) is NameTrump:
        return TRUMP + int(action.suit)
    if type(action) is Discard:
        return DISCARD | action.cards.mask
    raise TypeError(f"not an action: {action!r}")


def code_action(code: int) -> Action:
    """The engine action of a kernel code."""
    if code & DISCARD:
        return Discard(CardSet(code & ~DISCARD))
    if 0 <= code < DECK_SIZE:
        return PLAYS[code]
    if code == PASS:
        return PASS_ACTION
    if BID < code < TRUMP:
        return bid(code - BID)
    if TRUMP <= code < TRUMP + 4:
        return TRUMPS[code - TRUMP]
    raise ValueError(f"not an action code: {code}")
