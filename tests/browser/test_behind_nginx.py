"""The game played in chromium through the nginx of docs/deploy.md (its block as the page shows it,
only addresses, ports and the certificate changed), on an HTTPS port other than 443: the page's
socket goes through the proxy as a WebSocket and its Origin, port included, is accepted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from browserkit import Watched, actions_sent, take_turn
from playwright.sync_api import expect
from support.nginx import documented_nginx, wait_for_proxy

MY_BID = ".action-panel.mine .bid-buttons"


def test_a_move_is_played_through_the_documented_nginx_on_a_port_other_than_443(
    serve: Callable[..., str], open_page: Callable[..., Watched], tmp_path: Path
) -> None:
    upstream = int(serve().rsplit(":", 1)[1])
    with documented_nginx(tmp_path, [upstream]) as proxy:
        wait_for_proxy(proxy.url)
        watched = open_page(ignore_https_errors=True)
        page = watched.page
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        page.goto(proxy.url)
        page.get_by_label("Your name").fill("Ann")
        page.get_by_role("button", name="Play now").click()
        expect(page.locator(MY_BID)).to_be_visible()

        move = take_turn(page)
        assert move in ("pass", "bid")
        expect(page.locator(MY_BID)).to_have_count(0)
        assert [action.split()[0] for action in actions_sent(watched)] == [move]
        # Every frame went over a WebSocket through the proxy's port.
        assert sockets, "the page opened no WebSocket"
        assert all(url.startswith(f"wss://{proxy.url.removeprefix('https://')}/") for url in sockets)
