"""Players who come back: profiles without e-mail or password, their history, statistics, ratings
and the replays of finished matches, over HTTP (documented in docs/protocol.md and docs/players.md).

A profile is a public id and secrets kept by the browsers that hold it; the server stores only
their hashes. A secret is sent as ``Authorization: Bearer <secret>``, never in a URL. Nothing here
sends a secret (but the new one to the browser that asked for it) or a card of a match in progress:
history and replays are of finished matches only.

:class:`PlayersApi` is the HTTP side of it: built with storage (a
:class:`~smear.server.tables.live.TableStore`), the paces, the background work and the limits, and told how
a deleted profile leaves the tables through a callable.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, TypeVar

from pydantic import TypeAdapter
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from smear.errors import SmearError
from smear.rules import PRESETS
from smear.server.cluster.coordination import Cluster
from smear.server.limits import Limits, scope_address
from smear.server.players.background import BackgroundWork, UnreadableRecord, read_played
from smear.server.players.names import Named, marks
from smear.server.players.playerstats import add_stats, stats_json
from smear.server.players.profilepace import ProfilePace, TooSoon
from smear.server.players.ratings import bot_level, is_bot_profile
from smear.server.players.recordjobs import TOO_MANY_HANDS, Refused
from smear.server.storage.database import Storage, StorageError
from smear.server.storage.playerstore import PlayedMatch
from smear.server.tables.live import TableStore
from smear.server.tables.table import TableError, hash_token
from smear.server.wire.guard import LogThrottle
from smear.server.wire.protocol import (
    MAX_MESSAGE_BYTES,
    TRANSFER_CODE_GROUP,
    TRANSFER_CODE_LENGTH,
    TRANSFER_CODE_LETTERS,
    Message,
    Name,
    PlayerId,
    ProfileProof,
    ProtocolError,
    error_payload,
    parse_message,
)

TRANSFER_SECONDS: Final = 600  # how long a code to carry a profile to another device lasts
MATCHES_PAGE: Final = 20
MATCHES_PAGE_MAX: Final = 100
# How much of a refused body is read and thrown away before the connection is given up.
REFUSED_BODY_READ_MAX: Final = 4 << 20
_PLAYER_ID: Final = TypeAdapter(PlayerId)
_BUSY: Final = frozenset({"hints_busy", "server_busy"})  # refusals answered 503, to be asked again

log = logging.getLogger("smear.server")
T = TypeVar("T")


def new_player_id() -> str:
    """A new profile's public id; never one a bot level's profile could have."""
    while is_bot_profile(player := secrets.token_urlsafe(9)):
        pass
    return player


def new_transfer_code() -> str:
    return _grouped("".join(secrets.choice(TRANSFER_CODE_LETTERS) for _ in range(TRANSFER_CODE_LENGTH)))


def canonical_code(text: str) -> str:
    """A transfer code as typed (any case, with or without the dash or spaces) in its stored form."""
    return _grouped("".join(ch for ch in text.upper() if ch.isalnum()))


def _grouped(letters: str) -> str:
    """``letters`` in groups of :data:`TRANSFER_CODE_GROUP` split by dashes."""
    size = TRANSFER_CODE_GROUP
    return "-".join(letters[start : start + size] for start in range(0, len(letters), size))


class NewProfile(Message):
    name: Name


class Rename(Message):
    name: Name


class Claim(Message):
    code: str


class HttpError(Exception):
    """An HTTP request refused: its status and the protocol's error code and args."""

    def __init__(self, status: int, code: str, **args: str | int) -> None:
        super().__init__(code)
        self.status = status
        self.payload = error_payload(code, **args)


Endpoint = Callable[[Request], Awaitable[Response]]


