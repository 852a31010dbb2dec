"""The messages between the browser and the game server, and nothing else: no I/O, no table logic.

Inbound: every client event carries one JSON object, checked here against a strict pydantic model
(:data:`INBOUND` maps each event name to its model) by :func:`parse_inbound`, which refuses anything
else with a :class:`ProtocolError` whose ``code`` is a key of :data:`ERROR_CODES`.

Outbound: pure functions that turn engine values into JSON-ready dicts, with cards in record notation
(``"Ah"``). :func:`view_json` is what one seat may know, :func:`public_json` what a spectator may know,
and :func:`public_event` what everyone may learn from one action (a discard never carries its cards).
See docs/protocol.md for the whole protocol.

>>> parse_inbound("watch_table", '{"table": "kitchen-42"}')
WatchTable(table='kitchen-42')
>>> error_payload("stale_version", version=12)["message"]
'the table has moved on to version 12: update and try again'
"""

from __future__ import annotations

import json
import math
import string
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError
from pydantic_core import PydanticCustomError

from smear.actions import Action, Discard
from smear.cards import Card
from smear.errors import IllegalActionError, SmearError
from smear.knowledge import out_of_hand, seat_out_of_hand
from smear.rules import PRESETS
from smear.state import HandResult, PublicState
from smear.trick import Trick, TrumpOrder, display_order, winning_index
from smear.views import PlayerView

__all__ = [
    "ENGLISH_ONLY",
    "ERROR_ARGS",
    "ERROR_CODES",
    "INBOUND",
    "MAX_MESSAGE_BYTES",
    "Act",
    "CreateTable",
    "Hint",
    "JoinTable",
    "Kick",
    "Leave",
    "PlayAgain",
    "ProtocolError",
    "Resume",
    "SetBot",
    "Start",
    "TakeSeat",
    "WatchTable",
    "error_payload",
    "illegal_action_args",
    "illegal_action_payload",
    "parse_inbound",
    "public_event",
    "public_json",
    "result_json",
    "view_json",
]

# The largest message accepted, in bytes of JSON text (UTF-8).
MAX_MESSAGE_BYTES = 4096

# Table settings a client may choose from.
TARGETS = (11, 21, 31, 52)
TURN_TIMERS = (0, 15, 30, 60)
NAME_LENGTH = 24
MAX_SEATS = 8
# Versions stay within the integers a JavaScript number holds exactly.
MAX_VERSION = 2**53 - 1

# --- errors ---------------------------------------------------------------------------------------

# Every error code the server sends, with an English fallback text; {placeholders} come from args.
ERROR_CODES: dict[str, str] = {
    "malformed_json": "the message is not a JSON object",
    "message_too_large": "the message is larger than {limit} bytes",
    "unknown_event": "there is no event called {event}",
    "invalid_message": "invalid message: {field}: {problem}",
    "rate_limited": "too many messages: wait a moment and try again",
    "no_such_table": "there is no table with that code",
    "table_full": "every seat at this table is taken",
    "bad_token": "this seat token is not valid at this table",
    "not_host": "only the host may do that",
    "not_in_lobby": "that can only be done in the lobby, before the match starts",
    "seat_taken": "seat {seat} is taken",
    "no_such_seat": "there is no seat {seat} at this table",
    "not_enough_players": "every seat needs a player or a bot before the match can start",
    "match_over": "the match is over",
    "not_your_turn": "it is not your turn",
    "stale_version": "the table has moved on to version {version}: update and try again",
    "illegal_action": "{reason}",
    "bad_action": "{reason}",
    "rules_refused": "the rules refuse these settings: {reason}",
    "hints_off": "hints are turned off at this table",
    "hints_busy": "the hints are busy: try again in a moment",
    "not_stored": "the server could not save that, so nothing changed: try again",
    "too_many_tables": "this address has created {limit} tables in the last hour: try again later",
    "too_many_connections": "too many connections from this address (at most {limit})",
    "too_many_spectators": "this table already has {limit} spectators",
    "server_full": "the server has no room for another table right now: try again later",
    "internal_error": "something went wrong on the server",
}

# Placeholders filled with English words: they make the message and are never sent as args (a
# client reads the codes beside them: ``reason_code``, ``problem_code``).
ENGLISH_ONLY = frozenset({"reason", "problem"})

# The args each code's template needs (the server may send more, never fewer).
ERROR_ARGS: dict[str, tuple[str, ...]] = {
    code: tuple(
        name for _, name, _, _ in string.Formatter().parse(template) if name and name not in ENGLISH_ONLY
    )
    for code, template in ERROR_CODES.items()
}


