"""Actions in record notation: ``pass``, ``bid 3``, ``widow``, ``trump h``, ``discard 2c 3d``, ``Ah``.

>>> parse_action("bid 3"), str(parse_action("10d"))
(Bid(3), 'Td')
"""

from __future__ import annotations

from dataclasses import dataclass

from smear.cards import CARDS, Card, CardSet, Suit, parse_card, parse_suit
from smear.errors import ActionError, CardError


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass in the auction."""

    def __str__(self) -> str:
        return "pass"

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid this many points."""

    amount: int

    def __post_init__(self) -> None:
        if type(self.amount) is not int:
            raise ActionError(f"a bid is a whole number of points, not {self.amount!r}")

    def __str__(self) -> str:
        return f"bid {self.amount}"

    def __repr__(self) -> str:
        return f"Bid({self.amount})"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The bidder names the trump suit (presets where trump is named)."""

    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            raise ActionError(f"trump is a suit, not {self.suit!r}")

    def __str__(self) -> str:
        return f"trump {self.suit.letter}"

    def __repr__(self) -> str:
        return f"NameTrump(Suit.{self.suit.name})"


@dataclass(frozen=True, slots=True)
class TakeWidow:
    """The bidder takes the widow into its hand (presets with a widow)."""

    def __str__(self) -> str:
        return "widow"

    def __repr__(self) -> str:
        return "TakeWidow()"


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay these cards face down (presets that deal more cards than are played)."""

    cards: CardSet

    def __post_init__(self) -> None:
        if not isinstance(self.cards, CardSet):
            raise ActionError(f"a discard is a CardSet, not {self.cards!r}")

    def __str__(self) -> str:
        return f"discard {self.cards}" if self.cards else "discard"

    def __repr__(self) -> str:
        return f"Discard({self.cards!r})"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    card: Card

    def __post_init__(self) -> None:
        card = self.card
        if type(card) is not Card:
            if type(card) is not int or not 0 <= card < len(CARDS):
                raise ActionError(f"not a card: {card!r}")
            object.__setattr__(self, "card", CARDS[card])

    def __str__(self) -> str:
        return str(self.card)

    def __repr__(self) -> str:
        return f"Play({self.card!r})"


Action = Pass | Bid | NameTrump | TakeWidow | Discard | Play

PASS = Pass()
TAKE_WIDOW = TakeWidow()
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in CARDS)
_BIDS: dict[int, Bid] = {}
TRUMPS: tuple[NameTrump, ...] = tuple(NameTrump(suit) for suit in Suit)


def bid(amount: int) -> Bid:
    """The (shared) ``Bid`` of that amount."""
    action = _BIDS.get(amount)
    if action is None:
        action = _BIDS[amount] = Bid(amount)
    return action


def play(card: Card | str) -> Play:
    """The (shared) ``Play`` of that card."""
    return PLAYS[parse_card(card) if isinstance(card, str) else card]


def _is_number(text: str) -> bool:
    # str.isdigit() also accepts digits such as "²" that int() refuses.
    return text.isascii() and text.isdigit()


def parse_action(text: str) -> Action:
    """Read one action in record notation. Raises :class:`ActionError` on anything else."""
    if not isinstance(text, str):
        raise ActionError(f"an action is text, not {text!r}")
    words = text.split()
    if not words:
        raise ActionError("empty action")
    head = words[0].lower()
    try:
        if head == "pass" and len(words) == 1:
            return PASS
        if head == "widow" and len(words) == 1:
            return TAKE_WIDOW
        if (head == "bid" and len(words) == 2) or (_is_number(head) and len(words) == 1):
            amount_text = words[-1]
            if not _is_number(amount_text) or len(amount_text) > 3:
                raise ActionError(f"not a bid: {text!r}")
            return bid(int(amount_text))
        if head == "trump" and len(words) == 2:
            return TRUMPS[parse_suit(words[1])]
        if head == "discard":
            return Discard(CardSet.parse(words[1:]))
        if len(words) == 1:
            return PLAYS[parse_card(words[0])]
    except CardError as err:
        raise ActionError(f"not an action: {text!r} ({err})") from None
    raise ActionError(
        f"not an action: {text!r} (actions are pass, bid N, widow, trump S, discard CARDS, or a card)"
    )
