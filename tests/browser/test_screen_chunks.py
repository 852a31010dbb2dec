"""Screens that come in chunks of their own: "Loading…" while one comes, a message and a retry when
the network fails it, the table's chunk fetched in the lobby so that the start never waits, and the
texts only the later pages show fetched with those pages."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

import pytest
from browserkit import Watched, create_table, start_with_bots
from client_budget import SCREENS, page_chunks, read_manifest
from playwright.sync_api import Page, Route, expect

from smear.server.web import STATIC_DIR

FAILED = "Part of the game could not be loaded. Check your connection and try again."


class Phone(NamedTuple):
    """A served game and a phone-sized page that has not loaded it yet."""

    url: str
    watched: Watched
    page: Page


@pytest.fixture
def phone(serve: Callable[..., str], open_page: Callable[..., Watched]) -> Phone:
    url = serve()
    watched = open_page(375, 812)
    return Phone(url, watched, watched.page)


def chunk_of(source: str) -> str:
    """The built file of a screen's chunk, as the page asks for it (/assets/...)."""
    file: str = read_manifest(STATIC_DIR)[source]["file"]
    return "/" + file


def forget_failed_fetches(watched: Watched, path: str) -> None:
    """The console errors of the fetches a test failed on purpose, and only those."""
    watched.errors[:] = [error for error in watched.errors if "net::ERR_FAILED" not in error]
    assert all(path in failed for failed in watched.failed_requests), watched.failed_requests


def test_a_screen_says_it_is_loading_until_its_chunk_comes(phone: Phone) -> None:
    url, page = phone.url, phone.page
    held: list[Route] = []
    # Playwright marks the handler it is given: a function of the test's, not the list's method.
    page.route(f"**{chunk_of('src/ui/Landing.tsx')}", lambda route: held.append(route))
    page.goto(url)
    loading = page.locator("main").get_by_role("status").filter(has_text="Loading…")
    expect(loading).to_be_visible()
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_role("button", name="Play now")).to_be_visible()
    expect(loading).to_have_count(0)


def fail_once_drawn(page: Page, url: str, landing: str, then: Callable[[Route], None]) -> None:
    """Open the page with the landing chunk's first fetch held until the page is drawn and says
    Loading… (it first waits for its language's catalog, a chunk of its own), then fail that fetch as
    the network would; ``then`` answers the later ones. A fetch failed before the page is drawn is
    only asked again when the screen is drawn."""
    held: list[Route] = []

    def hold_first(route: Route) -> None:
        if held:
            then(route)
        else:
            held.append(route)

    page.route(f"**{landing}", hold_first)
    page.goto(url)
    expect(page.locator("main").get_by_role("status").filter(has_text="Loading…")).to_be_visible()
    assert len(held) == 1
    held[0].abort()


def test_a_screen_whose_chunk_fails_says_so_and_comes_on_retry(phone: Phone) -> None:
    url, watched, page = phone
    landing = chunk_of("src/ui/Landing.tsx")
    fail_once_drawn(page, url, landing, lambda route: route.continue_())
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(FAILED)
    expect(page.get_by_role("button", name="Play now")).to_have_count(0)
    alert.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("button", name="Play now")).to_be_visible()
    expect(alert).to_have_count(0)
    forget_failed_fetches(watched, landing)


def test_the_lobby_fetches_the_table_s_chunk_so_the_start_needs_no_fetch(phone: Phone) -> None:
    url, page = phone.url, phone.page
    game = chunk_of(SCREENS["table"])
    with page.expect_request_finished(lambda request: request.url.endswith(game)):
        create_table(page, url, "Ann")
    # From here the table's chunks cannot be fetched: the page must already hold them.
    blocked: list[str] = []

    def block(route: Route) -> None:
        blocked.append(route.request.url)
        route.abort()

    manifest = read_manifest(STATIC_DIR)
    for name in page_chunks(manifest, SCREENS["table"], "en"):
        page.route(f"**/{name}", block)
    start_with_bots(page)
    expect(page.locator(".seat-plate")).to_have_count(4)
    assert blocked == []


def test_a_retry_that_fails_too_loads_the_page_again(phone: Phone) -> None:
    # As after a new build of the server: the chunk the page knows of is gone.
    url, watched, page = phone
    landing = chunk_of("src/ui/Landing.tsx")
    fail_once_drawn(page, url, landing, lambda route: route.abort())
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(FAILED)
    with page.expect_event("requestfailed"):
        alert.get_by_role("button", name="Try again").click()
    expect(alert).to_contain_text(FAILED)
    page.unroute(f"**{landing}")
    with page.expect_navigation():
        alert.get_by_role("button", name="Try again").click()
    expect(page.get_by_role("button", name="Play now")).to_be_visible()
    forget_failed_fetches(watched, landing)


def test_a_page_in_another_language_fetches_its_screen_along_with_the_catalog(phone: Phone) -> None:
    url, page = phone.url, phone.page
    page.context.add_init_script("localStorage.setItem('smear.lang', 'fr');")
    held: list[Route] = []
    french = chunk_of("src/i18n/fr.ts")
    page.route(f"**{french}", lambda route: held.append(route))
    # The landing page's chunk is asked for while the French catalog, held here, has not come yet
    # (and nothing is drawn until it has).
    landing = chunk_of(SCREENS["landing"])
    with (
        page.expect_request(lambda request: request.url.endswith(french)),
        page.expect_request(lambda request: request.url.endswith(landing)),
    ):
        page.goto(url)
    assert page.evaluate("document.getElementById('app').childElementCount") == 0
    assert len(held) == 1
    held[0].continue_()
    expect(page.get_by_role("button", name="Jouer tout de suite")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "fr"


def test_the_later_pages_texts_come_with_those_pages_and_again_on_a_language_switch(phone: Phone) -> None:
    # The texts only the players' pages, the replay viewer and How to play show (web/src/i18n/pages).
    url, page = phone.url, phone.page
    later_texts = {lang: chunk_of(f"src/i18n/pages/{lang}.ts") for lang in ("en", "fr")}
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))

    def fetched(lang: str) -> bool:
        return any(address.endswith(later_texts[lang]) for address in asked)

    page.goto(url)
    expect(page.get_by_role("button", name="Play now")).to_be_visible()
    assert not fetched("en"), "the first page waits for none of the later pages' texts"

    page.goto(f"{url}/replay")
    expect(page.get_by_role("heading", name="Replay a match record", level=1)).to_be_visible()
    assert fetched("en") and not fetched("fr")
    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("fr")
    expect(page.get_by_role("heading", name="Rejouer un relevé de partie", level=1)).to_be_visible()
    assert fetched("fr")
    expect(page.locator("main")).not_to_contain_text(re.compile(r"\b(replay|profile|leaders|howto)\.[a-z_]+"))