class _Keep(dict[str, "str | int"]):
    """Leaves a placeholder without a value as it is instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _fill(code: str, args: Mapping[str, str | int]) -> str:
    try:
        template = ERROR_CODES[code]
    except KeyError:
        raise ValueError(f"unknown error code: {code!r}") from None
    return template.format_map(_Keep(args))


class ProtocolError(SmearError):
    """A message the server refuses before it reaches a table: ``code`` is a key of
    :data:`ERROR_CODES` and ``args_map`` fills its template; ``str(err)`` is the English text."""

    def __init__(self, code: str, **args: str | int) -> None:
        self.code = code
        self.args_map: dict[str, str | int] = dict(args)
        super().__init__(_fill(code, self.args_map))

    def payload(self) -> dict[str, Any]:
        """The error as the server sends it: ``{"code", "args", "message"}``."""
        return error_payload(self.code, **self.args_map)


def error_payload(code: str, **args: str | int) -> dict[str, Any]:
    """``{"code": code, "args": args, "message": the English template filled with args}``.

    The args in :data:`ENGLISH_ONLY` fill the message and are left out of ``args``. An unknown code
    is a programming error (``ValueError``); a missing arg leaves its placeholder.
    """
    sent = {name: value for name, value in args.items() if name not in ENGLISH_ONLY}
    return {"code": code, "args": sent, "message": _fill(code, args)}


def illegal_action_args(err: IllegalActionError) -> dict[str, str | int]:
    """The args of the ``illegal_action`` error for ``err``: ``reason_code`` (the engine's code, a
    key of ``smear.errors.REASONS``), the engine's args for it, ``action``, and the English
    ``reason`` that makes the message (never sent as an arg)."""
    args: dict[str, str | int] = dict(err.args_map)
    args["action"] = err.action
    args["reason_code"] = err.code
    args["reason"] = str(err)
    return args


def illegal_action_payload(err: IllegalActionError) -> dict[str, Any]:
    """The ``illegal_action`` error for an action the rules refused, for the seat that tried it only.

    Its message is the engine's English sentence spoken to the player. A refusal mentions at most
    the actor's own cards, which is why it goes to the actor and nobody else.
    """
    return error_payload("illegal_action", **illegal_action_args(err))


# --- inbound messages -----------------------------------------------------------------------------

# Invisible characters that reorder text (bidirectional overrides and isolates): refused in names.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Unicode categories refused in names: controls, surrogates, private use, unassigned, line breaks.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})


def _check_name(name: str) -> str:
    name = unicodedata.normalize("NFC", name)
    if len(name) > NAME_LENGTH:
        raise PydanticCustomError(
            "name_too_long", "a name has at most {limit} characters", {"limit": NAME_LENGTH}
        )
    for char in name:
        if char in _BIDI_CONTROLS or unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise PydanticCustomError("name_control", "a name may not contain control characters")
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):
        raise PydanticCustomError("name_invisible", "a name needs a visible character")
    return name


def _check_preset(name: str) -> str:
    if name not in PRESETS:
        raise PydanticCustomError(
            "unknown_preset", "unknown preset (presets: {presets})", {"presets": ", ".join(PRESETS)}
        )
    return name


def _one_of(allowed: tuple[int, ...]) -> AfterValidator:
    def check(value: int) -> int:
        if value not in allowed:
            raise PydanticCustomError(
                "not_allowed", "must be one of {allowed}", {"allowed": ", ".join(map(str, allowed))}
            )
        return value

    return AfterValidator(check)


# A display name: 1..24 characters once surrounding spaces are stripped, no control characters.
Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1),
    AfterValidator(_check_name),
]
# A table code, as the server makes them.
TableCode = Annotated[str, StringConstraints(min_length=8, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
# The secret that holds a seat, given by create_table and join_table.
SeatToken = Annotated[str, StringConstraints(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
Seat = Annotated[int, Field(ge=0, le=MAX_SEATS - 1)]
Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]
Preset = Annotated[str, StringConstraints(max_length=32), AfterValidator(_check_preset)]
BotLevel = Annotated[str, StringConstraints(min_length=1, max_length=24, pattern=r"^[a-z][a-z0-9_]*$")]
ActionText = Annotated[str, StringConstraints(min_length=1, max_length=160)]


class _Message(BaseModel):
    """Strict: no coercion (a bool is not an int, a number is not a string), no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class CreateTable(_Message):
    """``create_table``: open a table and take its first seat as host."""

    name: Name
    preset: Preset
    players: Annotated[int, Field(ge=2, le=MAX_SEATS)]
    teams: bool
    target: Annotated[int, _one_of(TARGETS)] = 21
    turn_timer: Annotated[int, _one_of(TURN_TIMERS)] = 0
    bot_level: BotLevel = "heuristic"
    hints: bool = True
    shoot_the_moon: bool = False
    elimination: bool = False
    kitty: bool = False


