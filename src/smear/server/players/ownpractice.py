"""Practice of a profile's own: its costliest decisions of a finished match it played, turned into
practice positions ("Practice your costliest decisions" on the replay page; docs/practice.md and
docs/protocol.md, "Practice your costliest decisions").

The profile's seat's decisions are judged exactly as the match's review judges them (its seed, its
deals: :func:`smear.server.players.hints.played_review`), the costliest of them that lost points, at
most ``REVIEW_COSTLIEST``, found again in the record and solved by the practice solver
(:mod:`smear.practice.frommatch`): in the reviews' own worker process and queue, paced as a review
is, never on the event loop. They are
kept for that profile alone (:mod:`smear.server.storage.ownpracticestore`): asked again, the same
positions come back without a search. They are never served by next, daily or themes, and an
attempt at one moves neither the practice rating nor the streak.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.practice.frommatch import CostlyDecision, match_positions
from smear.practice.record import served_answer, served_question
from smear.review import REVIEW_COSTLIEST, costliest, count_decisions, review_record
from smear.server.limits import Limits, scope_address
from smear.server.players.api import HttpError, answering, read_body
from smear.server.players.background import BackgroundWork, KeptAnswers, UnreadableRecord, read_played
from smear.server.players.hints import match_review_samples, played_review_seed
from smear.server.players.practice import NO_STORE, Choice, position_in_path, standing_json
from smear.server.players.profilepace import ProfilePace
from smear.server.players.recordjobs import Refused, record_within, refusing
from smear.server.storage.ownpracticestore import OwnPosition, OwnPracticeStore
from smear.server.storage.practicestore import PracticeStore
from smear.server.tables.live import TableStore
from smear.server.wire.protocol import parse_message

__all__ = ["OwnPractice", "own_positions"]

_MATCH_ID: Final = re.compile(r"^[A-Za-z0-9_-]{3,40}$")
_MAKING_KEPT: Final = 64  # the (profile, match) solves under way shared between requests


def own_positions(
    record: dict[str, Any], most_hands: int, preset: str, match: str, seats: list[int]
) -> list[dict[str, Any]]:
    """The positions of the costliest decisions of ``seats`` in the stored ``record``, costliest
    first, at most ``REVIEW_COSTLIEST``: each decision judged exactly as the match's review judges
    it (its seed, its deals), then solved; run in the reviews' worker process (it searches)."""

    def job() -> list[dict[str, Any]]:
        parsed = record_within(record, most_hands)
        samples = match_review_samples(count_decisions(parsed))
        review = review_record(parsed, seats, played_review_seed(match), samples)
        made = []
        for decision in costliest(review.decisions, REVIEW_COSTLIEST):
            costly = CostlyDecision(decision.hand, decision.action_index, decision.action)
            made += [found for _, found in match_positions(parsed, preset, match, decision.seat, [costly])]
        return made

    return refusing(job)


class OwnPractice:
    """The requests of a profile's own practice positions: made from a match, read, attempted."""

    def __init__(
        self,
        store: TableStore,
        own: OwnPracticeStore,
        practice: PracticeStore,
        background: BackgroundWork,
        pace: ProfilePace,
        limits: Limits,
        clock: Callable[[], float],
        proven: Callable[[Request], Awaitable[str]],
    ) -> None:
        self.store = store
        self.own = own
        self.practice = practice
        self.background = background  # the reviews' lane: its process, queue and pace
        self.pace = pace
        self.limits = limits
        self.clock = clock
        self.proven = proven
        self.making = KeptAnswers(_MAKING_KEPT)  # one solve per (profile, match) at a time
        self.solved = 0  # matches whose decisions were solved (for the tests: asked again, none)

    def routes(self) -> list[BaseRoute]:
        return [
            Route(
                "/api/players/{player}/practice/matches/{match}",
                answering(self.post_match),
                methods=["POST"],
            ),
            Route(
                "/api/players/{player}/practice/mine/{position}", answering(self.get_mine), methods=["GET"]
            ),
            Route(
                "/api/players/{player}/practice/mine/{position}",
                answering(self.post_attempt),
                methods=["POST"],
            ),
        ]

    async def post_match(self, request: Request) -> Response:
        match = str(request.path_params["match"])
        if not _MATCH_ID.match(match):
            raise HttpError(404, "no_such_match")
        player = await self.proven(request)
        address = scope_address(request.scope, self.limits.trusted_proxies)
        self.pace.practicing(player, address)
        kept = await self.store.read(self.own.of_match, player, match)
        if not kept:
            key = f"{player}:{match}"
            kept = await self.making.start(key, lambda: self._make(player, match, address))
        return JSONResponse(
            {"match": match, "positions": [served_question(position.question) for position in kept]},
            headers=NO_STORE,
        )

    async def _make(self, player: str, match: str, address: str) -> list[OwnPosition]:
        """The profile's positions from ``match``: its costliest decisions, judged, solved, kept."""
        lane = self.background.reviews
        found = await lane.read(read_played, self.background.storage, match)
        if found is None:
            raise HttpError(404, "no_such_match")
        played, record = found
        seats = sorted({seat.seat for seat in played.players if seat.player == player})
        if not seats:
            raise HttpError(403, "not_your_match")
        lane.pace(address)
        args = (record, self.background.hands, played.preset, match, seats)
        try:
            made = await lane.run(partial(lane.work, own_positions, *args))
        except (Refused, UnreadableRecord):
            raise HttpError(422, "record_unplayable") from None
        self.solved += 1
        positions = [OwnPosition(_question(one), one["answer"]) for one in made]
        return await self.store.db(self.own.keep, player, match, positions, self.clock())

    async def get_mine(self, request: Request) -> Response:
        position = position_in_path(request)
        player = await self.proven(request)
        self.pace.practicing(player, scope_address(request.scope, self.limits.trusted_proxies))
        found = await self.store.read(self.own.position, player, position)
        if found is None:
            raise HttpError(404, "no_such_position")
        return JSONResponse({"position": served_question(found.question)}, headers=NO_STORE)

    async def post_attempt(self, request: Request) -> Response:
        """An attempt at an owned position: judged and answered as any, stored nowhere, rated never."""
        position = position_in_path(request)
        player = await self.proven(request)
        body = parse_message(Choice, await read_body(request))
        self.pace.practicing(player, scope_address(request.scope, self.limits.trusted_proxies))
        found = await self.store.read(self.own.position, player, position)
        if found is None:
            raise HttpError(404, "no_such_position")
        if body.choice not in found.question["choices"]:
            raise HttpError(400, "bad_practice_choice")
        standing = await self.store.read(self.practice.standing, player)
        unmoved = standing_json(standing)
        return JSONResponse(
            {
                "correct": body.choice == found.answer["best"],
                "choice": body.choice,
                "answer": served_answer(found.answer),
                "rating": {"before": unmoved, "after": unmoved},
                "streak": standing.streak,
            },
            headers=NO_STORE,
        )


def _question(made: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in made.items() if key != "answer"}
