"""An address the game has no page for is answered with the game's page and status 404 (its
not-found screen, with a link home), never a bare "Not Found"; a missing file stays a plain 404."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette

from smear.server.web import client_routes

PAGE = "<!doctype html><title>Smear</title><div id=app></div>"


@dataclass
class Answer:
    status_code: int
    text: str
    headers: dict[str, str]


class Client:
    """GET requests straight into the ASGI app, as a server would make them."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    def get(self, path: str) -> Answer:
        return asyncio.run(self._get(path))

    async def _get(self, path: str) -> Answer:
        scope = {
            "type": "http",
            "http_version": "1.1",
            "method": "GET",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "scheme": "http",
            "query_string": b"",
            "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 1),
            "server": ("testserver", 80),
        }
        sent: list[dict[str, Any]] = []
        requested = False

        async def receive() -> dict[str, Any]:
            nonlocal requested
            if requested:  # the client stays connected until the answer is sent
                await asyncio.Event().wait()
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await self.app(scope, receive, send)
        start = next(m for m in sent if m["type"] == "http.response.start")
        body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
        return Answer(start["status"], body.decode(), headers)


def built_client(tmp_path: Path) -> Client:
    (tmp_path / "index.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "app.js").write_text("console.log(1)", encoding="utf-8")
    return Client(Starlette(routes=client_routes(tmp_path)))


def test_an_unknown_address_gets_the_games_page_with_a_404(tmp_path: Path) -> None:
    client = built_client(tmp_path)
    for path in ("/nowhere", "/p/abc/extra", "/leaderboards"):
        answer = client.get(path)
        assert (answer.status_code, answer.text) == (404, PAGE), path
        assert answer.headers["cache-control"] == "no-cache"
    assert (client.get("/").status_code, client.get("/p/abc").status_code) == (200, 200)
    assert client.get("/practice").status_code == 200


def test_a_missing_file_or_api_address_stays_a_plain_404(tmp_path: Path) -> None:
    client = built_client(tmp_path)
    assert client.get("/assets/app.js").status_code == 200
    for path in ("/assets/gone.js", "/favicon.ico", "/api/nothing"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.text != PAGE, path
