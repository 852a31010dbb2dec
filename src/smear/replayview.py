"""A record laid out for watching it again: the ``ReplayView`` JSON of docs (players contract).

Everything comes from the engine replaying the record (:func:`smear.record.replay`): who took each
action, the tricks and their winners, the results, and what the viewer shows at each step of a hand
(the cards each seat holds, the trick by seat, the scores). The browser only steps through it.

>>> from smear import find_rules, new_match
>>> from smear.record import parse_record, record_of
>>> state = new_match(find_rules("house"), players=4, seed=3)
>>> view = replay_view(parse_record(record_of(state, ["Ayse", "Kemal", "You", "Sam"])))
>>> view["hands"][0]["auction"], view["complete"]
([], False)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from smear.actionjson import action_json
from smear.actions import Action, Bid, Pass, Play
from smear.cards import Card, CardSet, Suit
from smear.record import Record, replay, result_entry
from smear.rules import Rules
from smear.standings import standings_json
from smear.state import Phase, State
from smear.trick import display_order

# The keys of a hand's result in the view (the replay summary also repeats bidder, bid and trump).
_RESULT_KEYS = ("points", "game_points", "taken", "made", "scores")


def replay_view(record: Record) -> dict[str, Any]:
    """The ``ReplayView`` of a record, finished or not.

    Raises :class:`~smear.record.ReplayError` or :class:`~smear.errors.RecordError` as
    :func:`~smear.record.replay` does for a bad record.
    """
    actions: dict[int, list[tuple[int, Action]]] = {}  # per hand: (seat, action) in order
    # Per hand: each seat's cards as each trick began (the first is what was held when play began).
    trick_hands: dict[int, list[tuple[int, ...]]] = {}

    def observe(before: State, action: Action, after: State) -> None:
        pub = before.public
        assert pub.to_act is not None  # the engine refuses an action when nobody is to act
        actions.setdefault(pub.hand_number, []).append((pub.to_act, action))
        if isinstance(action, Play) and not pub.trick:
            trick_hands.setdefault(pub.hand_number, []).append(before.hands)

    result = replay(record, observe)
    ends: list[State] = []  # each hand as it ended (or stands, for the last one)
    state: State | None = result.state
    while state is not None:
        ends.append(state)
        state = state.previous
    ends.reverse()
    pub = result.state.public
    summary = result.summary
    return {
        "rules": pub.rules.name,
        "players": list(record.players),
        "sides": [list(side) for side in pub.sides],
        "target": pub.rules.target,
        "hands": [
            _hand_view(
                end, actions.get(end.public.hand_number, []), trick_hands.get(end.public.hand_number, [])
            )
            for end in ends
        ],
        "scores": summary["scores"],
        "winner": summary["winner"],
        "complete": summary["complete"],
        # The places and figures of the match as the record leaves it (decided once: smear.standings).
        "standings": standings_json(pub),
    }


def _hand_view(
    end: State, actions: list[tuple[int, Action]], trick_hands: list[tuple[int, ...]]
) -> dict[str, Any]:
    """One hand from its last state, the actions taken in it (with their seats), and each seat's
    cards as each trick began (none if play never did)."""
    pub = end.public
    rules = pub.rules
    over = pub.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)
    auction_over = pub.phase is not Phase.AUCTION and pub.bidder is not None
    tricks = [
        {"leader": trick.leader, "plays": _plays(trick.plays()), "winner": trick.winner}
        for trick in pub.tricks
    ]
    if pub.trick:
        plays = pub.trick_plays
        tricks.append({"leader": plays[0][0], "plays": _plays(plays), "winner": None})
    result = None
    if over:
        entry = result_entry(pub.results[-1], rules)
        result = {key: entry[key] for key in _RESULT_KEYS}
    before = list(end.previous.public.scores if end.previous is not None else pub.start_scores)
    auction = [_entry(seat, action) for seat, action in actions if isinstance(action, Bid | Pass)]
    before_play = [
        _entry(seat, action) for seat, action in actions if not isinstance(action, Bid | Pass | Play)
    ]
    deal = [_cards(mask, rules) for mask in end.dealt]
    held_by_trick = [[_cards(mask, rules, pub.trump) for mask in hands] for hands in trick_hands]
    now = [_cards(mask, rules, pub.trump) for mask in end.hands]  # what each seat holds as the hand stands
    holdings = [deal, *held_by_trick]  # each step's cards, the auction's first
    if result is not None:
        holdings.append(now)
    cards = _every_card(holdings)
    by_step = [
        [[cards[seat].index(card) for card in held] for seat, held in enumerate(holding)]
        for holding in holdings
    ]
    return {
        "number": pub.hand_number,
        "dealer": pub.dealer,
        "deal": deal,
        "out": [str(card) for card in end.out],
        "auction": auction,
        "bidder": pub.bidder if auction_over else None,
        "bid": pub.bid if auction_over else None,
        "trump": None if pub.trump is None else pub.trump.letter,
        "before_play": before_play,
        "held": held_by_trick[0] if held_by_trick else now,
        "tricks": tricks,
        "result": result,
        "scores_before": before,
        "cards": cards,
        "steps": _steps(len(auction) + len(before_play), tricks, by_step, before, result),
    }


def _every_card(holdings: list[list[list[str]]]) -> list[list[str]]:
    """Per seat, every card it holds at some step, each once: as dealt, then those it takes later
    (the widow, a refill), for the steps to name a seat's cards by their places in it."""
    cards: list[list[str]] = [[] for _ in holdings[0]]
    for holding in holdings:
        for seat, held in enumerate(holding):
            cards[seat].extend(card for card in held if card not in cards[seat])
    return cards


