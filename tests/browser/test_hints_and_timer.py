"""The hint button, the table setting that turns hints off, and the turn timer across a reload."""

from __future__ import annotations

import re
from collections.abc import Callable

from browserkit import (
    HAND_CARDS,
    Watched,
    click_card,
    create_table,
    hand,
    play_until,
    solo_table,
    spoken_name,
    start_with_bots,
)
from playwright.sync_api import Locator, Page, expect

HINT_BUTTON = ".action-panel.mine .hint-btn"
HINT_SHOWN = ".action-panel.mine .hint-text.shown"
SUGGESTED = ".suggested"
PLAY_PANEL = ".action-panel.mine h2:text-is('Play a card')"
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def hints_sent(watched: Watched) -> list[str]:
    """The Socket.IO ``hint`` requests this page sent."""
    return [frame for frame in watched.sent if '["hint",' in frame]


def shown_hint(page: Page) -> str:
    """The suggestion as it is printed (the words for screen readers are in a hidden twin)."""
    text = page.locator(f"{HINT_SHOWN} .hint-shown")
    expect(text).to_be_visible()
    return text.inner_text().strip()


def seconds_on_timer(timer: Locator) -> int:
    expect(timer).to_have_text(re.compile(r"^\d+ s$"))
    return int(timer.inner_text().split()[0])


def test_a_hint_suggests_a_legal_action_and_goes_when_the_turn_passes(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = solo_table(open_page, url)
    page = player.page

    # The auction: the suggestion is the pass button or one of the enabled bid buttons.
    expect(page.locator(".action-panel.mine .bid-buttons")).to_be_visible()
    expect(page.locator(SUGGESTED)).to_have_count(0)
    button = page.locator(HINT_BUTTON)
    expect(button).to_have_accessible_name("Hint")
    expect(button).to_have_attribute("aria-keyshortcuts", "H")
    button.click()
    text = shown_hint(page)
    match = re.fullmatch(r"Suggested: (pass|bid (\d+))( — expected [+-]?\d+\.\d points this hand)?", text)
    assert match, text
    suggested = page.locator(f".action-panel.mine .bid-buttons .btn{SUGGESTED}")
    expect(suggested).to_have_count(1)
    expect(suggested).to_be_enabled()
    expect(suggested).to_have_attribute("aria-describedby", "hint-text")
    expect(suggested).to_have_accessible_description(text)
    if match.group(1) == "pass":
        expect(suggested).to_have_text("Pass")
    else:
        expect(suggested).to_have_accessible_name(f"Bid {match.group(2)}")
    assert len(hints_sent(player)) == 1

    # Taking the suggestion moves the table on: the suggestion and its mark go.
    suggested.click()
    expect(page.locator(HINT_SHOWN)).to_have_count(0)
    expect(page.locator(SUGGESTED)).to_have_count(0)

    # The play: the key H asks, and the suggestion is one of the cards the hand lets us play.
    play_until([page], lambda: page.locator(PLAY_PANEL).count() > 0)
    expect(page.locator(PLAY_PANEL)).to_be_visible()
    page.keyboard.press("h")
    text = shown_hint(page)
    assert text.startswith("Suggested: play "), text
    card = page.locator(f"{HAND_CARDS}{SUGGESTED}")
    expect(card).to_have_count(1)
    expect(card).to_have_class(re.compile(r"\bplayable\b"))
    expect(card).to_have_attribute("aria-disabled", "false")
    face = card.locator(".card")
    if "joker" in (face.get_attribute("class") or ""):
        assert "joker" in text, text
    else:
        rank = face.locator(".corner .rank").first.inner_text()
        suit = next(c[5:] for c in (face.get_attribute("class") or "").split() if c.startswith("suit-"))
        assert text.startswith(f"Suggested: play {rank}{SUIT_SYMBOLS[suit]}"), text
    # Screen readers hear the card's full name, the same as the card's own label.
    name = spoken_name(card.get_attribute("aria-label") or "?")
    expect(card).to_have_accessible_description(re.compile(rf"^Suggested: play {re.escape(name)}\b"))
    assert len(hints_sent(player)) == 2

    before = len(hand(page))
    click_card(card)
    expect(page.locator(HAND_CARDS)).to_have_count(before - 1)
    expect(page.locator(HINT_SHOWN)).to_have_count(0)
    expect(page.locator(SUGGESTED)).to_have_count(0)


def test_a_table_without_hints_shows_no_hint_button(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = open_page()
    page = player.page
    create_table(page, url, "Solo", hints=False)
    expect(page.locator(".chips li", has_text="hints")).to_have_text("hints off")
    start_with_bots(page)

    expect(page.locator(".action-panel.mine .bid-buttons")).to_be_visible()
    expect(page.locator(".hint-btn")).to_have_count(0)
    expect(page.locator(".hint-text")).to_have_count(0)
    page.keyboard.press("h")  # the shortcut does nothing either
    page.locator(".action-panel.mine .bid-buttons .btn").first.click()
    expect(page.locator(".action-panel.mine .bid-buttons")).to_have_count(0)
    # Frames go out in order: a hint asked for by the key would have been sent before the act.
    assert any('["act",' in frame for frame in player.sent)
    assert hints_sent(player) == []

    # The choice is remembered for the next table.
    page.goto(url)
    expect(page.get_by_role("checkbox", name="Allow hints")).not_to_be_checked()


def test_a_reload_keeps_the_time_left_on_the_turn_timer(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = solo_table(open_page, url, turn_timer=15)
    page = player.page
    expect(page.locator(".game.my-turn")).to_be_visible()
    timer = page.locator(".seat-plate.you .timer")
    assert seconds_on_timer(timer) <= 15
    expect(page.locator(".seat-plate:not(.you) .timer")).to_have_count(0)  # bots act without one
    cards = hand(page)

    page.wait_for_timeout(2000)  # part of the turn goes by
    page.reload()
    expect(page.locator(".game.my-turn")).to_be_visible()
    assert hand(page) == cards  # still the same turn
    left = seconds_on_timer(timer)
    assert 1 <= left <= 13, left  # counted from the time left, not from a fresh 15 s


def test_the_language_switch_translates_the_hint(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = solo_table(open_page, url).page
    expect(page.locator(".action-panel.mine .bid-buttons")).to_be_visible()
    page.locator(HINT_BUTTON).click()
    english = shown_hint(page)
    assert english.startswith("Suggested: "), english

    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("es")
    expect(page.locator(HINT_BUTTON)).to_have_accessible_name("Pista")
    spanish = page.locator(f"{HINT_SHOWN} .hint-shown")
    expect(spanish).to_have_text(
        re.compile(r"^Sugerencia: (pasar|apostar \d+)( — se esperan [+-]?\d+,\d puntos en esta mano)?$")
    )
    assert "Suggested" not in spanish.inner_text()
    # The same suggestion, in other words: a bid keeps its number, a pass stays a pass.
    number = re.search(r"bid (\d+)", english)
    if number:
        expect(spanish).to_contain_text(f"apostar {number.group(1)}")
    else:
        expect(spanish).to_contain_text("pasar")
