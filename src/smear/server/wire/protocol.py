"""The messages between the browser and the game server, and nothing else: no I/O, no table logic.

Inbound: every client event carries one JSON object, checked here against a strict pydantic model
(:data:`INBOUND` maps each event name to its model) by :func:`parse_inbound`, which refuses anything
else with a :class:`ProtocolError` whose ``code`` is a key of :data:`ERROR_CODES`.

Outbound: the JSON of engine values (:func:`view_json`, :func:`public_json`, :func:`public_event`)
lives in :mod:`smear.server.wire.outbound` and is re-exported here. See docs/protocol.md for the whole
protocol.

>>> parse_inbound("watch_table", '{"table": "kitchen-42"}')
WatchTable(table='kitchen-42')
>>> error_payload("stale_version", version=12)["message"]
'the table has moved on to version 12: update and try again'
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal, TypeVar, get_args

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError
from pydantic_core import PydanticCustomError

from smear.rules import PRESETS
from smear.server.storage.schema import REPORT_REASONS
from smear.server.wire import outbound
from smear.server.wire.errorcodes import (
    ENGLISH_ONLY,
    ERROR_ARGS,
    ERROR_CODES,
    ProtocolError,
    error_payload,
    illegal_action_args,
    illegal_action_payload,
)

# The outbound half of the protocol, re-exported whole: its __all__ is the one list of its names.
from smear.server.wire.outbound import *  # noqa: F403

__all__ = [
    "CHAT_LENGTH",
    "ENGLISH_ONLY",
    "ERROR_ARGS",
    "ERROR_CODES",
    "INBOUND",
    "MAX_MESSAGE_BYTES",
    "REACTIONS",
    "REPORT_TEXT_MAX",
    "Act",
    "BidAdvice",
    "Chat",
    "ChatHistory",
    "ChatSettings",
    "CreateTable",
    "Hello",
    "Hint",
    "HistoryReport",
    "JoinTable",
    "Kick",
    "Leave",
    "ListTable",
    "Message",
    "Mute",
    "OpenTables",
    "OtherPlayer",
    "PlayAgain",
    "ProfileProof",
    "ProtocolError",
    "React",
    "Report",
    "Resume",
    "ReviewHand",
    "ReviewMatch",
    "SetBot",
    "Start",
    "TakeSeat",
    "WatchTable",
    "echoed",
    "error_payload",
    "illegal_action_args",
    "illegal_action_payload",
    "parse_inbound",
    "parse_message",
]
__all__ += outbound.__all__

# The largest message accepted, in bytes of JSON text (UTF-8).
MAX_MESSAGE_BYTES = 4096

# Table settings a client may choose from.
TARGETS = (11, 21, 31, 52)
TURN_TIMERS = (0, 15, 30, 60)
# A name's longest, in code points of its NFC form once trimmed.
NAME_LENGTH = 24
# A chat line's longest text, in code points of its NFC form once trimmed.
CHAT_LENGTH = 300
# The reactions a seat may show during play: the client words each in its reader's language.
Reaction = Literal["thumbs_up", "well_played", "oops", "thanks", "hurry_up"]
REACTIONS: tuple[str, ...] = get_args(Reaction)
MAX_SEATS = 8
# Versions stay within the integers a JavaScript number holds exactly.
MAX_VERSION = 2**53 - 1

M = TypeVar("M", bound=BaseModel)

# The errors (codes, templates, payloads) are in smear.server.wire.errorcodes, re-exported here.

# --- inbound messages -----------------------------------------------------------------------------

# Invisible characters that reorder text (bidirectional overrides and isolates): refused in names.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Unicode categories refused in names: controls, surrogates, private use, unassigned, line breaks.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
# Letters and symbols drawn as blank space: the Hangul fillers and the braille blank.
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Format characters a name keeps where they join two characters that show: emoji sequences (ZWJ),
# Persian and Indic words (ZWNJ).
_JOINERS = frozenset("\u200c\u200d")


def _shows(char: str) -> bool:
    """Whether ``char`` draws something by itself: a letter, number, punctuation mark or symbol, and
    not one drawn as blank space. Spaces, marks (variation selectors, combining accents) and
    format characters (Cf: zero-width spaces, joiners, tags, the BOM) do not."""
    return unicodedata.category(char)[0] in "LNPS" and char not in _BLANK_LOOKING


def _check_visible_text(text: str, what: str, limit: int) -> str:
    """``text`` in NFC, refused if longer than ``limit``, with a control character, or with nothing
    that shows."""
    text = unicodedata.normalize("NFC", text)
    if len(text) > limit:
        raise PydanticCustomError(
            f"{what}_too_long", f"a {what} has at most {{limit}} characters", {"limit": limit}
        )
    for char in text:
        if char in _BIDI_CONTROLS or unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise PydanticCustomError(f"{what}_control", f"a {what} may not contain control characters")
    if not any(_shows(char) for char in text):
        raise PydanticCustomError(f"{what}_invisible", f"a {what} needs a visible character")
    return text


def _hidden_character(name: str) -> bool:
    """Whether ``name`` holds a format character (Cf) other than a joiner between two characters
    that show."""
    return any(
        unicodedata.category(char) == "Cf" and not (char in _JOINERS and _joins(name, index))
        for index, char in enumerate(name)
    )


def _joins(name: str, index: int) -> bool:
    """Whether the joiner at ``index`` stands between two characters that show; marks before it are
    passed over (🏳️‍🌈 is a flag, a variation selector, the joiner and a rainbow)."""
    left = next((char for char in reversed(name[:index]) if unicodedata.category(char)[0] != "M"), "")
    right = name[index + 1 : index + 2]
    return bool(left and right) and _shows(left) and _shows(right)


def _check_name(name: str) -> str:
    """A name shows what it is: something that shows (not only spaces, marks, format characters,
    Hangul fillers or braille blanks), and no format character hidden in it but joiners."""
    name = _check_visible_text(name, "name", NAME_LENGTH)
    if _hidden_character(name):
        raise PydanticCustomError("name_hidden", "a name may not contain invisible characters")
    return name


def _check_chat_text(text: str) -> str:
    return _check_visible_text(text, "line", CHAT_LENGTH)


def _check_report_text(text: str) -> str:
    return text if text == "" else _check_visible_text(text, "line", REPORT_TEXT_MAX)


def _check_report_reason(reason: str) -> str:
    if reason not in REPORT_REASONS:
        raise PydanticCustomError(
            "unknown_reason", "unknown reason (reasons: {reasons})", {"reasons": ", ".join(REPORT_REASONS)}
        )
    return reason


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


# A display name: 1..24 characters once surrounding spaces are stripped, no control or hidden
# characters, and something that shows (see _check_name).
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
# A player's profile: its public id, and a secret only its browsers know.
PlayerId = Annotated[str, StringConstraints(min_length=3, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
ProfileSecret = Annotated[str, StringConstraints(min_length=16, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
# A code carrying a profile to another device is typed by hand: no 0/O or 1/I/L to mistake; it is
# shown in groups split by dashes.
TRANSFER_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
TRANSFER_CODE_LENGTH = 8
TRANSFER_CODE_GROUP = 4
Version = Annotated[int, Field(ge=0, le=MAX_VERSION)]
Preset = Annotated[str, StringConstraints(max_length=32), AfterValidator(_check_preset)]
BotLevel = Annotated[str, StringConstraints(min_length=1, max_length=24, pattern=r"^[a-z][a-z0-9_]*$")]
ActionText = Annotated[str, StringConstraints(min_length=1, max_length=160)]
# A chat line: one line of plain text (a client shows it as text, never as markup).
ChatText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1),
    AfterValidator(_check_chat_text),
]


# A report's reason (one of REPORT_REASONS) and its optional line: at most REPORT_TEXT_MAX characters
# here, and at most the server's own limit (smear.server.limits.Limits.report_text) where it is answered.
REPORT_TEXT_MAX = 1_000
ReportReason = Annotated[str, StringConstraints(max_length=32), AfterValidator(_check_report_reason)]
ReportText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, max_length=4 * REPORT_TEXT_MAX),
    AfterValidator(_check_report_text),
]
PlayedMatchId = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]


class _Message(BaseModel):
    """Strict: no coercion (a bool is not an int, a number is not a string), no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Message(_Message):
    """A message of the protocol outside the client events (an HTTP request's body), as strict."""


