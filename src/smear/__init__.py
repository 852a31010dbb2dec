"""Smear, the Midwest trick-taking card game of the Pitch family.

>>> from smear import find_rules, new_match, legal_actions, apply, player_view
>>> state = new_match(find_rules("house"), players=4, seed=1)
>>> while state.public.to_act is not None:
...     state = apply(state, legal_actions(state)[-1])
>>> state.public.phase.value
'hand_over'
"""

from smear.compiled import check_build as _check_build

_check_build()  # before any engine module loads: a compiled one older than its source is refused

from smear.actions import Action, Bid, Discard, NameTrump, Pass, Play, TakeWidow, parse_action
from smear.cards import CARDS, Card, CardSet, Rank, Suit, parse_card, parse_suit
from smear.dealing import new_match, next_hand
from smear.errors import (
    ActionError,
    CardError,
    IllegalActionError,
    NotYourTurnError,
    RecordError,
    RulesError,
    SmearError,
)
from smear.legal import DiscardOptions, discard_options, legal_actions
from smear.rules import PRESETS, JokerRank, Rules, find_rules
from smear.state import Deal, HandLog, HandResult, Phase, PublicState, State
from smear.transitions import apply
from smear.trick import Trick, effective_suit, trick_winner
from smear.views import PlayerView, player_view

__all__ = [
    "CARDS",
    "PRESETS",
    "Action",
    "ActionError",
    "Bid",
    "Card",
    "CardError",
    "CardSet",
    "Deal",
    "Discard",
    "DiscardOptions",
    "HandLog",
    "HandResult",
    "IllegalActionError",
    "JokerRank",
    "NameTrump",
    "NotYourTurnError",
    "Pass",
    "Phase",
    "Play",
    "PlayerView",
    "PublicState",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "SmearError",
    "State",
    "Suit",
    "TakeWidow",
    "Trick",
    "apply",
    "discard_options",
    "effective_suit",
    "find_rules",
    "legal_actions",
    "new_match",
    "next_hand",
    "parse_action",
    "parse_card",
    "parse_suit",
    "player_view",
    "trick_winner",
]