def answering(endpoint: Endpoint) -> Endpoint:
    """Turn refusals into JSON errors: a bad request, a refusal or the database failing; any other
    error of this library is the server's, answered ``internal_error`` without a traceback."""

    async def answer(request: Request) -> Response:
        try:
            return await endpoint(request)
        except HttpError as err:
            return JSONResponse({"error": err.payload}, status_code=err.status)
        except ProtocolError as err:
            return JSONResponse({"error": err.payload()}, status_code=400)
        except TableError as err:
            payload = {"error": error_payload(err.code, **err.args_map)}
            if err.code in _BUSY:
                return JSONResponse(payload, status_code=503, headers=_RETRY)
            if isinstance(err, TooSoon):  # when to ask again, for a client that tries on its own
                return JSONResponse(payload, status_code=429, headers={"Retry-After": str(err.retry_after)})
            status = 429 if err.code == "rate_limited" else 403 if err.code == "banned" else 400
            return JSONResponse(payload, status_code=status)
        except StorageError:
            # Not quoted: a storage error may quote what was being written.
            return JSONResponse({"error": error_payload("not_stored")}, status_code=503, headers=_RETRY)
        except SmearError as err:
            # The type only: the engine's message may name a card.
            # The route's pattern, not its path: a bounded field, naming no profile.
            route = getattr(request.scope.get("route"), "path", "?")
            kind = type(err).__name__
            log.warning(
                "%s %s failed (%s)",
                request.method,
                route,
                kind,
                extra={"event": "request_failed", "method": request.method, "route": route, "error": kind},
            )
            return JSONResponse({"error": error_payload("internal_error")}, status_code=500)

    return answer


_RETRY: Final = {"Retry-After": "5"}
_NO_STORE: Final = {"Cache-Control": "no-store"}


