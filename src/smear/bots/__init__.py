"""Players that are not people: a registry of bots by name, each choosing from a PlayerView."""

from smear.bots.base import Bot, RandomBot, bot_names, make_bot, register, table_bots
from smear.bots.beginner import BeginnerBot
from smear.bots.expert import ExpertBot
from smear.bots.heuristic import HeuristicBot
from smear.bots.randomplay import random_action

__all__ = [
    "BeginnerBot",
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "bot_names",
    "make_bot",
    "random_action",
    "register",
    "table_bots",
]