def _steps(
    before_play: int,
    tricks: list[dict[str, Any]],
    held: list[list[list[int]]],
    scores_before: list[int],
    result: dict[str, Any] | None,
) -> list[dict[str, Any]]:
    """What the viewer shows at each step of a hand: the auction (with what comes before the first
    trick), each trick, then the result once there is one. ``held`` is each step's cards (as places
    in the hand's ``cards``); a step's ``first_action`` and ``actions`` are the places of its actions
    among the hand's in the record (the auction step's are ``auction`` then ``before_play``)."""
    steps = [_step("auction", held[0], scores_before, False, 0, before_play)]
    first = before_play
    for index, trick in enumerate(tricks):
        plays = trick["plays"]
        step = _step("trick", held[1 + index], scores_before, False, first, len(plays))
        steps.append({**step, "trick": index, "by_seat": _by_seat(plays)})
        first += len(plays)
    if result is not None:
        steps.append(_step("result", held[-1], result["scores"], True, first, 0))
    return steps


def _step(
    kind: str, held: list[list[int]], scores: list[int], after: bool, first_action: int, actions: int
) -> dict[str, Any]:
    return {
        "kind": kind,
        "held": held,
        "scores": scores,
        "after": after,
        "first_action": first_action,
        "actions": actions,
    }


def _by_seat(plays: list[dict[str, Any]]) -> list[list[int]]:
    """A trick's plays by seat, as places in ``plays``: a list per seat, in the order the seats first
    played to the trick (a seat that plays more than one card to a trick has them together)."""
    places: dict[int, list[int]] = {}
    for index, play in enumerate(plays):
        places.setdefault(play["seat"], []).append(index)
    return list(places.values())


def _entry(seat: int, action: Action) -> dict[str, Any]:
    """An action of the auction or before play: its seat, its text, and ``act``, what it is
    (:func:`smear.actionjson.action_json`), for the viewer to word it without reading the text."""
    return {"seat": seat, "action": str(action), "act": action_json(action)}


def _cards(mask: int, rules: Rules, trump: Suit | None = None) -> list[str]:
    """Cards as a player sorts them (trumps first once trump is known)."""
    return [str(card) for card in display_order(CardSet(mask), trump, rules)]


def _plays(plays: Iterable[tuple[int, Card]]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": str(card)} for seat, card in plays]


__all__ = ["replay_view"]
