"""The server's log held to what is hidden: no line may name a card that nobody, or not the
person whose request it traces, may see at that moment, nor a token, profile secret or chat line
the audit was told of (:class:`LogAudit`). Each line is read as the server writes it with
``--log-format json`` (:func:`smear.server.logs.json_formatter`): its message and every field.

Shared by the leak test (``tests/server/test_leaks.py``) and the leak benchmark (``bench/leaks.py``),
beside the checks of what each client receives (:mod:`leakkit.audit`). The one exception is the DEBUG
trace of raw WebSocket frames, which may name the cards a person itself put in a request (its own
discard, a card it tried to play).
"""

from __future__ import annotations

import contextlib
import logging
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from leakkit.audit import OVER, HandFacts, Leak, cards_in_text, played_in, public_of, value_of
from smear import CardSet, Phase
from smear.server.logs import ProcessFields, json_formatter

# A frame the server sends with a version: the state or the event of that version.
SENT_FRAME = re.compile(r"""^> TEXT '42\["(?:state|event)",\{"version":(\d+)""")
FRAME = re.compile(r"""^([<>]) TEXT '(\d+)(?:\["(\w+)")?""")
# What the WebSocket trace shows of random bytes, which may look like cards ("PING 4c 9d 2e 11"): the
# payload of a ping or pong, the handshake's key and its answer.
RANDOM_BYTES = re.compile(
    r"^([<>] (?:PING|PONG)|[<>] Sec-WebSocket-(?:Key|Accept):).*$", re.MULTILINE | re.IGNORECASE
)
_RANDOM_HINT = re.compile(r"PING|PONG|Sec-WebSocket-", re.IGNORECASE)
WORD = re.compile(r"[A-Za-z0-9_-]{6,}")


def local_port(sio: Any) -> int | None:
    """The local port of a python-socketio client's WebSocket (the server logs its frames by it)."""
    ws = getattr(getattr(sio, "eio", None), "ws", None)
    sockname = ws.get_extra_info("sockname") if ws is not None else None
    return int(sockname[1]) if sockname else None


def line_kind(text: str) -> str:
    """What a log line is: a WebSocket frame the server sent (an ack, a state, an event...) or
    received, or another line."""
    found = FRAME.match(text)
    if found is None:
        return "a line"
    direction = "a frame sent" if found.group(1) == ">" else "a frame received"
    packet = found.group(2)
    if packet.startswith("43"):
        return f"{direction} (an acknowledgement)"
    if packet.startswith("42"):
        return f"{direction} ({found.group(3) or 'an event'})"
    return direction


def _peer_port(record: logging.LogRecord) -> int | None:
    """The client port of the WebSocket connection whose frame this record traces.

    The websockets library's own connections add themselves to their records; with uvicorn's
    default (sans-I/O) implementation, the connection is the ``self`` of a caller further up the
    stack, the uvicorn protocol object, whose ``client`` is the peer's (host, port).
    """
    peer: Any = None
    websocket = getattr(record, "websocket", None)
    if websocket is not None:
        with contextlib.suppress(ReferenceError):  # the connection is gone
            peer = websocket.client
    else:
        frame: FrameType | None = sys._getframe(1)
        for _ in range(40):
            if frame is None:
                break
            if "uvicorn" in frame.f_code.co_filename:
                owner = frame.f_locals.get("self")
                if owner is not None and hasattr(owner, "transport") and hasattr(owner, "client"):
                    peer = owner.client
                    break
            frame = frame.f_back
    if isinstance(peer, tuple) and len(peer) >= 2 and isinstance(peer[1], int):
        return peer[1]
    return None


@dataclass
class LogLine:
    """A log line naming cards, kept with its table's state when it was written."""

    logger: str
    text: str
    cards: set[str]
    frame: bool  # a line of the raw WebSocket trace
    version: int | None  # a frame sending a state or an event: its version
    state: Any  # the table's engine state then (immutable; what was hidden is worked out if needed)
    sent: int  # how many cards people had named in requests at that table then
    port: int | None = None  # a frame: the client port of its socket


