"""The browser game end to end: real chromium pages against a real server (see conftest.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

from browserkit import (
    HAND_CARDS,
    Watched,
    actions_sent,
    cards_sent,
    create_table,
    hand,
    invite_link,
    join_from_invite,
    play_until,
    solo_table,
    start,
    unfold_the_form,
)
from playwright.sync_api import Page, expect

from smear.server.app import Timing

SCREENSHOTS = Path(__file__).parent / "screenshots"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def acts_sent(watched: Watched) -> list[str]:
    """The Socket.IO ``act`` requests this page sent (frames like ``421["act",{...}]``)."""
    return [frame for frame in watched.sent if '["act",' in frame]


def wait_for_hand(page: Page) -> list[str]:
    expect(page.locator(HAND_CARDS).first).to_be_visible()
    return hand(page)


def test_four_players_from_the_invite_link_play_a_hand_to_the_points_screen(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    # The summary stays up 5 seconds: long enough to see it before the next deal.
    url = serve(Timing(bot_pause=0.05, hand_pause=5.0, grace=30.0))
    host = open_page()
    create_table(host.page, url, "Ann", players=4, teams=True)
    expect(host.page.locator(".chips li", has_text="teams")).to_have_text("teams")
    link = invite_link(host.page)
    assert link.startswith(url + "/t/")
    guests = [open_page() for _ in range(3)]
    for guest, name in zip(guests, ["Bob", "Cat", "Dan"], strict=True):
        join_from_invite(guest.page, link, name)
    for name in ["Ann", "Bob", "Cat", "Dan"]:
        expect(host.page.locator(".seat-list")).to_contain_text(name)
    start(host.page)
    pages = [host.page] + [guest.page for guest in guests]
    for page in pages:
        expect(page.locator(HAND_CARDS)).to_have_count(6)

    summary = host.page.locator(".summary-overlay")
    play_until(pages, lambda: summary.count() > 0)

    # Four people and no bots, so nothing plays for them: the hand ended after 24 cards, each one
    # clicked in a browser and sent from its page (counted from the frames, see actions_sent; a
    # click retried under load may add a refused one).
    assert sum(len(cards_sent(watched)) for watched in [host, *guests]) >= 24
    sent = [action for watched in [host, *guests] for action in actions_sent(watched)]
    assert any(action.startswith("bid ") for action in sent)  # the dealer must, if everyone passes
    for page in pages:
        overlay = page.get_by_role("dialog", name="End of hand 1")
        expect(overlay).to_be_visible()
        expect(overlay.locator(".points-list li")).to_have_count(6)  # High, Low, Jack, jokers, Game
        expect(overlay.locator(".sides-table tbody tr")).to_have_count(2)  # two teams
        expect(page.locator(HAND_CARDS)).to_have_count(0)
    for guest in guests:
        assert len(acts_sent(guest)) >= 6


def test_one_player_and_three_bots_play_a_match_to_the_winner_screen(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(deals=4)
    # Played with the client's animations and transitions on, as most players see it.
    player = solo_table(partial(open_page, motion=True), url, target=11)
    page = player.page
    expect(page.locator(".scores-panel")).to_contain_text("First to 11")
    end = page.locator(".match-end")
    actions = play_until([page], lambda: end.count() > 0)

    assert actions.count("card") >= 6
    expect(end.get_by_role("heading", name="Match over")).to_be_visible()
    expect(end.locator(".headline")).not_to_be_empty()
    # Neither the moon nor elimination is on: the server says the target ended it, which needs no note.
    expect(end.locator(".end-reason")).to_have_count(0)
    expect(end.get_by_role("img", name="Line chart of each side's score after every hand")).to_be_visible()
    expect(end.get_by_role("button", name="Play again")).to_be_visible()
    expect(page.locator(HAND_CARDS)).to_have_count(0)


def test_a_reload_mid_hand_returns_to_the_same_seat_and_hand(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = solo_table(open_page, url)
    page = player.page
    # Play one card so the hand is under way, then wait until it is our turn again.
    play_until([page], lambda: len(hand(page)) == 5)
    expect(page.locator(".game.my-turn")).to_be_visible()
    before = hand(page)
    hand_title = page.locator(".contract dt").first.inner_text()
    address = page.url

    page.reload()
    expect(page.locator(".game.my-turn")).to_be_visible()
    assert page.url == address
    assert wait_for_hand(page) == before
    assert page.locator(".contract dt").first.inner_text() == hand_title
    expect(page.locator(".seat-plate.you")).to_contain_text("Solo")
    expect(page.locator(".conn.connected")).to_be_visible()


def test_a_spectator_sees_no_card_of_any_hand(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(Timing(bot_pause=0.05, hand_pause=0.5, grace=30.0))
    player = solo_table(open_page, url)
    code = player.page.url.rsplit("/t/", 1)[1]
    spectator = open_page()
    spectator.page.goto(f"{url}/t/{code}?watch=1")
    watch = spectator.page
    expect(watch.locator(".action-panel.watching")).to_be_visible()
    expect(watch.locator(".seat-plate .mini-back").first).to_be_visible()

    # Face-up cards outside the trick in the middle, the last trick and the end-of-hand summary.
    loose_faces = """() => [...document.querySelectorAll('.card:not(.back)')].filter(
        (card) => !card.closest('.trick, .last-trick, .summary-overlay, .match-end')).length"""
    checks = 0
    seen_in_trick = 0

    def look() -> bool:
        nonlocal checks, seen_in_trick
        assert watch.locator(".hand, .hand-card").count() == 0
        assert watch.evaluate(loose_faces) == 0
        seen_in_trick = max(seen_in_trick, watch.locator(".trick .card").count())
        checks += 1
        return watch.locator(".summary-overlay").count() > 0 and checks > 10

    play_until([player.page, watch], look)
    assert seen_in_trick >= 1  # the spectator does see the cards played
    assert acts_sent(spectator) == []


def test_the_language_switch_changes_the_interface_and_how_to_play(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page().page
    page.goto(url)
    unfold_the_form(page)
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()

    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("es")
    expect(page.get_by_role("button", name="Crear la mesa")).to_be_visible()
    expect(page.get_by_role("button", name="Create the table")).to_have_count(0)
    assert page.evaluate("document.documentElement.lang") == "es"
    page.get_by_role("button", name="Cómo se juega").first.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Variante de la casa")
    expect(dialog).to_contain_text("Quién gana la partida")
    expect(dialog).not_to_contain_text("Winning the match")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    page.reload()  # the choice is remembered
    expect(page.get_by_role("button", name="Crear la mesa")).to_be_visible()
    page.get_by_role("button", name="Menú").click()
    page.locator("#menu-lang").select_option("fr")
    expect(page.get_by_role("button", name="Créer la table")).to_be_visible()
    page.get_by_role("button", name="Règles du jeu").first.click()
    expect(page.get_by_role("dialog")).not_to_contain_text("Variante de la casa")
    expect(page.get_by_role("dialog")).not_to_contain_text("House game")


def test_an_illegal_card_cannot_be_played_from_the_ui(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    player = solo_table(open_page, url, target=52)
    page = player.page
    dimmed = page.locator(f"{HAND_CARDS}.dimmed")

    def illegal_in_view() -> bool:
        return page.locator(".game.my-turn").count() > 0 and dimmed.count() > 0

    # Play legal cards until it is our turn holding a card we may not play (a suit we must follow).
    deadline_actions = play_until([page], lambda: illegal_in_view() or page.locator(".match-end").count() > 0)
    assert illegal_in_view(), f"never held an unplayable card in {len(deadline_actions)} actions"

    card = dimmed.first
    expect(card).to_have_attribute("aria-disabled", "true")
    expect(card).to_have_accessible_name(re.compile(r", cannot be played now$"))
    before = hand(page)
    sent_before = len(acts_sent(player))
    card.dispatch_event("click")  # delivered to the card itself; the client must ignore it
    card.press("Enter")
    # A legal card clicked now would be answered by the server: wait for a round trip to prove the
    # illegal one was not, by playing it and seeing the hand shrink by exactly that card.
    expect(page.locator(".game.my-turn")).to_be_visible()
    assert hand(page) == before
    assert len(acts_sent(player)) == sent_before
    legal = page.locator(f"{HAND_CARDS}.playable").first
    legal.click()
    expect(page.locator(HAND_CARDS)).to_have_count(len(before) - 1)
    sent = acts_sent(player)[sent_before:]
    assert len(sent) == 1, sent
    assert json.loads(sent[0][sent[0].index("[") :])[0] == "act"


def test_screenshots_of_the_table_at_desktop_and_phone_widths(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(Timing(bot_pause=0.05, hand_pause=5.0, grace=30.0))
    SCREENSHOTS.mkdir(exist_ok=True)
    player = solo_table(open_page, url)
    code = player.page.url.rsplit("/t/", 1)[1]
    play_until([player.page], lambda: len(hand(player.page)) <= 4)
    expect(player.page.locator(".game.my-turn")).to_be_visible()
    written = []
    written_pages = []
    for width, height in [(1280, 800), (375, 812)]:
        viewer = player if width == 1280 else open_page(width, height)
        if viewer is not player:
            # The same seat in a phone-sized window: the seat token is in localStorage.
            storage = player.page.evaluate("JSON.stringify(Object.entries(localStorage))")
            viewer.page.goto(url)
            viewer.page.evaluate(
                "(entries) => { for (const [k, v] of JSON.parse(entries)) localStorage.setItem(k, v); }",
                storage,
            )
            viewer.page.goto(f"{url}/t/{code}")
        expect(viewer.page.locator(HAND_CARDS).first).to_be_visible()
        expect(viewer.page.locator(".seat-plate")).to_have_count(4)
        # With a suggestion on screen, to see the hint's text and its mark on a card at this width.
        viewer.page.locator(".hint-btn").click()
        expect(viewer.page.locator(".hint-text.shown")).to_be_visible()
        expect(viewer.page.locator(f"{HAND_CARDS}.suggested")).to_have_count(1)
        path = SCREENSHOTS / f"table-{width}.png"
        viewer.page.screenshot(path=str(path), full_page=True, animations="disabled")
        written.append(path)
        written_pages.append(viewer.page)
    for path in written:
        data = path.read_bytes()
        assert data[:8] == PNG_MAGIC
        assert len(data) > 10_000
    # The phone-sized page is the same seat, showing the same hand.
    assert hand(written_pages[1]) == hand(player.page)


def test_the_console_watch_catches_errors(open_page: Callable[..., Watched]) -> None:
    """The fixture that fails every test on a console error or uncaught exception does see them."""
    watched = open_page()
    watched.page.set_content("<p>hello</p>")
    with watched.page.expect_event("console"):
        watched.page.evaluate("console.error('logged')")
    with watched.page.expect_event("pageerror"):
        watched.page.evaluate("setTimeout(() => { throw new Error('thrown'); }, 0)")
    assert any("logged" in error for error in watched.errors), watched.errors
    assert any("thrown" in error for error in watched.errors), watched.errors
    watched.errors.clear()  # expected here; any other test's errors fail it at teardown
