"""A page out of sight says in its tab's title and icon that it is the player's turn."""

from __future__ import annotations

import re
from collections.abc import Callable

from browserkit import Watched, create_table, play_until
from playwright.sync_api import Page, expect

YOUR_TURN = "● Your turn · Smear"
ICON = "link[rel~='icon']"

# Headless chromium never hides a page (a second page brought to the front or a minimized window
# leaves it "visible"), so the page's visibility is set here the way a browser sets it.
SET_HIDDEN = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", {
    configurable: true,
    get: () => (hidden ? "hidden" : "visible"),
  });
  document.dispatchEvent(new Event("visibilitychange"));
}"""

# Every title the tab settles on (once per change, whatever a change wrote on the way), with
# whether its icon has the dot: a state that lasts a few milliseconds is kept too.
RECORD_TABS = """(plain) => {
  window.tabs = [];
  const note = () => {
    const icon = document.querySelector("link[rel~='icon']").getAttribute("href");
    window.tabs.push([document.title, icon === plain ? "plain" : "dot"]);
  };
  new MutationObserver(note).observe(document.head, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
}"""


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate(SET_HIDDEN, hidden)


def tabs(page: Page) -> list[tuple[str, str]]:
    return [(title, icon) for title, icon in page.evaluate("window.tabs")]


def test_a_hidden_page_says_it_is_your_turn_until_shown_or_the_turn_passes(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    create_table(page, url, "Ann")
    page.get_by_role("button", name="Fill the empty seats with bots").click()
    start = page.get_by_role("button", name="Start the match")
    expect(start).to_be_enabled()
    plain = page.locator(ICON).get_attribute("href")
    assert plain
    expect(page).to_have_title("Smear")

    # Out of sight before the match starts: the auction comes round to this seat meanwhile.
    set_hidden(page, True)
    start.click()
    expect(page.locator(".action-panel.mine .bid-buttons")).to_be_visible()
    expect(page).to_have_title(YOUR_TURN)
    dotted = page.locator(ICON).get_attribute("href")
    assert dotted and dotted != plain and "circle" in dotted

    # Shown again: the title and the icon are the page's own.
    set_hidden(page, False)
    expect(page).to_have_title("● Smear")
    expect(page.locator(ICON)).to_have_attribute("href", plain)

    # Hidden again on its turn; then the turn passes (the title and icon go back) and comes round.
    set_hidden(page, True)
    expect(page).to_have_title(YOUR_TURN)
    page.evaluate(RECORD_TABS, plain)
    play_until([page], lambda: ("Smear", "plain") in tabs(page))
    page.wait_for_function(
        """(yours) => {
          const passed = window.tabs.findIndex(([title, icon]) => title === "Smear" && icon === "plain");
          return window.tabs.slice(passed).some(([title, icon]) => title === yours && icon === "dot");
        }""",
        arg=YOUR_TURN,
    )
    expect(page).to_have_title(YOUR_TURN)
    expect(page.locator(ICON)).to_have_attribute("href", re.compile("circle"))
    assert all(title != YOUR_TURN for title, icon in tabs(page) if icon == "plain")

    set_hidden(page, False)
    expect(page).to_have_title("● Smear")
    expect(page.locator(ICON)).to_have_attribute("href", plain)
