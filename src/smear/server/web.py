"""The server's HTTP side: the browser game's files, the rules facts, and the headers every
response carries."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from smear.server.facts import presets_json
from smear.server.limits import Limits

# The browser game, built from web/ by `npm run build` (a checkout that has not built it has none).
STATIC_DIR = Path(__file__).parent / "static"

# Only the server's own scripts, styles, images and sockets; no page may frame it.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


def with_security_headers(app: Any) -> Any:
    """ASGI middleware: every HTTP response carries :data:`SECURITY_HEADERS`."""

    async def secured(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return

        async def send_secured(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await app(scope, receive, send_secured)

    return secured


def client_routes(directory: Path) -> list[BaseRoute]:
    """The built browser game at ``/``, and its page at the addresses it opens at (``/t/{code}`` for
    invite links, ``/p/{player}`` for a profile, ``/m/{match}`` for a replay...). Its scripts and
    styles go gzipped to a browser that accepts it.

    Nothing when the client has not been built (no ``index.html``): the server runs without it.
    """
    index = directory / "index.html"
    if not index.is_file():
        return []

    async def page(request: Request) -> Response:
        # Always revalidated: it names the hashed bundles of the latest build.
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    files = GZipMiddleware(StaticFiles(directory=directory, html=True))

    async def files_or_missing_page(scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await files(scope, receive, send)
        except HTTPException as err:
            if err.status_code != 404 or not is_page_address(scope["path"]):
                raise
            # The game's page, which shows its not-found screen with a link home, and says 404.
            missing = FileResponse(index, status_code=404, headers={"Cache-Control": "no-cache"})
            await missing(scope, receive, send)

    # Every address the game opens at: a table, a profile, the leaderboards, a replay, a code to claim,
    # practice.
    pages = (
        "/",
        "/t/{code}",
        "/p/{player}",
        "/leaderboard",
        "/leaderboard/{preset}",
        "/claim",
        "/m/{match}",
        "/replay",
        "/practice",
    )
    return [
        *(Route(path, page) for path in pages),
        # Gzipped for a browser that takes it: a phone's first page is counted gzipped (web/README.md).
        Mount("/", app=files_or_missing_page, name="client"),
    ]


def is_page_address(path: str) -> bool:
    """Whether an address with nothing there is answered with the game's not-found page (a page's
    address) rather than a bare 404 (a file's, with a dot in its last segment, or the API's).

    >>> [is_page_address(p) for p in ("/nowhere", "/p/x/y", "/assets/app.js", "/api/nope")]
    [True, True, False, False]
    """
    return not path.startswith("/api/") and "." not in path.rsplit("/", 1)[-1]


def facts_routes(limits: Limits) -> list[BaseRoute]:
    """``GET /api/presets``: every preset's facts, the table settings, and this server's limits,
    reactions and code shapes (:func:`presets_json`).

    The same for everyone and fixed while the server runs, so it is built once; revalidated like
    the page, since a new version of the server may change it.
    """
    body = JSONResponse(presets_json(limits)).body

    async def presets(request: Request) -> Response:
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})

    return [Route("/api/presets", presets)]
