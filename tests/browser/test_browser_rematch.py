"""A rematch: after the match each player says "Play again", the host draws new partners, and the
next match starts once every person has said yes."""

from __future__ import annotations

from collections.abc import Callable

from browserkit import Watched, create_table, invite_link, join_from_invite, play_until, start
from playwright.sync_api import expect


def test_a_rematch_with_new_partners_starts_when_both_players_say_yes(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(deals=5)
    host_watched = open_page()
    host, guest = host_watched.page, open_page(width=375, height=740).page
    create_table(host, url, "Hosta", teams=True, target=11)
    join_from_invite(guest, invite_link(host), "Guido")
    host.get_by_role("button", name="Fill the empty seats with bots").click()
    start(host)
    ends = [page.locator(".match-end") for page in (host, guest)]
    play_until([host, guest], lambda: all(end.count() > 0 for end in ends))

    expect(guest.get_by_text("Hosta: not yet")).to_be_visible()
    guest.get_by_role("button", name="Play again").click()
    expect(host.get_by_text("Guido: ready")).to_be_visible()
    expect(guest.get_by_role("button", name="Not now")).to_have_attribute("aria-pressed", "true")
    # The box shows what the server holds: it turns on once the server has it.
    partners = host.get_by_role("checkbox", name="Draw new partners")
    partners.click()
    expect(partners).to_be_checked()
    expect(guest.get_by_text("Partners will be drawn anew.")).to_be_visible()
    # Bots are always ready: the next match starts with the host's yes.
    host.get_by_role("button", name="Play again").click()
    for page in (host, guest):
        expect(page.locator(".match-end")).to_have_count(0)
        expect(page.locator(".scores-panel")).to_be_visible()
    assert any('"new_partners":true' in frame for frame in host_watched.sent)
