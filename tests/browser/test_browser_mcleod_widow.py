"""McLeod and widow in the browser: offered on the landing page, the widow taken, discards chosen
within the rules' limits, and hands played to their summaries."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from browserkit import (
    HAND_CARDS,
    PLAYABLE_NOW,
    Watched,
    choose_discard,
    create_table,
    discard_progress,
    start_with_bots,
    take_turn,
    unfold_the_form,
)
from playwright.sync_api import Page, expect

from smear.server.app import Timing

SCREENSHOTS = Path(__file__).parent / "screenshots"
WIDOW_POINTS = ["High", "Two", "Jack", "Jick", "Big joker", "Little joker", "Ten of trump", "Trey (3 points)"]
MCLEOD_POINTS = ["High", "Low", "Jack", "Jick", "Big joker", "Little joker", "Game", "Trey (3 points)"]
# The hand summary's number and point names, read in one step (None when no summary is up).
READ_SUMMARY = """() => {
  const overlay = document.querySelector(".summary-overlay");
  const title = overlay && overlay.querySelector("h2");
  if (!title) return null;
  const words = (node) => node.textContent.replace(/\\s+/g, " ").trim();
  return {
    number: Number(words(title).split(" ").pop()),
    points: [...overlay.querySelectorAll(".points-list .point-name")].map(words),
  };
}"""
# A summary stays up long enough to be read before the next deal.
SLOW_SUMMARY = Timing(bot_pause=0.02, hand_pause=4.0, grace=30.0)


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), animations="disabled")


def hand_number(page: Page) -> int:
    return int(page.locator(".contract dt").first.inner_text().split()[-1])


def accessible_names(page: Page, selector: str) -> list[str]:
    names: list[str] = page.locator(selector).evaluate_all(
        "(els) => els.map((el) => el.getAttribute('aria-label'))"
    )
    return names


def check_discard_screen(page: Page) -> tuple[int, int]:
    """What the discard screen shows before anything is picked: the rules' own cards raised and
    locked, the counter, the confirm button enabled only once the count is right. Returns the
    counter as (chosen, count)."""
    panel = page.locator(".action-panel.mine")
    chosen, count = discard_progress(page)
    locked = page.locator(f"{HAND_CARDS}.locked")
    assert locked.count() == chosen, (locked.count(), chosen)
    for label in accessible_names(page, f"{HAND_CARDS}.locked"):
        assert label.endswith(", must be discarded"), label
    confirm = panel.get_by_role("button", name="Discard", exact=True)
    if chosen < count:
        expect(confirm).to_be_disabled()
        # A locked card stays chosen when clicked. The click goes to the card itself: a click at a
        # point of the overlapping hand (forced, since the card is aria-disabled) could land on a
        # neighbour when the hand was laid out again between finding the point and clicking it.
        if chosen:
            locked.first.dispatch_event("click")
            expect(panel.locator(".discard-progress")).to_have_text(f"{chosen} of {count} chosen")
    else:
        expect(confirm).to_be_enabled()
    # Cards that may be picked are marked playable, but no helper takes them for a card to play.
    if chosen < count:
        assert page.locator(f"{HAND_CARDS}.playable").count() > 0
    expect(page.locator(PLAYABLE_NOW)).to_have_count(0)
    # Cards the rules keep are dimmed, named so, and cannot be picked.
    for label in accessible_names(page, f"{HAND_CARDS}.dimmed"):
        assert label.endswith(", must be kept"), label
    return chosen, count


def test_the_landing_page_offers_mcleod_and_widow_with_their_table_sizes(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page(375, 812).page
    page.goto(url)
    unfold_the_form(page)
    players = page.get_by_label("Players")
    teams = page.get_by_role("checkbox", name="Play in teams")

    page.get_by_role("radio", name="McLeod").check()
    expect(page.locator("#preset-mcleod-desc")).to_contain_text("takes the whole stock")
    expect(players.locator("option")).to_have_text(["4", "6"])
    expect(teams).to_be_disabled()
    expect(teams).to_be_checked()
    expect(page.locator("#teams-note")).to_have_text("With 4 players this game is played in teams.")
    expect(page.get_by_role("checkbox", name="Kitty", exact=True)).to_have_count(0)

    page.get_by_role("radio", name="Widow").check()
    expect(page.locator("#preset-widow-desc")).to_contain_text("four-card widow")
    expect(players.locator("option")).to_have_text(["3", "4"])
    expect(players).to_have_value("4")
    expect(teams).to_be_enabled()
    players.select_option("3")
    expect(teams).to_be_disabled()
    expect(teams).not_to_be_checked()

    # In Portuguese, with its rules page: the menu's "How to play" shows the variant chosen.
    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("pt")
    expect(page.get_by_role("radio", name="Viúva")).to_be_checked()
    page.get_by_role("banner").get_by_role("button", name="Como jogar").click()
    dialog = page.get_by_role("dialog", name="Como jogar")
    expect(dialog.get_by_role("heading", name="Viúva (3 ou 4 jogadores)")).to_be_visible()
    expect(dialog.get_by_role("heading", name="A troca com o monte")).to_be_visible()
    expect(dialog.locator("table.facts-points")).to_contain_text("Dez de trunfo")
    expect(dialog.locator("table.facts-deal thead")).to_contain_text("Viúva")
    dialog.get_by_role("button", name="McLeod").click()
    expect(dialog.get_by_role("heading", name="McLeod (em duplas)")).to_be_visible()
    expect(dialog).to_contain_text("mais cartas do que o baralho tem")
    expect(dialog).to_contain_text("Os curingas são gêmeos")
    expect(dialog).not_to_contain_text("Widow")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(page, "howto-mcleod-pt-375.png")


def test_widow_from_the_landing_page_the_bidder_takes_the_widow_and_everyone_discards(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(SLOW_SUMMARY)
    host = open_page()
    page = host.page
    create_table(page, url, "Ann", players=3, target=52, preset="Widow")
    sent = [frame for frame in host.sent if '["create_table",' in frame]
    assert len(sent) == 1 and '"preset":"widow"' in sent[0] and '"kitty"' not in sent[0], sent
    start_with_bots(page)
    expect(page.locator(".scores-panel .rules-line")).to_contain_text("Widow")
    expect(page.locator(HAND_CARDS)).to_have_count(9)

    panel = page.locator(".action-panel.mine")
    log = page.locator(".log")
    seen: set[str] = set()  # "bidder", "other": the discards this page has made
    summed: set[int] = set()  # the hands whose summary was checked
    # Ann bids the most she can (10) until she has been the bidder; then she passes where she may, so
    # that both discards are made: the bidder's after the widow, and another player's trade.
    deadline = time.monotonic() + 240
    while not {"bidder", "other"} <= seen or not summed:
        assert time.monotonic() < deadline, (seen, summed)
        # The summary leaves by itself after the hand's pause, so it is read in one go, never waited on.
        shown = page.evaluate(READ_SUMMARY)
        if shown and shown["number"] not in summed:
            assert shown["points"] == WIDOW_POINTS, shown
            shot(page, "table-widow-summary-1280.png")
            summed.add(shown["number"])
        if panel.locator(".widow-btn").count():
            # The bidder's widow step: named, explained, keyboard-reachable.
            expect(panel.get_by_role("heading", name="The widow")).to_be_visible()
            expect(panel).to_contain_text("pick up the 4 cards of the widow, then name trump")
            shot(page, "table-widow-take-1280.png")
            button = panel.get_by_role("button", name="Take the widow")
            button.focus()
            page.keyboard.press("Enter")
            expect(button).to_have_count(0)
            expect(page.locator(HAND_CARDS)).to_have_count(13)
            widow_lines = log.locator("li").filter(has_text="takes the widow")
            expect(widow_lines.last).to_have_text("Ann takes the widow (4 cards)")
            expect(page.locator(f"{HAND_CARDS}.from-kitty")).to_have_count(4)
            expect(panel).to_contain_text("The cards you picked up are tinted gold.")
            continue
        if panel.locator(".discard-progress").count():
            bidder = page.locator(".seat-plate.you.bidder").count() > 0
            required, count = check_discard_screen(page)
            held = page.locator(HAND_CARDS).count()
            if bidder:
                taken = "You have picked up the stock (tinted gold): keep your best 6 cards."
                expect(panel).to_contain_text(taken)
                # The rule of choosing (folded to its summary), only where there is something to choose.
                rule = panel.locator("details.discard-rule", has_text="scoring trump")
                expect(rule).to_have_count(0 if required == count else 1)
                assert held - count == 6, (held, count)
                shot(page, "table-widow-bidder-discard-1280.png")
            else:
                expect(panel).to_contain_text("Discard every non-trump, then draw from the stock")
                assert held == 9, held
                shot(page, "table-widow-trade-1280.png")
            names = choose_discard(page)
            assert len(names) == count
            panel.get_by_role("button", name="Discard", exact=True).click()
            expect(page.locator(HAND_CARDS)).to_have_count(6)
            expect(log.get_by_text(f"Ann discards {count} cards").last).to_be_visible()
            if not bidder:
                drew = count - 3
                expect(page.locator(".seat-plate.you .chip.drew")).to_have_text(f"drew {drew}")
            seen.add("bidder" if bidder else "other")
            continue
        take_turn(page, top_bid="bidder" not in seen)
        page.wait_for_timeout(20)

    # Every other seat that traded shows what it drew, and the hand counts add up.
    expect(page.locator(".seat-plate .chip.drew").first).to_be_visible()


def test_mcleod_in_teams_at_phone_width_the_bidder_discards_eighteen_of_twenty_four(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(SLOW_SUMMARY)
    host = open_page(375, 812)
    page = host.page
    create_table(page, url, "Ann", players=4, teams=True, target=52, preset="McLeod")
    sent = [frame for frame in host.sent if '["create_table",' in frame]
    assert len(sent) == 1 and '"preset":"mcleod"' in sent[0], sent
    start_with_bots(page)
    expect(page.locator(".score-list li")).to_have_count(2)
    expect(page.locator(HAND_CARDS)).to_have_count(10)

    panel = page.locator(".action-panel.mine")
    summary = page.locator(".summary-overlay")
    bidder_hand: int | None = None  # the hand Ann bid and discarded as the bidder
    deadline = time.monotonic() + 300

    def summed() -> bool:
        heading = summary.get_by_role("heading", name=f"End of hand {bidder_hand}")
        return bidder_hand is not None and heading.count() > 0

    while not summed():
        assert time.monotonic() < deadline, bidder_hand
        if bidder_hand is None and panel.locator(".discard-progress").count():
            required, count = check_discard_screen(page)
            if page.locator(".seat-plate.you.bidder").count():
                bidder_hand = hand_number(page)
                expect(page.locator(HAND_CARDS)).to_have_count(24)
                assert count == 18, count
                # A bidder holding exactly 18 non-trumps has them all to discard: nothing to choose.
                title = "Discard these 18 cards" if required == count else "Choose 18 cards to discard"
                expect(panel.get_by_role("heading", name=title)).to_be_visible()
                # The rule of choosing, only where there is something to choose.
                rule = panel.get_by_text("You may discard a trump only after every non-trump.")
                expect(rule).to_have_count(0 if required == count else 1)
                expect(page.locator(f"{HAND_CARDS}.from-kitty")).to_have_count(14)
                assert page.evaluate("document.documentElement.scrollWidth") <= 375
                page.locator("section.bottom").scroll_into_view_if_needed()
                shot(page, "table-mcleod-discard-375.png")
                choose_discard(page)
                expect(panel.locator(".discard-progress")).to_have_text("18 of 18 chosen")
                expect(panel.get_by_role("button", name="Discard", exact=True)).to_be_enabled()
                shot(page, "table-mcleod-chosen-375.png")
                panel.get_by_role("button", name="Discard", exact=True).click()
                expect(page.locator(HAND_CARDS)).to_have_count(6)
                expect(page.locator(".seat-plate.you .chip.drew")).to_have_text("took 14")
                continue
        # Ann bids 10 whenever she can, so that she is the bidder as soon as no bot bid 10 first.
        take_turn(page, top_bid=True)
        page.wait_for_timeout(20)

    expect(summary.get_by_role("heading", name=f"End of hand {bidder_hand}")).to_be_visible()
    expect(summary.locator(".points-list .point-name")).to_have_text(MCLEOD_POINTS)
    expect(summary.locator(".summary-verdict")).to_contain_text(re.compile(r"^Ann bid 10 and "))
    lines = summary.locator(".discard-line")
    expect(lines.filter(has_text="Ann").locator("[role=img]")).to_have_count(18)
    summary.locator(".points-list").scroll_into_view_if_needed()
    shot(page, "table-mcleod-summary-375.png")