class PlayersApi:
    """The profile, history, leaderboard and replay requests, and profiles at the tables."""

    def __init__(
        self,
        store: TableStore,
        storage: Storage,
        pace: ProfilePace,
        background: BackgroundWork,
        limits: Limits,
        clock: Callable[[], float],
        drops: LogThrottle,
        cluster: Cluster | None,
        profile_gone: Callable[[str], Awaitable[None]],
        refuse_banned: Callable[[str | None, str | None], None],
    ) -> None:
        self.store = store
        self.storage = storage
        self.pace = pace  # of new profiles and transfer codes tried
        self.background = background  # the reviews, replays and uploads: each in a worker of its own
        self.limits = limits
        self.clock = clock
        self.drops = drops
        self.cluster = cluster
        self.profile_gone = profile_gone  # the seats a deleted profile holds play on without it
        self.refuse_banned = refuse_banned  # raises TableError("banned") for a banned address or profile

    async def linked_profile(self, proof: ProfileProof | None) -> str | None:
        """The profile a seat taken with ``proof`` is linked to (None without one); refuses a proof
        that does not hold with ``bad_profile``."""
        if proof is None:
            return None
        if not await self.store.read(
            self.storage.players.holds_profile, proof.player, hash_token(proof.secret)
        ):
            raise TableError("bad_profile")
        return proof.player

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/players", answering(self.create_profile), methods=["POST"]),
            Route("/api/players/{player}", answering(self.get_profile), methods=["GET"]),
            Route("/api/players/{player}", answering(self.rename_profile), methods=["PATCH"]),
            Route("/api/players/{player}", answering(self.delete_profile), methods=["DELETE"]),
            Route("/api/players/{player}/transfer", answering(self.make_transfer_code), methods=["POST"]),
            Route("/api/players/{player}/matches", answering(self.get_matches), methods=["GET"]),
            Route("/api/transfer", answering(self.claim_transfer), methods=["POST"]),
            Route("/api/leaderboard/{preset}", answering(self.get_leaderboard), methods=["GET"]),
            Route("/api/matches/{match}", answering(self.get_match_record), methods=["GET"]),
            Route("/api/matches/{match}/replay", answering(self.get_match_replay), methods=["GET"]),
            Route("/api/matches/{match}/review", answering(self.get_match_review), methods=["GET"]),
            Route("/api/replay", answering(self.replay_record), methods=["POST"]),
        ]

    # --- profiles -----------------------------------------------------------------------------------

    async def create_profile(self, request: Request) -> Response:
        self.refuse_banned(_address(request, self.limits.trusted_proxies), None)
        body = parse_message(NewProfile, await read_body(request))
        player, secret = new_player_id(), secrets.token_urlsafe(24)
        with self.pace.making(_address(request, self.limits.trusted_proxies)):
            await self.store.db(
                self.storage.players.create_profile, player, body.name, hash_token(secret), self.clock()
            )
        return JSONResponse({"player": player, "secret": secret, "name": body.name}, 201, _NO_STORE)

    async def get_profile(self, request: Request) -> Response:
        player = _player_id(request)
        info = await self.store.read(self.storage.players.profile_info, player)
        if info is None:
            raise HttpError(404, "no_such_player")
        stats: dict[str, Any] = {}
        for preset, matches in info.stats.items():
            total: dict[str, Any] = {}
            for one in matches:
                total = add_stats(total, one)
            stats[preset] = stats_json(total)
        ratings = {
            preset: {
                "rating": rating.shown,
                "mu": round(rating.mu, 3),
                "sigma": round(rating.sigma, 3),
                "matches": n,
            }
            for preset, (rating, n) in info.ratings.items()
        }
        return JSONResponse(
            {
                "player": info.player,
                "name": info.name,
                # A person named like a bot level ("Expert") is marked on its own page too.
                "mark": marks([Named(info.name, info.player, info.is_bot)])[0],
                "bot": info.is_bot,
                "bot_level": bot_level(info.player),
                "since": info.since,
                "ratings": ratings,
                "stats": stats,
                "finished": info.finishes[0],
                "left": info.finishes[1],
            },
            headers=_NO_STORE,
        )

    async def rename_profile(self, request: Request) -> Response:
        player = await self.proven(request)
        body = parse_message(Rename, await read_body(request))
        await self.store.db(self.storage.players.rename_profile, player, body.name)
        return JSONResponse({"player": player, "name": body.name}, headers=_NO_STORE)

    async def delete_profile(self, request: Request) -> Response:
        player = await self.proven(request)
        await self.store.db(self.storage.players.delete_profile, player)
        await self.profile_gone(player)  # the seats it holds play on without it
        if self.cluster is not None:  # and so do those at the tables of every other process
            self.cluster.send_everyone({"kind": "profile_deleted", "player": player})
        return JSONResponse({"deleted": True}, headers=_NO_STORE)

    async def make_transfer_code(self, request: Request) -> Response:
        player = await self.proven(request)
        code = new_transfer_code()
        expires = self.clock() + TRANSFER_SECONDS
        await self.store.db(self.storage.players.add_transfer_code, player, hash_token(code), expires)
        return JSONResponse({"code": code, "expires_in": TRANSFER_SECONDS}, headers=_NO_STORE)

    async def claim_transfer(self, request: Request) -> Response:
        # Paced per address and per code, apart from new profiles: a code is short enough that
        # guessing must stay slow (the budget is worked out in docs/security.md).
        self.refuse_banned(_address(request, self.limits.trusted_proxies), None)
        body = parse_message(Claim, await read_body(request))
        secret, code_hash = secrets.token_urlsafe(24), hash_token(canonical_code(body.code))
        with self.pace.claiming(_address(request, self.limits.trusted_proxies), code_hash) as right:
            claimed = await self.store.db(
                self.storage.players.claim_transfer, code_hash, hash_token(secret), self.clock()
            )
            if claimed is not None:
                right()  # only wrong guesses spend the allowances
        if claimed is None:
            raise HttpError(404, "no_such_code")
        player, name = claimed
        return JSONResponse({"player": player, "secret": secret, "name": name}, headers=_NO_STORE)

    async def proven(self, request: Request) -> str:
        """The profile of the request's path, once its ``Authorization`` header holds one of its
        secrets (else 401 ``bad_secret``)."""
        player = _player_id(request)
        self.refuse_banned(_address(request, self.limits.trusted_proxies), player)
        scheme, _, secret = request.headers.get("authorization", "").partition(" ")
        try:
            proof = ProfileProof(player=player, secret=secret.strip())
        except ValueError:
            raise HttpError(401, "bad_secret") from None
        if scheme.lower() != "bearer" or not await self.store.read(
            self.storage.players.holds_profile, proof.player, hash_token(proof.secret)
        ):
            raise HttpError(401, "bad_secret")
        return player

    # --- history and the leaderboard ----------------------------------------------------------------

    async def get_matches(self, request: Request) -> Response:
        player = _player_id(request)
        limit = _count(request.query_params.get("limit"), MATCHES_PAGE, MATCHES_PAGE_MAX)
        before = request.query_params.get("before")
        if before is not None:
            before = _checked_id(before, "no_such_match")
        if await self.store.read(self.storage.players.profile_names, [player]) == {}:
            raise HttpError(404, "no_such_player")
        found, more = await self.store.read(self.storage.players.player_matches, player, limit, before)
        matches = [match_json(match) | _seat_result(match, seat) for match, seat in found]
        return JSONResponse({"matches": matches, "more": more}, headers=_NO_STORE)

    async def get_leaderboard(self, request: Request) -> Response:
        preset = request.path_params["preset"]
        if preset not in PRESETS:
            raise HttpError(
                404,
                "invalid_message",
                field="preset",
                problem="unknown preset",
                problem_code="unknown_preset",
            )
        with_player = request.query_params.get("with")
        if with_player is not None:
            with_player = _checked_id(with_player, "no_such_player")
        board = await self.store.read(self.storage.players.leaderboard, preset, with_player)
        board_marks = marks([Named(entry.name, entry.player, entry.is_bot) for entry in board])
        return JSONResponse(
            [
                {
                    "player": entry.player,
                    "name": entry.name,
                    "mark": mark,
                    "rating": entry.rating.shown,
                    "matches": entry.matches,
                    "bot": entry.is_bot,
                    "bot_level": bot_level(entry.player),
                }
                for entry, mark in zip(board, board_marks, strict=True)
            ],
            headers=_NO_STORE,
        )

    # --- replays ------------------------------------------------------------------------------------

    async def get_match_record(self, request: Request) -> Response:
        match = _checked_id(request.path_params["match"], "no_such_match")
        with self._stored_record(match):
            found = await self.store.read(read_played, self.storage, match)
        if found is None:
            raise HttpError(404, "no_such_match")
        played, record = found
        headers = {"Content-Disposition": f'inline; filename="smear-{played.match}.json"'}
        return JSONResponse(record, headers=headers)

    async def get_match_replay(self, request: Request) -> Response:
        match = _checked_id(request.path_params["match"], "no_such_match")
        address = _address(request, self.limits.trusted_proxies)
        with self._stored_record(match):
            answer = await _unless_gone(request, self.background.replay_stored(match, address, match_json))
        if answer is None:
            raise HttpError(404, "no_such_match")
        return Response(answer, media_type="application/json")

    async def get_match_review(self, request: Request) -> Response:
        """The costliest decisions of a finished match, every seat's judged from its own view by the
        expert in the reviews' process (kept per match: asked again, it is not paced)."""
        match = _checked_id(request.path_params["match"], "no_such_match")
        address = _address(request, self.limits.trusted_proxies)
        with self._stored_record(match):
            answer = await _unless_gone(request, self.background.review_stored(match, address))
        if answer is None:
            raise HttpError(404, "no_such_match")
        return Response(answer, media_type="application/json")

    @contextmanager
    def _stored_record(self, match: str) -> Iterator[None]:
        """The refusals of the stored record of ``match``: too many hands (``record_too_long``), or
        refused by the engine (``record_unplayable``, logged: the record was stored by a server)."""
        try:
            yield
            return
        except Refused as err:
            if err.kind == TOO_MANY_HANDS:
                raise HttpError(422, "record_too_long", limit=err.limit) from None
            kind = err.kind
        except UnreadableRecord:
            kind = UnreadableRecord.__name__
        # The kind only: the engine's message may name a card.
        self.drops.warn(
            "record",
            "record_unplayable",
            "match %s: its stored record cannot be replayed (%s)",
            match,
            kind,
            match=match,
            error=kind,
        )
        raise HttpError(422, "record_unplayable")

    async def replay_record(self, request: Request) -> Response:
        self.background.uploads.pace(_address(request, self.limits.trusted_proxies))
        raw = await _capped_body(request, self.limits.record_bytes)
        try:
            answer = await _unless_gone(request, self.background.replay_upload(raw))
        except Refused as err:
            if err.kind == TOO_MANY_HANDS:
                raise HttpError(413, "record_too_long", limit=err.limit) from None
            raise HttpError(400, "bad_record", reason=err.reason, reason_code="record") from None
        return Response(answer, media_type="application/json")


