"""The landing page's "Find a game": the first person gets a table with bots at once; the next
takes a bot's seat at that table, watches the hand under way and plays from the next hand; one who
leaves gives the seat back to a bot at once."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import HAND_CARDS, Watched, play_until, requests_sent
from playwright.sync_api import Page, expect

MY_TURN = ".action-panel.mine"
ARRIVING = "You take this seat at the next hand; a bot plays it until then."


def find_game(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Find a game").click()
    expect(page.locator(".seat-plate")).to_have_count(4)


def test_two_people_who_find_a_game_meet_at_one_table_the_second_from_the_next_hand(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    ann_watched = open_page(375, 812)
    ann, bob = ann_watched.page, open_page(375, 740).page
    ann.goto(url)
    button = ann.get_by_role("button", name="Find a game")
    expect(button).to_have_accessible_description(
        "Play people who want a game now: House (6 points), 4 players, teams. You take a bot's seat at a "
        "table of players near your level, or start one with bots whom people replace as they come. "
        "Turns are timed."
    )
    find_game(ann, url, "Ann")
    [asked] = requests_sent(ann_watched, "find_game")
    assert {key: asked[key] for key in ("name", "preset", "players", "teams")} == {
        "name": "Ann",
        "preset": "house",
        "players": 4,
        "teams": True,
    }
    # Ann is the only person: three bots, the match under way, and a countdown on her turns.
    expect(ann.locator(".seat-plate .bot-tag")).to_have_count(3)
    assert ann.evaluate("document.documentElement.scrollWidth") <= 375

    find_game(bob, url, "Bob")
    assert bob.url == ann.url  # the same table
    # Bob watches until the next hand; everyone sees whose seat it is about to be.
    expect(bob.get_by_text(ARRIVING)).to_be_visible()
    expect(bob.locator(MY_TURN)).to_have_count(0)
    expect(ann.locator(".seat-plate", has_text="Bob").get_by_text("next hand")).to_be_visible()

    # Ann plays the hand out; at the deal the seat is Bob's and he has his own cards.
    play_until([ann], lambda: bob.locator(HAND_CARDS).count() > 0, stall=90)
    expect(bob.get_by_text(ARRIVING)).to_have_count(0)
    expect(ann.locator(".seat-plate", has_text="Bob").locator(".bot-tag")).to_have_count(0)

    # Bob leaves: a bot has his seat at once.
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.get_by_role("button", name="Menu").click()
    bob.get_by_role("button", name="Leave the table").click()
    expect(ann.locator(".seat-plate .bot-tag")).to_have_count(3)
