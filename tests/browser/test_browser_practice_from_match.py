""" "Practice your costliest decisions" from a finished match's replay: a match played to its end through
the UI, its replay opened, the costliest decisions shown, the button clicked (busy while the server
solves them), the Practice page opened on the player's own positions, one answered with its answer
shown (every choice's value, the best and the choice made in the match marked, no rating moved), and
back to the replay; at 1280 px in English and 375 px in Spanish, and axe finds nothing on the question
nor on the answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from axekit import Audit
from browserkit import Watched, click_card, create_table, play_until, start_with_bots
from playwright.sync_api import Page, expect
from test_browser_players import api_json, no_horizontal_overflow

SCREENSHOTS = Path(__file__).parent / "screenshots"


# What the replay and the Practice page say, in each language the test reads them in.
WORDS = {
    "en": {
        "show": "Show the costliest decisions",
        "practise": "Practice your costliest decisions",
        "title": "Your costliest decisions",
        "of": "Position {n} of {total}",
    },
    "es": {
        "show": "Mostrar las decisiones más costosas",
        "practise": "Practica tus decisiones más costosas",
        "title": "Tus decisiones más costosas",
        "of": "Posición {n} de {total}",
    },
}


def own_positions(page: Page, url: str, match: str, lang: str = "en") -> list[dict[str, Any]]:
    """The replay's costliest decisions shown, then "Practice your costliest decisions" clicked: the
    positions the server answered, once the Practice page shows the first."""
    words = WORDS[lang]
    page.goto(f"{url}/m/{match}")
    page.get_by_role("button", name=words["show"]).click()
    expect(page.locator(".replay-costliest-list .replay-decision").first).to_be_visible(timeout=30_000)
    button = page.get_by_role("button", name=words["practise"])
    with page.expect_response(lambda r: f"/practice/matches/{match}" in r.url, timeout=60_000) as answer:
        button.click()
    positions: list[dict[str, Any]] = answer.value.json()["positions"]
    assert positions and all("answer" not in position for position in positions)
    expect(page).to_have_url(f"{url}/practice?match={match}")
    expect(page.get_by_role("heading", name=words["title"], level=1)).to_be_visible()
    expect(page.locator(".practice-head .practice-status")).to_have_text(
        words["of"].format(n=1, total=len(positions))
    )
    expect(page.locator(".practice-position")).to_be_visible()
    return positions


def answer_first(page: Page, question: dict[str, Any]) -> None:
    """One of the position's choices taken with the table's controls."""
    if question["kind"] == "card":
        choice = question["choices"][0]
        click_card(page.locator(".practice .hand-card").nth(question["you"]["hand"].index(choice)))
    elif question["kind"] == "bid":
        page.locator(".practice .bid-buttons button").first.click()
    else:
        page.locator(".practice .action-panel button:enabled").first.click()


def test_a_player_practises_its_costliest_decisions_from_its_match_s_replay(
    serve: Callable[..., str], open_page: Callable[..., Watched], axe_script: Path
) -> None:
    url = serve(deals=7)
    # A three-player table to 11 filled with bots and played to its end through the UI (the page
    # lets axe's script in).
    page = open_page(1280, 800, bypass_csp=True).page
    create_table(page, url, "Mira", players=3, target=11)
    start_with_bots(page)
    end = page.locator(".match-end")
    # The highest bids short of the moon, each time: some of them cost points.
    play_until([page], lambda: end.count() > 0, top_bid=True)
    expect(end).to_be_visible()
    profile = json.loads(page.evaluate("() => localStorage.getItem('smear.profile')"))
    match = api_json(page, f"{url}/api/players/{profile['player']}/matches")[1]["matches"][0]["match"]
    audit = Audit(axe_script)

    positions = own_positions(page, url, match)
    first = positions[0]
    assert first["names"][first["seat"]] == "You" and "Mira" not in first["names"]
    audit(
        page,
        "a position of the player's own",
        lambda: expect(page.locator(".practice-position")).to_be_visible(),
    )
    page.set_viewport_size({"width": 1280, "height": 800})
    with page.expect_response(lambda r: "/practice/mine/" in r.url) as tried:
        answer_first(page, first)
    result = tried.value.json()
    verdict = page.locator("#practice-verdict")
    expect(verdict).to_be_focused()
    rows = page.locator(".practice-values tbody tr")
    expect(rows).to_have_count(len(first["choices"]))
    expect(page.locator(".practice-values tr.best")).to_have_count(1)
    expect(page.locator(".practice-values tr.chosen")).to_have_count(1)
    played = result["answer"]["played"]
    expect(page.locator(".practice-values .played-tag")).to_have_count(1 if played in first["choices"] else 0)
    expect(page.locator(".practice-answer .practice-rating")).to_have_text(
        "Positions from your own matches do not change your practice rating."
    )
    assert result["rating"]["before"] == result["rating"]["after"]
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "practice-from-match-1280.png"), full_page=True)
    audit(page, "the answer to a position of the player's own", lambda: expect(verdict).to_be_visible())
    page.set_viewport_size({"width": 1280, "height": 800})
    if len(positions) > 1:
        page.locator(".practice-next").click()
        expect(page.locator(".practice-head .practice-status")).to_have_text(
            f"Position 2 of {len(positions)}"
        )
    page.get_by_role("link", name="Back to the replay").click()
    expect(page.get_by_role("heading", name="Match replay", level=1)).to_be_visible()
    # The replay opens at its start and writes that place into its address once shown.
    expect(page).to_have_url(f"{url}/m/{match}?hand=1&step=0")

    # On a phone, in Spanish, the same profile: the same positions, kept by the server (nothing
    # solved again).
    phone = open_page(375, 812).page
    phone.context.add_init_script(f"localStorage.setItem('smear.profile', {json.dumps(json.dumps(profile))})")
    phone.context.add_init_script("localStorage.setItem('smear.lang', 'es')")
    kept = own_positions(phone, url, match, "es")
    assert [position["id"] for position in kept] == [p["id"] for p in positions]
    no_horizontal_overflow(phone)
    answer_first(phone, first)
    expect(phone.locator("#practice-verdict")).to_be_visible()
    expect(phone.locator(".practice-values tr.best")).to_have_count(1)
    no_horizontal_overflow(phone)
    phone.screenshot(path=str(SCREENSHOTS / "practice-from-match-375.png"), full_page=True)
    audit.check()
