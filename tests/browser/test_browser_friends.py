"""Friends and blocking in the browser: a friend request made from a name in the lobby and accepted
on the profile page, then a join from the friends list; an invitation shown on another page and
accepted in one click; a block that hides the blocked player's chat. Keyboard and a phone's width
where a person acts; the dialog, the friends section and the invitation pass axe's audit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from axekit import Audit
from browserkit import Watched, create_table, invite_link, join_from_invite
from playwright.sync_api import Page, expect


def profile_id(page: Page) -> str:
    player = page.evaluate("JSON.parse(localStorage.getItem('smear.profile')).player")
    assert isinstance(player, str)
    return player


def person_dialog(page: Page, name: str) -> None:
    """Open the dialog from the + beside ``name``, by keyboard."""
    button = page.get_by_role("button", name=f"{name}: add friend or block")
    button.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog", name=name)).to_be_visible()


def befriended(host: Page, guest: Page, url: str, audit: Audit | None = None) -> str:
    """The host asks the guest (seated in its lobby) to be friends; the guest accepts on the profile
    page. Returns the table's code."""
    code = create_table(host, url, "Anna")
    join_from_invite(guest, invite_link(host), "Bobby")
    person_dialog(host, "Bobby")
    if audit is not None:
        audit(host, "the person dialog")
    host.get_by_role("button", name="Add friend", exact=True).click()
    expect(host.get_by_role("status").filter(has_text="Friend request sent to Bobby.")).to_be_visible()
    host.get_by_role("button", name="Close", exact=True).click()
    # Bobby leaves the seat (the host removes it), so a seat is free to join again.
    host.get_by_role("button", name="Remove", exact=True).click()
    expect(host.locator(".seat-list")).not_to_contain_text("Bobby")
    guest.goto(f"{url}/p/{profile_id(guest)}")
    accept = guest.get_by_role("button", name="Accept: Anna")
    accept.focus()
    guest.keyboard.press("Enter")
    expect(guest.locator(".friend-row").filter(has_text="Anna")).to_contain_text("online, at a table")
    return code


def test_a_friend_request_accepted_and_a_join_from_the_friends_list(
    serve: Callable[..., str], open_page: Callable[..., Watched], axe_script: Path
) -> None:
    url = serve()
    host = open_page().page
    guest = open_page(width=375, height=740, bypass_csp=True).page
    audit = Audit(axe_script)
    code = befriended(host, guest, url)
    audit(guest, "the friends section")
    join = guest.get_by_role("button", name="Join: Anna")
    join.focus()
    guest.keyboard.press("Enter")
    expect(guest.locator(".seat-list li.mine")).to_contain_text("Bobby")
    assert f"/t/{code}" in guest.url
    expect(host.locator(".seat-list")).to_contain_text("Bobby")
    audit.check()


def test_an_invitation_is_accepted_in_one_click(
    serve: Callable[..., str], open_page: Callable[..., Watched], axe_script: Path
) -> None:
    url = serve()
    host_watched = open_page(bypass_csp=True)
    host = host_watched.page
    guest = open_page(width=375, height=740, bypass_csp=True).page
    audit = Audit(axe_script)
    code = befriended(host, guest, url, audit)
    guest.goto(url)  # any open page of Bobby's
    # Anna's profile page, in a second tab beside her table.
    mine = host_watched.context.new_page()
    mine.goto(f"{url}/p/{profile_id(host)}")
    mine.get_by_role("button", name="Invite to my table: Bobby").click()
    expect(mine.get_by_role("status").filter(has_text="Invitation sent to Bobby.")).to_be_visible()
    banner = guest.locator(".invitation")
    expect(banner).to_contain_text("Anna invites you to their table.")
    audit(guest, "the invitation")
    banner.get_by_role("button", name="Join").click()
    expect(guest.locator(".seat-list li.mine")).to_contain_text("Bobby")
    assert f"/t/{code}" in guest.url
    audit.check()


def test_a_block_hides_the_blocked_players_chat(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    host = open_page().page
    guest = open_page(width=375, height=740).page
    create_table(host, url, "Anna")
    join_from_invite(guest, invite_link(host), "Bobby")
    person_dialog(host, "Bobby")
    host.get_by_role("button", name="Block", exact=True).click()
    expect(host.get_by_role("status").filter(has_text="Bobby is blocked.")).to_be_visible()
    host.get_by_role("button", name="Close", exact=True).click()
    for page, text in ((guest, "can anyone hear me"), (host, "only mine")):
        page.get_by_label("Message to the table").fill(text)
        page.get_by_label("Message to the table").press("Enter")
        expect(page.locator(".chat-lines li").last.locator(".chat-text")).to_have_text(text)
    # Anna's line came after Bobby's: had his reached her, it would be shown before it.
    expect(host.locator(".chat-lines .chat-text")).to_have_text(["only mine"])
    expect(guest.locator(".chat-lines .chat-text")).to_have_text(["can anyone hear me", "only mine"])
    # Undone from the profile page.
    host.goto(f"{url}/p/{profile_id(host)}")
    host.get_by_role("button", name="Unblock: Bobby").click()
    expect(host.get_by_role("button", name="Unblock: Bobby")).to_have_count(0)
