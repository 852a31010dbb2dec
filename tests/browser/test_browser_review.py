"""The expert's review in the browser: "Review this hand" under a hand's summary, and "Review the match"
at the end of a match, at phone width, by keyboard; a hand's review on a wide screen and at phone
width in French; and a reviewed hand's summary that stays up through the next hand's first cards."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from browserkit import (
    HAND_CARDS,
    Watched,
    create_table,
    requests_sent,
    start_with_bots,
    take_turn,
    wait_for_a_turn,
)
from playwright.sync_api import Locator, Page, expect

SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = 375
HOUSE_HAND = 6  # cards each player plays in a hand of house


def shot(part: Locator, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    part.screenshot(path=str(SCREENSHOTS / name), animations="disabled")


def fits(page: Page, width: int = PHONE) -> None:
    """Nothing makes the page scroll sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def play_until(page: Page, selector: str, seconds: float, what: str) -> Locator:
    """Take this page's turns until ``selector`` shows (within ``seconds``, else fail with ``what``)."""
    found = page.locator(selector)
    deadline = time.monotonic() + seconds
    while not found.count():
        assert time.monotonic() < deadline, what
        if not take_turn(page):
            wait_for_a_turn(page, 100, or_shown=selector)
    return found


def play_to_the_first_summary(page: Page) -> Locator:
    """Play the first hand (house: six cards) and no further: acting in the next hand's auction could
    let its first card be played, which closes the summary."""
    summary = page.locator(".summary-overlay")
    deadline = time.monotonic() + 120
    cards = 0
    while cards < HOUSE_HAND and not summary.count():
        assert time.monotonic() < deadline, "no hand ended"
        done = take_turn(page)
        cards += done == "card"
        if not done:
            wait_for_a_turn(page, 100, or_shown=".summary-overlay")
    expect(summary).to_have_count(1, timeout=30_000)
    return summary


def to_french(page: Page) -> None:
    """Switch the table's page to French from the menu."""
    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.keyboard.press("Escape")


def test_a_hand_and_the_match_are_reviewed_at_phone_width(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(deals=4)
    player = open_page(PHONE, 812)
    page = player.page
    create_table(page, url, "Solo", target=11)
    start_with_bots(page)

    # The first hand's summary: the review is asked for by keyboard, and shows the costliest
    # decisions (cards drawn as cards) or says there was none.
    summary = play_to_the_first_summary(page)
    button = summary.get_by_role("button", name="Review this hand")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-expanded", "false")
    button.focus()
    page.keyboard.press("Enter")
    body = summary.locator(".review-body")
    expect(body.locator(".review-list, .review-none")).to_have_count(1, timeout=15_000)
    toggle = summary.locator(".review-btn")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_have_text("Hide the review")
    asked = requests_sent(player, "review_hand")
    assert len(asked) == 1 and asked[0]["hand"] == 0, asked
    items = body.locator(".review-item")
    assert items.count() <= 5
    if items.count():
        first = items.first
        expect(first.locator(".review-loss")).to_have_text(re.compile(r"^Loss \d+\.\d\d ± \d+\.\d\d$"))
        expect(first.locator("dt")).to_have_text(["You", "Expert"])
        # Each choice is a card drawn as a card, or words (a bid, a pass, the trump named).
        for choice in first.locator("dd").all():
            assert choice.locator("[role=img]").count() or choice.locator(".review-words").count()
    else:
        expect(body.locator(".review-none")).to_have_text("No costly decisions")
    expect(body.locator(".review-total")).to_contain_text("Expected points given away over your")
    fits(page)
    shot(summary, "review-hand-375.png")
    page.keyboard.press("Enter")  # the focus stayed on the button: it hides the review again
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(body.locator(".review-item, .review-none")).to_have_count(0)

    # To the end of the match: the match's review, with a row for each seat.
    end = play_until(page, ".match-end", 300, "the match did not end")
    review = end.get_by_role("button", name="Review the match")
    expect(review).to_be_visible()
    review.focus()
    page.keyboard.press("Enter")
    table = end.locator(".review-table")
    expect(table).to_be_visible(timeout=25_000)
    expect(table.locator("tbody tr")).to_have_count(4)
    expect(table.locator("tbody tr.you th")).to_have_text("Solo (you)")
    for row in table.locator("tbody tr").all():
        expect(row.locator("td").nth(0)).to_have_text(re.compile(r"^\d+$"))
        expect(row.locator("td").nth(1)).to_have_text(re.compile(r"^\d+\.\d\d$"))
    expect(end.locator(".match-review .review-list, .match-review .review-none")).to_have_count(1)
    assert len(requests_sent(player, "review_match")) == 1
    fits(page)
    shot(end.locator(".match-review"), "review-match-375.png")


@pytest.mark.parametrize("width", [1280, PHONE], ids=["fr-1280", "fr-375"])
def test_a_hand_is_reviewed_in_french(
    width: int, serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = open_page(width, 812)
    page = player.page
    create_table(page, url, "Solo", target=11)
    start_with_bots(page)
    to_french(page)

    summary = play_to_the_first_summary(page)
    button = summary.get_by_role("button", name="Analyser cette donne")
    expect(button).to_be_visible()
    button.click()
    body = summary.locator(".review-body")
    expect(body.locator(".review-list, .review-none")).to_have_count(1, timeout=15_000)
    expect(summary.locator(".review-btn")).to_have_text("Masquer l’analyse")
    items = body.locator(".review-item")
    if items.count():
        expect(body).to_contain_text("Vos décisions les plus coûteuses")
        first = items.first
        expect(first.locator(".review-loss")).to_have_text(re.compile(r"^Perte \d+[.,]\d\d ± \d+[.,]\d\d$"))
        expect(first.locator("dt")).to_have_text(["Vous", "Expert"])
        expect(first).to_be_in_viewport()  # brought into view, even below the fold of the panel
    else:
        expect(body.locator(".review-none")).to_have_text("Aucune décision coûteuse")
    expect(body.locator(".review-total")).to_contain_text("Points attendus perdus sur")
    assert len(requests_sent(player, "review_hand")) == 1
    fits(page, width)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"review-hand-fr-{width}.png"), animations="disabled")


def test_a_hand_review_stays_up_in_the_next_hand_until_closed(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = open_page(1280, 812)
    page = player.page
    create_table(page, url, "Solo", target=21)
    start_with_bots(page)

    summary = play_to_the_first_summary(page)
    summary.get_by_role("button", name="Review this hand").click()
    body = summary.locator(".review-body")
    expect(body.locator(".review-list, .review-none")).to_have_count(1, timeout=15_000)

    # The next hand is bid and its first cards are played: a summary left alone would close at the
    # first card, but one whose review was asked for stays up with it.
    deadline = time.monotonic() + 120
    while take_turn(page) != "card":
        assert time.monotonic() < deadline, "no card was played in the second hand"
        page.wait_for_timeout(20)
    expect(page.locator(HAND_CARDS)).to_have_count(HOUSE_HAND - 1)
    expect(summary).to_have_count(1)
    expect(summary.get_by_role("heading", name="End of hand 1")).to_be_visible()
    expect(body.locator(".review-list, .review-none")).to_have_count(1)

    summary.get_by_role("button", name="Close").click()
    expect(summary).to_have_count(0)
