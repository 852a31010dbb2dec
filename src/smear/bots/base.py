"""The bot interface and the registry of bots by name.

A bot sees only a :class:`~smear.views.PlayerView` (never a ``State``), so it cannot peek at hidden
cards, and it draws any randomness from the ``rng`` it is given, so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from smear.actions import Action
from smear.bots.randomplay import random_action
from smear.views import PlayerView


class Bot(Protocol):
    """Anything that picks an action for the seat of a view."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        ...


class RandomBot:
    """Random legal play with a cautious auction (see :func:`smear.bots.random_action`)."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return random_action(view.legal_actions, rng)


BotFactory = Callable[[], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Make a bot available by name (for tables, the arena and ``smear play``)."""
    _REGISTRY[name] = factory


def bot_names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def make_bot(name: str) -> Bot:
    """A new bot of that name."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown bot: {name!r} (bots: {', '.join(_REGISTRY)})") from None
    return factory()


register("random", RandomBot)
