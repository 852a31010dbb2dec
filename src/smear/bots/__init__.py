"""Players that are not people."""

from smear.bots.randomplay import random_action

__all__ = ["random_action"]
