"""What a seat can infer from public play: the cards played and by whom, the suits each seat has
shown it holds none of, and who is out of the hand where only trumps are played.

One implementation for everything that reads play: the bots (the heuristic's unseen cards, the
sampler's voids) and the server (the seats it shows as out of the hand). Everything here follows
from a :class:`~smear.state.PublicState` alone, or for one seat from its
:class:`~smear.views.PlayerView` (its own hand and discards besides).

>>> from smear import find_rules, new_match, player_view
>>> state = new_match(find_rules("house"), players=4, seed=3)
>>> played_cards(state.public), revealed_voids(state.public), out_of_hand(state.public)
(0, (0, 0, 0, 0), ())
"""

from __future__ import annotations

import itertools

from smear.state import Phase, PublicState
from smear.views import PlayerView

__all__ = [
    "out_of_hand",
    "played_cards",
    "plays_by_seat",
    "revealed_voids",
    "seat_out_of_hand",
    "unseen_cards",
]


def played_cards(public: PublicState) -> int:
    """Every card played this hand (finished tricks and the trick in progress), as a bitmask."""
    played = 0
    for trick in public.tricks:
        for card in trick.cards:
            played |= 1 << card
    for card in public.trick:
        played |= 1 << card
    return played


def plays_by_seat(public: PublicState) -> tuple[int, ...]:
    """The cards each seat has played this hand (finished tricks and the trick in progress)."""
    played = [0] * public.players
    for trick in public.tricks:
        for seat, card in trick.plays():
            played[seat] |= 1 << card
    for seat, card in public.trick_plays:
        played[seat] |= 1 << card
    return tuple(played)


def unseen_cards(view: PlayerView) -> int:
    """The cards of this table's deck that the seat has not seen this hand: those in other hands,
    in other seats' discards, and the undealt ones, as a bitmask."""
    seen = view.hand.mask | played_cards(view.public) | view.discards.mask
    return view.public.deck.mask & ~seen


def revealed_voids(public: PublicState) -> tuple[int, ...]:
    """For each seat, the cards play has shown it cannot hold now, as a bitmask.

    Suits are effective suits (the jokers, and the jick where there is one, are trump):

    - a player who does not play the suit led holds none of it, except that where a player may trump
      instead of following (``may_trump_instead``, ten_point) playing a trump to a plain suit
      shows nothing; with trump led, playing a non-trump always shows a void in trump;
    - where the bidder must lead trump to the first trick (``bidder_leads_trump``), a first lead
      that is not a trump shows the bidder held none;
    - where only trumps are played, a seat that play went past holds no trump (see
      :func:`out_of_hand`).

    A hand only loses cards during play, so a void once shown lasts to the end of the hand.
    """
    n = public.players
    voids = [0] * n
    order = public.order
    if order is None:  # no card played yet (house: the first lead names trump)
        return tuple(voids)
    rules = public.rules
    if rules.trumps_only:
        return _trump_play_voids(public, order.trump_mask)
    tricks = [(trick.leader, trick.cards) for trick in public.tricks]
    if public.trick:
        tricks.append((public.leader, public.trick))
    for number, (leader, cards) in enumerate(tricks):
        led = order.suit_of[cards[0]]
        if number == 0 and rules.bidder_leads_trump and not order.power[cards[0]]:
            voids[leader] |= order.trump_mask
        for offset, card in enumerate(cards[1:], start=1):
            if order.suit_of[card] == led:
                continue
            if rules.may_trump_instead and order.power[card]:
                continue  # trumping in is allowed while holding the suit led
            voids[(leader + offset) % n] |= order.suit_masks[led]
    return tuple(voids)


def _trump_play_voids(public: PublicState, trumps: int) -> tuple[int, ...]:
    """Where only trumps are played, every seat holding a trump plays to every trick: a seat passed
    over (in a finished trick, or before the seat to act in this one) holds no trump."""
    n = public.players
    voids = [0] * n
    for trick in public.tricks:
        seats = {seat for seat, _ in trick.plays()}
        for seat in range(n):
            if seat not in seats:
                voids[seat] |= trumps
    # Each lead goes to the first seat holding a trump from the bidder (the first trick) or from
    # the last winner: the seats before it had none.
    starts = [public.bidder, *(trick.winner for trick in public.tricks)]
    leaders = [trick.leader for trick in public.tricks]
    if public.phase is Phase.PLAY:
        leaders.append(public.leader)
    for start, leader in zip(starts, leaders, strict=False):
        passed_over = start
        while passed_over is not None and passed_over != leader:
            voids[passed_over] |= trumps
            passed_over = (passed_over + 1) % n
    # In the trick in progress, a seat passed over between two plays (or before the seat to act).
    plays = public.trick_plays
    if plays and public.to_act is not None:
        played = {who for who, _ in plays}
        path = [who for who, _ in plays] + [public.to_act]
        for here, there in itertools.pairwise(path):
            if here == there:
                continue  # an extra card to the first trick: nobody was passed over
            seat = (here + 1) % n
            while seat != there and seat != here:
                if seat not in played:
                    voids[seat] |= trumps
                seat = (seat + 1) % n
    return tuple(voids)


def out_of_hand(public: PublicState) -> tuple[int, ...]:
    """The seats every seat knows to be out of the hand, in seat order: where only trumps are
    played (``trumps_only``), during play, those known to hold no trump now.

    A seat holding a trump plays to every trick, so a seat play went past holds none, and nobody
    gets a card back once play has begun; a seat with no card left is out too. The seat to act
    holds a trump. Elsewhere (other presets, other phases) nobody is out: the list is empty.
    """
    order = public.order
    if not public.rules.trumps_only or public.phase is not Phase.PLAY or order is None:
        return ()
    trumps = order.trump_mask
    voids = _trump_play_voids(public, trumps)
    sizes = public.hand_sizes()
    return tuple(
        seat
        for seat in range(public.players)
        if seat != public.to_act and (not sizes[seat] or voids[seat] & trumps == trumps)
    )


def seat_out_of_hand(view: PlayerView) -> tuple[int, ...]:
    """What the seat of ``view`` knows of who is out of the hand: :func:`out_of_hand`, and the seat
    itself when it holds no trump (which the others may not know yet)."""
    public = view.public
    out = out_of_hand(public)
    order = public.order
    if not public.rules.trumps_only or public.phase is not Phase.PLAY or order is None:
        return out
    if view.hand.mask & order.trump_mask or view.seat in out:
        return out
    return tuple(sorted((*out, view.seat)))
