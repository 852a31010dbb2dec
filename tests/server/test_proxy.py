"""The nginx configuration of docs/deploy.md works: Debian's nginx, configured with the block the
page shows (only addresses, ports and the certificate changed), ends TLS in front of two server
processes on one Redis and passes WebSockets through (to each process in turn); players connected
through it, on a port other than 443 and with the Origin header a browser sends, play one table;
plain HTTP is sent to HTTPS."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import socketio
from serverkit import Client, free_port, server_process
from support.nginx import documented_nginx, wait_for_proxy
from test_cluster import play_one, run, settle


def test_the_documented_nginx_configuration_serves_two_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    upstreams = [free_port(), free_port()]
    options = ("--redis", redis_url, "--trusted-proxy", "127.0.0.1")
    with documented_nginx(tmp_path, upstreams) as proxy:
        url = proxy.url
        http_port = proxy.http_port

        async def scenario() -> None:
            async with (
                server_process(upstreams[0], postgres_url, tmp_path / "first.log", *options),
                server_process(upstreams[1], postgres_url, tmp_path / "second.log", *options),
            ):
                await asyncio.to_thread(wait_for_proxy, url)
                # Plain HTTP is sent to HTTPS.
                not_following = urllib.request.build_opener(NoRedirects)
                with pytest.raises(urllib.error.HTTPError) as redirect:
                    not_following.open(f"http://127.0.0.1:{http_port}/", timeout=5)
                redirect.value.close()
                assert redirect.value.code == 301
                assert redirect.value.headers["Location"].startswith("https://")

                # As a browser sends them: the page's origin, with its port (not the default 443).
                clients = [
                    Client(
                        url,
                        sio=socketio.AsyncClient(reconnection=False, ssl_verify=False),
                        headers={"Origin": url},
                    )
                    for _ in range(4)
                ]
                for client in clients:
                    await client.connect()
                host = clients[0]
                reply = await host.call(
                    "create_table", {"name": "Host", "preset": "house", "players": 4, "teams": False}
                )
                assert reply["ok"], reply
                host.table, host.token = reply["table"], reply["token"]
                for client, name in zip(clients[1:], ("Ayse", "Kemal", "Sam"), strict=True):
                    reply = await client.call("join_table", {"table": host.table, "name": name})
                    assert reply["ok"], reply
                    client.table, client.token = host.table, reply["token"]
                reply = await host.send("start")
                assert reply["ok"], reply
                await settle(clients, reply["version"])
                for _ in range(8):
                    await play_one(clients)
                for client in clients:
                    await client.close()

        run(scenario)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the redirect is what is checked: urllib raises it as an HTTPError