def match_json(match: PlayedMatch) -> dict[str, Any]:
    player_marks = marks([Named(seat.name, seat.player, seat.is_bot) for seat in match.players])
    return {
        "match": match.match,
        "preset": match.preset,
        "finished_at": match.finished_at,
        "players": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "player": seat.player,
                "mark": mark,
                "bot": seat.is_bot,
                "bot_level": bot_level(seat.player) if seat.is_bot else None,
            }
            for seat, mark in zip(match.players, player_marks, strict=True)
        ],
        "sides": match.sides,
        "scores": match.scores,
        "winner": match.winner,
    }


def _seat_result(match: PlayedMatch, seat: int) -> dict[str, Any]:
    side = next(index for index, members in enumerate(match.sides) if seat in members)
    return {"seat": seat, "won": match.winner == side}


async def _capped_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) once it is past ``limit`` bytes, and kept no further.

    A refused body is still read to its end (up to ``REFUSED_BODY_READ_MAX`` bytes, or ``limit``
    if more) and thrown away: a client sends its whole body before it reads the answer, and a
    connection closed with part of the body unread is reset, which loses the 413 on the way to it."""
    read_most = max(REFUSED_BODY_READ_MAX, limit)
    declared = request.headers.get("content-length", "")
    # Digits only, and few: int() takes "²" for a digit, and refuses thousands of them.
    if declared.isascii() and declared.isdigit() and (len(declared) > 15 or int(declared) > read_most):
        raise HttpError(413, "message_too_large", limit=limit)
    body = bytearray()
    received = 0
    async for chunk in request.stream():
        received += len(chunk)
        if received > read_most:
            break
        if received <= limit:
            body += chunk
    if received > limit:
        raise HttpError(413, "message_too_large", limit=limit)
    return bytes(body)


async def read_body(request: Request) -> bytes:
    """The request's body (at most a message's size), for :func:`parse_message` to decode and check
    as it does a socket's message: anything but a JSON object is ``malformed_json``."""
    return await _capped_body(request, MAX_MESSAGE_BYTES)


