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
    seat (None: a spectator) under which name."""

    id: int
    at: float
    seat: int | None
    name: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at, "seat": self.seat, "name": self.name, "text": self.text}


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
