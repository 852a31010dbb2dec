"""What a new player tripped over at the table: the end-of-hand summary over the next auction, the play
by play lost on a reload, a player away with no word of the bot, a match end that said only who won,
and How to play's headings at phone width in Spanish."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from browserkit import (
    HAND_CARDS,
    Watched,
    create_table,
    hand,
    invite_link,
    join_from_invite,
    play_until,
    solo_table,
    start,
    start_with_bots,
)
from playwright.sync_api import Page, expect

from smear.server.app import Timing

# Bots quick, and the summary of a hand up long enough between two hands to be looked at.
BETWEEN_HANDS = Timing(bot_pause=0.05, hand_pause=4.0, grace=30.0)

# In one read of the page: the boxes of the summary, the felt, the seat plates and the action panel,
# whether the summary is in the hand's section, and what the action panel says.
READ_TABLE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const summary = document.querySelector('.summary-overlay');
  return {
    summary: summary && box(summary),
    inBottom: !!summary && !!summary.closest('section.bottom'),
    felt: box(document.querySelector('.felt')),
    plates: [...document.querySelectorAll('.seat-plate')].map(box),
    panel: box(document.querySelector('.action-panel')),
    panelText: document.querySelector('.action-panel').textContent,
  };
}"""

# Whether the middle of every element the selector finds, scrolled to the middle of the window, is
# the element itself (or inside it): then nothing is drawn over it.
ON_TOP = """(selector) => [...document.querySelectorAll(selector)].every((el) => {
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && (hit === el || el.contains(hit));
})"""


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_summary_clear_of_the_table(page: Page) -> dict[str, Any]:
    """The summary is up and covers neither the felt (its seats) nor the action panel."""
    seen: dict[str, Any] = page.evaluate(READ_TABLE)
    assert seen["summary"] is not None
    assert not overlaps(seen["summary"], seen["felt"]), seen
    assert not any(overlaps(seen["summary"], plate) for plate in seen["plates"]), seen
    assert not overlaps(seen["summary"], seen["panel"]), seen
    return seen


def check_the_summary_beside_the_next_auction(page: Page, narrow: bool) -> None:
    summary = page.locator(".summary-overlay")
    play_until([page], lambda: summary.count() > 0)
    seen = check_summary_clear_of_the_table(page)
    assert "The next hand is coming" in seen["panelText"], seen
    # Between two hands: beside the felt, or on a phone right under it, where the hand will be.
    assert seen["inBottom"] == narrow, seen
    if narrow:  # a keyboard user in the summary when it moves keeps the focus on the same control
        focus_close = """() => {
          const button = document.querySelector('section.bottom .summary-overlay .summary-head button');
          if (button) button.focus();
          return document.activeElement === button;
        }"""
        assert page.evaluate(focus_close)

    # The next hand is dealt: our bid buttons come up while the summary of the last one is still
    # open, and nothing of the table is under it.
    bids = page.locator(".action-panel.mine .bid-buttons")
    expect(bids).to_be_visible(timeout=30_000)
    expect(page.get_by_role("dialog", name="End of hand 1")).to_be_visible()
    seen = check_summary_clear_of_the_table(page)
    assert not seen["inBottom"], seen  # the hand and the bids come first
    if narrow:
        expect(page.locator(".summary-overlay .summary-head button")).to_be_focused()
    assert page.evaluate(ON_TOP, ".seat-plate"), "a seat plate is covered"
    assert page.evaluate(ON_TOP, ".seat-plate .chip.bid"), "a bid chip is covered"
    assert page.evaluate(ON_TOP, ".action-panel.mine .bid-buttons .btn"), "a bid button is covered"

    # Escape closes it; the "Last hand" button opens it again with the focus on its title, and
    # Escape gives the focus back to the button.
    page.keyboard.press("Escape")
    expect(summary).to_have_count(0)
    last = page.locator(".side").get_by_role("button", name="Last hand")
    expect(last).to_have_attribute("aria-expanded", "false")
    last.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog", name="End of hand 1")).to_be_visible()
    expect(last).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#summary-title")).to_be_focused()
    check_summary_clear_of_the_table(page)
    page.keyboard.press("Escape")
    expect(summary).to_have_count(0)
    expect(last).to_be_focused()
    expect(bids).to_be_visible()


