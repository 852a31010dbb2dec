"""The shape of a practice position, as ``smear practice build`` writes it (one JSON object a line)
and as ``smear practice import`` validates it before storing it.

A position is one seat's decision: what that seat saw (``public`` and ``you``, exactly what the table
sent it then), the choices it had, and the ``answer``: each choice's expected points for the seat's
side from a search with many deals, the best, its margin over the next and that margin's error, and
up to three of the searched deals played out. The position without its ``answer`` is the question,
everything the page may show before an attempt (:meth:`PracticePosition.question`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from smear.actionjson import record_action_json
from smear.rules import PRESETS

KINDS = ("bid", "widow", "trump", "discard", "card")
THEMES = (
    "bid_the_hand",
    "moon",
    "trump_choice",
    "discard",
    "draw_trump",
    "save_the_jack",
    "catch_the_jack",
    "give_partner_the_point",
    "take_low",
    "lead",
    "follow",
)
# The fields the id is worked out from: the same decision found twice is one position.
ID_FIELDS = ("preset", "players", "seat", "public", "you", "choices")


def position_id(fields: dict[str, Any]) -> str:
    """The first 16 hex digits of sha256 over the canonical JSON of the position's ``ID_FIELDS``."""
    canonical = json.dumps(
        {name: fields[name] for name in ID_FIELDS}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


class LineAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0)
    action: str


class Line(BaseModel):
    """One searched deal: every seat's cards at the position, and the rest of the hand played out."""

    model_config = ConfigDict(extra="forbid")

    hands: list[list[str]]
    actions: list[LineAction]


class PracticeAnswer(BaseModel):
    """What the search says: never sent before the attempt."""

    model_config = ConfigDict(extra="forbid")

    best: str
    values: dict[str, float]
    margin: float = Field(ge=0)
    error: float = Field(ge=0)
    deals: int = Field(ge=1)
    lines: list[Line] = Field(max_length=3)


class PracticePosition(BaseModel):
    """A position record (see the module docstring); validation checks it is self-consistent."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[0-9a-f]{16}$")
    preset: str
    players: int = Field(ge=2, le=8)
    seat: int = Field(ge=0)
    kind: Literal["bid", "widow", "trump", "discard", "card"]
    public: dict[str, Any]
    you: dict[str, Any]
    names: list[str]
    choices: list[str] = Field(min_length=2)
    themes: list[str] = Field(min_length=1)
    difficulty: float = Field(ge=0, le=1)
    rating: float
    source: str = Field(pattern=r"^(selfplay|match:.+)$")
    answer: PracticeAnswer

    @model_validator(mode="after")
    def _consistent(self) -> PracticePosition:
        if self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r}")
        if self.seat >= self.players or len(self.names) != self.players:
            raise ValueError("seat and names must fit the number of players")
        unknown = [theme for theme in self.themes if theme not in THEMES]
        if unknown:
            raise ValueError(f"unknown themes {unknown}")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError("choices must be distinct")
        if self.answer.best not in self.choices or set(self.answer.values) != set(self.choices):
            raise ValueError("the answer must value every choice and name one as best")
        if position_id(self.model_dump()) != self.id:
            raise ValueError("id does not match the position")
        return self

    def question(self) -> dict[str, Any]:
        """The position without its answer: what may be shown before the attempt."""
        return self.model_dump(exclude={"answer"})


def served_question(question: dict[str, Any]) -> dict[str, Any]:
    """A question as the server sends it: each choice also as the table sends an action (its kind and
    fields, :func:`smear.actionjson.action_json`), in the same order, so the client words a choice
    without reading its text; the text is what it sends back."""
    return question | {"actions": [record_action_json(choice) for choice in question["choices"]]}


def served_answer(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer as the server sends it: each step of its lines with its action as the table sends
    one (the answer shows every seat's cards: a discard's cards are no secret there)."""

    def line(played: dict[str, Any]) -> dict[str, Any]:
        steps = played["actions"]
        return played | {"actions": [step | {"action": record_action_json(step["action"])} for step in steps]}

    return answer | {"lines": [line(played) for played in answer["lines"]]}


__all__ = [
    "ID_FIELDS",
    "KINDS",
    "THEMES",
    "Line",
    "LineAction",
    "PracticeAnswer",
    "PracticePosition",
    "position_id",
    "served_answer",
    "served_question",
]
