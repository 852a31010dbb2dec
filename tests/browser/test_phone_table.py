"""The table on a phone: at 375x740, 360x640, a landscape 740x360 and at 1280x800, every decision is
made without scrolling (the hand, the choices, whose turn it is and the trick on screen together),
the table, the hand's summary and the match's end open at their top, seat plates and the trick's
cards never overlap, and names stay readable with eight players.

One table serves every screen size: the page is resized while the table waits for this seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browserkit import HAND_CARDS, PLAYABLE_NOW, Watched, click_card, create_table, start_with_bots
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from smear.server.limits import Timing

PHONES = [(375, 740), (360, 640), (740, 360)]
DESKTOP = (1280, 800)
SCREENS = [*PHONES, DESKTOP]
# Bots at once; a hand's summary stays up until the test has looked at it on every screen.
QUICK = Timing(bot_pause=0.01, hand_pause=120.0, grace=30.0)
# Bots at once and no pause between hands, for a whole match.
MATCH_FAST = Timing(bot_pause=0.01, hand_pause=0.01, grace=30.0)

# What is on screen, read once the layout has settled (two frames after a resize): the window, how far
# it is scrolled, and the boxes [left, top, right, bottom] of what a decision needs.
READ_SCREEN = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (selector) => [...document.querySelectorAll(selector)].map(box);
  return {
    width: window.innerWidth,
    height: window.innerHeight,
    scrollTop: document.scrollingElement.scrollTop,
    hand: all('.hand .hand-card'),
    choices: all('.action-panel.mine :is(.bid-buttons button, .trump-buttons button, .widow-btn, '
      + '.discard-row .btn)'),
    turn: all('.seat-plate.active, .turn-banner'),
    felt: all('.felt'),
    plates: all('.seat-plate'),
    trick: [...document.querySelectorAll('.trick .trick-card')].map(
      (el) => [...box(el), el.classList.contains('fanned') ? 1 : 0]),
    summary: all('.summary-overlay .summary-head'),
    names: [...document.querySelectorAll('.seat-plate .name-text')].map(
      (el) => [el.textContent, el.scrollWidth, el.clientWidth]),
  };
}"""


def overlaps(a: list[float], b: list[float]) -> bool:
    """Two boxes share more than a hairline."""
    return a[0] + 1 < b[2] and b[0] + 1 < a[2] and a[1] + 1 < b[3] and b[1] + 1 < a[3]


def within(box: list[float], outer: list[float], slack: float = 1) -> bool:
    starts_in = box[0] >= outer[0] - slack and box[1] >= outer[1] - slack
    return starts_in and box[2] <= outer[2] + slack and box[3] <= outer[3] + slack


def inside(box: list[float], seen: dict[str, Any]) -> bool:
    """The box is in the window."""
    return within(box, [0, 0, seen["width"], seen["height"]], 0.5)


def faults(seen: dict[str, Any], needed: tuple[str, ...]) -> list[str]:
    """What is wrong on screen: a needed thing missing or out of the window, the page scrolled, two
    seat plates or two trick cards (of different seats) on top of each other or a plate off the felt,
    a seat's name cut."""
    found = []
    if seen["scrollTop"] != 0:
        found.append(f"scrolled by {seen['scrollTop']}")
    for what in needed:
        if not seen[what]:
            found.append(f"no {what}")
        found += [f"{what} out of the window: {box}" for box in seen[what] if not inside(box, seen)]
    plates = seen["plates"]
    pairs = [(a, b) for i, a in enumerate(plates) for b in plates[i + 1 :]]
    found += [f"seat plates overlap: {a} {b}" for a, b in pairs if overlaps(a, b)]
    for felt in seen["felt"]:
        found += [f"seat plate off the felt: {plate}" for plate in plates if not within(plate, felt)]
    trick = seen["trick"]
    found += [
        f"trick cards overlap: {a} {b}"
        for i, a in enumerate(trick)
        for b in trick[i + 1 :]
        if not (a[4] and b[4]) and overlaps(a, b)
    ]
    found += [f"name cut: {name!r}" for name, scroll, client in seen["names"] if scroll > client + 1]
    return found