class JoinTable(_Message):
    """``join_table``: take a free seat at a table in its lobby."""

    table: TableCode
    name: Name


class WatchTable(_Message):
    """``watch_table``: follow a table as a spectator."""

    table: TableCode


class Resume(_Message):
    """``resume``: reconnect to a seat, with the last version the client saw."""

    table: TableCode
    token: SeatToken
    version: Version


class TakeSeat(_Message):
    """``take_seat``: move to another free seat in the lobby."""

    table: TableCode
    token: SeatToken
    seat: Seat


class SetBot(_Message):
    """``set_bot``: the host puts a bot in an empty seat (``bot`` true) or takes it away."""

    table: TableCode
    token: SeatToken
    seat: Seat
    bot: bool


class Kick(_Message):
    """``kick``: the host empties a seat in the lobby."""

    table: TableCode
    token: SeatToken
    seat: Seat


class Start(_Message):
    """``start``: the host starts the match."""

    table: TableCode
    token: SeatToken


class Act(_Message):
    """``act``: a bid, pass, trump, discard or card in record notation, at the version last seen."""

    table: TableCode
    token: SeatToken
    version: Version
    action: ActionText


class PlayAgain(_Message):
    """``play_again``: the host opens the next match at the same table once a match is over."""

    table: TableCode
    token: SeatToken


class Leave(_Message):
    """``leave``: give up a seat (a bot plays it if the match is under way)."""

    table: TableCode
    token: SeatToken


class Hint(_Message):
    """``hint``: ask the expert bot what it would do in this seat's place (if the table allows)."""

    table: TableCode
    token: SeatToken


# Every client event and the model of its payload.
INBOUND: dict[str, type[BaseModel]] = {
    "create_table": CreateTable,
    "join_table": JoinTable,
    "watch_table": WatchTable,
    "resume": Resume,
    "take_seat": TakeSeat,
    "set_bot": SetBot,
    "kick": Kick,
    "start": Start,
    "act": Act,
    "play_again": PlayAgain,
    "leave": Leave,
    "hint": Hint,
}

_EVENT_ECHO = 40  # an unknown event name is echoed back cut to this length


def _decode(data: Any) -> dict[str, Any]:
    """The JSON object of a message given as a dict or as JSON text, within the size limit."""
    if isinstance(data, dict):
        try:
            text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
            size = len(text.encode("utf-8"))  # a lone surrogate ("\ud800" in the JSON) cannot be encoded
        except (TypeError, ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
            raise ProtocolError("malformed_json") from None
        if size > MAX_MESSAGE_BYTES:
            raise ProtocolError("message_too_large", limit=MAX_MESSAGE_BYTES)
        return data
    if isinstance(data, str):
        if len(data) > MAX_MESSAGE_BYTES:  # every character is at least one byte
            raise ProtocolError("message_too_large", limit=MAX_MESSAGE_BYTES)
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates
            raise ProtocolError("malformed_json") from None
    elif isinstance(data, bytes | bytearray):
        raw = bytes(data)
    else:
        raise ProtocolError("malformed_json")
    if len(raw) > MAX_MESSAGE_BYTES:
        raise ProtocolError("message_too_large", limit=MAX_MESSAGE_BYTES)
    try:
        value = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ProtocolError("malformed_json") from None
    if not isinstance(value, dict):
        raise ProtocolError("malformed_json")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _first_problem(err: ValidationError) -> ProtocolError:
    """``invalid_message`` naming the first field refused and why, without the value it had."""
    first = err.errors(include_url=False, include_input=False)[0]
    field = ".".join(str(part) for part in first["loc"])[:_EVENT_ECHO] or "(message)"
    # ``problem_code`` is the validator's code for the problem ("missing", "name_too_long"...); the
    # English ``problem`` goes into the message only.
    return ProtocolError("invalid_message", field=field, problem=first["msg"], problem_code=first["type"])


def parse_inbound(event: str, data: Any) -> BaseModel:
    """The typed message of a client event, from a dict or a str/bytes of JSON.

    Checks, in order: the event is known (``unknown_event``), the message is at most
    :data:`MAX_MESSAGE_BYTES` of JSON (``message_too_large``), it is a JSON object
    (``malformed_json``), it fits the event's model (``invalid_message``, first problem only).
    """
    model = INBOUND.get(event) if isinstance(event, str) else None
    if model is None:
        raise ProtocolError("unknown_event", event=str(event)[:_EVENT_ECHO])
    fields = _decode(data)
    try:
        return model.model_validate(fields)
    except ValidationError as err:
        raise _first_problem(err) from None


# --- outbound: what a seat or a spectator may see -------------------------------------------------


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _rules_json(pub: PublicState) -> dict[str, Any]:
    rules = pub.rules
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
        "cards_dealt": pub.dealt_count,
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
    cards nobody was dealt and ``discards`` each seat's discards.
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
    }


