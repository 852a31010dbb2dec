"""What the server sends of a match: pure functions that turn engine values into JSON-ready dicts,
with cards in record notation (``"Ah"``). No I/O, no table logic.

:func:`view_json` is what one seat may know, :func:`public_json` what a spectator may know, and
:func:`public_event` what everyone may learn from one action (a discard never carries its cards),
and :func:`log_lines` the lines of the play log that action makes besides its own, in order.
:mod:`smear.server.wire.protocol` re-exports them beside the inbound messages; docs/protocol.md
describes every field.

>>> from smear import parse_action
>>> public_event(2, parse_action("discard 2c 3d"))
{'seat': 2, 'action': {'kind': 'discard', 'count': 2}}
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import orjson

from smear.actionjson import action_json, public_action_json
from smear.actions import Action
from smear.cards import Card, CardSet, Suit
from smear.knowledge import out_of_hand, seat_out_of_hand
from smear.rules import Rules
from smear.scoring import eliminated_sides
from smear.standings import standings_json
from smear.state import BidderDraws, HandResult, Phase, PublicState
from smear.trick import Trick, TrumpOrder, display_order, order_for, winning_index
from smear.views import PlayerView

__all__ = [
    "DISCARDS_LISTED",
    "Encoded",
    "encode",
    "log_lines",
    "public_event",
    "public_json",
    "public_text",
    "result_json",
    "view_json",
    "view_text",
]


# A JSON value already encoded: a state shared by many recipients is encoded once and placed into
# each message as it is (orjson's fragments; the standard ``json`` module refuses them, so one is
# never sent by mistake as a string).
Encoded = orjson.Fragment


def encode(value: Any) -> Encoded:
    """``value`` encoded as compact JSON, its :data:`Encoded` parts placed as they are."""
    return orjson.Fragment(orjson.dumps(value))


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _rules_json(pub: PublicState) -> dict[str, Any]:
    """The rules of the match: the same for each of its states, so built once (and shared)."""
    built: dict[str, Any] = _rules_json_once(pub.rules, pub.dealt_count)
    return built


def _build_rules_json(rules: Rules, dealt_count: int) -> dict[str, Any]:
    return {
        "name": rules.name,
        "target": rules.target,
        "min_bid": rules.min_bid,
        "max_bid": rules.max_bid,
        "top_bid": rules.top_bid,
        "shoot_the_moon": rules.shoot_the_moon,
        # The bid that is the moon at this table (null where it may not be shot).
        "moon_bid": rules.top_bid if rules.shoot_the_moon else None,
        "elimination": rules.elimination,
        "kitty": rules.kitty,
        "widow": rules.widow,
        "refill": rules.refill,
        "take_stock": rules.take_stock,
        "keep_trumps": rules.keep_trumps,
        "keep_scoring_trumps": rules.keep_scoring_trumps,
        "bidder_leads_trump": rules.bidder_leads_trump,
        "trumps_only": rules.trumps_only,
        "jokers_to_holder": rules.jokers_to_holder,
        "only_bidder_wins": rules.only_bidder_wins,
        "trump_named": rules.trump_named,
        "hand_size": rules.hand_size,
        "cards_dealt": dealt_count,
        "jokers": rules.jokers,
        "points": list(rules.points),
        "point_values": dict(rules.point_values),
    }


def _trick_json(trick: Trick, order: TrumpOrder | None) -> dict[str, Any]:
    # A finished trick always has a trump order; the engine's own rule picks the card that won.
    assert order is not None
    return {
        "leader": trick.leader,
        "cards": _cards(trick.cards),
        "winner": trick.winner,
        "winning_card": str(trick.cards[winning_index(trick.cards, order)]),
        "seats": [seat for seat, _ in trick.plays()],
    }


def result_json(result: HandResult) -> dict[str, Any]:
    """A finished hand, hidden cards included (they are face up once the hand is over).

    ``bid`` and ``made`` are ``null`` for a hand thrown in because everyone passed; ``outcome`` says
    what became of the bid (``made``, ``set``, ``moon_made``, ``moon_reset``, ``moon_set`` or
    ``thrown_in``); ``points`` maps each point to the side that won it (or ``null``); ``out`` is the
    cards nobody was dealt and ``discards`` each seat's discards. ``ended_by`` says what ended the
    match with this hand (``null`` while it goes on) and ``above_target`` lists the sides at or above
    the target that have not won, each with ``why``.
    """
    thrown_in = result.bidder is None
    return {
        "number": result.number,
        "dealer": result.dealer,
        "bidder": result.bidder,
        "bid": None if thrown_in else result.bid,
        "trump": None if result.trump is None else result.trump.letter,
        "points": dict(result.points),
        "game_points": list(result.game_points),
        "taken": list(result.taken),
        "made": None if thrown_in else result.made,
        "outcome": result.outcome.value,
        "scores": list(result.scores),
        "out": _cards(result.out),
        "discards": [_cards(cards) for cards in result.discards],
        "ended_by": None if result.ended_by is None else result.ended_by.value,
        "above_target": [{"side": side, "why": why.value} for side, why in result.above_target],
    }


class _BuiltOnce:
    """JSON built once per engine value that never changes (a finished hand's result or trick, a
    match's rules), found by identity; the value is kept beside its JSON, so its id is not reused
    while cached. The oldest entries go first. Further arguments go to ``build`` and, with
    ``keyed``, are part of the key (they must be hashable); otherwise they must follow from the
    value."""

    def __init__(self, build: Callable[..., Any], size: int = 16384, keyed: bool = False) -> None:
        self._build = build
        self._size = size
        self._keyed = keyed
        # Ordered so that the oldest goes in constant time: a dict's first key, after many taken
        # from its front, is found only past every slot they left.
        self._built: OrderedDict[Any, tuple[Any, Any]] = OrderedDict()

    def __call__(self, value: Any, *further: Any) -> Any:
        key = (id(value), *further) if self._keyed else id(value)
        cached = self._built.get(key)
        if cached is not None and cached[0] is value:
            return cached[1]
        if len(self._built) >= self._size:
            self._built.popitem(last=False)
        built = self._build(value, *further)
        self._built[key] = (value, built)
        return built


# Every later state carries each finished hand's result and each trick of the hand so far. The
# states of one hand share their tuple of results, and those of one trick their tuple of tricks, so
# the lists are built once too.
_result_json_once = _BuiltOnce(result_json)
_trick_json_once = _BuiltOnce(_trick_json)  # a trick's trump order is its hand's
_results_json_once = _BuiltOnce(lambda results: [_result_json_once(result) for result in results])
_tricks_json_once = _BuiltOnce(lambda tricks, order: [_trick_json_once(trick, order) for trick in tricks])
# A table's rules (with the cards dealt to each player) are the same for all its states.
_rules_json_once = _BuiltOnce(_build_rules_json, size=1024, keyed=True)


def _hand_json(rules: Rules, cards: int, trump: Suit | None) -> tuple[list[str], list[str]]:
    """A hand (a card mask) as a player sorts it, and its trumps in that order. Each seat's hand
    stays the same through the three plays of the others, so this is built once per hand."""
    hand = display_order(CardSet(cards), trump, rules)
    if trump is None:
        return _cards(hand), []
    power = order_for(rules, trump).power
    return _cards(hand), _cards(card for card in hand if power[card])


_hand_json_once = _BuiltOnce(_hand_json, keyed=True)


# A broadcast sends the same public state inside every seat's view: build and encode it once per
# state (the state kept beside its JSON, so its id is not reused while cached).
_last_public: list[Any] = [None, None, None]


def public_json(pub: PublicState) -> dict[str, Any]:
    """The public state as JSON-ready data (shared between callers, and its results between states:
    do not change it)."""
    if _last_public[0] is not pub:
        _last_public[:] = [pub, _public_json(pub), None]
    result: dict[str, Any] = _last_public[1]
    return result


def public_text(pub: PublicState) -> Encoded:
    """:func:`public_json` encoded, once per state."""
    data = public_json(pub)
    if _last_public[2] is None:
        _last_public[2] = encode(data)
    text: Encoded = _last_public[2]
    return text


def _public_json(pub: PublicState) -> dict[str, Any]:
    """What every seat and spectator may see of a match (never the deck or the trump tables)."""
    return {
        "rules": _rules_json(pub),
        "players": pub.players,
        "sides": [list(side) for side in pub.sides],
        "seat_side": list(pub.seat_side),
        "scores": list(pub.scores),
        "start_scores": list(pub.start_scores),
        "hand_number": pub.hand_number,
        "dealer": pub.dealer,
        "phase": pub.phase.value,
        "to_act": pub.to_act,
        "bids": [[seat, amount] for seat, amount in pub.bid_history()],
        "bidder": pub.bidder,
        "bid": pub.bid,
        "trump": None if pub.trump is None else pub.trump.letter,
        "leader": pub.leader,
        "trick": [[seat, str(card)] for seat, card in pub.trick_plays],
        "tricks": _tricks_json_once(pub.tricks, pub.order),
        "hand_sizes": list(pub.hand_sizes()),
        "out_of_hand": list(out_of_hand(pub)),
        "took": pub.took,
        "bidder_took": dict(zip(BidderDraws._fields, pub.bidder_draws(), strict=True)),
        "drawn": pub.drawn,
        "discarded": list(pub.discarded),
        "refilled": [pub.refilled(seat) for seat in range(pub.players)],
        "refills": [pub.refills_after_discard(seat) for seat in range(pub.players)],
        "stock_left": pub.stock_left,
        "widow_left": pub.widow_left,
        "stock": pub.stock_left - pub.widow_left,
        "results": _results_json_once(pub.results),
        "winner": pub.winner,
        "ended_by": _ended_by(pub),
        "eliminated": list(eliminated_sides(pub.rules, pub.scores)),
        "standings": standings_json(pub) if pub.phase is Phase.MATCH_OVER else None,
    }


def _ended_by(pub: PublicState) -> str | None:
    """What ended the match, as its last hand's result says (a match ends only with a hand)."""
    ended_by = pub.results[-1].ended_by if pub.winner is not None else None
    return None if ended_by is None else ended_by.value


# The most discards a view lists one by one in ``legal``.
DISCARDS_LISTED = 1000


def view_json(view: PlayerView) -> dict[str, Any]:
    """One seat's view: its own hand (sorted as a player holds it), its discards, its legal actions
    (:func:`smear.actionjson.action_json`; empty unless it is its turn), and the public state.

    On its turn to discard, ``discard`` says which discards are legal: ``count`` cards, all of
    ``required`` and the rest from ``choosable``; ``legal`` lists them only when there are at most
    ``DISCARDS_LISTED`` (McLeod's bidder can have over a hundred thousand); ``draws`` is what the
    stock deals it back afterwards, ``holds`` its cards then, and ``stock_short`` whether the stock
    runs out first (see ``PublicState.refill_after``). Otherwise ``discard`` is ``null``.

    ``trumps_in_hand`` is the seat's own trumps, in hand order (empty before trump is known), and
    ``out_of_hand`` the seats this seat knows to be out of the hand: the public ones, and itself
    when it holds no trump (see :mod:`smear.knowledge`). Where only trumps are played,
    ``dead_cards`` is the cards of its hand it can never play this hand, once play has begun, and
    ``extra_trumps`` how many cards it plays one after another to the first trick on its turn.
    """
    pub = view.public
    options = view.discard_options()
    discard = None
    listed: Sequence[Action] | None = view.legal_actions
    if options is not None:
        if math.comb(len(options.choosable), options.free) > DISCARDS_LISTED:
            listed = None
        refill = pub.refill_after(view.seat, view.hand.mask, options.size)
        discard = {
            "count": options.size,
            "required": _cards(display_order(options.required, pub.trump, pub.rules)),
            "choosable": _cards(display_order(options.choosable, pub.trump, pub.rules)),
            "draws": refill.draws,
            "holds": refill.holds,
            "stock_short": refill.short,
        }
    hand, trumps_in_hand = _hand_json_once(pub.rules, view.hand.mask, pub.trump)
    dead = view.dead_cards()
    return {
        "seat": view.seat,
        "hand": hand,
        "trumps_in_hand": trumps_in_hand,
        "out_of_hand": list(seat_out_of_hand(view)),
        "discards": _cards(display_order(view.discards, pub.trump, pub.rules)) if view.discards else [],
        "legal": [] if listed is None else [action_json(action) for action in listed],
        "discard": discard,
        "dead_cards": _cards(display_order(dead, pub.trump, pub.rules)) if dead else [],
        "extra_trumps": view.extra_trumps(),
        "public": public_json(pub),
    }


def view_text(view: PlayerView) -> Encoded:
    """:func:`view_json` encoded, its public state placed as the text every seat shares."""
    return encode(view_json(view) | {"public": public_text(view.public)})


def public_event(seat: int, action: Action) -> dict[str, Any]:
    """What everyone may learn from ``seat`` taking ``action``.

    ``{"seat": 2, "action": {"text": "bid 3", "kind": "bid", "amount": 3}}``; a discard is
    ``{"seat": 2, "action": {"kind": "discard", "count": 4}}`` and never names its cards.
    """
    return {"seat": seat, "action": public_action_json(action)}


def log_lines(before: PublicState, after: PublicState) -> list[dict[str, Any]]:
    """The play log's lines an action taking ``before`` to ``after`` makes after its own, in the
    order a player reads them: the trick it won, then the refill of a seat that just discarded, then
    the kitty (after the last bid) and the stock (just before the bidder discards) the bidder took.

    Each is ``{"kind": "trick", "seat": s}`` or ``{"kind": "kitty" | "stock" | "refill", "seat": s,
    "count": n}``: seats and public counts only, never a card. The widow has its own action.
    """
    lines: list[dict[str, Any]] = []
    if len(after.tricks) > len(before.tricks):
        lines.append({"kind": "trick", "seat": after.tricks[-1].winner})
    for seat in range(after.players):
        discarded_now = _count_at(after.discarded, seat) and not _count_at(before.discarded, seat)
        if discarded_now and after.refills_after_discard(seat):
            lines.append({"kind": "refill", "seat": seat, "count": after.refilled(seat)})
    if after.bidder is not None:
        took, takes = before.bidder_draws(), after.bidder_draws()
        if takes.kitty > took.kitty:
            lines.append({"kind": "kitty", "seat": after.bidder, "count": takes.kitty - took.kitty})
        if takes.stock > took.stock:
            lines.append({"kind": "stock", "seat": after.bidder, "count": takes.stock - took.stock})
    return lines


def _count_at(counts: Sequence[int], seat: int) -> int:
    """A seat's count in a per-seat tuple that is empty before anyone has one."""
    return counts[seat] if counts else 0
