"""The answer's lines: a few of the searched deals, the rest of the hand played out from the position
with the best choice first, every later action by the expert's playout policy (cheap: no search)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from smear.actions import Action
from smear.bots.base import Bot
from smear.cards import CardSet
from smear.state import State
from smear.transitions import apply
from smear.trick import Trick
from smear.views import player_view


@dataclass(frozen=True)
class PlayedLine:
    """One deal: every seat's cards at the position, each action from there to the hand's end, and the
    hand's tricks as they ended (for the themes)."""

    hands: tuple[CardSet, ...]
    actions: tuple[tuple[int, Action], ...]
    tricks: tuple[Trick, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [[str(card) for card in hand] for hand in self.hands],
            "actions": [{"seat": seat, "action": str(action)} for seat, action in self.actions],
        }


def play_line(world: State, seat: int, best: Action, policy: Bot, rng: random.Random) -> PlayedLine:
    """The hand of ``world`` played out from ``seat``'s decision: ``best``, then ``policy`` at every seat."""
    hands = tuple(CardSet(mask) for mask in world.hands)
    actions = [(seat, best)]
    state = apply(world, best, seat)
    while state.public.to_act is not None:
        actor = state.public.to_act
        action = policy.choose(player_view(state, actor), rng)
        actions.append((actor, action))
        state = apply(state, action, actor)
    return PlayedLine(hands, tuple(actions), state.public.tricks)


__all__ = ["PlayedLine", "play_line"]