class LogAudit(logging.Handler):
    """Keeps the server's log lines that name cards, to check them against what was hidden.

    A line of the WebSocket trace belongs to the table of the client at the other end of that socket
    (:meth:`follow` tells which); another line belongs to a table whose code it names. Those lines
    are checked when the table's match is over (:meth:`check_table`): a frame sending the state or
    event of version ``v`` against the cards hidden at version ``v`` (the frame may be written after
    the table moved on, even to its next hand), the others against what was hidden when they were
    written. A line that belongs to no table is checked at once against every table's hidden cards.
    A frame may name the cards a person at its table put in a request during that hand.
    """

    def __init__(self, server: Any = None) -> None:
        super().__init__(logging.DEBUG)
        self.server = server  # the SmearServer whose tables are looked at
        self.lines = 0  # every line written
        self.leaks: list[Leak] = []  # found in lines that belong to no table
        self.failures: list[str] = []
        self._ports: dict[int, str] = {}
        self._seats: dict[int, Callable[[], int | None]] = {}  # by client port: that socket's seat
        self._sent: defaultdict[str, list[tuple[int, str]]] = defaultdict(list)
        self._kept: defaultdict[str, list[LogLine]] = defaultdict(list)
        self._cache: dict[str, tuple[Any, int | None, frozenset[str]]] = {}
        self._frames: dict[str, bool] = {}  # by the logging module's path: the WebSocket trace?
        self._never_words: set[str] = set()  # tokens and secrets, found as words of a line
        self._never_phrases: list[str] = []  # chat lines, found anywhere in a line
        self._json = json_formatter()
        self._fields = ProcessFields()

    def never(self, text: str) -> None:
        """``text`` (a token, a profile secret, a chat line) must be in no line of the server's own
        (the WebSocket trace, which copies requests, aside)."""
        if WORD.fullmatch(text):
            self._never_words.add(text)
        elif text:
            self._never_phrases.append(text)

    # -- told by the clients --

    def follow(self, port: int | None, table: str, seat: Callable[[], int | None] | None = None) -> None:
        """The frames of the client socket at local ``port`` (see :func:`local_port`) belong to
        ``table``; ``seat`` tells, once the match is over, which seat that socket played (None for a
        spectator)."""
        if port is None:  # its frames would be checked against every table's cards
            self.failures.append(f"no local port for a client of table {table}")
        else:
            self._ports[port] = table
            if seat is not None:
                self._seats[port] = seat

    def note_sent(self, table: str, hand: int, request: str) -> None:
        """A person at ``table`` named these cards in a request during ``hand``."""
        self._sent[table].extend((hand, card) for card in cards_in_text(request))

    def forget(self, table: str) -> None:
        """Drop what is kept about a table (its match has been checked)."""
        self._kept.pop(table, None)
        self._sent.pop(table, None)
        self._cache.pop(table, None)
        for port in [port for port, code in self._ports.items() if code == table]:
            del self._ports[port]
            self._seats.pop(port, None)

    # -- what is hidden now --

    def _tables(self) -> dict[str, Any]:
        live = getattr(self.server, "live", None)
        tables: dict[str, Any] = getattr(live, "tables", None) or {}
        return tables

    def _state_now(self, code: str) -> Any:
        table = self._tables().get(code)
        return None if table is None else table.state

    def _hidden_now(self, code: str) -> tuple[int | None, frozenset[str]]:
        """The hand in play at a table and its cards nobody may see now (none outside a hand)."""
        state = self._state_now(code)
        cached = self._cache.get(code)
        if cached is not None and cached[0] is state:
            return cached[1], cached[2]
        hand, hidden = hidden_in(state)
        self._cache[code] = (state, hand, hidden)
        return hand, hidden

    def _sent_in(self, code: str, hand: int | None, upto: int | None = None) -> set[str]:
        return {card for number, card in self._sent.get(code, [])[:upto] if number == hand}

    # -- the handler --

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.endswith(".client"):  # the clients' own Socket.IO loggers
            return
        try:  # never let the check break the logging call in the server
            self.lines += 1
            frame = self._frames.get(record.pathname)
            if frame is None:
                frame = self._frames[record.pathname] = "websockets" in Path(record.pathname).parts
            text = record.getMessage() if frame else self._as_json(record)
            if not frame:
                self._check_words(record.name, text)
            cards = cards_in_text(
                RANDOM_BYTES.sub(r"\1", text) if frame and _RANDOM_HINT.search(text) else text
            )
            if not cards:
                return
            port = _peer_port(record) if frame else None
            code = self._table_of(record, text, port)
            if code is None:
                self._check_now(record.name, text, cards, frame)
                return
            found = SENT_FRAME.match(text) if frame else None
            self._kept[code].append(
                LogLine(
                    logger=record.name,
                    text=text,
                    cards=cards,
                    frame=frame,
                    version=int(found.group(1)) if found else None,
                    state=self._state_now(code),
                    sent=len(self._sent.get(code, ())),
                    port=port,
                )
            )
        except Exception as err:
            self.failures.append(repr(err))

    def _as_json(self, record: logging.LogRecord) -> str:
        """The line ``smear serve --log-format json`` writes for ``record`` (a copy is formatted:
        the other handlers get the record as it was)."""
        line = logging.makeLogRecord(record.__dict__)
        self._fields.filter(line)
        return self._json.format(line)

    def _check_words(self, logger: str, text: str) -> None:
        found = {word for word in WORD.findall(text) if word in self._never_words}
        found |= {phrase for phrase in self._never_phrases if phrase in text}
        if found:
            what = f"the log ({logger}) names a token, a secret or a chat line"
            self.leaks.append(Leak(what, (), "server log, a line", text))

    def _table_of(self, record: logging.LogRecord, text: str, port: int | None) -> str | None:
        if self._frames.get(record.pathname):
            return None if port is None else self._ports.get(port)
        tables = self._tables()
        named = {word for word in WORD.findall(text) if word in tables}  # a JSON line names it twice
        return next(iter(named)) if len(named) == 1 else None

    def _check_now(self, logger: str, text: str, cards: set[str], frame: bool) -> None:
        hidden: set[str] = set()
        for code in list(self._tables()):
            hand, cards_hidden = self._hidden_now(code)
            hidden |= cards_hidden - self._sent_in(code, hand) if frame else cards_hidden
        leaked = cards & hidden
        if leaked:
            self.leaks.append(self._leak(logger, text, leaked))

    @staticmethod
    def _leak(logger: str, text: str, leaked: set[str]) -> Leak:
        lines = [line for line in text.splitlines() if cards_in_text(line) & leaked]
        return Leak(
            f"the log ({logger}) names hidden cards",
            leaked,
            f"server log, {line_kind(text)}",
            "\n".join(lines),
        )

    def check_table(
        self,
        code: str,
        facts: dict[int, HandFacts] | None = None,
        received: Iterable[Sequence[tuple[str, Any]]] = (),
    ) -> list[Leak]:
        """Check the lines kept for a table, and forget them.

        With the match's ``facts`` and the messages its clients ``received`` (which tell the hand
        and the cards played at each version), a frame sending version ``v`` is checked against the
        cards hidden at version ``v``; every other line against what was hidden when it was written.
        """
        versions: dict[int, dict[str, Any] | None] = {}
        for stream in received:
            for kind, item in stream:
                if kind == "state":
                    message = value_of(item)
                    game = message["game"]
                    versions[message["version"]] = None if game is None else public_of(game)
        leaks = []
        for line in self._kept.pop(code, []):
            if facts is not None and line.version is not None and line.version in versions:
                public = versions[line.version]
                if public is None or public["phase"] in OVER:
                    hand, hidden = None, set()
                else:
                    hand = public["hand_number"]
                    hidden = facts[hand].cards - set(played_in(public))
            else:
                hand, cards_hidden = hidden_in(line.state)
                hidden = set(cards_hidden)
            if line.frame:
                hidden -= self._sent_in(code, hand, line.sent)
                # The trace of a frame is a copy of what its socket's seat was sent: the cards that
                # seat holds may be in it (a hint names one).
                seat = self._seats[line.port]() if line.port in self._seats else None
                if facts is not None and hand in facts and seat is not None:
                    hidden -= facts[hand].held_by(seat)
            leaked = line.cards & hidden
            if leaked:
                leaks.append(self._leak(line.logger, line.text, leaked))
        return leaks


