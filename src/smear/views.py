"""What one seat may know: its own cards, its discards, the public state and its legal actions.

A bot or a browser receives a :class:`PlayerView`, never a ``State``: nothing in a view belongs to
another seat, to the sleeping cards or to the stock until the hand is over.
"""

from __future__ import annotations

from typing import NamedTuple

from smear.actions import Action
from smear.cards import Card, CardSet, Suit
from smear.legal import DiscardOptions, legal_actions, options_for_discard
from smear.state import Phase, PublicState, State


class PlayerView(NamedTuple):
    """One seat's view of a match."""

    seat: int
    hand: CardSet
    discards: CardSet  # the cards this seat discarded this hand
    public: PublicState
    legal_actions: tuple[Action, ...]  # empty unless it is this seat's turn

    @property
    def phase(self) -> Phase:
        return self.public.phase

    @property
    def trump(self) -> Suit | None:
        return self.public.trump

    @property
    def is_my_turn(self) -> bool:
        return self.public.to_act == self.seat

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        return self.public.trick_plays

    @property
    def side(self) -> int:
        return self.public.seat_side[self.seat]

    def discard_options(self) -> DiscardOptions | None:
        """The legal discards in short, on this seat's turn to discard (else ``None``)."""
        if self.phase is not Phase.DISCARD or not self.is_my_turn:
            return None
        return options_for_discard(self.public, self.hand.mask, self.seat)

    def dead_cards(self) -> CardSet:
        """Where only trumps are played, once play has begun: the cards of this hand that can never
        be played this hand (its non-trumps); else none."""
        pub = self.public
        if not pub.rules.trumps_only or pub.phase is not Phase.PLAY or pub.order is None:
            return CardSet(0)
        return CardSet(self.hand.mask & ~pub.order.trump_mask)

    def extra_trumps(self) -> int:
        """On this seat's turn in the first trick where only trumps are played: how many cards it
        plays to that trick one after another, this one included, because it holds more than a hand
        (as ``apply`` keeps it to act until it holds one card less than a hand); else 0."""
        pub = self.public
        if not pub.rules.trumps_only or pub.phase is not Phase.PLAY or pub.tricks or not self.is_my_turn:
            return 0
        left = len(self.hand) - pub.rules.hand_size + 1
        played_here = any(seat == self.seat for seat, _ in pub.trick_plays)
        return left if left > 1 or (left == 1 and played_here) else 0


def player_view(state: State, seat: int) -> PlayerView:
    """The view of ``seat``: its own cards and discards, public facts, and its legal actions."""
    pub = state.public
    if not isinstance(seat, int) or not 0 <= seat < pub.players:
        raise ValueError(f"no seat {seat!r} at a table of {pub.players}")
    legal = legal_actions(state) if pub.to_act == seat else ()
    return PlayerView(seat, CardSet(state.hands[seat]), CardSet(state.discards[seat]), pub, legal)