async def _unless_gone(request: Request, work: Awaitable[T]) -> T:
    """``work``'s answer; or, once the client has gone, ``server_busy`` (heard by nobody), so that a
    request whose client gave up does not hold the server (the work itself goes on, counted)."""
    answer, gone = asyncio.ensure_future(work), asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait((answer, gone), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (answer, gone):
            if not task.done():
                task.cancel()  # nobody waits for it any more
            elif task is gone and not task.cancelled():
                task.exception()  # retrieved: the client is gone either way
    if not answer.done():
        raise TableError("server_busy")
    return answer.result()


async def _disconnect(request: Request) -> None:
    """Once the client has closed the connection (the request's body was read before)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _address(request: Request, trusted: tuple[str, ...]) -> str:
    return scope_address(request.scope, trusted)


def _checked_id(text: str, missing: str) -> str:
    try:
        return _PLAYER_ID.validate_python(text)
    except ValueError:
        raise HttpError(404, missing) from None


def _player_id(request: Request) -> str:
    return _checked_id(request.path_params["player"], "no_such_player")


def _count(text: str | None, default: int, most: int) -> int:
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= 4) or not 1 <= int(text) <= most:
        raise HttpError(
            400,
            "invalid_message",
            field="limit",
            problem=f"a number from 1 to {most}",
            problem_code="not_allowed",
        )
    return int(text)
