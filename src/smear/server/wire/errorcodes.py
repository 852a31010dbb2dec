"""The errors of the protocol: every code the server sends, its English template and the args it
needs, and the payload a client receives (``{"code", "args", "message"}``). Re-exported by
:mod:`smear.server.wire.protocol`; docs/protocol.md lists them.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from smear.errors import IllegalActionError, SmearError

__all__ = [
    "ENGLISH_ONLY",
    "ERROR_ARGS",
    "ERROR_CODES",
    "ProtocolError",
    "error_payload",
    "illegal_action_args",
    "illegal_action_payload",
]

# Every error code the server sends, with an English fallback text; {placeholders} come from args.
ERROR_CODES: dict[str, str] = {
    "malformed_json": "the message is not a JSON object",
    "message_too_large": "the message is larger than {limit} bytes",
    "unknown_event": "there is no event called {event}",
    "invalid_message": "invalid message: {field}: {problem}",
    "rate_limited": "too many messages: wait a moment and try again",
    "no_such_table": "there is no table with that code",
    "table_unavailable": "this table cannot be opened for now: the server has put it aside for its operator",
    "table_closed": "the server's operator has closed this table: {note}",
    "banned": "the server's operator has barred you from playing here",
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
    "chat_off": "the host has turned the chat off",
    "chat_closed": "the chat is closed while a hand is being played",
    "chat_muted": "the host has muted this seat in the chat",
    "spectators_silent": "spectators may read this table's chat but not write in it",
    "not_following": "follow this table first",
    "match_not_over": "the match is not over yet",
    "hand_not_over": "that hand is not over yet",
    "bad_profile": "that profile is unknown or this is not its secret",
    "bad_secret": "this is not a secret of that profile",
    "profile_already_seated": "this profile already holds a seat at this table",
    "no_such_player": "there is no such player",
    "no_such_code": "that code is unknown, already used or expired",
    "no_such_match": "there is no finished match with that id",
    "bad_record": "that is not a match record that can be replayed: {reason}",
    "record_too_long": "the record has more than {limit} hands",
    "record_unplayable": "the stored record of that match cannot be replayed",
    "no_practice_positions": "there is no practice position to serve yet",
    "no_such_position": "there is no practice position with that id",
    "no_such_theme": "there is no practice theme with that id",
    "bad_practice_choice": "that is not one of the position's choices",
    "not_your_match": "that profile did not play that match",
    "no_such_friend": "that player is not among your friends",
    "no_such_request": "that player has not asked you to be friends",
    "not_yourself": "that cannot be done to your own profile",
    "not_at_a_table": "you are not at a table to invite anyone to",
    "server_busy": "the server is busy with other work of this kind: try again in a moment",
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
