"""Practice over HTTP: positions from real play, one at a time, and the answer once a choice is sent
(documented in docs/protocol.md, "Practice", and docs/practice.md).

:class:`PracticeApi` serves what ``smear practice build`` stored (:mod:`smear.server.storage.practicestore`):
nothing is searched at request time. A position is served as its question, which never holds its
answer; the answer is sent only in the answer to an attempt. A profile's first attempt at a position
moves its practice rating (openskill, apart from the game ratings:
:mod:`smear.server.players.practiceratings`) and the position's, and its streak; a later attempt is
judged and answered the same way but moves nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.practice.record import THEMES, served_answer, served_question
from smear.server.limits import Limits, scope_address
from smear.server.players.api import HttpError, answering, read_body
from smear.server.players.practiceratings import shown
from smear.server.players.profilepace import ProfilePace
from smear.server.players.ratings import Rating
from smear.server.storage.practicestore import PracticeStanding, PracticeStore
from smear.server.tables.live import TableStore
from smear.server.wire.protocol import Message, parse_message

__all__ = ["NO_STORE", "Choice", "PracticeApi", "position_in_path", "standing_json"]

NO_STORE: Final = {"Cache-Control": "no-store"}
_POSITION_ID: Final = frozenset("0123456789abcdef")


class Choice(Message):
    choice: str


def standing_json(standing: PracticeStanding) -> dict[str, Any]:
    """A practice rating as the API sends it."""
    return {
        "rating": shown(standing.rating),
        "mu": round(standing.rating.mu, 3),
        "sigma": round(standing.rating.sigma, 3),
        "attempts": standing.attempts,
    }


class PracticeApi:
    """The practice requests: the themes, the daily position, the next position and attempts."""

    def __init__(
        self,
        store: TableStore,
        practice: PracticeStore,
        pace: ProfilePace,
        limits: Limits,
        clock: Callable[[], float],
        proven: Callable[[Request], Awaitable[str]],
    ) -> None:
        self.store = store
        self.practice = practice
        self.pace = pace  # practice requests per profile and per address
        self.limits = limits
        self.clock = clock
        self.proven = proven  # the profile of the request's path once its secret holds (else 401)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/practice/themes", answering(self.get_themes), methods=["GET"]),
            Route("/api/practice/daily", answering(self.get_daily), methods=["GET"]),
            Route("/api/players/{player}/practice/next", answering(self.get_next), methods=["GET"]),
            Route(
                "/api/players/{player}/practice/{position}", answering(self.post_attempt), methods=["POST"]
            ),
        ]

    async def get_themes(self, request: Request) -> Response:
        self.pace.practicing(None, self._address(request))
        counts = await self.store.read(self.practice.theme_counts)
        themes = [{"id": theme, "positions": counts[theme]} for theme in THEMES if counts.get(theme)]
        return JSONResponse({"themes": themes}, headers=NO_STORE)

    async def get_daily(self, request: Request) -> Response:
        self.pace.practicing(None, self._address(request))
        day = datetime.datetime.fromtimestamp(self.clock(), datetime.UTC).date().isoformat()
        found = await self.store.read(self.practice.daily, day)
        if found is None:
            raise HttpError(404, "no_practice_positions")
        return JSONResponse({"position": _question(*found), "date": day}, headers=NO_STORE)

    async def get_next(self, request: Request) -> Response:
        theme = request.query_params.get("theme")
        if theme is not None and theme not in THEMES:
            raise HttpError(400, "no_such_theme")
        player = await self.proven(request)
        self.pace.practicing(player, self._address(request))
        found = await self.store.read(self.practice.next_position, player, theme)
        if found is None:
            raise HttpError(404, "no_practice_positions")
        standing = await self.store.read(self.practice.standing, player)
        return JSONResponse(
            {"position": _question(*found), "rating": standing_json(standing), "streak": standing.streak},
            headers=NO_STORE,
        )

    async def post_attempt(self, request: Request) -> Response:
        position = position_in_path(request)
        player = await self.proven(request)
        body = parse_message(Choice, await read_body(request))
        self.pace.practicing(player, self._address(request))
        choices = await self.store.read(self.practice.position_choices, position)
        if choices is None:
            raise HttpError(404, "no_such_position")
        if body.choice not in choices:
            raise HttpError(400, "bad_practice_choice")
        attempt = await self.store.db(self.practice.attempt, player, position, body.choice, self.clock())
        if attempt is None:  # not reached: positions are never deleted while the server runs
            raise HttpError(404, "no_such_position")
        return JSONResponse(
            {
                "correct": attempt.correct,
                "choice": body.choice,
                "answer": served_answer(attempt.answer),
                "rating": {"before": standing_json(attempt.before), "after": standing_json(attempt.after)},
                "streak": attempt.after.streak,
            },
            headers=NO_STORE,
        )

    def _address(self, request: Request) -> str:
        return scope_address(request.scope, self.limits.trusted_proxies)


def _question(question: dict[str, Any], rating: Rating) -> dict[str, Any]:
    """The stored question with the position's current rating (it moves with the attempts)."""
    return served_question(question) | {"rating": shown(rating)}


def position_in_path(request: Request) -> str:
    """The request's ``{position}``: 16 lowercase hex digits, else 404 ``no_such_position``."""
    position = str(request.path_params["position"])
    if len(position) != 16 or not set(position) <= _POSITION_ID:
        raise HttpError(404, "no_such_position")
    return position