def test_the_hand_summary_leaves_the_next_auction_in_sight_at_desktop_width(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(BETWEEN_HANDS)
    player = solo_table(open_page, url)
    check_the_summary_beside_the_next_auction(player.page, narrow=False)


def test_the_hand_summary_leaves_the_next_auction_in_sight_at_phone_width(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(BETWEEN_HANDS)
    player = open_page(375, 812)
    create_table(player.page, url, "Solo")
    start_with_bots(player.page)
    check_the_summary_beside_the_next_auction(player.page, narrow=True)


def log_of_the_hand(page: Page) -> list[str]:
    """The play by play from the start of the match (the lobby's lines before it are not the hand's)."""
    lines = page.locator(".log li").all_inner_texts()
    start_at = max(i for i, line in enumerate(lines) if line.startswith(("Match ", "Hand ")))
    return lines[start_at:]


def test_a_reload_brings_back_the_play_by_play_of_the_hand(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = solo_table(open_page, url)
    page = player.page
    # Two of our cards played, so a trick has been won; then our turn, when the table waits for us.
    play_until([page], lambda: len(hand(page)) == 4)
    expect(page.locator(".game.my-turn")).to_be_visible()
    expect(page.locator(".log li").filter(has_text="takes the trick")).not_to_have_count(0)
    before = log_of_the_hand(page)
    assert before[0] == "Match 1 begins" and len(before) >= 10, before

    for _ in range(2):  # the second reload finds the hand noted by the page the first one opened
        page.reload()
        expect(page.locator(HAND_CARDS)).to_have_count(4)
        expect(page.locator(".log li")).to_have_count(len(before))
        assert page.locator(".log li").all_inner_texts() == before


def test_an_away_player_is_counted_down_to_the_bot_that_plays_for_them(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(Timing(bot_pause=0.05, hand_pause=0.5, grace=6.0))
    host = open_page(375, 812).page
    create_table(host, url, "Ann")
    guest = open_page()
    join_from_invite(guest.page, invite_link(host), "Bea")
    host.get_by_role("button", name="Fill the empty seats with bots").click()
    start(host)
    expect(guest.page.locator(HAND_CARDS).first).to_be_visible()
    guest.page.close()

    plate = host.locator(".seat-plate").filter(has_text="Bea")
    chip = plate.locator(".chip.away")
    expect(chip).to_have_attribute("title", re.compile(r"^Away: a bot plays for Bea in \d s$"))
    expect(plate.locator(".chip.offline")).to_have_count(0)
    shown = chip.locator("[aria-hidden=true]")
    counted = re.fullmatch(r"away · bot in (\d) s", shown.inner_text())
    assert counted, shown.inner_text()
    first = int(counted[1])
    assert 1 <= first <= 6
    if first > 1:  # it counts down as the turn timer does
        expect(shown).to_have_text(f"away · bot in {first - 1} s")
    # The chip stays on the plate, however narrow the screen.
    box, inner = plate.bounding_box(), chip.bounding_box()
    assert box and inner and box["x"] <= inner["x"] and inner["x"] + inner["width"] <= box["x"] + box["width"]
    expect(chip).to_have_attribute("title", "A bot is playing for Bea", timeout=15_000)
    expect(shown).to_have_text("bot playing")

    # Bea comes back (her seat is in her browser's storage): the plate is hers again.
    back = guest.context.new_page()
    back.goto(host.url)
    expect(back.locator(".seat-plate.you")).to_contain_text("Bea")
    expect(chip).to_have_count(0)
    expect(plate.locator(".chip.offline")).to_have_count(0)


def test_the_match_end_gives_each_sides_place_and_its_last_hand_fits_a_phone(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(deals=2)
    player = solo_table(open_page, url, target=11)
    code = player.page.url.rsplit("/t/", 1)[1]
    # The player leaves: a bot takes the seat, and the bots play the match out for a spectator.
    player.page.on("dialog", lambda dialog: dialog.accept())
    player.page.get_by_role("button", name="Menu").click()
    player.page.get_by_role("button", name="Leave the table").click()
    expect(player.page.get_by_role("button", name="Create the table")).to_be_attached()

    viewer = open_page(375, 812)
    viewer.context.add_init_script("localStorage.setItem('smear.lang', 'es')")
    page = viewer.page
    page.goto(f"{url}/t/{code}?watch=1")
    end = page.locator(".match-end")
    expect(end).to_be_visible(timeout=120_000)

    standings = end.get_by_role("table", name="Clasificación final")
    expect(standings.locator("thead th")).to_have_text(
        ["Puesto", "Bando", "Total", "Apuestas cumplidas", "Apuestas fallidas", "Puntos por mano"]
    )
    rows = [row.locator("th, td").all_inner_texts() for row in standings.locator("tbody tr").all()]
    assert len(rows) == 4, rows
    # The winner first, named by the headline; then the others by score, each with its place.
    assert rows[0][0] == "1.º" and rows[0][1] in end.locator(".headline").inner_text(), rows
    scores = [int(row[2]) for row in rows]
    assert scores[1:] == sorted(scores[1:], reverse=True), rows
    for i, row in enumerate(rows[1:], start=2):
        assert re.fullmatch(r"[2-4]\.º", row[0]) and int(row[0][0]) <= i, rows
        assert row[3].isdigit() and row[4].isdigit() and re.fullmatch(r"\d+,\d", row[5]), rows

    end.get_by_role("button", name="Última mano").click()
    last = end.locator(".end-last-hand table")
    expect(last).to_be_visible()
    for table in (standings, last):
        box = table.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    last.scroll_into_view_if_needed()
    expect(last.locator("thead th").last).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_how_to_play_in_spanish_at_phone_width_keeps_headings_clear_and_whole(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    viewer = open_page(375, 812)
    viewer.context.add_init_script("localStorage.setItem('smear.lang', 'es')")
    page = viewer.page
    page.goto(url)
    page.get_by_role("button", name="Cómo se juega").first.click()
    dialog = page.get_by_role("dialog", name="Cómo se juega")
    dialog.get_by_role("button", name="Viuda").click()
    expect(dialog.get_by_role("heading", name="La viuda y el triunfo")).to_be_visible()

    # Each section's heading, scrolled to (as a jump, a search or a screen reader does), stops below
    # the sticky title instead of under it.
    below_title = """(heading, scroll) => {
      if (scroll) heading.scrollIntoView();
      const title = document.querySelector('.howto .modal-head').getBoundingClientRect();
      return heading.getBoundingClientRect().top >= title.bottom;
    }"""
    headings = dialog.locator("article h3")
    assert headings.count() >= 8
    for i in range(headings.count()):
        assert headings.nth(i).evaluate(below_title, True), headings.nth(i).inner_text()
    # The link to the table options jumps to them, their heading in sight.
    dialog.locator(".options-link button").click()
    expect(dialog.locator("#howto-options")).to_be_focused()
    assert dialog.get_by_role("heading", name="Opciones de la mesa").evaluate(below_title, False)

    # Nothing sticks out of the page, the tables' captions are whole, and a column heading takes a
    # few lines, not one a word.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    deal = dialog.get_by_role("table", name="El reparto según el número de jugadores")
    expect(deal).to_have_count(1)
    caption = dialog.locator(".fact-caption").first
    box = caption.bounding_box()
    assert box and box["x"] + box["width"] <= 375, box
    lines: list[list[Any]] = deal.locator("thead th").evaluate_all(
        """(cells) => cells.map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return [cell.textContent, range.getClientRects().length];
        })"""
    )
    assert max(count for _, count in lines) <= 3, lines
    wide = dialog.locator("h1, h2, h3").evaluate_all(
        "(els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent)"
    )
    assert wide == [], wide


# Every animation of the page that repeats without end (a CSS animation's name, else its kind).
ENDLESS_ANIMATIONS = """() => document.getAnimations()
  .filter((animation) => animation.effect && animation.effect.getComputedTiming().iterations === Infinity)
  .map((animation) => animation.animationName || animation.constructor.name)"""


def test_a_table_waiting_for_the_player_runs_no_endless_animation(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    """An endless animation has the browser draw a frame sixty times a second for as long as the table
    is open: a phone's battery spent on a screen that waits. The glow of the seat whose turn it is
    breathes a few times when the turn comes, then holds still."""
    page = solo_table(partial(open_page, motion=True), serve(), hints=False).page
    mine = page.locator(".seat-plate.active.you")
    expect(page.locator(".action-panel.mine")).to_be_visible()
    expect(mine).to_have_count(1)
    glows = page.evaluate(
        "() => document.getAnimations().filter((a) => a.animationName === 'glow')"
        ".map((a) => a.effect.getComputedTiming().iterations)"
    )
    assert glows and all(0 < count < 10 for count in glows), glows
    assert page.evaluate(ENDLESS_ANIMATIONS) == []


def test_a_player_who_asks_for_reduced_motion_sees_the_turn_come_without_animation(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    """A player's system may ask for less motion (vestibular disorders, or a tired phone): the table
    then marks whose turn it is without the glow, and animates nothing (open_page asks for it)."""
    page = solo_table(open_page, serve(), hints=False).page
    expect(page.locator(".action-panel.mine")).to_be_visible()
    expect(page.locator(".seat-plate.active.you")).to_have_count(1)
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    running = page.evaluate("() => document.getAnimations().map((a) => a.animationName || a.id)")
    assert running == [], running