class ProfileProof(_Message):
    """A profile and one of its secrets: the seat taken is linked to that profile."""

    player: PlayerId
    secret: ProfileSecret


class CreateTable(_Message):
    """``create_table``: open a table and take its first seat as host."""

    name: Name
    profile: ProfileProof | None = None
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
    profile: ProfileProof | None = None


class FindGame(_Message):
    """``find_game``: a seat at a matchmade table of this game, a bot's taken from the next hand, or
    a new one's with bots in the other seats."""

    name: Name
    profile: ProfileProof | None = None
    preset: Preset
    players: Annotated[int, Field(ge=2, le=MAX_SEATS)]
    teams: bool


class TakeBotSeat(_Message):
    """``take_bot_seat``: take a bot's seat at a matchmade table from its next hand."""

    table: TableCode
    name: Name
    profile: ProfileProof | None = None


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


class Rematch(_Message):
    """``rematch``: after a match, this seat will play again (``ready``) or not; the host also says
    whether partners are drawn anew. The next match starts once every person seated is ready."""

    table: TableCode
    token: SeatToken
    ready: bool
    new_partners: bool = False


class Leave(_Message):
    """``leave``: give up a seat (a bot plays it if the match is under way)."""

    table: TableCode
    token: SeatToken


class Hint(_Message):
    """``hint``: ask the expert bot what it would do in this seat's place (if the table allows)."""

    table: TableCode
    token: SeatToken


