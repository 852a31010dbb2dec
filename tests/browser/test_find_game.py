"""The landing page's "Find a game": the first person gets a table with bots at once; the next two
take bots' seats at that table, watch the hand under way and play from the next hand; one who
leaves gives the seat back to a bot at once; the countdown plays a turn not taken in time; a block
keeps two people apart."""

from __future__ import annotations

import re
from collections.abc import Callable

from browserkit import (
    HAND_CARDS,
    Watched,
    create_table,
    invite_link,
    join_from_invite,
    play_until,
    requests_sent,
)
from playwright.sync_api import Page, expect

MY_TURN = ".action-panel.mine"
ARRIVING = "You take this seat at the next hand; a bot plays it until then."


def find_game(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Find a game").click()
    expect(page.locator(".seat-plate")).to_have_count(4)


def test_three_people_who_find_a_game_meet_at_one_table_the_later_two_from_the_next_hand(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    ann_watched = open_page(375, 812)
    ann, bob, cat = ann_watched.page, open_page(375, 740).page, open_page(360, 640).page
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
    # Ann is the only person: three bots, the match under way.
    expect(ann.locator(".seat-plate .bot-tag")).to_have_count(3)
    assert ann.evaluate("document.documentElement.scrollWidth") <= 375

    # Bob and Cat find a game: the same table, each watching until the next hand, and everyone sees
    # whose seats they are about to be.
    for page, name in ((bob, "Bob"), (cat, "Cat")):
        find_game(page, url, name)
        assert page.url == ann.url
        expect(page.get_by_text(ARRIVING)).to_be_visible()
        expect(page.locator(MY_TURN)).to_have_count(0)
        expect(ann.locator(".seat-plate", has_text=name).get_by_text("next hand")).to_be_visible()
    expect(ann.locator(".seat-plate .bot-tag")).to_have_count(1)

    # Ann plays the hand out; at the deal the seats are Bob's and Cat's, with their own cards.
    play_until([ann], lambda: bob.locator(HAND_CARDS).count() > 0 and cat.locator(HAND_CARDS).count() > 0)
    for page, name in ((bob, "Bob"), (cat, "Cat")):
        expect(page.get_by_text(ARRIVING)).to_have_count(0)
        expect(ann.locator(".seat-plate", has_text=name).locator(".bot-tag")).to_have_count(0)
    assert cat.evaluate("document.documentElement.scrollWidth") <= 360

    # Bob leaves: a bot has his seat at once.
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.get_by_role("button", name="Menu").click()
    bob.get_by_role("button", name="Leave the table").click()
    expect(ann.locator(".seat-plate", has_text="Bob").locator(".bot-tag")).to_have_count(1)
    expect(ann.locator(".seat-plate .bot-tag")).to_have_count(2)


def test_the_countdown_plays_a_turn_not_taken_in_time_and_the_person_keeps_the_seat(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    watched = open_page(375, 812)
    page = watched.page
    find_game(page, url, "Ann")
    # Her turn comes with its countdown, from the table's limit; she lets it run out.
    expect(page.locator(MY_TURN + " .bid-buttons")).to_be_visible(timeout=30_000)
    timer = page.locator(".seat-plate.you .timer")
    expect(timer).to_have_text(re.compile(r"^\d+ s$"))
    assert int(timer.inner_text().split()[0]) <= 15
    # The bot bids for her when it runs out: the buttons go, and the seat is still hers.
    expect(page.locator(MY_TURN + " .bid-buttons")).to_have_count(0, timeout=30_000)
    expect(page.locator(".seat-plate.you")).to_have_count(1)
    expect(page.locator(".seat-plate.you .bot-tag")).to_have_count(0)
    assert requests_sent(watched, "act") == []  # the server played it, not the page


def test_a_block_keeps_two_people_apart_when_they_find_a_game(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    anna, bobby = open_page().page, open_page(375, 740).page
    create_table(anna, url, "Anna")
    join_from_invite(bobby, invite_link(anna), "Bobby")
    anna.get_by_role("button", name="Bobby: add friend or block").click()
    anna.get_by_role("button", name="Block", exact=True).click()
    expect(anna.get_by_role("status").filter(has_text="Bobby is blocked.")).to_be_visible()
    find_game(anna, url, "Anna")
    find_game(bobby, url, "Bobby")
    assert bobby.url != anna.url  # not seated together, and nothing tells Bobby why
    expect(bobby.locator(".seat-plate .bot-tag")).to_have_count(3)
    # Anyone else is matched as usual.
    cat = open_page(375, 740).page
    find_game(cat, url, "Cat")
    assert cat.url in (anna.url, bobby.url)