# A broadcast sends the same public state inside every seat's view: build it once per state.
_last_public: list[Any] = [None, None]


def public_json(pub: PublicState) -> dict[str, Any]:
    """The public state as JSON-ready data (shared between callers: do not change it)."""
    if _last_public[0] is not pub:
        _last_public[0], _last_public[1] = pub, _public_json(pub)
    result: dict[str, Any] = _last_public[1]
    return result


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
        "tricks": [_trick_json(trick, pub.order) for trick in pub.tricks],
        "hand_sizes": list(pub.hand_sizes()),
        "out_of_hand": list(out_of_hand(pub)),
        "took": pub.took,
        "bidder_took": pub.bidder_draws()._asdict(),
        "drawn": pub.drawn,
        "discarded": list(pub.discarded),
        "refilled": [pub.refilled(seat) for seat in range(pub.players)],
        "refills": [pub.refills_after_discard(seat) for seat in range(pub.players)],
        "stock_left": pub.stock_left,
        "widow_left": pub.widow_left,
        "stock": pub.stock_left - pub.widow_left,
        "results": [result_json(result) for result in pub.results],
        "winner": pub.winner,
    }


# The most discards a view lists one by one in ``legal``.
DISCARDS_LISTED = 1000


def view_json(view: PlayerView) -> dict[str, Any]:
    """One seat's view: its own hand (sorted as a player holds it), its discards, its legal actions
    in record notation (empty unless it is its turn), and the public state.

    On its turn to discard, ``discard`` says which discards are legal: ``count`` cards, all of
    ``required`` and the rest from ``choosable``; ``legal`` lists them only when there are at most
    ``DISCARDS_LISTED`` (McLeod's bidder can have over a hundred thousand). Otherwise ``discard``
    is ``null``.

    ``trumps_in_hand`` is the seat's own trumps, in hand order (empty before trump is known), and
    ``out_of_hand`` the seats this seat knows to be out of the hand: the public ones, and itself
    when it holds no trump (see :mod:`smear.knowledge`).
    """
    pub = view.public
    options = view.discard_options()
    discard = None
    listed: Sequence[Action] | None = view.legal_actions
    if options is not None:
        if math.comb(len(options.choosable), options.free) > DISCARDS_LISTED:
            listed = None
        discard = {
            "count": options.size,
            "required": _cards(display_order(options.required, pub.trump, pub.rules)),
            "choosable": _cards(display_order(options.choosable, pub.trump, pub.rules)),
        }
    hand = display_order(view.hand, pub.trump, pub.rules)
    power = pub.order.power if pub.order is not None else None
    return {
        "seat": view.seat,
        "hand": _cards(hand),
        "trumps_in_hand": [] if power is None else _cards(card for card in hand if power[card]),
        "out_of_hand": list(seat_out_of_hand(view)),
        "discards": _cards(display_order(view.discards, pub.trump, pub.rules)),
        "legal": [] if listed is None else [str(action) for action in listed],
        "discard": discard,
        "public": public_json(pub),
    }


def public_event(seat: int, action: Action) -> dict[str, Any]:
    """What everyone may learn from ``seat`` taking ``action``.

    ``{"seat": 2, "action": "bid 3"}``; a discard is ``{"seat": 2, "action": "discard", "count": 4}``
    and never names its cards.
    """
    if isinstance(action, Discard):
        return {"seat": seat, "action": "discard", "count": len(action.cards)}
    return {"seat": seat, "action": str(action)}
