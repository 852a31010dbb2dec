"""The landing page's "Play now", and the full table form folded under it, which remembers the
settings last chosen."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Watched, requests_sent, unfold_the_form
from playwright.sync_api import Page, expect

MY_BID = ".action-panel.mine .bid-buttons"


def play_now(page: Page) -> None:
    page.get_by_role("button", name="Play now").click()


def test_one_click_on_play_now_reaches_the_first_bid_at_phone_width(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    watched = open_page(375, 812)
    page = watched.page
    page.goto(url)
    # A newcomer sees the button and what it starts; the full form is folded.
    button = page.get_by_role("button", name="Play now")
    expect(button).to_be_visible()
    expect(button).to_have_accessible_description(
        "Game: House (6 points). Four players in two teams: you and a bot partner against two bots. "
        "Bots: Normal. The cards are dealt at once."
    )
    expect(page.get_by_role("button", name="Create the table")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

    page.get_by_label("Your name").fill("Ann")
    play_now(page)
    # Every other seat holds a bot and the match is under way: the auction reaches this seat.
    expect(page.locator(MY_BID)).to_be_visible()
    expect(page.locator(".seat-plate")).to_have_count(4)
    assert "/t/" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 375

    created = requests_sent(watched, "create_table")
    assert len(created) == 1
    assert {key: created[0][key] for key in ("name", "preset", "players", "teams", "bot_level")} == {
        "name": "Ann",
        "preset": "house",
        "players": 4,
        "teams": True,
        "bot_level": "heuristic",
    }
    bots = requests_sent(watched, "set_bot")
    assert sorted(bot["seat"] for bot in bots) == [1, 2, 3]
    assert all(bot["bot"] is True for bot in bots)
    assert len(requests_sent(watched, "start")) == 1


def test_play_now_asks_for_a_name_and_takes_the_bots_last_chosen(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    watched = open_page()
    page = watched.page
    page.goto(url)
    name = page.get_by_label("Your name")
    expect(name).to_have_value("")
    play_now(page)
    expect(page.get_by_text("Enter your name (1 to 24 characters).")).to_be_visible()
    expect(name).to_be_focused()
    expect(name).to_have_attribute("aria-invalid", "true")
    assert requests_sent(watched, "create_table") == []

    # Other rules and the beginner bots chosen in the form: "Play now" keeps its own game, with those bots.
    unfold_the_form(page)
    page.get_by_role("radio", name="Ten-point").check()
    page.get_by_label("Players").select_option("6")
    page.get_by_label("Bots").select_option("beginner")
    note = page.locator("#play-now-note")
    expect(note).to_contain_text("Bots: Beginner.")
    page.reload()
    expect(page.get_by_label("Bots")).to_have_value("beginner")
    expect(note).to_contain_text("Bots: Beginner.")

    # The keyboard's way: the name, then Enter, once the page is connected again after the reload
    # (until then "Play now" is disabled, and Enter submits nothing: a click would wait, a key does not).
    expect(page.get_by_role("button", name="Play now")).to_be_enabled()
    name.fill("Ben")
    name.press("Enter")
    expect(page.locator(".game")).to_be_visible()
    created = requests_sent(watched, "create_table")
    assert len(created) == 1
    assert {key: created[0][key] for key in ("name", "preset", "players", "teams", "bot_level")} == {
        "name": "Ben",
        "preset": "house",
        "players": 4,
        "teams": True,
        "bot_level": "beginner",
    }

    # The name is remembered for next time.
    page.goto(url)
    expect(page.get_by_label("Your name")).to_have_value("Ben")


def test_the_form_is_folded_for_a_newcomer_and_remembers_the_last_settings_after_a_reload(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    watched = open_page()
    page = watched.page
    page.goto(url)
    folded = page.locator("details.more-options")
    expect(folded).not_to_have_attribute("open", "")
    summary = folded.locator("summary")
    expect(summary).to_contain_text("Create a table")
    # The fold opens from the keyboard too.
    summary.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()

    page.get_by_role("radio", name="Ten-point").check()
    page.get_by_label("Players").select_option("6")
    page.get_by_role("checkbox", name="Play in teams").check()
    page.get_by_label("Play to").select_option("31")
    page.get_by_label("Turn timer").select_option("30")
    page.get_by_label("Bots").select_option("beginner")
    page.get_by_role("checkbox", name="Shoot the moon").check()
    page.get_by_role("checkbox", name="Allow hints").uncheck()

    def shows_the_settings_chosen() -> None:
        expect(page.get_by_role("radio", name="Ten-point")).to_be_checked()
        expect(page.get_by_label("Players")).to_have_value("6")
        expect(page.get_by_role("checkbox", name="Play in teams")).to_be_checked()
        expect(page.get_by_label("Play to")).to_have_value("31")
        expect(page.get_by_label("Turn timer")).to_have_value("30")
        expect(page.get_by_label("Bots")).to_have_value("beginner")
        expect(page.get_by_role("checkbox", name="Shoot the moon")).to_be_checked()
        expect(page.get_by_role("checkbox", name="Elimination at −21")).not_to_be_checked()
        expect(page.get_by_role("checkbox", name="Allow hints")).not_to_be_checked()

    # Reloaded, the page comes back with the form open, as it was left, and every choice in it.
    page.reload()
    expect(page.get_by_role("button", name="Create the table")).to_be_visible()
    shows_the_settings_chosen()

    # The table is created with them, and they are still there on coming back.
    page.get_by_label("Your name").fill("Cy")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", name="Seats")).to_be_visible()
    created = requests_sent(watched, "create_table")
    assert len(created) == 1
    # The seat is taken with this browser's profile, made as the table was created.
    assert set(created[0]["profile"]) == {"player", "secret"}
    assert {key: value for key, value in created[0].items() if key not in ("name", "profile")} == {
        "preset": "ten_point",
        "players": 6,
        "teams": True,
        "target": 31,
        "turn_timer": 30,
        "bot_level": "beginner",
        "hints": False,
        "shoot_the_moon": True,
        "elimination": False,
    }
    page.goto(url)
    shows_the_settings_chosen()

    # Folded again, it stays folded.
    summary.click()
    expect(page.get_by_role("button", name="Create the table")).to_be_hidden()
    page.reload()
    expect(page.get_by_role("button", name="Play now")).to_be_visible()
    expect(page.get_by_role("button", name="Create the table")).to_be_hidden()
