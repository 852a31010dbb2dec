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


class NaiveBot:
    """Always the first legal action: it passes whenever it may and plays its first legal card. A
    yardstick for the review: any judge worth trusting finds it worse than every other bot."""

    name = "naive"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return view.legal_actions[0]


BotFactory = Callable[[], Bot]
_REGISTRY: dict[str, BotFactory] = {}
_YARDSTICKS: set[str] = set()


def register(name: str, factory: BotFactory, *, yardstick: bool = False) -> None:
    """Make a bot available by name (for tables, the arena and ``smear play``). A ``yardstick`` is
    kept to measure the others against (the arena, the benchmarks): no table seats it."""
    _REGISTRY[name] = factory
    if yardstick:
        _YARDSTICKS.add(name)
    else:
        _YARDSTICKS.discard(name)


def bot_names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def table_bots() -> tuple[str, ...]:
    """The bots people play against at a table: every registered bot but the yardsticks."""
    return tuple(name for name in _REGISTRY if name not in _YARDSTICKS)


def make_bot(name: str) -> Bot:
    """A new bot of that name."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown bot: {name!r} (bots: {', '.join(_REGISTRY)})") from None
    return factory()


register("random", RandomBot)
register("naive", NaiveBot, yardstick=True)
