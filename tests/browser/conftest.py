"""Browser tests: the built client in Debian's chromium (driven by Playwright), against a real server.

Each test starts its own server in a thread on a free port (so ``pytest -n auto`` works) and opens its
pages in fresh browser contexts of the one chromium its worker launched, and every page it opens is
watched for console errors and uncaught exceptions: any one fails the test.
"""

from __future__ import annotations

import fcntl
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
import uvicorn
from axekit import AXE
from browserkit import SharedBrowser, Watched
from playwright.sync_api import Browser, Request
from support.deals import seed_deals

from smear.server.app import STATIC_DIR, Timing, build_server
from smear.server.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
# The report of a test's call, kept for ``open_page`` to describe its pages when the test failed.
CALL_REPORT = pytest.StashKey[pytest.TestReport]()
# Bots act at once, and a finished hand's summary stays up briefly.
FAST = Timing(bot_pause=0.01, hand_pause=0.01, grace=30.0)


@pytest.fixture(scope="session")
def static_build() -> Path:
    """The built browser client; built here (npm ci, npm run build) when it is missing."""
    web = ROOT / "web"
    # One build at a time when several xdist workers find it missing together.
    with (Path(tempfile.gettempdir()) / "smear-browser-tests-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (STATIC_DIR / "index.html").exists():
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=web, check=True)
            subprocess.run(["npm", "run", "--silent", "build"], cwd=web, check=True)
    assert (STATIC_DIR / "index.html").exists()
    return STATIC_DIR


@pytest.fixture(scope="module")
def axe_script(static_build: Path) -> Path:
    """axe-core, one of web/package.json's devDependencies: scripts/setup-web.sh's npm ci installs
    it; installed here (npm ci, as static_build does) when web/node_modules predates it."""
    with (Path(tempfile.gettempdir()) / "smear-browser-tests-build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not AXE.exists():
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=AXE.parents[2], check=True
            )
    assert AXE.exists(), "npm ci in web/ did not install axe-core"
    return AXE


@pytest.fixture(scope="session")
def shared_browser() -> Iterator[SharedBrowser]:
    shared = SharedBrowser()
    yield shared
    shared.close()


@pytest.fixture
def browser(shared_browser: SharedBrowser) -> Iterator[Browser]:
    """This worker's chromium, for one test; its pages are opened by ``open_page``."""
    with shared_browser.running():
        launched = shared_browser.browser()
        yield launched
        # Whatever the test left open goes: the next test starts with no context but its own.
        for context in launched.contexts:
            context.close()


class ServerThread:
    """A SmearServer under uvicorn in a background thread, on a free port."""

    def __init__(self, database: Path, timing: Timing) -> None:
        # Background work (the replays and reviews pages ask for) shares the CPU evenly, as in
        # tests/server/serverkit.py: behind every other process, a busy machine would starve it.
        self.app = build_server(f"sqlite:///{database}", timing, Limits(background_niceness=0))
        config = uvicorn.Config(
            self.app.asgi_app(), host="127.0.0.1", port=0, log_level="warning", lifespan="on"
        )
        self.uv = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uv.run, daemon=True)
        self.url = ""

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.uv.started:
            assert self.thread.is_alive(), "the server thread stopped"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        port = self.uv.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(f"{self.url}/health", timeout=10) as response:
            assert response.status == 200
        return self

    def stop(self) -> None:
        self.uv.should_exit = True
        self.thread.join(timeout=15)


@pytest.fixture
def serve(
    static_build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., str]]:
    """``serve(timing=FAST)`` starts a server for this test and returns its base URL.

    ``serve(deals=seed)`` deals every match the test starts from ``seed`` (``support.deals``): a test
    that plays a match to its end names one, so that its match is the same, and as short, every run
    (a match to 11 between random deals took 2 to 12 hands)."""
    started: list[ServerThread] = []

    def start(timing: Timing = FAST, deals: int | None = None) -> str:
        if deals is not None:
            seed_deals(monkeypatch, deals)
        server = ServerThread(tmp_path / f"smear{len(started)}.db", timing).start()
        started.append(server)
        return server.url

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def open_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[..., Watched]]:
    """``open_page(width=1280, height=800)``: a page in a fresh browser context (its own storage);
    ``bypass_csp=True`` lets a test add inline scripts (an audit's) to the page, and
    ``ignore_https_errors=True`` takes a test's self-signed certificate.

    The page asks for reduced motion, as a player may in their system's settings: the client then
    draws no animation or transition (``styles/motion.css``), and nothing else changes. Drawing
    them cost a seventh of the browser tests' CPU, spent on frames no assertion reads. A test of the
    motion itself, or of a match played with it, passes ``motion=True``.

    At teardown, the test fails if any page logged a console error or threw an uncaught exception.
    Nothing is ignored: the client has no favicon request that could 404.
    """
    opened: list[Watched] = []

    def new(
        width: int = 1280,
        height: int = 800,
        *,
        bypass_csp: bool = False,
        ignore_https_errors: bool = False,
        motion: bool = False,
    ) -> Watched:
        context = browser.new_context(
            viewport={"width": width, "height": height},
            locale="en-US",
            reduced_motion="no-preference" if motion else "reduce",
            bypass_csp=bypass_csp,
            ignore_https_errors=ignore_https_errors,
        )
        context.set_default_timeout(15_000)
        page = context.new_page()
        watched = Watched(page, context)

        def on_console(message: object) -> None:
            if getattr(message, "type", "") == "error":
                watched.errors.append(f"console: {getattr(message, 'text', '')}")

        page.on("console", on_console)

        def on_failed(request: Request) -> None:
            watched.open_requests.discard(request)
            watched.failed_requests.append(f"{request.url}: {request.failure}")

        # Playwright takes Python functions only (it marks them), not the set's own methods.
        page.on("request", lambda request: watched.open_requests.add(request))
        page.on("requestfinished", lambda request: watched.open_requests.discard(request))
        page.on("requestfailed", on_failed)
        page.on("pageerror", lambda error: watched.errors.append(f"pageerror: {error}"))
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framesent",
                lambda payload: watched.sent.append(
                    payload if isinstance(payload, str) else payload.decode()
                ),
            ),
        )
        opened.append(watched)
        return watched

    yield new
    call = request.node.stash.get(CALL_REPORT, None)
    if call is not None and call.failed:
        # What each page showed when the test failed, printed with the failure's report.
        for watched in opened:
            print(watched.describe())
    errors = [error for watched in opened for error in watched.errors]
    for watched in opened:
        watched.context.close()
    assert errors == [], errors


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keeps the call's report on the test item, for ``open_page`` to describe its pages on a failure."""
    report = yield
    if call.when == "call":
        item.stash[CALL_REPORT] = report
    return report