def hidden_in(state: Any) -> tuple[int | None, frozenset[str]]:
    """The hand in play in an engine state and its cards nobody may see then (none outside a hand)."""
    if state is None or state.public.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
        return None, frozenset()
    pub = state.public
    cards = {str(card) for card in state.out}
    for mask in state.dealt:
        cards |= {str(card) for card in CardSet(mask)}
    public = {str(card) for card in [*pub.trick, *(c for trick in pub.tricks for c in trick.cards)]}
    return pub.hand_number, frozenset(cards - public)


LOGGERS = ("", "uvicorn", "uvicorn.access")  # uvicorn's own loggers do not propagate to the root
DEBUG_LOGGERS = ("smear", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


@contextlib.contextmanager
def capture_logs(audit: LogAudit) -> Iterator[LogAudit]:
    """Every server logger at DEBUG into ``audit`` (uvicorn's own handlers kept quiet).

    Enter it before the clients connect: a WebSocket connection decides when it opens whether it
    traces its frames.
    """
    saved: list[tuple[logging.Logger | logging.Handler, int]] = []

    def set_level(thing: logging.Logger | logging.Handler, level: int) -> None:
        saved.append((thing, thing.level))
        thing.setLevel(level)

    for name in DEBUG_LOGGERS:
        set_level(logging.getLogger(name), logging.DEBUG)
    for name in LOGGERS[1:]:
        for other in logging.getLogger(name).handlers:
            set_level(other, logging.WARNING)
    for name in LOGGERS:
        logging.getLogger(name).addHandler(audit)
    try:
        yield audit
    finally:
        for name in LOGGERS:
            logging.getLogger(name).removeHandler(audit)
        for thing, level in reversed(saved):
            thing.setLevel(level)
