"""Actions as the server sends them: what each one is, beside its text in record notation.

A client words an action from its ``kind`` and fields and never reads the text; it sends the
``text`` back to take the action (the ``act`` message). docs/protocol.md describes the fields.

>>> from smear.actions import parse_action
>>> action_json(parse_action("discard 2c 3d"))
{'text': 'discard 2c 3d', 'kind': 'discard', 'cards': ['2c', '3d']}
>>> action_json(parse_action("bid 3")), public_action_json(parse_action("discard 2c 3d"))
({'text': 'bid 3', 'kind': 'bid', 'amount': 3}, {'kind': 'discard', 'count': 2})
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from smear.actions import Action, Bid, Discard, NameTrump, Pass, Play, TakeWidow, parse_action

__all__ = ["ACTION_KINDS", "action_json", "public_action_json", "record_action_json"]

# Every ``kind`` an action can have, one per class of :data:`smear.actions.Action`.
ACTION_KINDS = ("pass", "bid", "widow", "trump", "discard", "play")


def action_json(action: Action) -> dict[str, Any]:
    """``{"text": "bid 3", "kind": "bid", "amount": 3}``: the action's text and what it is.

    Pass ``{kind: pass}``, widow ``{kind: widow}``, bid ``{amount}``, trump ``{suit}`` (a letter),
    discard ``{cards}`` (record notation, possibly none), play ``{card}``. Shared: do not change it.
    """
    if isinstance(action, Discard):  # too many of them to keep (McLeod lists up to a thousand)
        return {"text": str(action), "kind": "discard", "cards": [str(card) for card in action.cards]}
    return _kept_json(action)


@lru_cache(maxsize=512)
def _kept_json(action: Action) -> dict[str, Any]:
    text = str(action)
    if isinstance(action, Pass):
        return {"text": text, "kind": "pass"}
    if isinstance(action, Bid):
        return {"text": text, "kind": "bid", "amount": action.amount}
    if isinstance(action, TakeWidow):
        return {"text": text, "kind": "widow"}
    if isinstance(action, NameTrump):
        return {"text": text, "kind": "trump", "suit": action.suit.letter}
    if isinstance(action, Play):
        return {"text": text, "kind": "play", "card": text}
    raise TypeError(f"not an action: {action!r}")


def public_action_json(action: Action) -> dict[str, Any]:
    """What everyone may learn of an action: a discard is ``{"kind": "discard", "count": 4}``, with
    neither its cards nor its text; any other action is :func:`action_json`."""
    if isinstance(action, Discard):
        return {"kind": "discard", "count": len(action.cards)}
    return action_json(action)


def record_action_json(text: str) -> dict[str, Any]:
    """:func:`action_json` of an action in record notation (as a review or a record holds it)."""
    return action_json(parse_action(text))
