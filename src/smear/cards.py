"""Cards, suits and sets of cards.

A card is a small ``int`` (0..53) with a readable ``str``: ``Ah``, ``Td``, ``BJ``. A set of cards is a
``CardSet``, an ``int`` bitmask with the behaviour of a Python set, so hands are cheap to copy and
compare. Indices are suit-major: ``suit * 13 + (rank - 2)``; the little joker is 52, the big joker 53.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Set
from enum import IntEnum

from smear.errors import CardError


class Suit(IntEnum):
    """The four suits. Clubs and spades are black, diamonds and hearts red."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """Record notation: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self]

    @property
    def plural(self) -> str:
        """The suit as players say it: ``hearts``."""
        return ("clubs", "diamonds", "hearts", "spades")[self]

    @property
    def singular(self) -> str:
        """One card of the suit: ``heart``."""
        return ("club", "diamond", "heart", "spade")[self]

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (its jack is the jick)."""
        return Suit(self ^ 3)

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """Ranks of the plain cards, two (low) to ace (high)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """Record notation: ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return "23456789TJQKA"[self - 2]

    def __str__(self) -> str:
        return self.letter


LITTLE_JOKER_INDEX = 52
BIG_JOKER_INDEX = 53
DECK_SIZE = 54
SUIT_BITS = 13
SUIT_MASK_BITS = (1 << SUIT_BITS) - 1

_RANK_LETTERS = "23456789TJQKA"
_NAMES: list[str] = [_RANK_LETTERS[i % 13] + "cdhs"[i // 13] for i in range(52)] + ["LJ", "BJ"]

# Game-point value of each card: ten 10, ace 4, king 3, queen 2, jack 1.
_GAME_VALUE_BY_RANK = {10: 10, 11: 1, 12: 2, 13: 3, 14: 4}
GAME_VALUES: tuple[int, ...] = tuple(
    _GAME_VALUE_BY_RANK.get(i % 13 + 2, 0) if i < 52 else 0 for i in range(DECK_SIZE)
)


class Card(int):
    """One card. An ``int`` index with a readable form: ``str(card) == "Ah"``.

    Use :func:`parse_card` or the constants in :data:`CARDS`; ``Card(i)`` works but is not interned.
    """

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self >= LITTLE_JOKER_INDEX

    @property
    def suit(self) -> Suit | None:
        """The printed suit, or ``None`` for a joker (see ``trick.effective_suit`` for trump)."""
        return None if self >= LITTLE_JOKER_INDEX else Suit(self // 13)

    @property
    def rank(self) -> Rank | None:
        """The printed rank, or ``None`` for a joker."""
        return None if self >= LITTLE_JOKER_INDEX else Rank(self % 13 + 2)

    @property
    def game_value(self) -> int:
        """Points this card counts towards Game."""
        return GAME_VALUES[self]

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return _NAMES[self]

    def __format__(self, spec: str) -> str:
        return format(_NAMES[self], spec)

    def __repr__(self) -> str:
        return f"Card({_NAMES[self]!r})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))
JOKERS_MASK = (1 << LITTLE_JOKER_INDEX) | (1 << BIG_JOKER_INDEX)
FULL_DECK_MASK = (1 << DECK_SIZE) - 1
SUIT_MASKS: tuple[int, ...] = tuple(SUIT_MASK_BITS << (13 * s) for s in range(4))

_BY_NAME: dict[str, Card] = {}
for _card in CARDS:
    _BY_NAME[_NAMES[_card].lower()] = _card
for _suit in "cdhs":
    _BY_NAME["10" + _suit] = _BY_NAME["t" + _suit]


def parse_card(text: str) -> Card:
    """Read a card in record notation (``Ah``, ``Td``, ``10d``, ``BJ``); case does not matter."""
    card = _BY_NAME.get(text.strip().lower()) if isinstance(text, str) else None
    if card is None:
        raise CardError(f"not a card: {text!r} (cards look like Ah, Td, 10d, BJ, LJ)")
    return card


def parse_suit(text: str) -> Suit:
    """Read a suit letter (``c``, ``d``, ``h``, ``s``) or name (``hearts``)."""
    word = text.strip().lower() if isinstance(text, str) else ""
    for suit in Suit:
        if word in (suit.letter, suit.plural, suit.singular):
            return suit
    raise CardError(f"not a suit: {text!r} (suits are c, d, h, s)")


def iter_bits(mask: int) -> Iterator[Card]:
    """The cards of a bitmask, lowest index first."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


class CardSet(Set[Card]):
    """A set of cards backed by an ``int`` bitmask.

    >>> hand = CardSet.parse("Ah Jh 9h Ks Tc LJ")
    >>> len(hand), parse_card("Ah") in hand
    (6, True)
    >>> str(hand & CardSet.parse("Ah Ks Qd"))
    'Ah Ks'
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card | int] | int = 0) -> None:
        if isinstance(cards, int):
            if cards < 0 or cards > FULL_DECK_MASK:
                raise CardError(f"not a card mask: {cards}")
            self.mask = cards
            return
        mask = 0
        for card in cards:
            mask |= 1 << card
        self.mask = mask

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> CardSet:
        """Read cards separated by spaces or commas, or an iterable of card strings."""
        words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        mask = 0
        for word in words:
            bit = 1 << parse_card(word)
            if mask & bit:
                raise CardError(f"card listed twice: {word}")
            mask |= bit
        return cls(mask)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < DECK_SIZE and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter_bits(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: Iterable[object]) -> CardSet:
        return CardSet(self.mask | _mask_of(other))

    def __and__(self, other: Iterable[object]) -> CardSet:
        return CardSet(self.mask & _mask_of(other))

    def __sub__(self, other: Iterable[object]) -> CardSet:
        return CardSet(self.mask & ~_mask_of(other))

    def __xor__(self, other: Iterable[object]) -> CardSet:
        return CardSet(self.mask ^ _mask_of(other))

    def __str__(self) -> str:
        return " ".join(_NAMES[c] for c in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"


def _mask_of(cards: Iterable[object]) -> int:
    if isinstance(cards, CardSet):
        return cards.mask
    mask = 0
    for card in cards:
        if not isinstance(card, int):
            raise TypeError(f"not a card: {card!r}")
        mask |= 1 << card
    return mask
