"""Trump-aware suits and trick winners: the jick and joker logic lives here and nowhere else.

Once trump is known, every card has an *effective suit*: the jokers (and, where the rules have one,
the jick) belong to trump and to no other suit. Trumps have a *power* that orders them; other cards
are compared by rank, and only within the suit led.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from smear.cards import (
    BIG_JOKER_INDEX,
    CARDS,
    DECK_SIZE,
    LITTLE_JOKER_INDEX,
    SUIT_MASKS,
    Card,
    Suit,
)
from smear.rules import JokerRank, Rules


class Trick(NamedTuple):
    """A finished trick: who led, the cards in the order played, who won it; and who played each
    card where that is not simply every seat once from the leader (``trumps_only``)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int
    seats: tuple[int, ...] = ()

    def plays(self) -> tuple[tuple[int, Card], ...]:
        """``(seat, card)`` pairs in the order played."""
        if self.seats:
            return tuple(zip(self.seats, self.cards, strict=True))
        n = len(self.cards)
        return tuple(((self.leader + i) % n, card) for i, card in enumerate(self.cards))


@dataclass(frozen=True, slots=True)
class TrumpOrder:
    """Everything about the cards that depends on the trump suit, precomputed as tables."""

    trump: Suit
    # Effective suit of each card index (jokers and jick map to trump).
    suit_of: tuple[int, ...]
    # Bitmask of the cards of each effective suit.
    suit_masks: tuple[int, ...]
    # Strength of each card as a trump; 0 for a card that is not a trump.
    power: tuple[int, ...]
    trump_mask: int
    # The trumps of the printed trump suit (no jick, no jokers): High and Low are chosen among them.
    natural_trump_mask: int
    jack: Card
    jick: Card | None
    # For each effective suit led: every card's strength in a trick (-1: cannot win it).
    strength_when_led: tuple[tuple[int, ...], ...]
    # The two jokers are identical: when both fall in one trick, the one played second ranks higher.
    identical_jokers: bool = False


@cache
def trump_order(trump: Suit, jick: bool, joker_rank: JokerRank, identical_jokers: bool = False) -> TrumpOrder:
    """The tables for this trump under these rules (cached: there are only a few)."""
    jick_index = Suit(trump).partner * 13 + 9 if jick else -1
    suit_of = [i // 13 if i < LITTLE_JOKER_INDEX else int(trump) for i in range(DECK_SIZE)]
    power = [0] * DECK_SIZE
    for index in range(13 * trump, 13 * trump + 13):
        rank = index % 13 + 2
        if joker_rank is JokerRank.LOWEST:
            power[index] = rank + 1  # 2 -> 3 ... A -> 15, above both jokers
        else:
            power[index] = rank + 2 if rank >= 11 else rank - 1  # J Q K A above jick and jokers
    power[LITTLE_JOKER_INDEX] = 1 if joker_rank is JokerRank.LOWEST else 10
    power[BIG_JOKER_INDEX] = 2 if joker_rank is JokerRank.LOWEST else 11
    if jick_index >= 0:
        suit_of[jick_index] = int(trump)
        power[jick_index] = 12
    masks = [0, 0, 0, 0]
    for index, suit in enumerate(suit_of):
        masks[suit] |= 1 << index
    strength_when_led = tuple(
        tuple(
            100 + power[index] if power[index] else (index % 13 if suit_of[index] == led else -1)
            for index in range(DECK_SIZE)
        )
        for led in range(4)
    )
    return TrumpOrder(
        trump=Suit(trump),
        suit_of=tuple(suit_of),
        suit_masks=tuple(masks),
        power=tuple(power),
        trump_mask=masks[trump],
        natural_trump_mask=SUIT_MASKS[trump] & ~(1 << jick_index if jick_index >= 0 else 0),
        jack=CARDS[13 * trump + 9],
        jick=CARDS[jick_index] if jick_index >= 0 else None,
        strength_when_led=strength_when_led,
        identical_jokers=identical_jokers,
    )


def order_for(rules: Rules, trump: Suit) -> TrumpOrder:
    return trump_order(trump, rules.jick, rules.joker_rank, rules.identical_jokers)


def effective_suit(card: Card, trump: Suit | None, rules: Rules) -> Suit | None:
    """The suit a card belongs to for following: jokers and the jick are trump.

    Before trump is known a joker has no suit (``None``).
    """
    if trump is None:
        return card.suit
    return Suit(order_for(rules, trump).suit_of[card])


def is_trump(card: Card, trump: Suit, rules: Rules) -> bool:
    return order_for(rules, trump).power[card] > 0


def winning_index(cards: Sequence[int], order: TrumpOrder) -> int:
    """Position in the trick of the winning card: the highest trump, else the highest of the suit led."""
    strength = order.strength_when_led[order.suit_of[cards[0]]]
    values = [strength[card] for card in cards]
    if order.identical_jokers and BIG_JOKER_INDEX in cards and LITTLE_JOKER_INDEX in cards:
        # The joker played second takes the higher of the two jokers' places.
        first, second = sorted((cards.index(BIG_JOKER_INDEX), cards.index(LITTLE_JOKER_INDEX)))
        low, high = sorted((values[first], values[second]))
        values[first], values[second] = low, high
    return values.index(max(values))


def trick_winner(trick: Iterable[tuple[int, Card]], trump: Suit, rules: Rules) -> int:
    """The seat that wins a trick given as ``(seat, card)`` pairs in the order played."""
    plays = list(trick)
    return plays[winning_index([card for _, card in plays], order_for(rules, trump))][0]


def display_order(cards: Iterable[Card], trump: Suit | None, rules: Rules) -> list[Card]:
    """Cards as a player sorts a hand: trumps first, strongest first, then the other suits by rank.

    Before trump is known: by suit (clubs, diamonds, hearts, spades), ace first, jokers last.
    """
    if trump is None:
        return sorted(cards, key=lambda card: (card >= LITTLE_JOKER_INDEX, card // 13, -card))
    order = order_for(rules, trump)
    suits_after = [suit for suit in range(4) if suit != trump]
    return sorted(
        cards,
        key=lambda card: (
            (0, -order.power[card])
            if order.power[card]
            else (1 + suits_after.index(order.suit_of[card]), -(card % 13))
        ),
    )
