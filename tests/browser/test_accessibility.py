"""Every screen of the browser game audited by axe-core (from web/'s npm packages) at phone and desktop
sizes: no serious or critical violation, one h1 a screen and headings in order. One table is driven
with bots through a whole match, to its end, the profile's history and the replay; a second one
through a hand, to its summary (which stays up: that server waits long before the next deal). Each
screen is audited at both sizes in turn (the window resized between two audits)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from axekit import Audit
from browserkit import (
    PLAYABLE_NOW,
    Watched,
    create_table,
    invite_link,
    join_from_invite,
    start_with_bots,
    take_turn,
    wait_for_a_turn,
)
from playwright.sync_api import Page, expect

from smear.server.limits import Timing

# Bots act at once and the next hand is dealt at once: a whole match.
QUICK = Timing(bot_pause=0.01, hand_pause=0.01, grace=30.0)
# Bots act at once; a finished hand's summary stays up, as the next deal waits longer than the test.
SUMMARY_STAYS = Timing(bot_pause=0.01, hand_pause=3600.0, grace=30.0)


def act_until(page: Page, shown: str, what: str, limit: int = 400, hold: str = "") -> None:
    """Take this page's turns until ``shown`` is on the page, never a ``hold`` turn (see take_turn):
    the screen waited for may come while a turn is being taken, and must not be taken away."""
    found = page.locator(shown)
    for _ in range(limit):
        if found.count():
            return
        if take_turn(page, hold=hold):
            continue
        if hold:  # a held turn stays offered: waiting for a turn would not wait
            page.wait_for_timeout(20)
        else:
            wait_for_a_turn(page, 100, or_shown=shown)
    raise AssertionError(f"{what} never came")


def wait_for_history(page: Page, url: str, matches: int, limit: int = 600) -> None:
    """Until the players' API lists ``matches`` finished matches for this page's profile: the storage
    thread writes a finished match's record after the match ends."""
    player = json.loads(page.evaluate("() => localStorage.getItem('smear.profile')"))["player"]
    for _ in range(limit):
        response = page.request.get(f"{url}/api/players/{player}/matches")
        if response.ok and len(response.json()["matches"]) >= matches:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the history never held {matches} match(es)")


def test_every_screen_has_no_serious_accessibility_violation(
    serve: Callable[..., str], open_page: Callable[..., Watched], axe_script: Path
) -> None:
    url = serve(QUICK, deals=4)
    audit = Audit(axe_script)
    host = open_page(bypass_csp=True).page
    host.goto(url)
    expect(host.get_by_role("button", name="Play now")).to_be_visible()
    audit(host, "landing")
    host.get_by_role("button", name="How to play").first.click()
    expect(host.get_by_role("dialog", name="How to play")).to_be_visible()
    audit(host, "how to play")
    host.keyboard.press("Escape")

    # The lobby, the host's and a guest's; the guest leaves and bots take the seats.
    create_table(host, url, "Ann", players=4, preset="Nine-card", target=11)
    guest = open_page(bypass_csp=True).page
    join_from_invite(guest, invite_link(host), "Bea")
    audit(host, "lobby (host)")
    # A line in the chat (open in the lobby and between hands; shut while a hand is played).
    host.locator("#chat-text").fill("Good luck")
    host.get_by_role("button", name="Send").click()
    expect(host.locator(".chat-lines li")).to_have_count(1)
    audit(host, "the chat, with a line")
    audit(guest, "lobby (guest)")
    guest.locator("#main").get_by_role("button", name="Leave the table").click()
    expect(host.locator(".seat-list")).not_to_contain_text("Bea")
    start_with_bots(host)
    code = host.url.rsplit("/t/", 1)[1]

    act_until(host, ".action-panel.mine .bid-buttons", "our bid", hold="bid")
    audit(host, "the auction")
    act_until(host, ".action-panel.mine .discard-progress", "our discard", hold="discard")
    audit(host, "the discard")
    act_until(host, PLAYABLE_NOW, "our card", hold="card")
    audit(host, "the play", lambda: expect(host.locator(PLAYABLE_NOW).first).to_be_visible())
    spectator = open_page(bypass_csp=True).page
    spectator.goto(f"{url}/t/{code}?watch=1")
    expect(spectator.locator(".action-panel.watching")).to_be_visible()
    audit(spectator, "the spectator view")
    spectator.close()

    act_until(host, ".match-end", "the match's end", limit=4000)
    audit(host, "the match over")

    wait_for_history(host, url, 1)
    host.get_by_role("button", name="Menu").click()
    host.get_by_role("link", name="My profile").click()
    expect(host.locator(".history-list .history-item")).to_have_count(1)
    audit(host, "a profile with its history")
    host.locator(".history-item .history-link").click()
    expect(host.get_by_role("heading", name="Match replay", level=1)).to_be_visible()
    audit(host, "the replay viewer")
    host.get_by_role("button", name="Menu").click()
    host.get_by_role("link", name="Leaderboard").click()
    expect(host.locator("#leaders-title")).to_be_visible()
    audit(host, "the leaderboard")

    # A hand's summary, on a server where it stays up: the next hand waits (a match to 21 goes on
    # after the first hand).
    url = serve(SUMMARY_STAYS)
    player = open_page(bypass_csp=True).page
    create_table(player, url, "Cy", players=4, preset="Nine-card", target=21)
    start_with_bots(player)
    act_until(player, ".summary-overlay", "the hand's summary")
    summary = player.locator(".summary-overlay")
    audit(player, "the hand summary", lambda: expect(summary).to_be_visible())
    summary.get_by_role("button", name="Review this hand").click()
    expect(summary.locator(".review-list, .review-none")).to_have_count(1, timeout=30_000)
    audit(player, "the review", lambda: expect(summary).to_be_visible())
    audit.check()
    assert len(audit.screens) == 2 * 15, audit.screens
