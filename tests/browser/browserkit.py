"""What a player does in the browser client: create, join, start, bid and play through the UI; and the
one chromium that the browser tests of a worker share."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    Request,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

# Chromium's headless shell (Debian's chromium-headless-shell): the same engine without the browser's
# windowing, which took about a third more CPU for the same tests.
CHROMIUM = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
]
HAND_CARDS = ".hand .hand-card"
# The cards this page may play now: its turn and the card play in one selector, checked again at a
# click (a discard screen also marks cards playable: those that may be picked).
PLAYABLE_NOW = f'.game.my-turn[data-phase="play"] {HAND_CARDS}.playable'
# What this page's screen offers it to do now, in one look (one call to the page, where asking for
# each control in turn took five): "bid", "widow", "trump", "discard", "card", or null.
TURN_OFFERED = f"""() => {{
  const mine = (inside) => document.querySelector(`.action-panel.mine ${{inside}}`) !== null;
  if (mine('.bid-buttons')) return 'bid';
  if (mine('.widow-btn')) return 'widow';
  if (mine('.trump-buttons button')) return 'trump';
  if (mine('.discard-progress')) return 'discard';
  return document.querySelector('{PLAYABLE_NOW}') !== null ? 'card' : null;
}}"""
# A card of the hand is named by the text on its face, then in words ("8♣, eight of clubs").
FACE_FIRST = re.compile(r"^(?:10|[2-9JQKA])[♣♦♥♠], ")
# Where a card of the hand is clicked when nothing covers it there: near its left edge, the part its
# left-hand neighbour never covers when the cards overlap on a narrow screen.
CARD_EDGE = {"x": 7, "y": 30}
# The point of a card, relative to it, that is on top of the page there, once the card has stopped
# moving (a card rises when chosen or hovered): near its left edge first, as a player clicks. A card
# with the keyboard's focus comes to the front and may cover its right-hand neighbour's edge, and a
# bar fixed to the window may cover a card; a player clicks what shows, and so does a test.
_SHOWING_POINT = """async (card) => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  let box = card.getBoundingClientRect();
  for (let looks = 0; looks < 30; looks++) {
    await frame();
    const now = card.getBoundingClientRect();
    const still = now.x === box.x && now.y === box.y && now.width === box.width;
    box = now;
    if (still) break;
  }
  for (const y of [30, box.height / 2, box.height - 10, 10]) {
    for (let x = 7; x < box.width - 2; x += 4) {
      const top = document.elementFromPoint(box.left + x, box.top + y);
      if (top && card.contains(top)) return { x, y };
    }
  }
  return null;
}"""


@dataclass
class Watched:
    """A page with every console error and uncaught exception it produced, and every frame it sent."""

    page: Page
    context: BrowserContext
    errors: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    # Requests that failed, and those still unanswered (to tell why a page shows nothing).
    failed_requests: list[str] = field(default_factory=list)
    open_requests: set[Request] = field(default_factory=set)

    def describe(self) -> str:
        """What the page shows and waits for: its address, its text, its requests that went wrong."""
        try:
            text = self.page.inner_text("body", timeout=2000)
        except Exception as error:  # a diagnostic: never in the way of the failure it explains
            text = f"(no text: {type(error).__name__})"
        return (
            f"page {self.page.url}\n  text: {text[:1500]!r}\n"
            f"  failed requests: {self.failed_requests}\n"
            f"  unanswered requests: {[request.url for request in self.open_requests]}"
        )


class SharedBrowser:
    """One Playwright and one chromium for this test process (an xdist worker), started at its first
    browser test; each test opens its pages in browser contexts of its own.

    Playwright's sync API leaves its event loop marked as running in this thread between its calls,
    and the other tests of the same worker call asyncio.run(), which refuses to start then: the mark
    is lifted between browser tests and put back around each (``running``).
    """

    def __init__(self) -> None:
        self.playwright: Playwright = sync_playwright().start()
        self._loop = asyncio._get_running_loop()
        try:
            self._browser = self._launch()
        except BaseException:
            self.playwright.stop()
            raise
        finally:
            asyncio._set_running_loop(None)

    def _launch(self) -> Browser:
        return self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        """Playwright's loop marked as running again, for the calls of one browser test."""
        asyncio._set_running_loop(self._loop)
        try:
            yield
        finally:
            asyncio._set_running_loop(None)

    def browser(self) -> Browser:
        """The chromium, launched again if the last one went away (a crash is one test's failure)."""
        if not self._browser.is_connected():
            self._browser = self._launch()
        return self._browser

    def close(self) -> None:
        with self.running():
            if self._browser.is_connected():
                self._browser.close()
            self.playwright.stop()