def check_every_screen(page: Page, needed: tuple[str, ...], screens: list[tuple[int, int]] = SCREENS) -> None:
    """At each screen size in turn, what a decision needs is in the window without scrolling."""
    for width, height in screens:
        page.set_viewport_size({"width": width, "height": height})
        seen: dict[str, Any] = page.evaluate(READ_SCREEN)
        assert faults(seen, needed) == [], (width, height, faults(seen, needed), seen)


def step(page: Page, avoid: str = "") -> bool:
    """Take this page's turn when it is to bid (pass, or the lowest bid), take the widow, name trump
    or play a card: never a discard, nor what ``avoid`` names ("bid", "card"): the tests look at
    those first. Whether it acted."""
    panel = page.locator(".action-panel.mine")
    try:
        if panel.locator(".discard-progress").count():
            return False
        bids = () if avoid == "bid" else (".pass-btn", ".bid-btn:not(.moon-btn)")
        for selector in (*bids, ".widow-btn", ".trump-buttons button"):
            button = panel.locator(selector)
            if button.count():
                button.first.click(timeout=2000)
                expect(panel.locator(selector)).to_have_count(0, timeout=5000)
                return True
        playable = page.locator(PLAYABLE_NOW)
        if avoid != "card" and playable.count():
            held = page.locator(HAND_CARDS).count()
            click_card(playable.first)
            expect(page.locator(HAND_CARDS)).to_have_count(held - 1, timeout=5000)
            return True
    except (PlaywrightError, AssertionError):
        return False  # the table moved on while we looked: look again
    return False


def play_until_shown(page: Page, selector: str, turns: int = 2000, avoid: str = "") -> None:
    """This page takes its turns (never a discard, nor ``avoid``) until ``selector`` is on the page."""
    shown = page.locator(selector)
    for _ in range(turns):
        if shown.count():
            return
        if not step(page, avoid):
            page.wait_for_timeout(30)
    raise AssertionError(f"{selector} never came")


def start_at_the_top(page: Page) -> None:
    """Start the match from the bottom of the lobby, as a thumb does: the table opens at its top."""
    page.get_by_role("button", name="Fill the empty seats with bots").click()
    button = page.get_by_role("button", name="Start the match")
    expect(button).to_be_enabled()
    button.scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    assert page.evaluate("document.scrollingElement.scrollTop") > 0, "the lobby fits: nothing to test"
    button.click()
    expect(page.locator(".game")).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollTop") == 0


@pytest.mark.parametrize("players", [4, 8])
def test_the_auction_the_play_and_the_hand_summary_fit_every_screen(
    serve: Callable[..., str], open_page: Callable[..., Watched], players: int
) -> None:
    url = serve(QUICK)
    page = open_page(375, 740).page
    create_table(page, url, "Newbie", players=players)
    start_at_the_top(page)

    # Our bid: the hand, the bid buttons and the seat to act (ours: the banner) all in sight.
    play_until_shown(page, ".action-panel.mine .bid-buttons", avoid="bid")
    check_every_screen(page, ("hand", "choices", "turn"))
    page.set_viewport_size({"width": 375, "height": 740})

    # Our card to play, the trick so far on the felt.
    play_until_shown(page, PLAYABLE_NOW, avoid="card")
    check_every_screen(page, ("hand", "turn"))
    page.set_viewport_size({"width": 360, "height": 640})

    # The end of the hand opens at the top, its summary in sight, the last trick whole on the felt.
    play_until_shown(page, ".summary-overlay")
    expect(page.locator(".trick .trick-card")).to_have_count(players)
    check_every_screen(page, ("summary",))


