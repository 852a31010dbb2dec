"""Open tables: a table its host lists shows on everyone's landing page, live; one click takes a
free seat; the table leaves the list once full."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Watched, create_table
from playwright.sync_api import expect


def test_a_listed_table_is_joined_in_one_click_and_leaves_the_list_when_full(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    host = open_page().page
    joiner = open_page(width=375, height=740).page
    onlooker = open_page().page
    for page in (joiner, onlooker):
        page.goto(url)
        expect(page.get_by_text("No open tables right now.")).to_be_visible()

    create_table(host, url, "Hosta", players=3)
    # Private until listed: the landing pages still show nothing.
    expect(host.get_by_text("Private: only people with the link can join.")).to_have_count(0)
    expect(onlooker.get_by_text("No open tables right now.")).to_be_visible()
    listed = host.get_by_role("checkbox", name="List as an open table")
    listed.click()  # the box shows what the server holds: it turns on once the server has it
    expect(listed).to_be_checked()

    join = joiner.get_by_role("button", name="Join the table hosted by Hosta (2 free)")
    expect(join).to_be_visible()
    expect(onlooker.locator(".open-table")).to_contain_text("2 of 3 seats free")
    joiner.get_by_label("Your name").fill("Guido")
    join.click()
    expect(joiner.locator(".seat-list li.mine")).to_contain_text("Guido")
    expect(joiner.get_by_text("Listed as open: it shows on the home page")).to_be_visible()
    expect(onlooker.locator(".open-table")).to_contain_text("1 of 3 seats free")

    # The last seat goes to a bot: the table is full and leaves every landing page.
    host.get_by_role("button", name="Fill the empty seats with bots").click()
    expect(onlooker.get_by_text("No open tables right now.")).to_be_visible()
    expect(onlooker.locator(".open-table")).to_have_count(0)
