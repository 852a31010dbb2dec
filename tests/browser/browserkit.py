"""What a player does in the browser client: create, join, start, bid and play through the UI."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

HAND_CARDS = ".hand .hand-card"
# Where a card of the hand is clicked: near its left edge, the part a neighbour never covers when the
# cards overlap on a narrow screen.
CARD_EDGE = {"x": 7, "y": 30}


@dataclass
class Watched:
    """A page with every console error and uncaught exception it produced, and every frame it sent."""

    page: Page
    context: BrowserContext
    errors: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)


# A card in the hand as "<rank><suit letter>" read from its face (the rank text and the suit class).
READ_HAND = """() => [...document.querySelectorAll('.hand .hand-card .card')].map((card) => {
  const suit = [...card.classList].find((c) => c.startsWith('suit-'));
  const rank = card.querySelector('.corner .rank')?.textContent ?? '';
  return rank + (suit ? suit.slice(5) : (card.classList.contains('joker') ? 'joker' : ''));
})"""


def create_table(
    page: Page,
    url: str,
    name: str,
    *,
    players: int = 4,
    teams: bool = False,
    target: int = 21,
    turn_timer: int = 0,
    hints: bool = True,
    preset: str | None = None,
    moon: bool = False,
    elimination: bool = False,
    kitty: bool = False,
) -> str:
    """Create a table from the landing page; returns the table code (from the /t/CODE address).

    ``preset`` is the game's name as the landing page shows it ("Five-point"); None keeps the one
    chosen. Where the preset decides the teams (the box is disabled), the box must already agree.
    The kitty box is there only for a preset that offers the kitty.
    """
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    if preset is not None:
        page.get_by_role("radio", name=preset).check()
    page.get_by_label("Players").select_option(str(players))
    page.get_by_label("Play to").select_option(str(target))
    page.get_by_label("Turn timer").select_option(str(turn_timer))
    teams_box = page.get_by_role("checkbox", name="Play in teams")
    if teams_box.is_disabled():
        assert teams_box.is_checked() == teams, "the preset decides the teams otherwise"
    elif teams:
        teams_box.check()
    else:
        teams_box.uncheck()
    for label, wanted in [("Shoot the moon", moon), ("Elimination at −21", elimination)]:
        box = page.get_by_role("checkbox", name=label)
        if wanted:
            box.check()
        else:
            box.uncheck()
    kitty_box = page.get_by_role("checkbox", name="Kitty", exact=True)
    if kitty:
        kitty_box.check()
    elif kitty_box.count():
        kitty_box.uncheck()
    hints_box = page.get_by_role("checkbox", name="Allow hints")
    if hints:
        hints_box.check()
    else:
        hints_box.uncheck()
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", name="Seats")).to_be_visible()
    assert "/t/" in page.url
    return page.url.rsplit("/t/", 1)[1].split("?")[0]


def invite_link(page: Page) -> str:
    return page.get_by_label("Invite link", exact=True).input_value()


def join_from_invite(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.locator("#join-name").fill(name)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator(".seat-list li.mine")).to_contain_text(name)


def solo_table(
    open_page: Callable[..., Watched],
    url: str,
    *,
    target: int = 21,
    turn_timer: int = 0,
    hints: bool = True,
) -> Watched:
    """One player and three bots, the match started."""
    player = open_page()
    create_table(player.page, url, "Solo", target=target, turn_timer=turn_timer, hints=hints)
    start_with_bots(player.page)
    return player


def start_with_bots(page: Page) -> None:
    page.get_by_role("button", name="Fill the empty seats with bots").click()
    start(page)


def start(page: Page) -> None:
    button = page.get_by_role("button", name="Start the match")
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator(".game")).to_be_visible()


def hand(page: Page) -> list[str]:
    cards: list[str] = page.evaluate(READ_HAND)
    return cards


def take_turn(page: Page) -> str | None:
    """If it is this page's turn, bid (pass when allowed, else the lowest bid) or play a legal card.

    Returns what was done, or None when there was nothing to do. Only legal choices are offered by
    the UI: the bid buttons, and the hand's cards marked playable.
    """
    try:
        bids = page.locator(".action-panel.mine .bid-buttons")
        if bids.count():
            passing = page.locator(".action-panel.mine .bid-buttons button", has_text="Pass")
            if passing.count():
                passing.click(timeout=2000)
                done = "pass"
            else:
                page.locator(".action-panel.mine .bid-btn").first.click(timeout=2000)
                done = "bid"
            _settle(lambda: expect(bids).to_have_count(0, timeout=5000))
            return done
        if page.locator(".game.my-turn").count():
            playable = page.locator(f"{HAND_CARDS}.playable")
            if playable.count():
                held = page.locator(HAND_CARDS).count()
                playable.first.click(position=CARD_EDGE, timeout=2000)
                _settle(lambda: expect(page.locator(HAND_CARDS)).to_have_count(held - 1, timeout=5000))
                return "card"
    except PlaywrightError:
        return None  # the table moved on while we looked: look again
    return None


def _settle(wait: Callable[[], None]) -> None:
    """Wait until the page shows the effect of what was just sent, so a caller that looks next does
    not see the turn that has already been taken."""
    with contextlib.suppress(AssertionError):  # a refusal or a slow server: the caller looks again
        wait()


def play_until(pages: Sequence[Page], done: Callable[[], bool], timeout: float = 90.0) -> list[str]:
    """Every page takes its turns until ``done()``; returns what was done, in order."""
    actions: list[str] = []
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"not done after {actions}"
        acted = False
        for page in pages:
            action = take_turn(page)
            if action:
                actions.append(action)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(30)
    return actions
