"""One chromium serves every browser test of a worker: between them asyncio.run() works (the other
tests of the worker need it), each test starts with no browser context but its own, and a chromium
that went away is launched again."""

from __future__ import annotations

import asyncio

from browserkit import SharedBrowser


async def answer() -> str:
    await asyncio.sleep(0)
    return "ran"


def test_asyncio_runs_between_browser_tests_and_each_gets_fresh_contexts(
    shared_browser: SharedBrowser,
) -> None:
    assert asyncio.run(answer()) == "ran"
    with shared_browser.running():
        browser = shared_browser.browser()
        assert browser.contexts == []
        context = browser.new_context()
        page = context.new_page()
        page.set_content("<p>shown</p>")
        assert page.inner_text("p") == "shown"
        context.close()
    assert asyncio.run(answer()) == "ran"
    with shared_browser.running():
        assert shared_browser.browser() is browser


def test_a_chromium_that_went_away_is_launched_again(shared_browser: SharedBrowser) -> None:
    with shared_browser.running():
        gone = shared_browser.browser()
        gone.close()
        launched = shared_browser.browser()
        assert launched is not gone
        assert launched.is_connected()
        page = launched.new_page()
        page.set_content("<p>again</p>")
        assert page.inner_text("p") == "again"
        page.context.close()
    assert asyncio.run(answer()) == "ran"