class BidAdvice(_Message):
    """``bid_advice``: on the seat's turn in the auction, each bid and passing with its chances (if
    the table allows hints)."""

    table: TableCode
    token: SeatToken


class ReviewHand(_Message):
    """``review_hand``: the seat's decisions in a hand of the match that is over, judged by the
    expert (if the table allows hints); ``hand`` counts the match's hands from 0."""

    table: TableCode
    token: SeatToken
    hand: Annotated[int, Field(ge=0, le=MAX_VERSION)]


class ReviewMatch(_Message):
    """``review_match``: once the match is over, every seat's decisions and total loss, and this
    seat's costliest decisions (if the table allows hints)."""

    table: TableCode
    token: SeatToken


class React(_Message):
    """``react``: show one of :data:`REACTIONS` at the seat, to everyone at the table."""

    table: TableCode
    token: SeatToken
    reaction: Reaction


class Chat(_Message):
    """``chat``: a line in the table's chat, from a seat (``token``) or a spectator (``name``)."""

    table: TableCode
    token: SeatToken | None = None
    name: Name | None = None
    text: ChatText


class ChatHistory(_Message):
    """``chat_history``: the table's kept chat lines, for a socket that follows the table."""

    table: TableCode


class ChatSettings(_Message):
    """``chat_settings``: the host turns the chat on or off, and lets spectators write or not."""

    table: TableCode
    token: SeatToken
    on: bool
    spectators: bool


class Mute(_Message):
    """``mute``: the host mutes a seat in the chat, or lets it speak again."""

    table: TableCode
    token: SeatToken
    seat: Seat
    muted: bool


class Report(_Message):
    """``report``: a seat (``token``) or a spectator reports the player in ``seat`` for the operator."""

    table: TableCode
    token: SeatToken | None = None
    seat: Seat
    reason: ReportReason
    text: ReportText = ""


class Hello(_Message):
    """``hello``: the socket is this profile's open page (its friends see it online, and its
    invitations reach it)."""

    profile: ProfileProof


