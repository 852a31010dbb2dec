"""What a practice position is about, worked out from the position and its answer (ids of
:data:`smear.practice.record.THEMES`; the page names them).

- ``bid_the_hand``: any auction decision (the best is what the hand is worth).
- ``moon``: the best bid is the moon, or the moon is offered and comes second (a hand that might).
- ``trump_choice``: naming trump, or the first lead where it names trump.
- ``discard``: a discard, or taking the widow (what to keep).
- ``draw_trump``: a lead whose best card is a trump.
- ``save_the_jack``: the seat holds the Jack of trump, the best card is another, and in every line
  its side takes the Jack.
- ``catch_the_jack``: in every line the best card wins its trick and that trick holds another
  seat's Jack of trump.
- ``give_partner_the_point``: the best card counts for Game and goes on a trick the partner is winning.
- ``take_low``: the lowest trump still out is on the trick and the best card wins it, or the seat
  holds it and in every line its side ends with it.
- ``lead`` / ``follow``: a card decision none of the above fits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from smear.actions import Action, Bid, Play
from smear.cards import Card, Rank, Suit
from smear.practice.lines import PlayedLine
from smear.state import Phase
from smear.trick import Trick, is_trump, trick_winner
from smear.views import PlayerView


def find_themes(
    view: PlayerView, best: Action, values: Mapping[str, float], lines: Sequence[PlayedLine]
) -> list[str]:
    """The themes of the decision of ``view`` whose best choice is ``best`` (at least one)."""
    phase = view.phase
    if phase is Phase.AUCTION:
        return ["bid_the_hand", *(["moon"] if _moon(view, best, values) else [])]
    if phase is Phase.TRUMP:
        return ["trump_choice"]
    if phase in (Phase.DISCARD, Phase.WIDOW):
        return ["discard"]
    assert isinstance(best, Play)
    found = _card_themes(view, best.card, lines)
    if not found:
        found.append("follow" if view.trick else "lead")
    return found


def _moon(view: PlayerView, best: Action, values: Mapping[str, float]) -> bool:
    rules = view.public.rules
    if not rules.shoot_the_moon:
        return False
    moon = str(Bid(rules.top_bid))
    if moon not in values:
        return False
    ranked = sorted(values, key=lambda text: -values[text])
    return str(best) == moon or (len(ranked) > 1 and ranked[1] == moon)


def _card_themes(view: PlayerView, card: Card, lines: Sequence[PlayedLine]) -> list[str]:
    pub = view.public
    trump = pub.trump
    found: list[str] = []
    if trump is None:  # the first lead names trump
        return ["trump_choice"]
    jack = Card(int(trump) * 13 + Rank.JACK - 2)
    side = pub.seat_side[view.seat]
    if not view.trick and is_trump(card, trump, pub.rules):
        found.append("draw_trump")
    if jack in view.hand and card != jack and _side_takes(lines, jack, view, side):
        found.append("save_the_jack")
    if lines and all(_catches(line, card, jack, view.seat) for line in lines):
        found.append("catch_the_jack")
    if card.game_value > 0 and _partner_winning(view):
        found.append("give_partner_the_point")
    if _takes_low(view, card, trump, lines, side):
        found.append("take_low")
    return found


def _trick_of(line: PlayedLine, card: Card) -> Trick | None:
    return next((trick for trick in line.tricks if card in trick.cards), None)


def _side_takes(lines: Sequence[PlayedLine], card: Card, view: PlayerView, side: int) -> bool:
    """Whether in every line the trick ``card`` falls in goes to ``side``."""
    if not lines:
        return False
    seat_side = view.public.seat_side
    for line in lines:
        trick = _trick_of(line, card)
        if trick is None or seat_side[trick.winner] != side:
            return False
    return True


def _catches(line: PlayedLine, card: Card, jack: Card, seat: int) -> bool:
    trick = _trick_of(line, card)
    if trick is None or trick.winner != seat or jack not in trick.cards:
        return False
    return dict((played, who) for who, played in trick.plays())[jack] != seat


def _partner_winning(view: PlayerView) -> bool:
    pub = view.public
    plays = view.trick
    if not plays or pub.trump is None:
        return False
    winner = trick_winner(plays, pub.trump, pub.rules)
    return winner != view.seat and pub.seat_side[winner] == pub.seat_side[view.seat]


def _lowest_trump_out(view: PlayerView, trump: Suit) -> Card | None:
    """The lowest natural trump not in a finished trick (in a hand, or on the trick in progress)."""
    gone = {card for trick in view.public.tricks for card in trick.cards}
    left = [card for card in view.public.deck if card.suit == trump and card not in gone]
    return min(left, key=lambda card: card.rank or 0, default=None)


def _takes_low(view: PlayerView, card: Card, trump: Suit, lines: Sequence[PlayedLine], side: int) -> bool:
    low = _lowest_trump_out(view, trump)
    if low is None:
        return False
    on_trick = [played for _, played in view.trick]
    if low in on_trick:
        winner = trick_winner([*view.trick, (view.seat, card)], trump, view.public.rules)
        return view.public.seat_side[winner] == side
    return low in view.hand and _side_takes(lines, low, view, side)


__all__ = ["find_themes"]
