"""The table chat in the lobby (plain text, the host's mute and off switch) and the reactions of a
match, each reader seeing them in its own language."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Watched, create_table, invite_link, join_from_invite, start
from playwright.sync_api import Page, expect

TRICKY = '<img src=x onerror="document.title=1"> <b>bold</b> & {{name}}'


def say(page: Page, text: str) -> None:
    page.get_by_label("Message to the table").fill(text)
    page.get_by_label("Message to the table").press("Enter")


def test_lobby_chat_shows_text_as_text_and_the_host_mutes_a_seat_and_turns_the_chat_off(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    host = open_page().page
    guest = open_page(width=375, height=740).page
    create_table(host, url, "Hosta")
    join_from_invite(guest, invite_link(host), "Guido")
    expect(guest.get_by_role("heading", name="Table chat")).to_be_visible()
    expect(guest.get_by_text("Chat lines are kept with the table for 24 hours")).to_be_visible()

    say(host, TRICKY)
    for page in (host, guest):
        line = page.locator(".chat-lines li").last
        expect(line.locator(".chat-text")).to_have_text(TRICKY)
        expect(line.locator(".chat-name")).to_have_text("Hosta")
        expect(page.locator(".chat-lines img, .chat-lines b")).to_have_count(0)
    say(guest, "hello from Guido")
    expect(host.locator(".chat-lines li").last.locator(".chat-text")).to_have_text("hello from Guido")
    expect(host.get_by_label("Message to the table")).to_have_value("")

    host.get_by_text("Chat settings (host)").click()
    host.get_by_role("button", name="Mute Guido").click()
    expect(guest.get_by_text("The host has muted you in the chat.")).to_be_visible()
    expect(guest.get_by_label("Message to the table")).to_have_count(0)
    expect(host.get_by_role("button", name="Unmute Guido")).to_have_attribute("aria-pressed", "true")

    chat_on = host.get_by_role("checkbox", name="Chat on")
    chat_on.click()  # the box shows what the server holds: it turns off once the server has it
    expect(chat_on).not_to_be_checked()
    for page in (host, guest):
        expect(page.get_by_text("The host has turned the chat off.")).to_be_visible()
        expect(page.get_by_label("Message to the table")).to_have_count(0)
    chat_on.click()
    expect(chat_on).to_be_checked()
    host.get_by_role("button", name="Unmute Guido").click()
    say(guest, "thanks")
    expect(host.locator(".chat-lines li").last.locator(".chat-text")).to_have_text("thanks")


def test_a_reaction_is_shown_at_the_senders_seat_in_each_readers_language(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    host = open_page().page
    guest_page = open_page()
    guest_page.context.add_init_script("localStorage.setItem('smear.lang', 'fr')")
    guest = guest_page.page
    create_table(host, url, "Hosta")
    join_from_invite(guest, invite_link(host), "Guido", join="Rejoindre")
    host.get_by_role("button", name="Fill the empty seats with bots").click()
    start(host)
    expect(guest.locator(".game")).to_be_visible()

    host.get_by_role("button", name="Well played!").click()
    bubble = guest.locator(".seat-plate .reaction-bubble")
    expect(bubble).to_have_text("Bien joué !")
    expect(guest.locator(".seat-plate", has=guest.locator(".reaction-bubble"))).to_contain_text("Hosta")
    expect(host.locator(".seat-plate.you .reaction-bubble")).to_have_text("Well played!")
    # It goes after a few seconds.
    expect(bubble).to_have_count(0, timeout=10_000)

    # During the hand there is no free text; the chat says when it opens.
    expect(guest.get_by_text("La discussion s'ouvre entre les donnes")).to_be_visible()
    expect(host.get_by_label("Message to the table")).to_have_count(0)