class OtherPlayer(_Message):
    """The body of a friend request or a block: the other profile's id."""

    player: PlayerId


class HistoryReport(_Message):
    """The body of ``POST /api/players/{player}/reports``: the player in ``seat`` of finished match
    ``match`` (one the profile played), reported for the operator."""

    match: PlayedMatchId
    seat: Seat
    reason: ReportReason
    text: ReportText = ""


class ListTable(_Message):
    """``list_table``: the host lists the table as open (anyone may find and join it) or not."""

    table: TableCode
    token: SeatToken
    listed: bool


class OpenTables(_Message):
    """``open_tables``: the open tables waiting for players, and (``watch``) their changes from now on."""

    watch: bool


# Every client event and the model of its payload.
INBOUND: dict[str, type[BaseModel]] = {
    "create_table": CreateTable,
    "join_table": JoinTable,
    "find_game": FindGame,
    "take_bot_seat": TakeBotSeat,
    "watch_table": WatchTable,
    "resume": Resume,
    "take_seat": TakeSeat,
    "set_bot": SetBot,
    "kick": Kick,
    "start": Start,
    "act": Act,
    "play_again": PlayAgain,
    "rematch": Rematch,
    "leave": Leave,
    "hint": Hint,
    "bid_advice": BidAdvice,
    "review_hand": ReviewHand,
    "review_match": ReviewMatch,
    "react": React,
    "chat": Chat,
    "chat_history": ChatHistory,
    "chat_settings": ChatSettings,
    "mute": Mute,
    "report": Report,
    "list_table": ListTable,
    "open_tables": OpenTables,
    "hello": Hello,
}

_EVENT_ECHO = 40  # an unknown event name is echoed back cut to this length


def echoed(text: str) -> str:
    """A client's text as an error may quote it: cut short, and with what UTF-8 cannot carry (a lone
    surrogate, sent as ``"\\ud800"`` in the JSON) replaced by ``?``, so the answer can be encoded."""
    return text[:_EVENT_ECHO].encode("utf-8", "replace").decode("utf-8")


class NotJson:
    """What a client's message held where JSON has no value: NaN, Infinity, or a number too large
    for a float. A message holding one is ``malformed_json``."""


NOT_JSON = NotJson()


def _json_size(data: dict[str, Any]) -> int:
    """The bytes of ``data`` as compact JSON in UTF-8; raises TypeError or ValueError for what JSON
    cannot hold (:class:`NotJson`, a lone surrogate) and RecursionError when too deep."""
    try:
        return len(orjson.dumps(data))
    except TypeError:  # also past orjson's limits (integers past 64 bits, nesting) that JSON allows
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return len(text.encode("utf-8"))  # a lone surrogate ("\ud800" in the JSON) cannot be encoded


def _decode(data: Any) -> dict[str, Any]:
    """The JSON object of a message given as a dict or as JSON text, within the size limit."""
    if isinstance(data, dict):
        try:
            size = _json_size(data)
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


def parse_message(model: type[M], data: Any) -> M:
    """``data`` (a dict or JSON text) as ``model``, checked as :func:`parse_inbound` checks an event."""
    fields = _decode(data)
    try:
        return model.model_validate(fields)
    except ValidationError as err:
        raise _first_problem(err) from None


def parse_inbound(event: str, data: Any) -> BaseModel:
    """The typed message of a client event, from a dict or a str/bytes of JSON.

    Checks, in order: the event is known (``unknown_event``), the message is at most
    :data:`MAX_MESSAGE_BYTES` of JSON (``message_too_large``), it is a JSON object
    (``malformed_json``), it fits the event's model (``invalid_message``, first problem only).
    """
    model = INBOUND.get(event) if isinstance(event, str) else None
    if model is None:
        raise ProtocolError("unknown_event", event=echoed(str(event)))
    fields = _decode(data)
    try:
        return model.model_validate(fields)
    except ValidationError as err:
        raise _first_problem(err) from None