# A card in the hand as "<rank><suit letter>" read from its face (the rank text and the suit class).
READ_HAND = """() => [...document.querySelectorAll('.hand .hand-card .card')].map((card) => {
  const suit = [...card.classList].find((c) => c.startsWith('suit-'));
  const rank = card.querySelector('.corner .rank')?.textContent ?? '';
  return rank + (suit ? suit.slice(5) : (card.classList.contains('joker') ? 'joker' : ''));
})"""


def spoken_name(label: str) -> str:
    """A hand card's accessible name less the face's text that opens it ("eight of clubs, chosen"):
    the words other cards on the page (a summary's, a trick's) are named by."""
    return FACE_FIRST.sub("", label, count=1)


def unfold_the_form(page: Page) -> None:
    """Open the landing page's full table form, folded under "Play now" until a player opens it
    (and then kept open, in localStorage)."""
    folded = page.locator("details.more-options")
    if folded.get_attribute("open") is None:
        folded.locator("summary").click()
    expect(folded).to_have_attribute("open", "")


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
    unfold_the_form(page)
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


def join_from_invite(page: Page, link: str, name: str, join: str = "Join") -> None:
    """Open the invite link and take a seat; ``join`` is the button's name in the page's language."""
    page.goto(link)
    page.locator("#join-name").fill(name)
    page.get_by_role("button", name=join, exact=True).click()
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


def take_turn(
    page: Page, *, top_bid: bool = False, on_bid: Callable[[Page], None] | None = None, hold: str = ""
) -> str | None:
    """If it is this page's turn, act through the UI: bid (pass when allowed, else the lowest bid;
    with ``top_bid`` the highest bid short of the moon), take the widow, name the first suit
    offered, choose a discard (the cards the rules pick, then the first cards that may be picked)
    and confirm it, or play a legal card.

    Returns what was done ("pass", "bid", "widow", "trump", "discard", "card"), or None when there
    was nothing to do. Only legal choices are offered by the UI: the bid buttons, the hand's cards
    marked playable, the discard's count and the cards it lets be chosen. ``on_bid(page)`` looks at
    the bid buttons first, while they are up. ``hold`` ("bid", "discard" or "card") is a turn left
    untaken, for a caller waiting for that screen: it stays until this page acts.
    """
    try:
        offered = page.evaluate(TURN_OFFERED)
        if offered is None or offered == hold:
            return None
        panel = page.locator(".action-panel.mine")
        bids = panel.locator(".bid-buttons")
        if offered == "bid":
            if on_bid is not None:
                on_bid(page)
            passing = panel.locator(".bid-buttons button", has_text="Pass")
            amounts = panel.locator(".bid-btn:not(.moon-btn)")
            if top_bid and amounts.count():
                button, done = amounts.last, "bid"
            elif passing.count():
                button, done = passing, "pass"
            else:
                button, done = panel.locator(".bid-btn").first, "bid"
            return _act(done, lambda: button.click(timeout=2000), bids, 0)
        widow = panel.locator(".widow-btn")
        if offered == "widow":
            return _act("widow", lambda: widow.click(timeout=2000), widow, 0)
        suits = panel.locator(".trump-buttons button")
        if offered == "trump":
            first = suits.first
            return _act("trump", lambda: first.click(timeout=2000), suits, 0)
        cards = page.locator(HAND_CARDS)
        if offered == "discard":
            held = cards.count()
            choose_discard(page)
            confirm = panel.get_by_role("button", name="Discard", exact=True)
            return _act("discard", lambda: confirm.click(timeout=2000), cards, held, changed=True)
        if offered == "card":
            held = cards.count()
            card = page.locator(PLAYABLE_NOW).first
            return _act("card", lambda: click_card(card), cards, held - 1)
    except PlaywrightError:
        return None  # the table moved on while we looked: look again
    return None


# The first word of every action that is not a card (a card is its own name: "AS", "10H", "BJ").
NOT_CARDS = frozenset({"pass", "bid", "trump", "widow", "discard"})


def requests_sent(watched: Watched, event: str) -> list[dict[str, Any]]:
    """The payloads of the Socket.IO requests of this kind the page sent, in order."""
    found = []
    for frame in watched.sent:
        start = frame.find(f'["{event}",')
        if start >= 0:
            found.append(json.loads(frame[start:])[1])
    return found