@pytest.mark.parametrize("preset", ["Ten-point", "Widow", "Nine-card"])
def test_the_discard_fits_every_screen(
    serve: Callable[..., str], open_page: Callable[..., Watched], preset: str
) -> None:
    url = serve(QUICK)
    page = open_page(360, 640).page
    create_table(page, url, "Newbie", preset=preset)
    start_with_bots(page)
    play_until_shown(page, ".action-panel.mine .discard-progress")
    check_every_screen(page, ("hand", "choices", "turn"))
    # Cards picked (by the player, or by the rules) stand out of the hand, still in the window.
    page.set_viewport_size({"width": 360, "height": 640})
    free = page.locator(f"{HAND_CARDS}.playable:not(.selected)")
    if free.count():
        click_card(free.first)
    expect(page.locator(f"{HAND_CARDS}.selected").first).to_be_visible()
    check_every_screen(page, ("hand", "choices", "turn"))


def test_the_match_end_opens_at_its_top_with_play_again_in_sight(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(MATCH_FAST, deals=4)
    page = open_page(375, 740).page
    create_table(page, url, "Newbie", target=11)
    start_with_bots(page)
    # The whole match played on a phone: its end opens at its top, the result and "Play again" in sight.
    play_until_shown(page, ".match-end", turns=20_000)
    expect(page.get_by_role("button", name="Play again")).to_be_visible()
    read_end = """async () => {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
      };
      return {
        width: window.innerWidth, height: window.innerHeight,
        scrollTop: document.scrollingElement.scrollTop,
        result: [box(document.querySelector('.match-end .headline'))],
        again: [...document.querySelectorAll('.rematch .end-actions .btn')].map(box),
        label: document.querySelector('.chart .label').getBoundingClientRect().height,
      };
    }"""
    for width, height in SCREENS:
        page.set_viewport_size({"width": width, "height": height})
        seen: dict[str, Any] = page.evaluate(read_end)
        assert seen["scrollTop"] == 0, seen
        in_sight = [inside(box, seen) for box in seen["result"] + seen["again"]]
        assert seen["again"] and all(in_sight), (width, seen)
        # The chart's labels are read at the size of small print, however narrow the chart.
        assert seen["label"] >= 11, (width, seen)


def test_a_long_name_cut_short_on_a_phone_shows_whole_when_tapped_or_reached_with_tab(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(QUICK)
    page = open_page(375, 740).page
    long_name = "Bartholomew Higginbottom"
    create_table(page, url, long_name, players=8)
    start_at_the_top(page)
    expect(page.locator(".seat-plate")).to_have_count(8)
    mine = page.locator(".seat-plate.you .name-text")
    others = page.locator(".seat-plate:not(.you) .name-text")
    # Cut short, but to a few letters, not one; the names that fit take no focus.
    expect(mine).to_have_attribute("tabindex", "0")
    expect(mine).to_have_attribute("title", long_name)
    width = "(el) => [el.scrollWidth, el.clientWidth]"
    whole, shown = mine.evaluate(width)
    assert whole > shown + 1 and shown >= 40, (whole, shown)
    assert all(
        tab is None for tab in others.evaluate_all("(els) => els.map((el) => el.getAttribute('tabindex'))")
    )

    mine.click()  # a tap
    expect(mine).to_be_focused()
    whole, shown = mine.evaluate(width)
    assert whole <= shown + 1, (whole, shown)
    expect(mine).to_have_text(long_name)
    expect(mine).to_be_in_viewport()

    page.locator("body").click(position={"x": 5, "y": 5})  # away: cut short again
    expect(mine).not_to_be_focused()
    whole, shown = mine.evaluate(width)
    assert whole > shown + 1, (whole, shown)
    for _ in range(60):  # and Tab reaches it, showing it whole
        page.keyboard.press("Tab")
        if mine.evaluate("(el) => el === document.activeElement"):
            break
    expect(mine).to_be_focused()
    whole, shown = mine.evaluate(width)
    assert whole <= shown + 1, (whole, shown)
