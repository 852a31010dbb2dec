"""A table's chat and who may write in it: no I/O (the server stores and sends the lines).

Partners may not talk about their cards, so there is no free text while a hand is being played:
the chat is open in the lobby, between hands (while a hand's result is shown) and after the match.
Reactions, a fixed set of words the clients translate, carry nothing a partner could use and may
be shown at any time. Chat lines are not part of the match record; they are kept with the table
for :data:`CHAT_KEPT_SECONDS` and then deleted.

>>> room = ChatRoom()
>>> room.refusal(status="playing", hand_over=False, seat=1)
'chat_closed'
>>> room.refusal(status="playing", hand_over=True, seat=1) is None
True
>>> room.muted = frozenset({1})
>>> room.refusal(status="lobby", hand_over=False, seat=1)
'chat_muted'
>>> room.refusal(status="lobby", hand_over=False, seat=None)
'spectators_silent'
>>> room.refusals_json(status="lobby", hand_over=False, seats=3)
{'seats': [None, 'chat_muted', None], 'spectator': 'spectators_silent'}

A mute is told only to the host and to the muted seat (:func:`chat_seen_by`, :func:`event_seen_by`):
the others at the table and the spectators are not shown who was silenced.

>>> shown = room.controls_json() | {"refused": room.refusals_json(status="lobby", hand_over=False, seats=3)}
>>> chat_seen_by(shown, you=2, host=0)["muted"], chat_seen_by(shown, you=2, host=0)["refused"]["seats"]
([], [None, None, None])
>>> chat_seen_by(shown, you=1, host=0)["muted"], chat_seen_by(shown, you=0, host=0)["muted"]
([1], [1])
>>> event_seen_by({"kind": "muted", "seat": 1, "muted": True}, you=None, host=0) is None
True
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

# How long chat lines are kept with their table, in seconds; the clients say so beside the chat.
CHAT_KEPT_SECONDS = 24 * 3_600.0
# The latest lines a table holds in memory and gives a newcomer.
CHAT_REMEMBERED = 100


@dataclass(frozen=True)
class ChatLine:
    """One line: its id (increasing, from the database), when (seconds since the epoch), from which
    seat (None: a spectator) under which name, shown with which mark (:mod:`smear.server.players.names`)."""

    id: int
    at: float
    seat: int | None
    name: str
    text: str
    mark: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at,
            "seat": self.seat,
            "name": self.name,
            "mark": self.mark,
            "text": self.text,
        }


@dataclass
class ChatRoom:
    """The host's controls of a table's chat and its latest lines."""

    on: bool = True
    spectators: bool = False  # whether spectators may write (they may always read)
    muted: frozenset[int] = frozenset()  # seats the host has muted
    lines: deque[ChatLine] = field(default_factory=lambda: deque(maxlen=CHAT_REMEMBERED))

    @property
    def controls(self) -> tuple[bool, bool, frozenset[int]]:
        return self.on, self.spectators, self.muted

    def set_controls(self, controls: tuple[bool, bool, frozenset[int]]) -> None:
        self.on, self.spectators, self.muted = controls

    def controls_json(self) -> dict[str, Any]:
        """What every follower of the table is shown of the chat's controls."""
        return {"on": self.on, "spectators": self.spectators, "muted": sorted(self.muted)}

    def refusal(self, *, status: str, hand_over: bool, seat: int | None) -> str | None:
        """The error code refusing a line from ``seat`` (None: a spectator) now, or None if it may be
        written. ``hand_over``: the match is between two hands."""
        if not self.on:
            return "chat_off"
        if status == "playing" and not hand_over:
            return "chat_closed"
        if seat is None:
            return None if self.spectators else "spectators_silent"
        return "chat_muted" if seat in self.muted else None

    def refusals_json(self, *, status: str, hand_over: bool, seats: int) -> dict[str, Any]:
        """Who may write now, as every follower is shown it (a client works none of it out): the
        error code refusing a line from each seat and from a spectator, or None where it is taken."""
        return {
            "seats": [self.refusal(status=status, hand_over=hand_over, seat=seat) for seat in range(seats)],
            "spectator": self.refusal(status=status, hand_over=hand_over, seat=None),
        }

    def forget_before(self, cutoff: float) -> None:
        """Drop the lines written before ``cutoff`` (seconds since the epoch)."""
        while self.lines and self.lines[0].at < cutoff:
            self.lines.popleft()

    def history_json(self) -> list[dict[str, Any]]:
        return [line.to_json() for line in self.lines]


def _told_of_mute(seat: int, you: int | None, host: int | None) -> bool:
    return you is not None and you in (seat, host)


def chat_seen_by(chat: dict[str, Any], *, you: int | None, host: int | None) -> dict[str, Any]:
    """The chat's controls as sent to ``you`` (a seat, None: a spectator), from
    :meth:`ChatRoom.controls_json` with its ``refused``: the mutes the host or the seat itself
    may know, and a muted seat's line shown to the others as it would be without the mute."""
    muted = [seat for seat in chat["muted"] if _told_of_mute(seat, you, host)]
    if len(muted) == len(chat["muted"]):
        return chat
    refused = chat["refused"]
    seats = [
        None if code == "chat_muted" and not _told_of_mute(seat, you, host) else code
        for seat, code in enumerate(refused["seats"])
    ]
    return chat | {"muted": muted, "refused": refused | {"seats": seats}}


def event_seen_by(
    event: dict[str, Any] | None, *, you: int | None, host: int | None
) -> dict[str, Any] | None:
    """``event`` as sent to ``you``: a mute is nobody's news but the host's and the muted seat's."""
    if event is not None and event.get("kind") == "muted" and not _told_of_mute(event["seat"], you, host):
        return None
    return event
