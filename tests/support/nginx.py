"""Debian's nginx configured with the block docs/deploy.md shows, for the tests of the proxy: only
its addresses, ports and certificate are changed (a self-signed one made here), so what the page
tells an operator to write is what the tests run. It listens for HTTPS on a free port of 127.0.0.1,
never 443, as a proxy on any other port: the port a browser puts in its Origin header is kept."""

from __future__ import annotations

import re
import shutil
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from support.dbservers import free_port

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
START_TIMEOUT = 30  # seconds for the proxy to answer /health from an upstream
STOP_TIMEOUT = 10


class NginxUnavailable(RuntimeError):
    """No ``nginx`` on this machine (``scripts/test`` installs Debian's)."""


def documented_nginx_block() -> str:
    """The one ``nginx`` code block of docs/deploy.md."""
    [block] = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), flags=re.DOTALL)
    return block


def nginx_config(
    directory: Path, https_port: int, http_port: int, upstreams: list[int], block: str | None = None
) -> str:
    """``block`` (the documented one by default) with this machine's addresses, wrapped so nginx runs
    in ``directory`` with the certificate there."""
    block = documented_nginx_block() if block is None else block
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
        raise NginxUnavailable("nginx is not installed: scripts/test installs Debian's nginx")
    return found


def self_signed_certificate(directory: Path) -> None:
    """``cert.pem`` and ``key.pem`` in ``directory``, for localhost, valid one day."""
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-keyout", str(directory / "key.pem"), "-out", str(directory / "cert.pem")],
        check=True, capture_output=True,
    )  # fmt: skip


def unverified_tls() -> ssl.SSLContext:
    """A client context that takes the self-signed certificate."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


@dataclass(frozen=True)
class Proxy:
    """A running nginx: ``url`` is its HTTPS side (``https://127.0.0.1:PORT``), ``http_port`` its
    plain HTTP side."""

    url: str
    http_port: int


@contextmanager
def documented_nginx(directory: Path, upstreams: list[int], block: str | None = None) -> Iterator[Proxy]:
    """nginx with ``block`` (the documented one by default) in front of ``upstreams``, checked with
    ``nginx -t`` first; stopped at the end. The upstreams need not answer yet: :func:`wait_for_proxy`
    waits until one does."""
    self_signed_certificate(directory)
    https_port, http_port = free_port(), free_port()
    config = directory / "nginx.conf"
    config.write_text(nginx_config(directory, https_port, http_port, upstreams, block))
    binary = nginx_binary()
    checked = subprocess.run(
        [binary, "-t", "-p", str(directory), "-c", str(config)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([binary, "-p", str(directory), "-c", str(config)])
    try:
        yield Proxy(f"https://127.0.0.1:{https_port}", http_port)
    finally:
        process.terminate()
        process.wait(timeout=STOP_TIMEOUT)


def wait_for_proxy(url: str) -> None:
    """Wait until ``GET url/health`` answers 200 through the proxy (an upstream is up behind it)."""
    context = unverified_tls()
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=2, context=context) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.05)