def actions_sent(watched: Watched) -> list[str]:
    """The actions this page sent in ``act`` requests, in order, as sent ("pass", "bid 3", "AS").

    :func:`play_until`'s own list misses a click that reported an error under load but went through
    after all, its effect showing too late; every request sent is here. A click retried meanwhile
    may add one the server refused."""
    found = []
    for frame in watched.sent:
        start = frame.find('["act",')
        if start >= 0:
            found.append(str(json.loads(frame[start:])[1]["action"]))
    return found


def cards_sent(watched: Watched) -> list[str]:
    """The cards this page played: the actions it sent that are cards."""
    return [action for action in actions_sent(watched) if action.split()[0] not in NOT_CARDS]


def _act(
    done: str, click: Callable[[], None], shown: Locator, count: int, *, changed: bool = False
) -> str | None:
    """Click, then wait until the page shows the effect (``shown`` has ``count`` elements, or with
    ``changed`` no longer has them), so a caller that looks next does not see the turn already
    taken. A click that fails under load may still have gone through: then the effect tells."""

    def effect(timeout: float) -> bool:
        try:
            if changed:
                expect(shown).not_to_have_count(count, timeout=timeout)
            else:
                expect(shown).to_have_count(count, timeout=timeout)
        except AssertionError:
            return False
        return True

    try:
        click()
    except PlaywrightError:
        return done if effect(1000) else None
    effect(5000)  # a refusal or a slow server: the caller looks again
    return done


def click_card(card: Locator, timeout: float = 2000) -> None:
    """Click a card of the hand where it shows: near its left edge, unless something covers that
    (then Playwright would wait on a point it can never click)."""
    card.scroll_into_view_if_needed(timeout=timeout)
    point = card.evaluate(_SHOWING_POINT)
    card.click(position=point or CARD_EDGE, timeout=timeout)


def discard_progress(page: Page) -> tuple[int, int]:
    """The discard's counter as (chosen, to choose): "3 of 18 chosen" is (3, 18)."""
    text = page.locator(".action-panel.mine .discard-progress").inner_text(timeout=2000)
    match = re.fullmatch(r"(\d+) of (\d+) chosen", text.strip())
    assert match, text
    return int(match[1]), int(match[2])


def choose_discard(page: Page) -> list[str]:
    """Pick cards for the discard on screen until the counter is full: the cards the rules choose are
    raised already, and the first cards that may still be picked are clicked one by one. Returns the
    accessible names of the cards chosen, the rules' own included."""
    chosen, count = discard_progress(page)
    while chosen < count:
        free = page.locator(f"{HAND_CARDS}.playable:not(.selected)")
        click_card(free.first)
        expect(page.locator(".action-panel.mine .discard-progress")).to_have_text(
            f"{chosen + 1} of {count} chosen", timeout=5000
        )
        chosen += 1
    names: list[str] = page.locator(f"{HAND_CARDS}.selected").evaluate_all(
        "(els) => els.map((el) => el.getAttribute('aria-label'))"
    )
    return names


def wait_for_a_turn(page: Page, most_ms: float, or_shown: str = "") -> None:
    """Until the page offers it a turn (or shows ``or_shown``, a selector), for ``most_ms`` at most:
    looked at by the page every 20 ms, rather than asked from here again and again."""
    shown = f"document.querySelector({json.dumps(or_shown)}) !== null || " if or_shown else ""
    with contextlib.suppress(PlaywrightError):  # no turn yet, or the page moved on: look again
        page.wait_for_function(f"() => {shown}({TURN_OFFERED})() !== null", timeout=most_ms, polling=20)


def play_until(
    pages: Sequence[Page],
    done: Callable[[], bool],
    stall: float = 60.0,
    *,
    top_bid: bool = False,
    on_bid: Callable[[Page], None] | None = None,
) -> list[str]:
    """Every page takes its turns until ``done()``; returns what was done, in order. ``on_bid`` is
    called with a page whose bid buttons are up, before it bids.

    It fails when no page could act for ``stall`` seconds: a table that stopped. A slow machine only
    makes the whole take longer, so the limit is on the wait for each turn, not on the whole.
    """
    actions: list[str] = []
    deadline = time.monotonic() + stall
    while not done():
        assert time.monotonic() < deadline, f"no page could act for {stall} s, after {actions}"
        acted = False
        for page in pages:
            action = take_turn(page, top_bid=top_bid, on_bid=on_bid)
            if action:
                actions.append(action)
                acted = True
        if acted:
            deadline = time.monotonic() + stall
        elif len(pages) == 1:
            wait_for_a_turn(pages[0], 100)
        else:
            pages[0].wait_for_timeout(30)
    return actions
