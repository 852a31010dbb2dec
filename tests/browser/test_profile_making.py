"""A class behind one address: twelve browsers, each a context of its own and all from 127.0.0.1,
each make a table at the landing page, and each gets a profile its seat carries (the server paces
profiles per address by what abuse costs, not by who shares the address)."""

from __future__ import annotations

import json
from collections.abc import Callable

from browserkit import Watched, create_table
from playwright.sync_api import expect

CLASS = 12
# How long a page may take to show its profile: generous, for a loaded machine (not a measure).
PROFILE_WAIT_MS = 60_000


def test_twelve_browsers_behind_one_address_each_get_a_profile(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    pages = [open_page().page for _ in range(CLASS)]
    for n, page in enumerate(pages):
        create_table(page, url, f"Pupil {n + 1}", players=3)
    players = set()
    for n, page in enumerate(pages):
        page.wait_for_function(
            "() => localStorage.getItem('smear.profile') !== null", timeout=PROFILE_WAIT_MS
        )
        profile = json.loads(page.evaluate("() => localStorage.getItem('smear.profile')"))
        assert profile["name"] == f"Pupil {n + 1}"
        players.add(profile["player"])
        # The seat taken shows the name as a link to the profile: the seat carries it.
        seat = page.locator(f'a.name-text[href="/p/{profile["player"]}"]')
        expect(seat).to_contain_text(f"Pupil {n + 1}", timeout=PROFILE_WAIT_MS)
        # And nothing says the player is a guest.
        expect(page.locator(".profile-notice")).to_have_text("")
    assert len(players) == CLASS
