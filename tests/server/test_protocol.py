"""The server's message layer: strict inbound models, error payloads, and outbound JSON that shows a
seat only what it may know (RULES.md section 5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from smear import (
    CardSet,
    Discard,
    IllegalActionError,
    apply,
    find_rules,
    new_match,
)
from smear.server.wire.guard import WireJson
from smear.server.wire.protocol import (
    ENGLISH_ONLY,
    ERROR_ARGS,
    ERROR_CODES,
    INBOUND,
    MAX_MESSAGE_BYTES,
    Act,
    BidAdvice,
    Chat,
    ChatHistory,
    ChatSettings,
    CreateTable,
    FindGame,
    Hello,
    Hint,
    JoinTable,
    Kick,
    Leave,
    ListTable,
    Mute,
    OpenTables,
    PlayAgain,
    ProtocolError,
    React,
    Rematch,
    Report,
    Resume,
    ReviewHand,
    ReviewMatch,
    SetBot,
    Start,
    TakeBotSeat,
    TakeSeat,
    WatchTable,
    error_payload,
    illegal_action_payload,
    parse_inbound,
)

TABLE = "kitchen-42"
TOKEN = "Zm9vYmFyYmF6cXV4LXRva2Vu"

# A valid message of every event.
VALID: dict[str, dict[str, Any]] = {
    "create_table": {"name": "Kemal", "preset": "house", "players": 4, "teams": True},
    "join_table": {"table": TABLE, "name": "Ada"},
    "find_game": {"name": "Ada", "preset": "house", "players": 4, "teams": True},
    "take_bot_seat": {"table": TABLE, "name": "Ada"},
    "watch_table": {"table": TABLE},
    "resume": {"table": TABLE, "token": TOKEN, "version": 7},
    "take_seat": {"table": TABLE, "token": TOKEN, "seat": 3},
    "set_bot": {"table": TABLE, "token": TOKEN, "seat": 2, "bot": True},
    "kick": {"table": TABLE, "token": TOKEN, "seat": 1},
    "start": {"table": TABLE, "token": TOKEN},
    "act": {"table": TABLE, "token": TOKEN, "version": 0, "action": "discard 2c 3d 4h 5s"},
    "play_again": {"table": TABLE, "token": TOKEN},
    "leave": {"table": TABLE, "token": TOKEN},
    "hint": {"table": TABLE, "token": TOKEN},
    "bid_advice": {"table": TABLE, "token": TOKEN},
    "review_hand": {"table": TABLE, "token": TOKEN, "hand": 0},
    "review_match": {"table": TABLE, "token": TOKEN},
    "react": {"table": TABLE, "token": TOKEN, "reaction": "well_played"},
    "chat": {"table": TABLE, "text": "good luck <b>all</b>"},
    "chat_history": {"table": TABLE},
    "chat_settings": {"table": TABLE, "token": TOKEN, "on": True, "spectators": False},
    "mute": {"table": TABLE, "token": TOKEN, "seat": 2, "muted": True},
    "report": {"table": TABLE, "seat": 1, "reason": "abusive_chat"},
    "list_table": {"table": TABLE, "token": TOKEN, "listed": True},
    "open_tables": {"watch": True},
    "hello": {"profile": {"player": "p-1234", "secret": "s" * 24}},
    "rematch": {"table": TABLE, "token": TOKEN, "ready": True},
}

MODELS: dict[str, type[BaseModel]] = {
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
    "rematch": Rematch,
}


def test_every_event_has_a_valid_example_here() -> None:
    assert set(VALID) == set(MODELS) == set(INBOUND)


def test_a_chat_line_comes_from_a_seat_or_a_named_spectator_and_stays_text() -> None:
    line = parse_inbound("chat", with_fields("chat", token=TOKEN))
    assert isinstance(line, Chat) and (line.token, line.name) == (TOKEN, None)
    line = parse_inbound("chat", with_fields("chat", name=" Ada ", text="  <script>x</script>  "))
    assert isinstance(line, Chat) and (line.name, line.text) == ("Ada", "<script>x</script>")
    assert refused_field("chat", with_fields("chat", name=5)) == "name"
    assert refused_field("chat", with_fields("chat", token="short")) == "token"
    rematch = parse_inbound("rematch", with_fields("rematch", new_partners=True))
    assert isinstance(rematch, Rematch) and rematch.new_partners


def refusal(event: str, data: Any) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_inbound(event, data)
    return caught.value


def refused_field(event: str, data: dict[str, Any]) -> str:
    err = refusal(event, data)
    assert err.code == "invalid_message", err
    return str(err.args_map["field"])


def with_fields(event: str, **changes: Any) -> dict[str, Any]:
    return {**VALID[event], **changes}


# --- inbound ---------------------------------------------------------------------------------------


def test_every_event_has_its_model() -> None:
    assert INBOUND == MODELS


@pytest.mark.parametrize("event", sorted(VALID))
def test_a_valid_message_is_accepted(event: str) -> None:
    message = parse_inbound(event, VALID[event])
    assert type(message) is MODELS[event]
    assert message.model_dump(include=set(VALID[event])) == VALID[event]


@pytest.mark.parametrize("event", sorted(VALID))
def test_every_missing_field_is_refused(event: str) -> None:
    for field in VALID[event]:
        data = {key: value for key, value in VALID[event].items() if key != field}
        assert refused_field(event, data) == field


@pytest.mark.parametrize("event", sorted(VALID))
def test_an_extra_field_is_refused(event: str) -> None:
    assert refused_field(event, with_fields(event, admin=True)) == "admin"


@pytest.mark.parametrize("event", sorted(VALID))
def test_a_field_of_the_wrong_type_is_refused(event: str) -> None:
    for field, value in VALID[event].items():
        wrong: Any = 5 if isinstance(value, str) else "5"
        assert refused_field(event, with_fields(event, **{field: wrong})) == field
        assert refused_field(event, with_fields(event, **{field: None})) == field
        assert refused_field(event, with_fields(event, **{field: [value]})) == field


def test_create_table_fills_the_defaults() -> None:
    message = parse_inbound("create_table", VALID["create_table"])
    assert isinstance(message, CreateTable)
    defaults = (message.target, message.turn_timer, message.bot_level, message.hints)
    assert defaults == (21, 0, "heuristic", True)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("players", True),  # a bool is not a number
        ("players", 4.0),
        ("players", 1),
        ("players", 9),
        ("teams", 1),  # a number is not a bool
        ("teams", "true"),
        ("target", 20),
        ("target", 21.0),
        ("turn_timer", False),
        ("turn_timer", 10),
        ("hints", 0),
        ("bot_level", ""),
        ("bot_level", "Random!"),
        ("preset", "House"),
        ("preset", "nine_point"),
        ("preset", "x" * 1000),
    ],
)
def test_create_table_refuses_bad_settings(field: str, value: Any) -> None:
    assert refused_field("create_table", with_fields("create_table", **{field: value})) == field


@pytest.mark.parametrize("target", [11, 21, 31, 52])
def test_create_table_accepts_each_target(target: int) -> None:
    message = parse_inbound("create_table", with_fields("create_table", target=target, turn_timer=60))
    assert isinstance(message, CreateTable)
    assert message.target == target


@pytest.mark.parametrize("event", ["create_table", "join_table", "find_game", "take_bot_seat"])
def test_names_are_stripped_and_bounded(event: str) -> None:
    message = parse_inbound(event, with_fields(event, name="  Zoë Ça 🂡  "))
    assert getattr(message, "name") == "Zoë Ça 🂡"  # noqa: B009
    assert getattr(parse_inbound(event, with_fields(event, name="x" * 24)), "name") == "x" * 24  # noqa: B009
    for bad in ["", "   ", "x" * 25, "\u200d"]:
        assert refused_field(event, with_fields(event, name=bad)) == "name", bad


@pytest.mark.parametrize(
    "name", ["Ada\nLovelace", "Ada\x00", "\x1b[31mAda", "Ada\u202eadA", "Ada\u2028Lovelace", "A\x7f"]
)
def test_names_with_control_characters_are_refused(name: str) -> None:
    err = refusal("join_table", with_fields("join_table", name=name))
    assert err.args_map == {
        "field": "name",
        "problem": "a name may not contain control characters",
        "problem_code": "name_control",
    }


@pytest.mark.parametrize(
    "code", ["short", "x" * 33, "kitchen 42", "kitchen/42", "kitchen.42", "kitchen-42\n", "kïtchen-42"]
)
def test_bad_table_codes_are_refused(code: str) -> None:
    for event in sorted(VALID):
        if "table" in VALID[event]:
            assert refused_field(event, with_fields(event, table=code)) == "table"


@pytest.mark.parametrize("token", ["x" * 15, "x" * 129, "a+b/c=" * 4, "Zm9vYmFy YmF6cXV4"])
def test_bad_tokens_are_refused(token: str) -> None:
    assert refused_field("start", with_fields("start", token=token)) == "token"


@pytest.mark.parametrize("event", ["resume", "act"])
def test_versions_are_whole_and_not_negative(event: str) -> None:
    for version in [-1, True, 1.0, "3", 2**53]:
        assert refused_field(event, with_fields(event, version=version)) == "version"


@pytest.mark.parametrize("event", ["take_seat", "set_bot", "kick"])
def test_seats_are_zero_to_seven(event: str) -> None:
    for seat in [-1, 8, True, False]:
        assert refused_field(event, with_fields(event, seat=seat)) == "seat"
    message = parse_inbound(event, with_fields(event, seat=7))
    assert getattr(message, "seat") == 7  # noqa: B009


def test_set_bot_wants_a_bool() -> None:
    assert refused_field("set_bot", with_fields("set_bot", bot=1)) == "bot"


def test_act_bounds_the_action_text() -> None:
    assert refused_field("act", with_fields("act", action="")) == "action"
    assert refused_field("act", with_fields("act", action="x" * 161)) == "action"
    message = parse_inbound("act", with_fields("act", action="Ah"))
    assert isinstance(message, Act)
    assert message.action == "Ah"


def test_a_refusal_does_not_echo_the_value() -> None:
    secret = "<script>alert(1)</script>"
    for event, data in [
        ("join_table", with_fields("join_table", name=secret)),
        ("create_table", with_fields("create_table", preset=secret)),
        ("start", with_fields("start", table=secret)),
        ("act", with_fields("act", version=secret)),
    ]:
        err = refusal(event, data)
        assert err.code == "invalid_message"
        assert "script" not in json.dumps(err.args_map) and "script" not in str(err)


def test_parse_inbound_reads_json_text() -> None:
    text = json.dumps(VALID["act"])
    assert parse_inbound("act", text) == parse_inbound("act", text.encode()) == Act(**VALID["act"])


@pytest.mark.parametrize(
    "data",
    ['{"table": ', "{'table': 'kitchen-42'}", "[1, 2]", '"text"', "null", "", b"\xff\xfe", '{"a": NaN}'],
)
def test_bad_json_is_refused(data: str | bytes) -> None:
    assert refusal("watch_table", data).code == "malformed_json"


@pytest.mark.parametrize(
    "data", [None, 42, [VALID["watch_table"]], {"table": b"kitchen-42"}, {"table": "kitchen\ud800"}]
)
def test_a_message_that_is_not_an_object_is_refused(data: Any) -> None:
    assert refusal("watch_table", data).code == "malformed_json"


@pytest.mark.parametrize(
    "inner", ['{"table": NaN}', '{"table": -Infinity}', '{"table": 1e999}', '{"table": "kitchen\\ud800"}']
)
def test_a_packet_holding_what_json_has_not_is_refused_though_it_parses(inner: str) -> None:
    # The packet's own JSON: orjson refuses these, the standard module reads them, and the message is
    # answered malformed_json as it was when only the standard module read packets.
    event = WireJson.loads(f'["watch_table",{inner}]')
    assert event[0] == "watch_table"
    assert refusal("watch_table", event[1]).code == "malformed_json"


def test_a_packet_orjson_reads_is_read_as_the_standard_module_reads_it() -> None:
    text = json.dumps(["act", VALID["act"] | {"deep": [[{"x": 1.5, "y": None, "z": "é"}]]}])
    assert WireJson.loads(text) == json.loads(text)


def test_deeply_nested_json_is_refused() -> None:
    assert refusal("watch_table", "[" * 3000 + "]" * 3000).code in ("malformed_json", "message_too_large")
    assert refusal("watch_table", "[" * 2000 + "]" * 2000).code == "malformed_json"


def test_oversized_messages_are_refused() -> None:
    padding = "x" * (MAX_MESSAGE_BYTES - 40)
    big = {"table": TABLE, "padding": padding}
    assert refusal("watch_table", big).code == "invalid_message"  # under the limit: the schema decides
    bigger = {"table": TABLE, "padding": padding + "x" * 100}
    for data in [bigger, json.dumps(bigger), json.dumps(bigger).encode()]:
        err = refusal("watch_table", data)
        assert (err.code, err.args_map) == ("message_too_large", {"limit": MAX_MESSAGE_BYTES})
    # the limit is in bytes of UTF-8, not characters
    wide = {"table": TABLE, "padding": "é" * (MAX_MESSAGE_BYTES // 2)}
    assert refusal("watch_table", wide).code == "message_too_large"
    assert refusal("watch_table", json.dumps(wide, ensure_ascii=False)).code == "message_too_large"


def test_unknown_events_are_refused() -> None:
    err = refusal("deal_me_aces", VALID["watch_table"])
    assert (err.code, err.args_map) == ("unknown_event", {"event": "deal_me_aces"})
    assert len(str(refusal("x" * 5000, {}).args_map["event"])) <= 40


# --- errors ----------------------------------------------------------------------------------------

# The args each code is sent with.
ARGS: dict[str, dict[str, str | int]] = {
    "malformed_json": {},
    "message_too_large": {"limit": MAX_MESSAGE_BYTES},
    "unknown_event": {"event": "deal"},
    "invalid_message": {
        "field": "name",
        "problem": "a name has at most 24 characters",
        "problem_code": "name_too_long",
    },
    "rate_limited": {},
    "no_such_table": {},
    "table_full": {},
    "bad_token": {},
    "not_host": {},
    "not_in_lobby": {},
    "seat_taken": {"seat": 2},
    "no_such_seat": {"seat": 6},
    "not_enough_players": {},
    "match_over": {},
    "not_your_turn": {},
    "stale_version": {"version": 12},
    "illegal_action": {"reason_code": "bid_too_low", "highest": 3, "reason": "you cannot bid 2: too low"},
    "bad_action": {"reason_code": "not_an_action", "reason": "not an action: 'bid'"},
    "rules_refused": {
        "reason_code": "players_with_teams",
        "preset": "house",
        "players": 5,
        "allowed": "4, 6, 8",
        "reason": "house is played by 4, 6, 8 players with teams, not 5",
    },
    "hints_off": {},
    "hints_busy": {},
    "not_stored": {},
    "too_many_tables": {"limit": 60},
    "too_many_connections": {"limit": 20},
    "too_many_spectators": {"limit": 50},
    "server_full": {},
    "match_not_over": {},
    "hand_not_over": {},
    "chat_off": {},
    "chat_closed": {},
    "chat_muted": {},
    "spectators_silent": {},
    "not_following": {},
    "bad_profile": {},
    "profile_already_seated": {},
    "bad_secret": {},
    "no_such_player": {},
    "no_such_code": {},
    "no_such_match": {},
    "bad_record": {"reason": "hand 2, action 5: Ayse cannot play Ah", "reason_code": "record"},
    "record_too_long": {"limit": 1000},
    "record_unplayable": {},
    "server_busy": {},
    "no_practice_positions": {},
    "no_such_position": {},
    "no_such_theme": {},
    "bad_practice_choice": {},
    "not_your_match": {},
    "no_such_friend": {},
    "no_such_request": {},
    "not_yourself": {},
    "not_at_a_table": {},
    "table_unavailable": {},
    "table_closed": {"note": "abuse in the chat"},
    "banned": {},
    "internal_error": {},
}


def test_every_code_has_args_in_this_table() -> None:
    assert set(ARGS) == set(ERROR_CODES) == set(ERROR_ARGS)


@pytest.mark.parametrize("code", sorted(ERROR_CODES))
def test_error_payload_fills_every_template(code: str) -> None:
    payload = error_payload(code, **ARGS[code])
    sent = {name: value for name, value in ARGS[code].items() if name not in ENGLISH_ONLY}
    assert payload["code"] == code and payload["args"] == sent
    assert "{" not in payload["message"] and payload["message"]
    assert set(ERROR_ARGS[code]) <= set(payload["args"])
    json.dumps(payload)


@pytest.mark.parametrize("code", sorted(code for code in ERROR_CODES if set(ARGS[code]) & ENGLISH_ONLY))
def test_english_words_make_the_message_and_are_never_args(code: str) -> None:
    payload = error_payload(code, **ARGS[code])
    assert not set(payload["args"]) & ENGLISH_ONLY
    for name in set(ARGS[code]) & ENGLISH_ONLY:
        assert str(ARGS[code][name]) in payload["message"]
    # Beside each English text a code says the same for a client to translate.
    assert {"reason_code", "problem_code"} & set(payload["args"])


def test_error_payload_keeps_a_missing_placeholder_and_refuses_unknown_codes() -> None:
    assert error_payload("stale_version")["message"] == (
        "the table has moved on to version {version}: update and try again"
    )
    with pytest.raises(ValueError, match="nonsense"):
        error_payload("nonsense")


def test_protocol_errors_carry_their_payload() -> None:
    err = ProtocolError("message_too_large", limit=MAX_MESSAGE_BYTES)
    assert str(err) == "the message is larger than 4096 bytes"
    assert err.payload() == error_payload("message_too_large", limit=MAX_MESSAGE_BYTES)


def test_illegal_action_payload() -> None:
    rules = find_rules("house")
    state = new_match(rules, 4, seed=3)
    to_act = state.public.to_act
    assert to_act is not None
    with pytest.raises(IllegalActionError) as caught:
        apply(state, Discard(CardSet()), to_act)
    payload = illegal_action_payload(caught.value)
    assert payload["code"] == "illegal_action"
    assert payload["args"] == {"reason_code": "wrong_phase", "phase": "auction", "action": "discard"}
    assert payload["message"] == str(caught.value)
    assert payload["message"].endswith(": it is time to bid or pass")
    json.dumps(payload)


def test_the_browser_words_every_error_code() -> None:
    """The client says each error in its reader's language (the other catalogs must have every key
    of the English one: the type checker sees to that)."""
    catalog = (Path(__file__).parents[2] / "web" / "src" / "i18n" / "en.ts").read_text()
    assert [code for code in ERROR_CODES if f'"error.{code}":' not in catalog] == []
