"""The nginx configuration of docs/deploy.md works: Debian's nginx, configured with the block the
page shows (only addresses, ports and the certificate changed), ends TLS in front of two server
processes on one Redis and passes WebSockets through (to each process in turn); players connected
through it, on a port other than 443 and with the Origin header a browser sends, play one table;
plain HTTP is sent to HTTPS."""

from __future__ import annotations

import asyncio
import re
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import socketio
from serverkit import REPLY_TIMEOUT, Client, free_port, server_process
from test_cluster import play_one, run, settle

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def documented_nginx_block() -> str:
    [block] = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), flags=re.DOTALL)
    return block


def nginx_config(directory: Path, https_port: int, http_port: int, upstreams: list[int]) -> str:
    """The documented block with this machine's addresses, wrapped so nginx runs in ``directory``."""
    block = documented_nginx_block()
    servers = re.findall(r"^\s*server \d+\.\d+\.\d+\.\d+:\d+;.*$", block, flags=re.MULTILINE)
    assert len(servers) == 2, "the page's upstream lists two machines"
    block = block.replace(servers[0], "\n".join(f"    server 127.0.0.1:{port};" for port in upstreams))
    block = block.replace(servers[1], "")
    block = block.replace("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;")
    block = block.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    block = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {directory / 'cert.pem'};", block)
    block = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {directory / 'key.pem'};", block)
    temp = " ".join(
        f"{kind}_temp_path {directory / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"pid {directory / 'nginx.pid'};\nerror_log {directory / 'error.log'};\ndaemon off;\n"
        f"events {{}}\nhttp {{\naccess_log off;\n{temp}\n{block}\n}}\n"
    )


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found is None:
        pytest.fail("nginx is not installed: scripts/test installs Debian's nginx")
    return found


def test_the_documented_nginx_configuration_serves_two_processes(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip
    https_port, http_port = free_port(), free_port()
    upstreams = [free_port(), free_port()]
    config = tmp_path / "nginx.conf"
    config.write_text(nginx_config(tmp_path, https_port, http_port, upstreams))
    binary = nginx_binary()
    checked = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    options = ("--redis", redis_url, "--trusted-proxy", "127.0.0.1")
    proxy = subprocess.Popen([binary, "-p", str(tmp_path), "-c", str(config)])
    try:
        url = f"https://127.0.0.1:{https_port}"
        insecure = ssl.create_default_context()
        insecure.check_hostname = False
        insecure.verify_mode = ssl.CERT_NONE

        async def scenario() -> None:
            async with (
                server_process(upstreams[0], postgres_url, tmp_path / "first.log", *options),
                server_process(upstreams[1], postgres_url, tmp_path / "second.log", *options),
            ):
                await asyncio.to_thread(wait_for_proxy, url, insecure)
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
    finally:
        proxy.terminate()
        proxy.wait(timeout=REPLY_TIMEOUT)


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the redirect is what is checked: urllib raises it as an HTTPError


def wait_for_proxy(url: str, context: ssl.SSLContext) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2, context=context) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.05)
