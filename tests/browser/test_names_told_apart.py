"""Two people named alike at one table are told apart: each name is shown with the mark the server
sends for its profile, on the seat plates and in the chat, on a phone's width too."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Watched, create_table, invite_link, join_from_invite, start
from playwright.sync_api import Page, expect

from smear.server.players.names import profile_mark


def profile_id(page: Page) -> str:
    """The profile the page made on its first visit (once the server answered)."""
    page.wait_for_function("localStorage.getItem('smear.profile') !== null")
    player = page.evaluate("JSON.parse(localStorage.getItem('smear.profile')).player")
    assert isinstance(player, str)
    return player


def say(page: Page, text: str) -> None:
    page.get_by_label("Message to the table").fill(text)
    page.get_by_label("Message to the table").press("Enter")


def test_two_people_named_alike_are_told_apart_on_the_seat_plates_and_in_chat(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    host = open_page().page
    guest = open_page(width=375, height=740).page
    create_table(host, url, "Sam")
    join_from_invite(guest, invite_link(host), "Sam")
    marks = {page: f"#{profile_mark(profile_id(page))}" for page in (host, guest)}
    assert marks[host] != marks[guest]

    say(host, "hi, other Sam")
    say(guest, "hello")
    for page in (host, guest):
        lines = page.locator(".chat-lines li")
        expect(lines).to_have_count(2)
        for index, (writer, text) in enumerate(((host, "hi, other Sam"), (guest, "hello"))):
            expect(lines.nth(index).locator(".chat-name")).to_have_text("Sam")
            expect(lines.nth(index).locator(".mark-tag")).to_have_text(marks[writer])
            expect(lines.nth(index).locator(".chat-text")).to_have_text(text)

    host.get_by_role("button", name="Fill the empty seats with bots").click()
    start(host)
    for page in (host, guest):
        expect(page.locator(".game")).to_be_visible()
        sams = page.locator(".seat-plate", has=page.locator(".name-text", has_text="Sam"))
        expect(sams).to_have_count(2)
        shown = sorted(sams.nth(i).locator(".mark-tag").inner_text() for i in range(2))
        assert shown == sorted(marks.values())
        # The bots' plates carry no person's mark.
        expect(page.locator(".seat-plate .mark-tag")).to_have_count(2)
        mine = page.locator(".seat-plate.you .mark-tag")
        expect(mine).to_have_text(marks[page])
        expect(mine).to_be_in_viewport()
