"""The work done on a record away from the server's event loop: a record checked (bounded in hands
before anything else), replayed and written as the JSON answer, in a worker process of its own
(:mod:`smear.server.players.background`). Each job is a plain function of plain data, so that it crosses to
that process and back; it imports nothing of the search, which the reviews' process alone loads.

A record refused comes back as :class:`Refused`, which crosses back whole (the engine's own errors
carry arguments that do not).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import orjson

from smear.errors import SmearError
from smear.record import Record, parse_record, record_json
from smear.replayview import replay_view

T = TypeVar("T")

TOO_MANY_HANDS = "too_many_hands"  # the kind of a record refused for its hands, before it was replayed


class Refused(SmearError):
    """A record refused: ``kind`` is :data:`TOO_MANY_HANDS` (``limit`` the most hands taken) or the
    engine's error class; ``reason`` is the engine's English sentence."""

    def __init__(self, kind: str, reason: str, limit: int = 0) -> None:
        super().__init__(kind, reason, limit)  # the arguments as given: it is rebuilt from them
        self.kind, self.reason, self.limit = kind, reason, limit

    def __str__(self) -> str:
        return self.reason


def behind_live_play(niceness: int) -> None:
    """A lane's worker process starts here: ``niceness`` behind the server's live play. It lives in
    this light module so that a replay's process, spawned afresh, imports the engine and not the
    server (a tenth of the time: its first replay waits for it)."""
    with contextlib.suppress(AttributeError, OSError):  # where the system has no such priority
        os.nice(niceness)


def refusing(job: Callable[[], T]) -> T:
    """``job()``, with an error of the engine's as :class:`Refused`."""
    try:
        return job()
    except Refused:
        raise
    except SmearError as err:
        raise Refused(type(err).__name__, str(err)) from None


def record_within(doc: Any, most_hands: int) -> Record:
    """``doc`` (JSON data) checked as a record; refused (:data:`TOO_MANY_HANDS`) before anything else
    when it has more than ``most_hands`` hands (0: no limit)."""
    hands = doc.get("hands") if isinstance(doc, Mapping) else None
    if most_hands and isinstance(hands, list | tuple) and len(hands) > most_hands:
        raise Refused(TOO_MANY_HANDS, f"the record has more than {most_hands} hands", most_hands)
    return parse_record(doc)


def json_bytes(value: Any) -> bytes:
    """``value`` as compact JSON. orjson is fast but takes no integer past 64 bits, which a record
    may hold (a score to start from); the standard library writes those."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def stored_replay(record: dict[str, Any], most_hands: int, match: dict[str, Any]) -> bytes:
    """``{"match", "record", "view"}`` of a finished match (``match`` as its history lists it)."""

    def job() -> bytes:
        view = replay_view(record_within(record, most_hands))
        return json_bytes({"match": match, "record": record, "view": view})

    return refusing(job)


def uploaded_replay(raw: bytes, most_hands: int) -> bytes:
    """``{"record", "view"}`` of a record's text: the record in canonical notation, and its view."""

    def job() -> bytes:
        record = record_within(record_json(raw), most_hands)
        return json_bytes({"record": record.to_dict(), "view": replay_view(record)})

    return refusing(job)
