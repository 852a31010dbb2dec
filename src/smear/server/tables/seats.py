"""A table's chairs: who sits in each (a person known by the hash of a secret token, a bot, or
nobody), the tokens and codes, and the names a match's record gives the seats."""

from __future__ import annotations

import functools
import hashlib
import secrets
from dataclasses import dataclass

__all__ = ["BOT_NAMES", "Seat", "distinct_names", "hash_token", "new_code", "new_token"]


@dataclass
class Seat:
    """One chair at the table: open, a person (known by the hash of a secret token) or a bot."""

    name: str | None = None
    token_hash: str | None = None
    is_bot: bool = False
    profile: str | None = None  # the player's profile (a bot's: its level's), if any
    rating: float | None = None  # the profile's rating in the table's preset, as shown
    finishes: tuple[int, int] | None = None  # a person's matches finished and left, as shown

    @property
    def is_open(self) -> bool:
        return self.name is None

    @property
    def is_person(self) -> bool:
        return self.token_hash is not None

    @property
    def arriving(self) -> bool:
        """A person who took this bot's seat at a matchmade table: the bot plays it until the next hand."""
        return self.is_bot and self.token_hash is not None


# Every request names its seat by token: the hashes of the tokens seen lately are kept (in memory
# only, where the tokens pass anyway).
@functools.lru_cache(maxsize=16_384)
def hash_token(token: str) -> str:
    """Tokens are stored and compared only as hashes, so a leaked database holds no usable token."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_code() -> str:
    """An unguessable table code for invite links."""
    return secrets.token_urlsafe(12)


def new_token() -> str:
    return secrets.token_urlsafe(24)


BOT_NAMES = ("Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


def distinct_names(names: list[str]) -> list[str]:
    """The seats' names as a match's record holds them, each once (a record refuses two seats of one
    name, and a person may sit under a bot's or another person's name): a repeat is numbered.

    >>> distinct_names(["Ada", "Bo", "Ada", "Ada"])
    ['Ada', 'Bo', 'Ada (2)', 'Ada (3)']
    """
    seen: set[str] = set()
    distinct: list[str] = []
    for name in names:
        shown, count = name, 1
        while shown in seen:
            count += 1
            shown = f"{name} ({count})"
        seen.add(shown)
        distinct.append(shown)
    return distinct
