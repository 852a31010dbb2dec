"""Names people can tell apart: the mark that tells a person from another of the same name, or from
a bot level.

A person's **mark** is four characters worked out from the public id of its profile
(:func:`profile_mark`): the same profile has the same mark everywhere, and it tells nothing the
public id does not (it is a hash of it, never of a secret). The server decides where a mark is
shown (:func:`marks`), once, for a list of names read together: the seats of a table, the players of
a match, a leaderboard. A person gets a mark there when its name is taken by another seat of the list
(a person, a guest or a bot) or reads like a bot level in any of the clients' languages. A bot's
seat, and a guest's (no profile), never get one.

>>> marks([Named("Sam", "p1"), Named("sam", "p2"), Named("Ada", None), Named("Bo", "p3")])
['KKDY', 'FR67', None, None]
>>> marks([Named("Experto", "p1"), Named("Expert", "bot-expert", bot=True)])
['KKDY', None]
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Named", "bot_like", "fold", "marks", "profile_mark"]

# What the bot levels are called in the clients' five languages (web/src/i18n: bot.*, bot_name.*),
# and the words of the levels' ids, each as :func:`fold` leaves it.
_BOT_WORDS = (
    "bot",
    "robot",
    "robo",
    "bots",
    "robots",
    "robos",
    "random",
    "beginner",
    "heuristic",
    "expert",
    "normal",
    "pimc",
    "counting",
    "randombot",
    "beginnerbot",
    "normalbot",
    "expertbot",
    "alazar",
    "aleatorio",
    "aleatoria",
    "principiante",
    "principiantes",
    "experto",
    "expertos",
    "normales",
    "botaleatorio",
    "botprincipiante",
    "botnormal",
    "botexperto",
    "auhasard",
    "aleatoire",
    "debutant",
    "debutants",
    "experts",
    "normaux",
    "robotaleatoire",
    "robotdebutant",
    "robotnormal",
    "robotexpert",
    "acaso",
    "casuale",
    "principianti",
    "esperto",
    "esperti",
    "normali",
    "botcasuale",
    "botesperto",
    "botnormale",
    "aleatorios",
    "iniciante",
    "iniciantes",
    "especialista",
    "especialistas",
    "normais",
    "roboaleatorio",
    "roboiniciante",
    "robonormal",
    "roboespecialista",
)
BOT_WORDS = frozenset(_BOT_WORDS)
# The number a match's record gives a repeated name (smear.server.tables.seats.distinct_names).
_REPEAT = re.compile(r" \(\d+\)$")


@dataclass(frozen=True)
class Named:
    """A name in a list read together, and who holds it (``profile`` None: a guest)."""

    name: str
    profile: str | None
    bot: bool = False


def fold(name: str) -> str:
    """A name as a reader may confuse it: case, accents, spaces and punctuation set aside.

    >>> fold("  Ex-pért ") == fold("expert")
    True
    """
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(char for char in decomposed if char.isalnum())


def bot_like(name: str) -> bool:
    """Whether ``name`` reads like a bot level (or "bot") in one of the clients' languages."""
    return fold(name) in BOT_WORDS


def profile_mark(profile: str) -> str:
    """The mark of a profile: four characters from a hash of its public id."""
    digest = hashlib.blake2s(profile.encode(), digest_size=5).digest()
    return base64.b32encode(digest).decode()[:4]


def marks(named: Sequence[Named]) -> list[str | None]:
    """The mark each name of ``named`` is shown with (None: shown bare). A match's record numbers a
    repeated name ("Sam", "Sam (2)"): the number is set aside, as it tells no one who is who."""
    return list(seat_marks(tuple((one.name, one.profile, one.bot) for one in named)))


# Every state a table sends carries its seats' marks, and they change only with its seats.
@functools.lru_cache(maxsize=4096)
def seat_marks(named: tuple[tuple[str, str | None, bool], ...]) -> tuple[str | None, ...]:
    """:func:`marks` of ``(name, profile, bot)`` for each seat."""
    folded = [fold(_REPEAT.sub("", name)) for name, _, _ in named]
    counts = Counter(folded)
    return tuple(
        profile_mark(profile)
        if profile is not None and not bot and (counts[key] > 1 or key in BOT_WORDS)
        else None
        for (_, profile, bot), key in zip(named, folded, strict=True)
    )
